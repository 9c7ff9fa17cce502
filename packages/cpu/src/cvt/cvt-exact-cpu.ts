import { type Box, CvtError, type CvtIteration, type CvtMethod, type CvtRun } from '@geoframe/core';
import { clipCellsToRegion } from '../clip/clip-cells.js';
import type { ClipRegion } from '../clip/clip-region.js';
import type { PolygonBuffers } from '../delaunay/buffers.js';
import { cellsInBox } from './box-cells.js';
import { addUniformMoments, type CellMoments, cellMoments, type RingSpan } from './cell-moments.js';
import type { CvtEvaluation } from './cvt-evaluation.js';
import { addPieceMoments, type DensityPieces } from './density-pieces.js';
import type { MomentSource } from './moment-source.js';
import { RegionCellMoments } from './region-cell-moments.js';
import { type CvtEvaluateAsync, runCvtAsync } from './run-cvt.js';
import { regionArea, sourcedEvaluator } from './sourced-evaluator.js';
import { addQuadratureMoments, type DensityAt } from './triangle-quadrature.js';
import { uniqueCvtSites } from './unique-cvt-sites.js';

/**
 * Where the exact mode gets its cells: the Voronoi cells of unique sites clipped to `box` (one
 * closed CCW ring per site, in site order), as `voronoiCells` gives them — or a GPU pipeline
 * through the dispatcher.
 */
export type CellSource = (sites: Float64Array, box: Box) => PolygonBuffers | Promise<PolygonBuffers>;

/** The density of the exact mode. */
export type ExactDensity =
  | { kind: 'uniform' }
  /** ρ(x, y) by quadrature on triangles of side ≤ `h` (default: the region's diagonal / 128). */
  | { kind: 'function'; at: DensityAt; h?: number }
  | { kind: 'pieces'; pieces: DensityPieces };

/** An exact-mode CVT. */
export interface CvtExactProblem {
  /** Initial sites, interleaved (unique or not: see `uniqueCvtSites`). */
  sites: Float64Array;
  region: ClipRegion;
  /** Set when the region is exactly this rectangle: cells of sites inside it need no clipping. */
  regionBox?: Box;
  density: ExactDensity;
  method: CvtMethod;
  maxIterations: number;
  tolerance: number;
}

/** Options of {@link cvtExact}. */
export interface CvtExactOptions {
  cells: CellSource;
  /** Uniform density: moments from here instead of integrating `cells` (the GPU's resident path). */
  moments?: MomentSource;
  onIteration?: (step: CvtIteration) => void;
}

/**
 * The exact-mode CVT: per evaluation the Voronoi cells of the sites (from `options.cells`)
 * clipped to the region, then per cell its mass, centroid and energy — exact polygon moments for
 * a uniform density and for weights on polygons (per piece of cell ∩ polygon), Dunavant's
 * degree-5 rule on small triangles for a density function.
 */
export function cvtExact(problem: CvtExactProblem, options: CvtExactOptions): Promise<CvtRun> {
  const r = problem.region;
  return runCvtAsync(problem.sites, exactEvaluator(problem, options.cells, options.moments), {
    method: problem.method,
    maxIterations: problem.maxIterations,
    tolerance: problem.tolerance,
    diagonal: Math.hypot(r.maxX - r.minX, r.maxY - r.minY),
    onIteration: options.onIteration,
  });
}

/**
 * F, ∇F and the centroids at given sites, with exact cells (see {@link cvtExact}); for a uniform
 * density, with `momentSource` the moments come from there (cells wholly inside the region integrated
 * where they were built, the others clipped here).
 */
