import type { GeometryArray } from './geometry-array.js';
import { GrowableInt32 } from './growable.js';

/**
 * Copies the rows at `indices` into compact buffers. Each offset level is rebuilt from the
 * selected ranges of the level above, so the work is linear in the rows and coordinates taken,
 * whatever the type. Indices are trusted (callers check them).
 */
export function gatherRows(source: GeometryArray, indices: ArrayLike<number>): GeometryArray {
  const n = indices.length;
  const stride = source.stride;

  // Ranges of items selected at the current level, as parallel start/end lists. At the top, a
  // row is the item; descending a level maps each range through that level's offsets.
  let starts: ArrayLike<number> = indices;
  let ends: ArrayLike<number> = Int32Array.from(indices, (i) => i + 1);
  const offsets: Int32Array[] = [];
  for (const level of source.offsets) {
    const out = new Int32Array(countItems(starts, ends) + 1);
    const nextStarts = new GrowableInt32(starts.length);
    const nextEnds = new GrowableInt32(starts.length);
    let item = 0;
    let written = 0;
    for (let r = 0; r < starts.length; r++) {
      for (let k = starts[r]; k < ends[r]; k++) {
        written += level[k + 1] - level[k];
        out[++item] = written;
      }
      // consecutive items of one range have consecutive children: one child range per range
      nextStarts.push(level[starts[r]]);
      nextEnds.push(level[ends[r]]);
    }
    offsets.push(out);
    starts = nextStarts.finish();
    ends = nextEnds.finish();
  }

  const coords = new Float64Array(countItems(starts, ends) * stride);
  let at = 0;
  for (let r = 0; r < starts.length; r++) {
    const chunk = source.coords.subarray(starts[r] * stride, ends[r] * stride);
    coords.set(chunk, at);
    at += chunk.length;
  }

  let validity: Uint8Array | null = null;
  if (source.validity !== null) {
    validity = new Uint8Array((n + 7) >> 3);
    for (let j = 0; j < n; j++) if (source.isValid(indices[j])) validity[j >> 3] |= 1 << (j & 7);
  }
  const typeIds = source.typeIds ? Uint8Array.from(indices, (i) => source.typeIds![i]) : null;
  return new (source.constructor as typeof GeometryArray)({
    ...source.parts(),
    coords,
    offsets,
    length: n,
    validity,
    validityOffset: 0,
    typeIds,
  });
}

function countItems(starts: ArrayLike<number>, ends: ArrayLike<number>): number {
  let total = 0;
  for (let r = 0; r < starts.length; r++) total += ends[r] - starts[r];
  return total;
}
