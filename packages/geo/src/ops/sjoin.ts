import { type GeometryArray, isGeoArrowField } from '@geoframe/core';
import { Field, Float64, makeData, type Table } from 'apache-arrow';
import { makeTable } from '../frame/make-table.js';
import { checkSameCrs } from './crs-resolve.js';
import { type Column, gatherColumn, indexColumn } from './join-columns.js';
import type { Predicate } from './predicates.js';
import { SpatialIndex } from './sindex.js';

/** Options of `sjoin`: GeoPandas' names and defaults. */
export interface SjoinOptions {
  /** 'inner' (default): matched pairs; 'left': every left row; 'right': every right row. */
  how?: 'inner' | 'left' | 'right';
  /** `predicate(left, right)` (default 'intersects'); 'covered_by' is accepted for 'coveredBy'. */
  predicate?: Predicate | 'covered_by';
  /** Suffix of a left column whose name a right column also has (default 'left'). */
  lsuffix?: string;
  /** Suffix of such a right column (default 'right'). */
  rsuffix?: string;
}

/** Options of `sjoinNearest`. */
export interface SjoinNearestOptions extends Omit<SjoinOptions, 'predicate'> {
  /** Only pairs within this distance (inclusive). */
  maxDistance?: number;
  /** A column with each pair's distance, added last (GeoPandas' `distance_col`). */
  distanceCol?: string;
}

/** Matched row pairs of a join, in output order; -1 marks the missing side of a left/right join. */
export interface JoinPairs {
  left: Int32Array;
  right: Int32Array;
  distance?: Float64Array;
}

/** One side of a join: its table and active geometry column name and array. */
export interface JoinSide {
  table: Table;
  geometryName: string;
  geometry: GeometryArray;
  index?: SpatialIndex;
}

/**
 * The row pairs of a spatial join, in GeoPandas' order: for 'inner' and 'left', by left row then
 * right row (GeoPandas leaves the right order within a left row to its tree; ours is ascending),
 * unmatched left rows kept in place by 'left'; for 'right', by right row then left row.
 */
export function sjoinPairs(left: JoinSide, right: JoinSide, options: SjoinOptions = {}): JoinPairs {
  checkSameCrs(left.geometry.crs, right.geometry.crs, 'sjoin');
  const how = howOf(options.how);
  const predicate = options.predicate ?? 'intersects';
  const index = right.index ?? new SpatialIndex(right.geometry);
  const found = index.query(left.geometry, predicate);
  return arrange(found.input, found.tree, how, left.table.numRows, right.table.numRows);
}

/**
 * The row pairs of a nearest join: each left row (each right row with how 'right') with its
 * nearest rows of the other side, all ties, within `maxDistance`.
 */
export function sjoinNearestPairs(
  left: JoinSide,
  right: JoinSide,
  options: SjoinNearestOptions = {},
): JoinPairs {
  checkSameCrs(left.geometry.crs, right.geometry.crs, 'sjoinNearest');
  const how = howOf(options.how);
  if (how === 'right') {
    const found = (left.index ?? new SpatialIndex(left.geometry)).nearest(right.geometry, options);
    return arrange(found.tree, found.input, how, left.table.numRows, right.table.numRows, found.distance);
  }
  const found = (right.index ?? new SpatialIndex(right.geometry)).nearest(left.geometry, options);
  return arrange(found.input, found.tree, how, left.table.numRows, right.table.numRows, found.distance);
}

function howOf(how: string | undefined): 'inner' | 'left' | 'right' {
  const h = how ?? 'inner';
  if (h !== 'inner' && h !== 'left' && h !== 'right') {
    throw new TypeError(`sjoin: how must be 'inner', 'left' or 'right', got "${h}"`);
  }
  return h;
}

