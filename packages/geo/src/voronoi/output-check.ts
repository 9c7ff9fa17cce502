import { GeoframeError } from '@geoframe/core';
import {
  copyRingsCounted,
  expandWithoutRepeatsParallel,
  firstBadRing,
  withoutRepeatsParallel,
} from '@geoframe/cpu';
import type { IndexedRings } from '@geoframe/gpu';

/**
 * The error of an engine result that fails the output check: a bug or an input the engine did
 * not handle, never returned silently. The message names the site (or triangle) and its row.
 */
export class InvalidOutputError extends GeoframeError {
  constructor(message: string) {
    super('INVALID_OUTPUT', message);
    this.name = 'InvalidOutputError';
  }
}

/**
 * The output check every Voronoi and Delaunay result passes before it is returned, on the CPU
 * and the GPU path alike: every coordinate finite, every ring closed with at least 4 points
 * (`allowEmpty`: a ring of 0 points is an empty cell). One pass over the coordinates.
 *
 * @param what names ring k in the error (e.g. "the cell of site 3 (row 7)")
 * @throws InvalidOutputError naming the first ring that fails
 */
export function checkRings(
  coords: Float64Array,
  ringOffsets: Int32Array,
  what: (ring: number) => string,
  allowEmpty = false,
): void {
  const rings = ringOffsets.length - 1;
  for (let r = 0; r < rings; r++) {
    const lo = ringOffsets[r];
    const hi = ringOffsets[r + 1];
    const k = hi - lo;
    if (k === 0 && allowEmpty) continue;
    if (k < 4) throw new InvalidOutputError(`${what(r)} has a ring of ${k} points (at least 4 needed)`);
    for (let c = 2 * lo; c < 2 * hi; c++) {
      if (!Number.isFinite(coords[c])) {
        throw new InvalidOutputError(`${what(r)} has a non-finite coordinate (${coords[c]})`);
      }
    }
    if (coords[2 * lo] !== coords[2 * hi - 2] || coords[2 * lo + 1] !== coords[2 * hi - 1]) {
      throw new InvalidOutputError(`${what(r)} has a ring that is not closed`);
    }
  }
}

/**
 * The output check of line parts (Voronoi or Delaunay edges): every coordinate finite, every
 * part at least 2 points.
 *
 * @throws InvalidOutputError naming the first part that fails
 */
export function checkLines(coords: Float64Array, partOffsets: Int32Array, what: string): void {
  const parts = partOffsets.length - 1;
  for (let p = 0; p < parts; p++) {
    const lo = partOffsets[p];
    const hi = partOffsets[p + 1];
    if (hi - lo < 2) throw new InvalidOutputError(`${what}: part ${p} has ${hi - lo} points`);
    for (let c = 2 * lo; c < 2 * hi; c++) {
      if (!Number.isFinite(coords[c])) {
        throw new InvalidOutputError(`${what}: part ${p} has a non-finite coordinate (${coords[c]})`);
      }
    }
  }
}

/** The item whose range of `offsets` holds child `child` (binary search; for error messages). */
export function ownerOf(offsets: Int32Array, child: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= child) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The rings without repeated consecutive points (a zero-length edge: two grid points rounding to
 * one double; the GPU's emit drops them itself since adr/0015's revision, so this finds none on
 * its output unless run with `keepRepeats`). The input itself when nothing repeats (one scan);
 * otherwise compacted copies, every ring still closed.
 */
export function withoutRepeatedPoints<T extends { coords: Float64Array; ringOffsets: Int32Array }>(
  rings: T,
): T {
  const { coords, ringOffsets } = rings;
  const count = ringOffsets.length - 1;
  let repeats = 0;
  for (let r = 0; r < count; r++) {
    for (let p = ringOffsets[r] + 1; p < ringOffsets[r + 1]; p++) {
      if (coords[2 * p] === coords[2 * p - 2] && coords[2 * p + 1] === coords[2 * p - 1]) repeats++;
    }
  }
  if (repeats === 0) return rings;
  const out = new Float64Array(coords.length - 2 * repeats);
  const offsets = new Int32Array(ringOffsets.length);
  let w = 0;
  for (let r = 0; r < count; r++) {
    const lo = ringOffsets[r];
    for (let p = lo; p < ringOffsets[r + 1]; p++) {
      const same = p > lo && coords[2 * p] === coords[2 * p - 2] && coords[2 * p + 1] === coords[2 * p - 1];
      if (same) continue;
      out[2 * w] = coords[2 * p];
      out[2 * w + 1] = coords[2 * p + 1];
      w++;
    }
    offsets[r + 1] = w;
  }
  return { ...rings, coords: out, ringOffsets: offsets };
}

