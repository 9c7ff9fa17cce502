import { GeometryArray } from '../array/geometry-array.js';
import { reachableRanges } from './compact-ranges.js';
import { concatValidity } from './validity.js';

/**
 * Concatenates GeometryArrays of one type and dimension (the chunks of one Arrow column) into
 * new compact buffers: offsets start at 0, coordinates are only those the rows reach, the
 * validity bitmap starts at bit 0. The CRS of the first array is kept.
 */
export function concatGeometryArrays(arrays: readonly GeometryArray[]): GeometryArray {
  const first = arrays[0];
  for (const a of arrays) {
    if (a.type !== first.type || a.dimension !== first.dimension) {
      throw new RangeError('concatGeometryArrays: every array must have the same type and dimension');
    }
  }
  const levels = first.offsets.length;
  const stride = first.stride;
  const ranges = arrays.map(reachableRanges);
  // totals[k]: items at depth k over all arrays (depth 0 rows, depth `levels` coordinates)
  const totals = new Array<number>(levels + 1).fill(0);
  for (const r of ranges) for (let k = 0; k <= levels; k++) totals[k] += r[k][1] - r[k][0];

  const offsets = first.offsets.map((_, k) => new Int32Array(totals[k] + 1));
  const coords = new Float64Array(totals[levels] * stride);
  const typeIds = first.type === 'mixed' ? new Uint8Array(totals[0]) : null;
  const base = new Array<number>(levels + 1).fill(0);
  arrays.forEach((a, index) => {
    const r = ranges[index];
    for (let k = 0; k < levels; k++) {
      const source = a.offsets[k];
      const [lo, hi] = r[k];
      const shift = base[k + 1] - source[lo];
      const out = offsets[k];
      for (let j = lo; j <= hi; j++) out[base[k] + j - lo] = source[j] + shift;
    }
    const [c0, c1] = r[levels];
    coords.set(a.coords.subarray(c0 * stride, c1 * stride), base[levels] * stride);
    if (typeIds && a.typeIds) typeIds.set(a.typeIds.subarray(0, a.length), base[0]);
    for (let k = 0; k <= levels; k++) base[k] += r[k][1] - r[k][0];
  });
  const validity = concatValidity(
    arrays.map((a) => ({ validity: { bitmap: a.validity, offset: a.validityOffset }, length: a.length })),
  );
  return new GeometryArray({
    type: first.type,
    dimension: first.dimension,
    coords,
    offsets,
    length: totals[0],
    validity,
    typeIds,
    crs: first.crs,
  });
}
