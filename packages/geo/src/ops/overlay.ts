// Set operations through jsts' overlay (JTS' SnapIfNeededOverlayOp: exact noding first, snapping
// when that fails). Row-wise operations, the union of a column, GeoPandas' overlay and clip.
import { type GeometryArray, InvalidGeometryError } from '@geoframe/core';
import SnapIfNeededOverlayOp from 'jsts/org/locationtech/jts/operation/overlay/snap/SnapIfNeededOverlayOp.js';
import UnaryUnionOp from 'jsts/org/locationtech/jts/operation/union/UnaryUnionOp.js';
import { factory, fromJsts, type JstsGeometry, toJsts } from './jsts-geometry.js';
import { SpatialIndex } from './sindex.js';

export type SetOperation = 'intersection' | 'difference' | 'union' | 'symmetricDifference';

const OPS: Record<SetOperation, (a: JstsGeometry, b: JstsGeometry) => JstsGeometry> = {
  intersection: (a, b) => SnapIfNeededOverlayOp.intersection(a, b),
  difference: (a, b) => SnapIfNeededOverlayOp.difference(a, b),
  union: (a, b) => SnapIfNeededOverlayOp.union(a, b),
  symmetricDifference: (a, b) => SnapIfNeededOverlayOp.symDifference(a, b),
};

/** `op(a, b)` for one pair; an overlay jsts cannot compute is an error naming the row. */
export function setOperation(op: SetOperation, a: JstsGeometry, b: JstsGeometry, row: number): JstsGeometry {
  try {
    return OPS[op](a, b);
  } catch (cause) {
    throw new InvalidGeometryError(
      row,
      `${op} failed: ${(cause as Error).message ?? cause} (is the geometry valid?)`,
    );
  }
}

/**
 * `op(a[i], b[i])` row by row (GeoPandas' `intersection`, `difference`, `union`,
 * `symmetric_difference`; a one-row `b` is broadcast). Null on either side → null. A result of
 * mixed dimensions (a GeometryCollection) cannot be held by a column: an error naming the row.
 */
export function rowwiseSetOperation(op: SetOperation, a: GeometryArray, b: GeometryArray): GeometryArray {
  if (b.length !== 1 && b.length !== a.length) {
    throw new RangeError(
      `${op}: the other series has ${b.length} rows, this one ${a.length} (or pass one geometry)`,
    );
  }
  const out: (JstsGeometry | null)[] = new Array(a.length);
  const single = b.length === 1 ? toJsts(b, 0) : null;
  for (let i = 0; i < a.length; i++) {
    const g = toJsts(a, i);
    const h = b.length === 1 ? single : toJsts(b, i);
    out[i] = g === null || h === null ? null : setOperation(op, g, h, i);
  }
  return fromJsts(out, a.crs);
}

/** The union of all rows as one jsts geometry (GeoPandas' `union_all`); null rows are skipped. */
export function unionAllJsts(array: GeometryArray, rows?: ArrayLike<number>): JstsGeometry {
  const geoms: JstsGeometry[] = [];
  const n = rows ? rows.length : array.length;
  for (let k = 0; k < n; k++) {
    const g = toJsts(array, rows ? rows[k] : k);
    if (g !== null && !g.isEmpty()) geoms.push(g);
  }
  if (geoms.length === 0) return factory.createGeometryCollection();
  try {
    return UnaryUnionOp.union(factory.createGeometryCollection(geoms));
  } catch (cause) {
    throw new InvalidGeometryError(rows ? rows[0] : 0, `union failed: ${(cause as Error).message ?? cause}`);
  }
}

/** The union of all rows as a one-row column (empty rows and nulls skipped; nothing → empty). */
export function unionAll(array: GeometryArray): GeometryArray {
  return fromJsts([unionAllJsts(array)], array.crs);
}

/**
 * The parts of `g` of dimension `dim` (0 points, 1 lines, 2 areas), as a single or Multi
 * geometry, or an empty one: GeoPandas' `keep_geom_type`.
 */
export function keepDimension(g: JstsGeometry, dim: number): JstsGeometry {
  const parts: JstsGeometry[] = [];
  const visit = (x: JstsGeometry) => {
    const n = x.getNumGeometries();
    if (n > 1 || x.getGeometryType() === 'GeometryCollection' || x.getGeometryType().startsWith('Multi')) {
      for (let k = 0; k < n; k++) visit(x.getGeometryN(k));
    } else if (!x.isEmpty() && x.getDimension() === dim) {
      parts.push(x);
    }
  };
  visit(g);
  if (parts.length === 1) return parts[0];
  if (dim === 2) return factory.createMultiPolygon(parts);
  if (dim === 1) return factory.createMultiLineString(parts);
  return factory.createMultiPoint(parts);
}

