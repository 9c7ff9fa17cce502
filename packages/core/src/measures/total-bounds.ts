import type { GeometryArray } from '../array/geometry-array.js';

/**
 * The planar bounding box of the whole column, `[minx, miny, maxx, maxy]`, as GeoPandas'
 * `total_bounds`: null and empty rows are ignored; four NaN when no row has a coordinate
 * (0 rows, all null, all empty). Only x and y are read.
 */
export function totalBounds(array: GeometryArray): [number, number, number, number] {
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const coords = array.coords;
  const stride = array.stride;
  let minx = Number.POSITIVE_INFINITY;
  let miny = Number.POSITIVE_INFINITY;
  let maxx = Number.NEGATIVE_INFINITY;
  let maxy = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < array.length; i++) {
    if (!array.isValid(i)) continue;
    const end = ringOffsets[partOffsets[geometryOffsets[i + 1]]] * stride;
    for (let k = ringOffsets[partOffsets[geometryOffsets[i]]] * stride; k < end; k += stride) {
      const x = coords[k];
      const y = coords[k + 1];
      if (x < minx) minx = x;
      if (x > maxx) maxx = x;
      if (y < miny) miny = y;
      if (y > maxy) maxy = y;
    }
  }
  const hasX = minx <= maxx;
  const hasY = miny <= maxy;
  return [
    hasX ? minx : Number.NaN,
    hasY ? miny : Number.NaN,
    hasX ? maxx : Number.NaN,
    hasY ? maxy : Number.NaN,
  ];
}