/**
 * Rings whose output check was done on the way (by {@link withoutRepeatedPointsParallel}, in the
 * same pass that counted the repeats): their first failing ring, −1 for none, by coordinates.
 */
const checkedOnTheWay = new WeakMap<Float64Array, { ringOffsets: Int32Array; firstBad: number }>();

/**
 * {@link checkRings} for a large output: the scan on worker threads when the coordinates lie on
 * shared memory (the GPU's output array does), or no scan for rings that
 * {@link withoutRepeatedPointsParallel} returned (it checked them in its pass); the error is
 * worded by `checkRings` on the ring found.
 */
export async function checkRingsParallel(
  coords: Float64Array,
  ringOffsets: Int32Array,
  what: (ring: number) => string,
  allowEmpty = false,
): Promise<void> {
  const known = allowEmpty ? undefined : checkedOnTheWay.get(coords);
  checkedOnTheWay.delete(coords); // once: the arrays are the caller's after this
  const r =
    known !== undefined && known.ringOffsets === ringOffsets
      ? known.firstBad
      : await firstBadRing({ coords, ringOffsets }, allowEmpty);
  if (r < 0) return;
  checkRings(coords, ringOffsets.subarray(r, r + 2), (i) => what(r + i), allowEmpty);
  throw new InvalidOutputError(`${what(r)} fails the output check`); // not reached: checkRings threw
}

/**
 * {@link withoutRepeatedPoints}, counted and compacted on worker threads for a large output; the
 * same pass checks the result for {@link checkRingsParallel}.
 */
export async function withoutRepeatedPointsParallel<
  T extends { coords: Float64Array; ringOffsets: Int32Array },
>(rings: T): Promise<T> {
  // rings checked on the way came out of a pass that dropped their repeats already
  if (checkedOnTheWay.get(rings.coords)?.ringOffsets === rings.ringOffsets) return rings;
  // rings counted while they were copied: without repeats, their check is the count's
  const counting = countedOnTheWay.get(rings.coords);
  countedOnTheWay.delete(rings.coords);
  if (counting !== undefined && counting.ringOffsets === rings.ringOffsets) {
    const { repeats, firstBad } = await counting.counts;
    if (repeats === 0) {
      checkedOnTheWay.set(rings.coords, { ringOffsets: rings.ringOffsets, firstBad });
      return rings;
    }
  }
  const done = await withoutRepeatsParallel(rings);
  if (done === null) return withoutRepeatedPoints(rings);
  checkedOnTheWay.set(done.rings.coords, { ringOffsets: done.rings.ringOffsets, firstBad: done.firstBad });
  return done.rings;
}

/**
 * The GPU's indexed rings (each Voronoi vertex once, rings as indices; adr/0015) expanded into
 * `out` (the GPU pipeline's `cpu.expandRings`): for a large output on shared memory, worker
 * threads write the coordinates in the pass that drops repeated points and checks the rings
 * (the check's answer kept for {@link checkRingsParallel}); otherwise a gather on this thread,
 * repeats left to {@link withoutRepeatedPointsParallel}.
 */
export async function expandRings(
  rings: IndexedRings,
  out: Float64Array,
): Promise<{ coords: Float64Array; ringOffsets: Int32Array }> {
  const done = await expandWithoutRepeatsParallel(rings, out);
  if (done !== null) {
    checkedOnTheWay.set(done.rings.coords, { ringOffsets: done.rings.ringOffsets, firstBad: done.firstBad });
    return done.rings;
  }
  const { vertices, index } = rings;
  for (let p = 0; p < index.length; p++) {
    const v = 2 * index[p];
    out[2 * p] = vertices[v];
    out[2 * p + 1] = vertices[v + 1];
  }
  return { coords: out, ringOffsets: rings.ringOffsets };
}

/** Rings whose repeats and check workers are counting as they were copied ({@link copyRings}). */
const countedOnTheWay = new WeakMap<
  Float64Array,
  { ringOffsets: Int32Array; counts: Promise<{ repeats: number; firstBad: number }> }
>();

/**
 * The GPU pipeline's `cpu.copyRings`: the cells' coordinates copied out of the mapped readback
 * chunk by chunk, worker threads counting repeats and checking each chunk's rings while this
 * thread copies the next (`copyRingsCounted`); {@link withoutRepeatedPointsParallel} then takes
 * their answer instead of a pass of its own.
 */
export async function copyRings(
  source: Float64Array,
  out: Float64Array,
  ringOffsets: Int32Array,
): Promise<void> {
  const started = await copyRingsCounted(source, out, ringOffsets);
  if (started === null) return;
  started.counts.catch(() => {}); // read by withoutRepeatedPointsParallel, if the run gets there
  countedOnTheWay.set(out, { ringOffsets, counts: started.counts });
}
