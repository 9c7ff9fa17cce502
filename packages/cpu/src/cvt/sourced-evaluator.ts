import { type Box, CvtError } from '@geoframe/core';
import type { ClipRegion } from '../clip/clip-region.js';
import { addUniformMoments, cellMoments, type RingSpan } from './cell-moments.js';
import type { CvtEvaluation } from './cvt-evaluation.js';
import { type InteriorBuckets, interiorBucketsFor } from './interior-buckets.js';
import type { MomentSource, SourcedMoments } from './moment-source.js';
import { RegionCellMoments } from './region-cell-moments.js';
import type { CvtEvaluateAsync } from './run-cvt.js';
import { placeSite, uniqueCvtSites } from './unique-cvt-sites.js';

/**
 * The uniform-density evaluation of the exact mode with a moment source (the GPU keeps the cells
 * on the device): per evaluation one host pass checks the sites (finite, distinct — a hash of
 * their bits into a table kept for the run — and their box), the source answers, and one pass
 * turns its rows into F, ∇F and the centroids. Nothing per site is allocated but the two arrays
 * the optimisers keep (∇F, the centroids); repeated sites (rare: Lloyd's centroids of distinct
 * cells almost never coincide) take the general path of {@link uniqueCvtSites}.
 */
export function sourcedEvaluator(
  region: ClipRegion,
  regionBox: Box | undefined,
  source: MomentSource,
): CvtEvaluateAsync {
  let regionMoments: RegionCellMoments | null = null;
  const check = new SiteCheck();
  let buckets: InteriorBuckets | null = null;
  let raw: Float64Array | null = null;
  return async (x) => {
    const n = x.length >> 1;
    const distinct = check.scan(x);
    const inBox = regionBox !== undefined && check.within(regionBox);
    const box = inBox && regionBox ? regionBox : check.cellBox(region);
    if (!inBox) buckets ??= interiorBucketsFor(region, regionArea(region), n);
    // the region cut to tiles about 8 mean cells wide (the sites' count is the run's)
    if (!inBox)
      regionMoments ??= new RegionCellMoments(region, 8 * Math.sqrt(regionArea(region) / Math.max(1, n)));
    const clip = inBox ? null : regionMoments;
    if (!distinct) {
      const { xy, uniqueOf } = uniqueCvtSites(x);
      const got = await source(xy, box, inBox ? null : buckets);
      return spread(x, evaluationOf(got, xy, clip), uniqueOf);
    }
    // kept for the run; a GPU run the watchdog abandoned may still write into it later, but the
    // run is on the CPU then, whose source answers without it
    if (raw?.length !== 4 * n) raw = new Float64Array(4 * n);
    return evaluationOf(await source(x, box, inBox ? null : buckets, raw), x, clip);
  };
}

/**
 * F, ∇F, the centroids and the mass from a source's rows (about the sites `xy`, which are the
 * evaluated sites): rows answered by the source as they are (2m, 6s, 12e), the host rows
 * integrated here, through `region` (cut to it) or as they are. zᵢ = xᵢ + sᵢ/mᵢ and ∇F = −2s,
 * in f64 (a cell of zero mass keeps its site).
 */
export function evaluationOf(
  got: SourcedMoments,
  xy: Float64Array,
  region: RegionCellMoments | null,
): CvtEvaluation {
  const n = xy.length >> 1;
  const { raw, hostRows, hostCells } = got;
  // the host rows first, so that the one pass below sums F and the mass in site order
  const count = Math.min(hostRows === null ? n : hostRows.length, hostCells.ringOffsets.length - 1);
  const host = cellMoments(count);
  const span: RingSpan = { coords: hostCells.coords, ringOffsets: hostCells.ringOffsets, first: 0, last: 0 };
  for (let j = 0; j < count; j++) {
    const i = hostRows === null ? j : hostRows[j];
    if (region !== null) {
      region.add(hostCells.coords, hostCells.ringOffsets, j, xy[2 * i], xy[2 * i + 1], host, j);
    } else {
      span.first = j;
      span.last = j + 1;
      addUniformMoments(span, xy[2 * i], xy[2 * i + 1], 1, host, j);
    }
  }
  const gradient = new Float64Array(2 * n);
  const centroids = new Float64Array(2 * n);
  let energy = 0;
  let total = 0;
  let squares = 0;
  for (let i = 0, j = 0; i < n; i++) {
    let mass = 0;
    let sx = 0;
    let sy = 0;
    if (raw !== null && !Number.isNaN(raw[4 * i])) {
      mass = raw[4 * i] / 2;
      sx = raw[4 * i + 1] / 6;
      sy = raw[4 * i + 2] / 6;
      energy += raw[4 * i + 3] / 12;
    } else if (j < count && (hostRows === null || hostRows[j] === i)) {
      mass = host.mass[j];
      sx = host.sx[j];
      sy = host.sy[j];
      energy += host.energy[j++];
    }
    total += mass;
    const gx = -2 * sx;
    const gy = -2 * sy;
    gradient[2 * i] = gx;
    gradient[2 * i + 1] = gy;
    squares += gx * gx;
    squares += gy * gy;
    centroids[2 * i] = mass > 0 ? xy[2 * i] + sx / mass : xy[2 * i];
    centroids[2 * i + 1] = mass > 0 ? xy[2 * i + 1] + sy / mass : xy[2 * i + 1];
  }
  return { energy, gradient, centroids, totalMass: total, gradientNorm: Math.sqrt(squares) };
}