/** One output row of an overlay: its rows in the two inputs (-1: none) and its geometry. */
export interface OverlayRows {
  left: Int32Array;
  right: Int32Array;
  geometry: GeometryArray;
}

/** GeoPandas' overlay `how`. */
export type OverlayHow = 'intersection' | 'union' | 'identity' | 'symmetric_difference' | 'difference';

/**
 * GeoPandas' `overlay(df1, df2, how)` on the geometry columns, as row pairs and geometries:
 * intersection pieces (pairs whose bounds meet, sorted by left then right row), then for
 * 'union'/'symmetric_difference' each left row minus the right rows it meets and each right row
 * minus the left rows, for 'identity' the left pieces only, for 'difference' only the left
 * pieces. Results keep the dimension of the input (`keep_geom_type=True`); empty pieces are dropped.
 */
export function overlayRows(a: GeometryArray, b: GeometryArray, how: OverlayHow): OverlayRows {
  const hows: OverlayHow[] = ['intersection', 'union', 'identity', 'symmetric_difference', 'difference'];
  if (!hows.includes(how))
    throw new TypeError(`overlay: how must be one of ${hows.join(', ')}, got "${how}"`);
  const left: number[] = [];
  const right: number[] = [];
  const geoms: JstsGeometry[] = [];
  const dim = dimensionOf(a);
  const push = (l: number, r: number, g: JstsGeometry) => {
    const kept = keepDimension(g, dim);
    if (kept.isEmpty()) return;
    left.push(l);
    right.push(r);
    geoms.push(kept);
  };
  const pairs = new SpatialIndex(b).query(a, 'intersects');
  if (how === 'intersection' || how === 'union' || how === 'identity') {
    for (let k = 0; k < pairs.input.length; k++) {
      const [i, j] = [pairs.input[k], pairs.tree[k]];
      push(i, j, setOperation('intersection', toJsts(a, i)!, toJsts(b, j)!, i));
    }
  }
  if (how !== 'intersection') differencePieces(a, b, pairs.input, pairs.tree, (i, g) => push(i, -1, g));
  if (how === 'union' || how === 'symmetric_difference') {
    differencePieces(b, a, pairs.tree, pairs.input, (j, g) => push(-1, j, g));
  }
  return { left: Int32Array.from(left), right: Int32Array.from(right), geometry: fromJsts(geoms, a.crs) };
}

/** Each non-null row of `a` minus the union of the rows of `b` it meets (`mine[k]` meets `theirs[k]`). */
function differencePieces(
  a: GeometryArray,
  b: GeometryArray,
  mine: Int32Array,
  theirs: Int32Array,
  emit: (row: number, g: JstsGeometry) => void,
): void {
  const meets: number[][] = Array.from({ length: a.length }, () => []);
  for (let k = 0; k < mine.length; k++) meets[mine[k]].push(theirs[k]);
  for (let i = 0; i < a.length; i++) {
    const g = toJsts(a, i);
    if (g === null || g.isEmpty()) continue;
    meets[i].sort((x, y) => x - y);
    emit(i, meets[i].length === 0 ? g : setOperation('difference', g, unionAllJsts(b, meets[i]), i));
  }
}

/** The highest dimension among the rows (2 when there are areas), GeoPandas' kept type. */
function dimensionOf(array: GeometryArray): number {
  let dim = 0;
  for (let i = 0; i < array.length; i++) {
    const t = array.typeOf(i);
    if (t === null) continue;
    dim = Math.max(dim, t === 1 || t === 4 ? 0 : t === 2 || t === 5 ? 1 : 2);
  }
  return dim;
}

/**
 * GeoPandas' `clip(gdf, mask)` on the geometry column: the rows that meet the union of `mask`,
 * in their order, each intersected with it and cut to its own dimension (GeoPandas'
 * `keep_geom_type=True`); rows left empty are dropped. Returns the kept rows and geometries.
 */
export function clipRows(
  array: GeometryArray,
  mask: GeometryArray,
): { rows: Int32Array; geometry: GeometryArray } {
  const m = unionAllJsts(mask);
  const rows: number[] = [];
  const geoms: JstsGeometry[] = [];
  if (!m.isEmpty()) {
    const env = m.getEnvelopeInternal();
    const box = new SpatialIndex(array).queryBox(env.getMinX(), env.getMinY(), env.getMaxX(), env.getMaxY());
    for (const i of box) {
      const g = toJsts(array, i)!;
      const dim = g.getDimension();
      const piece = keepDimension(setOperation('intersection', g, m, i), dim);
      if (piece.isEmpty()) continue;
      rows.push(i);
      geoms.push(piece);
    }
  }
  return { rows: Int32Array.from(rows), geometry: fromJsts(geoms, array.crs) };
}
