import { CvtError, type GeometryArray, GeometryType } from '@geoframe/core';
import { type Geom, intersection } from 'polyclip-ts';
import type { ClipRegion } from '../clip/clip-region.js';
import { addUniformMoments, type CellMoments, cellMoments } from './cell-moments.js';

type Ring = [number, number][];

/** A density given as weights on polygons, cut to the region: ρ = Σ weights of the pieces holding p. */
export interface DensityPieces {
  /** Per piece: its polygons (polyclip form). */
  polygons: Ring[][][];
  /** minX, minY, maxX, maxY per piece. */
  boxes: Float64Array;
  weights: Float64Array;
}

/**
 * The pieces of a density given per polygon row (`weights[row]`, ρ = the sum where rows overlap,
 * 0 outside every row), each intersected with the region once. Null and empty rows, and rows of
 * weight 0, give no piece.
 *
 * @throws CvtError naming the row for a weight that is negative, NaN or infinite, a row that is
 *   not a (multi)polygon, a non-finite coordinate, or a weight count that does not match.
 */
export function densityPieces(
  polygons: GeometryArray,
  weights: ArrayLike<number>,
  region: ClipRegion,
): DensityPieces {
  if (weights.length !== polygons.length) {
    throw new CvtError(`density has ${polygons.length} polygons but ${weights.length} weights`);
  }
  const regionGeom = regionPolygons(region);
  const { geometryOffsets, partOffsets, ringOffsets } = polygons.nestedOffsets();
  const c = polygons.coords;
  const stride = polygons.stride;
  const out: DensityPieces = {
    polygons: [],
    boxes: new Float64Array(4 * polygons.length),
    weights: new Float64Array(polygons.length),
  };
  for (let i = 0; i < polygons.length; i++) {
    const w = weights[i];
    if (!(w >= 0) || !Number.isFinite(w)) {
      throw new CvtError(`density weight of row ${i} is ${w}: it must be finite and ≥ 0`);
    }
    const t = polygons.typeOf(i);
    if (t === null || w === 0) continue;
    if (t !== GeometryType.Polygon && t !== GeometryType.MultiPolygon) {
      throw new CvtError(`density row ${i} must be a Polygon or MultiPolygon, got type ${t}`);
    }
    const geom: Ring[][] = [];
    for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
      const poly: Ring[] = [];
      for (let r = partOffsets[p]; r < partOffsets[p + 1]; r++) {
        const ring: Ring = [];
        for (let k = ringOffsets[r]; k < ringOffsets[r + 1]; k++) {
          const x = c[k * stride];
          const y = c[k * stride + 1];
          if (!Number.isFinite(x) || !Number.isFinite(y)) {
            throw new CvtError(`density row ${i} has a non-finite coordinate (${x}, ${y})`);
          }
          ring.push([x, y]);
        }
        if (ring.length >= 3) poly.push(ring);
        else if (r === partOffsets[p]) break;
      }
      if (poly.length > 0) geom.push(poly);
    }
    if (geom.length === 0) continue;
    const piece = intersection(geom as Geom, regionGeom) as Ring[][];
    if (piece.length === 0) continue;
    const k = out.polygons.length;
    out.polygons.push(piece);
    out.boxes.set(boxOf(piece), 4 * k);
    out.weights[k] = w;
  }
  const count = out.polygons.length;
  return {
    polygons: out.polygons,
    boxes: out.boxes.slice(0, 4 * count),
    weights: out.weights.slice(0, count),
  };
}

/** The region's rings as polyclip polygons. */
export function regionPolygons(region: ClipRegion): Geom {
  const polys: Ring[][] = [];
  const { coords, ringOffsets, polygonOffsets } = region;
  for (let p = 0; p + 1 < polygonOffsets.length; p++) {
    const poly: Ring[] = [];
    for (let r = polygonOffsets[p]; r < polygonOffsets[p + 1]; r++) {
      const ring: Ring = [];
      for (let k = ringOffsets[r]; k < ringOffsets[r + 1]; k++) ring.push([coords[2 * k], coords[2 * k + 1]]);
      poly.push(ring);
    }
    polys.push(poly);
  }
  return polys as Geom;
}

/**
 * Adds to cell `i` the exact moments of the pieces over the convex ring `cell` (closed, CCW) of
 * site (x, y): each piece whose box meets the cell's is intersected with it (polyclip-ts).
 */
export function addPieceMoments(
  pieces: DensityPieces,
  cell: Ring,
  x: number,
  y: number,
  out: CellMoments,
  i: number,
): void {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const [px, py] of cell) {
    x0 = Math.min(x0, px);
    y0 = Math.min(y0, py);
    x1 = Math.max(x1, px);
    y1 = Math.max(y1, py);
  }
  const b = pieces.boxes;
  for (let k = 0; k < pieces.weights.length; k++) {
    if (b[4 * k] > x1 || b[4 * k + 2] < x0 || b[4 * k + 1] > y1 || b[4 * k + 3] < y0) continue;
    const part = intersection([cell] as Geom, pieces.polygons[k] as Geom) as Ring[][];
    addRingsMoments(part, x, y, pieces.weights[k], out, i);
  }
}

const scratch = cellMoments(1);

/** Moments of polyclip polygons, each ring counted by its role (exterior +, hole −) whatever its winding. */
function addRingsMoments(
  polys: Ring[][],
  x: number,
  y: number,
  w: number,
  out: CellMoments,
  i: number,
): void {
  for (const poly of polys) {
    for (let q = 0; q < poly.length; q++) {
      const ring = poly[q];
      const coords = new Float64Array(2 * ring.length + 2);
      for (let j = 0; j < ring.length; j++) {
        coords[2 * j] = ring[j][0];
        coords[2 * j + 1] = ring[j][1];
      }
      coords[2 * ring.length] = ring[0][0];
      coords[2 * ring.length + 1] = ring[0][1];
      scratch.mass[0] = scratch.sx[0] = scratch.sy[0] = scratch.energy[0] = 0;
      addUniformMoments(
        { coords, ringOffsets: Int32Array.of(0, ring.length + 1), first: 0, last: 1 },
        x,
        y,
        1,
        scratch,
        0,
      );
      const sign = (q === 0) === scratch.mass[0] >= 0 ? w : -w;
      out.mass[i] += sign * scratch.mass[0];
      out.sx[i] += sign * scratch.sx[0];
      out.sy[i] += sign * scratch.sy[0];
      out.energy[i] += sign * scratch.energy[0];
    }
  }
}

function boxOf(polys: Ring[][]): number[] {
  const box = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (const poly of polys) {
    for (const [x, y] of poly[0]) {
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x);
      box[3] = Math.max(box[3], y);
    }
  }
  return box;
}