export function exactEvaluator(
  problem: CvtExactProblem,
  cells: CellSource,
  momentSource?: MomentSource,
): CvtEvaluateAsync {
  const { region, density } = problem;
  if (momentSource !== undefined && density.kind === 'uniform') {
    return sourcedEvaluator(region, problem.regionBox, momentSource);
  }
  const diagonal = Math.hypot(region.maxX - region.minX, region.maxY - region.minY);
  const rho = density.kind === 'function' ? checkedDensity(density.at) : null;
  const h = density.kind === 'function' ? (density.h ?? diagonal / 128) : 0;
  // the region cut to tiles about 8 mean cells wide (see sourcedEvaluator)
  const tileSide = 8 * Math.sqrt(regionArea(region) / Math.max(1, problem.sites.length >> 1));
  const regionMoments = new RegionCellMoments(region, tileSide);
  return async (x) => {
    const n = x.length >> 1;
    for (let i = 0; i < 2 * n; i++) {
      if (!Number.isFinite(x[i])) throw new CvtError(`CVT site ${i >> 1} became non-finite (${x[i]})`);
    }
    const { xy, uniqueOf } = uniqueCvtSites(x);
    const regionBox = problem.regionBox;
    const inBox = regionBox !== undefined && within(xy, regionBox);
    const box = inBox && regionBox ? regionBox : cellBox(xy, region);
    let raw = await cells(xy, box);
    // a rectangular region with sites outside it: convex cells cut to the box, still one ring each
    const boxCut = regionBox !== undefined && !inBox && density.kind !== 'pieces';
    if (boxCut) raw = cellsInBox(raw, regionBox);
    const moments = cellMoments(n);
    const span: RingSpan = { coords: raw.coords, ringOffsets: raw.ringOffsets, first: 0, last: 0 };
    if (density.kind === 'pieces') {
      for (let i = 0; i < n; i++) {
        const u = uniqueOf[i];
        if (u >= 0) addPieceMoments(density.pieces, ringOf(raw, u), x[2 * i], x[2 * i + 1], moments, i);
      }
      return evaluation(x, moments);
    }
    if (rho === null && !inBox && !boxCut) {
      // uniform density: each cell's part of the region integrated without building it
      for (let i = 0; i < n; i++) {
        const u = uniqueOf[i];
        if (u < 0 || u + 1 >= raw.ringOffsets.length) continue;
        regionMoments.add(raw.coords, raw.ringOffsets, u, x[2 * i], x[2 * i + 1], moments, i);
      }
      return evaluation(x, moments);
    }
    let firstRing = (u: number) => u;
    if (!inBox && !boxCut) {
      const parts = clipCellsToRegion(raw, region);
      span.coords = parts.coords;
      span.ringOffsets = parts.ringOffsets;
      firstRing = (u) => parts.polygonOffsets[parts.geometryOffsets[u]];
    }
    for (let i = 0; i < n; i++) {
      const u = uniqueOf[i];
      if (u < 0 || u + 1 >= raw.ringOffsets.length) continue;
      span.first = firstRing(u);
      span.last = firstRing(u + 1);
      if (rho === null) addUniformMoments(span, x[2 * i], x[2 * i + 1], 1, moments, i);
      else addQuadratureMoments(span, x[2 * i], x[2 * i + 1], rho, h, moments, i);
    }
    return evaluation(x, moments);
  };
}

function evaluation(x: Float64Array, m: CellMoments): CvtEvaluation {
  const n = m.mass.length;
  const gradient = new Float64Array(2 * n);
  const centroids = new Float64Array(2 * n);
  let energy = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const mass = m.mass[i];
    energy += m.energy[i];
    total += mass;
    gradient[2 * i] = -2 * m.sx[i];
    gradient[2 * i + 1] = -2 * m.sy[i];
    centroids[2 * i] = mass > 0 ? x[2 * i] + m.sx[i] / mass : x[2 * i];
    centroids[2 * i + 1] = mass > 0 ? x[2 * i + 1] + m.sy[i] / mass : x[2 * i + 1];
  }
  return { energy, gradient, centroids, totalMass: total };
}

/** The density, refusing negative, NaN and infinite values with where they were found. */
function checkedDensity(at: DensityAt): DensityAt {
  return (x, y) => {
    const v = at(x, y);
    if (!(v >= 0) || v === Number.POSITIVE_INFINITY) {
      throw new CvtError(`density at (${x}, ${y}) is ${v}: it must be finite and ≥ 0`);
    }
    return v;
  };
}

function within(xy: Float64Array, b: Box): boolean {
  for (let i = 0; i < xy.length; i += 2) {
    if (!(xy[i] >= b.minX && xy[i] <= b.maxX && xy[i + 1] >= b.minY && xy[i + 1] <= b.maxY)) return false;
  }
  return true;
}

/** A box holding the region and every site, grown by a tenth of its larger side. */
function cellBox(xy: Float64Array, region: ClipRegion): Box {
  let { minX, minY, maxX, maxY } = region;
  for (let i = 0; i < xy.length; i += 2) {
    minX = Math.min(minX, xy[i]);
    maxX = Math.max(maxX, xy[i]);
    minY = Math.min(minY, xy[i + 1]);
    maxY = Math.max(maxY, xy[i + 1]);
  }
  const grow = 0.1 * Math.max(maxX - minX, maxY - minY);
  return { minX: minX - grow, minY: minY - grow, maxX: maxX + grow, maxY: maxY + grow };
}

function ringOf(raw: PolygonBuffers, u: number): [number, number][] {
  const ring: [number, number][] = [];
  if (u + 1 >= raw.ringOffsets.length) return ring;
  for (let k = raw.ringOffsets[u]; k < raw.ringOffsets[u + 1]; k++) {
    ring.push([raw.coords[2 * k], raw.coords[2 * k + 1]]);
  }
  return ring;
}