/** The evaluation per site from one per unique site (a repeated site: no cell, its own centroid). */
function spread(x: Float64Array, unique: CvtEvaluation, uniqueOf: Int32Array): CvtEvaluation {
  const n = uniqueOf.length;
  const gradient = new Float64Array(2 * n);
  const centroids = x.slice();
  for (let i = 0; i < n; i++) {
    const u = uniqueOf[i];
    if (u < 0) continue;
    gradient[2 * i] = unique.gradient[2 * u];
    gradient[2 * i + 1] = unique.gradient[2 * u + 1];
    centroids[2 * i] = unique.centroids[2 * u];
    centroids[2 * i + 1] = unique.centroids[2 * u + 1];
  }
  return { energy: unique.energy, gradient, centroids, totalMass: unique.totalMass };
}

/**
 * One pass over the sites: finite (an error names the site), their box, and whether two are
 * equal (as numbers: −0 equals 0), by open addressing on their bits in a table kept between
 * evaluations (a new one each time cost more than the probing at 100k sites).
 */
export class SiteCheck {
  private table = new Int32Array(0);
  private minX = 0;
  private minY = 0;
  private maxX = 0;
  private maxY = 0;

  /** Checks `x`; true when no two sites are equal. @throws CvtError for a non-finite coordinate. */
  scan(x: Float64Array): boolean {
    const n = x.length >> 1;
    let size = 16;
    while (size < 2 * n) size *= 2;
    if (this.table.length !== size) this.table = new Int32Array(size);
    const table = this.table.fill(-1);
    const words = new Uint32Array(x.buffer, x.byteOffset, 2 * x.length);
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    let distinct = true;
    for (let i = 0; i < n; i++) {
      const px = x[2 * i];
      const py = x[2 * i + 1];
      if (!(Number.isFinite(px) && Number.isFinite(py))) {
        throw new CvtError(`CVT site ${i} became non-finite (${Number.isFinite(px) ? py : px})`);
      }
      if (px < minX) minX = px;
      if (px > maxX) maxX = px;
      if (py < minY) minY = py;
      if (py > maxY) maxY = py;
      if (distinct) distinct = placeSite(table, x, words, i);
    }
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    return distinct;
  }

  /** Whether every site of the last scan lies in `b` (closed). */
  within(b: Box): boolean {
    return this.minX >= b.minX && this.maxX <= b.maxX && this.minY >= b.minY && this.maxY <= b.maxY;
  }

  /** A box holding the region and the last scan's sites, grown by a tenth of its larger side. */
  cellBox(region: ClipRegion): Box {
    const minX = Math.min(region.minX, this.minX);
    const minY = Math.min(region.minY, this.minY);
    const maxX = Math.max(region.maxX, this.maxX);
    const maxY = Math.max(region.maxY, this.maxY);
    const grow = 0.1 * Math.max(maxX - minX, maxY - minY);
    return { minX: minX - grow, minY: minY - grow, maxX: maxX + grow, maxY: maxY + grow };
  }
}

/** The region's area (exteriors counter-clockwise, holes clockwise). */
export function regionArea(region: ClipRegion): number {
  const c = region.coords;
  let twice = 0;
  for (let r = 0; r + 1 < region.ringOffsets.length; r++) {
    for (let k = region.ringOffsets[r]; k + 1 < region.ringOffsets[r + 1]; k++) {
      twice += c[2 * k] * c[2 * k + 3] - c[2 * k + 2] * c[2 * k + 1];
    }
  }
  return Math.abs(twice) / 2;
}