/** Sorts pairs for `how` and inserts the unmatched rows of the kept side (-1 on the other). */
function arrange(
  l: Int32Array,
  r: Int32Array,
  how: 'inner' | 'left' | 'right',
  nLeft: number,
  nRight: number,
  dist?: Float64Array,
): JoinPairs {
  const byRight = how === 'right';
  const [major, minor, nMajor] = byRight ? [r, l, nRight] : [l, r, nLeft];
  // the index returns pairs sorted by its input, then tree row: a stable counting sort by the
  // major side then gives (major, minor) order in linear time
  const start = new Int32Array(nMajor + 1);
  for (let k = 0; k < major.length; k++) start[major[k] + 1]++;
  for (let row = 0; row < nMajor; row++) start[row + 1] += start[row];
  const order = new Int32Array(major.length);
  const next = start.slice(0, nMajor);
  for (let k = 0; k < major.length; k++) order[next[major[k]]++] = k;
  const keep = how !== 'inner';
  const outMajor: number[] = [];
  const outMinor: number[] = [];
  const outDist: number[] = [];
  let k = 0;
  for (let row = 0; row < nMajor; row++) {
    const first = k;
    while (k < order.length && major[order[k]] === row) {
      outMajor.push(row);
      outMinor.push(minor[order[k]]);
      outDist.push(dist ? dist[order[k]] : 0);
      k++;
    }
    if (keep && k === first) {
      outMajor.push(row);
      outMinor.push(-1);
      outDist.push(Number.NaN);
    }
  }
  const [left, right] = byRight ? [outMinor, outMajor] : [outMajor, outMinor];
  return {
    left: Int32Array.from(left),
    right: Int32Array.from(right),
    ...(dist ? { distance: Float64Array.from(outDist) } : {}),
  };
}

/**
 * The joined table in GeoPandas' shape. 'inner'/'left': the left columns (its geometry active),
 * `index_right`, the right columns without its geometry. 'right': `index_left`, the left columns
 * without its geometry, the right columns (its geometry active). A name on both sides gets
 * `_${lsuffix}` / `_${rsuffix}`. `index_right`/`index_left` are row positions (Int32, null where
 * unmatched) — geoframe frames have no index labels. With `distanceCol`, the distance is last.
 */
export function joinTable(
  left: JoinSide,
  right: JoinSide,
  pairs: JoinPairs,
  options: SjoinOptions & { distanceCol?: string } = {},
): { table: Table; geometryName: string } {
  const how = howOf(options.how);
  const lsuffix = options.lsuffix ?? 'left';
  const rsuffix = options.rsuffix ?? 'right';
  const keepLeftGeometry = how !== 'right';
  const leftFields = left.table.schema.fields.filter((f) => keepLeftGeometry || f.name !== left.geometryName);
  const rightFields = right.table.schema.fields.filter(
    (f) => !keepLeftGeometry || f.name !== right.geometryName,
  );
  const rightNames = new Set(rightFields.map((f) => f.name));
  const leftNames = new Set(leftFields.map((f) => f.name));
  const active = (side: JoinSide, f: Field) => f.name === side.geometryName && isGeoArrowField(f);
  const leftName = (f: Field) =>
    rightNames.has(f.name) && !active(left, f) ? `${f.name}_${lsuffix}` : f.name;
  const rightName = (f: Field) =>
    leftNames.has(f.name) && !active(right, f) ? `${f.name}_${rsuffix}` : f.name;
  const columns: Column[] = [];
  if (!keepLeftGeometry) columns.push(indexColumn('index_left', pairs.left));
  for (const f of leftFields) columns.push(gatherColumn(left.table, f, pairs.left, leftName(f)));
  if (keepLeftGeometry) columns.push(indexColumn('index_right', pairs.right));
  for (const f of rightFields) columns.push(gatherColumn(right.table, f, pairs.right, rightName(f)));
  if (options.distanceCol !== undefined && pairs.distance) {
    const d = pairs.distance;
    let nulls = 0;
    const validity = new Uint8Array((d.length + 7) >> 3);
    d.forEach((v, j) => {
      if (Number.isNaN(v)) nulls++;
      else validity[j >> 3] |= 1 << (j & 7);
    });
    const data = makeData({
      type: new Float64(),
      length: d.length,
      nullCount: nulls,
      nullBitmap: nulls > 0 ? validity : undefined,
      data: d,
    });
    columns.push({ field: new Field(options.distanceCol, new Float64(), nulls > 0), data });
  }
  const table = makeTable(
    columns.map((c) => c.field),
    columns.map((c) => c.data),
  );
  return { table, geometryName: keepLeftGeometry ? left.geometryName : right.geometryName };
}
