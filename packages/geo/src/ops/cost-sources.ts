import {
  CostGridError,
  type GeometryArray,
  GeometryType,
  geometryTypeName,
  InvalidGeometryError,
} from '@geoframe/core';

/** A 2D cost raster: `values[row · width + col]`, row 0 at the top, over pixel-edge `bounds`. */
export interface CostRaster2D {
  values: Float32Array;
  width: number;
  height: number;
  /** [xmin, ymin, xmax, ymax]. */
  bounds: readonly number[];
}

/** A 3D cost raster: `values[(slice · ny + row) · nx + col]`, slice 0 lowest z. */
export interface CostRaster3D {
  values: Float32Array;
  dims: readonly [number, number, number];
  /** [xmin, ymin, zmin, xmax, ymax, zmax]. */
  bounds: readonly number[];
}

/** A cost raster in the pixel convention of `voronoiRaster` (docs/raster.md). */
export type CostRaster = CostRaster2D | CostRaster3D;

/** A cost raster checked and normalised: sizes, spacing and bounds per axis. */
export interface CostFrame {
  values: Float32Array;
  /** [width, height(, depth)]. */
  dims: number[];
  spacing: number[];
  /** Per axis: the low edge (x, y, z). */
  low: number[];
  /** Per axis: the high edge. */
  high: number[];
  dimensions: 2 | 3;
}

/**
 * Checks the raster's shape (not its values — `checkCostGridProblem` does that): a Float32Array
 * of width × height (× depth) values, positive integer sizes, finite bounds with max > min.
 *
 * @throws CostGridError naming the problem.
 */
export function costFrame(raster: CostRaster): CostFrame {
  if (raster === null || typeof raster !== 'object') {
    throw new CostGridError(
      'cost must be a raster {values, width, height, bounds} or {values, dims, bounds}',
    );
  }
  const is3d = 'dims' in raster && raster.dims !== undefined;
  const r2 = raster as CostRaster2D;
  const dims = is3d ? [...(raster as CostRaster3D).dims] : [r2.width, r2.height];
  const dimensions = dims.length as 2 | 3;
  if ((dimensions !== 2 && dimensions !== 3) || !dims.every((d) => Number.isInteger(d) && d >= 1)) {
    throw new CostGridError(`cost raster sizes must be positive integers, got [${dims.join(', ')}]`);
  }
  if (!(raster.values instanceof Float32Array))
    throw new CostGridError('cost raster values must be a Float32Array');
  const cells = dims.reduce((a, b) => a * b, 1);
  if (raster.values.length !== cells) {
    throw new CostGridError(
      `cost raster has ${raster.values.length} values, its sizes [${dims.join(' × ')}] need ${cells}`,
    );
  }
  const b = raster.bounds;
  if (!Array.isArray(b) || b.length !== 2 * dimensions || !b.every(Number.isFinite)) {
    throw new CostGridError(
      `cost raster bounds must be ${2 * dimensions} finite numbers, got ${JSON.stringify(b)}`,
    );
  }
  const low = b.slice(0, dimensions);
  const high = b.slice(dimensions);
  const spacing = dims.map((d, a) => (high[a] - low[a]) / d);
  if (!spacing.every((s) => s > 0 && Number.isFinite(s))) {
    throw new CostGridError(`cost raster bounds [${b.join(', ')}] need max > min on every axis`);
  }
  return { values: raster.values, dims, spacing, low, high, dimensions };
}

/** The sources of a cost allocation: per source its cell, and the input row it came from. */
export interface CostSources {
  cells: Int32Array;
  rows: Int32Array;
}

/**
 * One source per Point row, in row order, in the cell that contains it (a point on a max edge
 * belongs to the last cell); null and empty rows are skipped. 3D needs points with z.
 *
 * @throws InvalidGeometryError naming the row for a non-point, a non-finite coordinate, a point
 *   outside the raster, a point in a barrier (NaN) cell, or a 3D source without z.
 */
export function costSources(array: GeometryArray, frame: CostFrame): CostSources {
  const { dims, spacing, low, high, dimensions, values } = frame;
  const n = array.length;
  const cells = new Int32Array(n);
  const rows = new Int32Array(n);
  const hasZ = array.dimension === 'xyz' || array.dimension === 'xyzm';
  let count = 0;
  for (let i = 0; i < n; i++) {
    const type = array.typeOf(i);
    if (type === null || array.isEmpty(i)) continue;
    if (type !== GeometryType.Point) {
      throw new InvalidGeometryError(
        i,
        `cost allocation sources must be Points, this row is a ${geometryTypeName(type)}`,
      );
    }
    const at = array.coordRange(i)[0] * array.stride;
    const p = [array.coords[at], array.coords[at + 1], hasZ ? array.coords[at + 2] : Number.NaN];
    if (dimensions === 3 && !hasZ) throw new InvalidGeometryError(i, 'a 3D cost raster needs points with z');
    const shown = p.slice(0, dimensions).join(', ');
    if (!p.slice(0, dimensions).every(Number.isFinite)) {
      throw new InvalidGeometryError(i, `point (${shown}) is not finite`);
    }
    const index = [0, 0, 0];
    for (let a = 0; a < dimensions; a++) {
      if (!(p[a] >= low[a] && p[a] <= high[a])) {
        throw new InvalidGeometryError(
          i,
          `point (${shown}) lies outside the cost raster bounds [${[...low, ...high].join(', ')}]`,
        );
      }
      // y runs down the rows from the top edge
      const offset = a === 1 ? high[1] - p[1] : p[a] - low[a];
      index[a] = Math.min(dims[a] - 1, Math.floor(offset / spacing[a]));
    }
    const cell = (index[2] * dims[1] + index[1]) * dims[0] + index[0];
    if (Number.isNaN(values[cell])) {
      const where = `col ${index[0]}, row ${index[1]}${dimensions === 3 ? `, slice ${index[2]}` : ''}`;
      throw new InvalidGeometryError(i, `point (${shown}) lies in a barrier cell (${where}, NaN cost)`);
    }
    cells[count] = cell;
    rows[count++] = i;
  }
  return { cells: cells.slice(0, count), rows: rows.slice(0, count) };
}
