import { bounds, type GeometryArray, GrowableInt32 } from '@geoframe/core';
import Flatbush from 'flatbush';
import { BoxSearch } from './box-search.js';
import { PointGrid } from './nearest-points.js';
import { distancePair, JstsRows, type Predicate, predicateOf, testPair } from './predicates.js';

/** Pairs (input row, tree row), GeoPandas' 2 × n index arrays as two columns. */
export interface IndexPairs {
  input: Int32Array;
  tree: Int32Array;
}

/** {@link IndexPairs} with the distance of each pair. */
export interface NearestPairs extends IndexPairs {
  distance: Float64Array;
}

/** A GeometryArray, or anything holding one (a GeoSeries). */
export type GeometryInput = GeometryArray | { readonly array: GeometryArray };

function arrayOf(input: GeometryInput): GeometryArray {
  return 'array' in input ? input.array : input;
}

/** Options of {@link SpatialIndex.nearest}. */
export interface NearestOptions {
  /** Only tree rows within this distance (inclusive); default: no limit. */
  maxDistance?: number;
  /** Every tree row at the minimum distance (default, as GeoPandas' `return_all=True`), or only the lowest row. */
  returnAll?: boolean;
}

/**
 * A static R-tree (flatbush, Hilbert-packed) over the bounds of a column's rows — GeoPandas'
 * `sindex`. Null and empty rows are not in the tree. Queries filter candidates by bounds, then
 * decide the predicate exactly per pair (see `testPair`). Results are sorted by input row, then
 * tree row.
 */
export class SpatialIndex {
  readonly array: GeometryArray;
  private readonly tree: Flatbush | null;
  /** Tree item → row. */
  private readonly rows: Int32Array;
  private readonly rowsView: JstsRows;
  private readonly boxSearch: BoxSearch | null;
  /** The grid of a tree of points for `nearest` (null: not only points; undefined: not built). */
  private pointGrid: PointGrid | null | undefined;

  constructor(array: GeometryArray) {
    this.array = array;
    this.rowsView = new JstsRows(array);
    const box = bounds(array);
    const rows: number[] = [];
    for (let i = 0; i < array.length; i++) if (!Number.isNaN(box[4 * i])) rows.push(i);
    this.rows = Int32Array.from(rows);
    if (rows.length === 0) {
      this.tree = null;
      this.boxSearch = null;
      return;
    }
    this.tree = new Flatbush(rows.length);
    for (const i of rows) this.tree.add(box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]);
    this.tree.finish();
    this.boxSearch = new BoxSearch(this.tree);
  }

  /** Number of rows in the tree (non-null, non-empty). */
  get size(): number {
    return this.rows.length;
  }

  /** Tree rows whose bounds intersect the box, ascending. */
  queryBox(minx: number, miny: number, maxx: number, maxy: number): Int32Array {
    if (this.tree === null) return new Int32Array(0);
    const hits = this.tree.search(minx, miny, maxx, maxy);
    const out = Int32Array.from(hits, (k) => this.rows[k]);
    return out.sort();
  }

  /**
   * Pairs (input row, tree row) where the bounds intersect and, with `predicate`,
   * `predicate(input, tree)` holds (GeoPandas' `sindex.query(geometry, predicate)`, sorted).
   */
  query(geometry: GeometryInput, predicate?: Predicate | 'covered_by'): IndexPairs {
    const input = arrayOf(geometry);
    const name = predicate === undefined ? null : predicateOf(predicate);
    if (name === 'disjoint') {
      throw new TypeError(
        'query: "disjoint" cannot use the index (every non-intersecting pair); use the predicate directly',
      );
    }
    const box = bounds(input);
    const inputRows = new JstsRows(input);
    const a = new GrowableInt32(input.length);
    const b = new GrowableInt32(input.length);
    const search = this.boxSearch;
    if (search === null) return { input: a.finish(), tree: b.finish() };
    for (let i = 0; i < input.length; i++) {
      if (Number.isNaN(box[4 * i])) continue;
      // items were added in row order, so ascending items are ascending rows
      const count = search.search(box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]);
      for (let h = 0; h < count; h++) {
        const j = this.rows[search.hits[h]];
        if (name !== null && !testPair(name, inputRows, i, this.rowsView, j)) continue;
        a.push(i);
        b.push(j);
      }
    }
    return { input: a.finish(), tree: b.finish() };
  }

  /**
   * The nearest tree rows of each input row (GeoPandas' `sindex.nearest(…, return_distance=True)`):
   * all ties by default, sorted by input then tree row. Distances are exact planar distances (GEOS
   * formulas); null and empty input rows have no neighbour.
   */
  nearest(geometry: GeometryInput, options: NearestOptions = {}): NearestPairs {
    const input = arrayOf(geometry);
    const maxDistance = options.maxDistance ?? Number.POSITIVE_INFINITY;
    if (!(maxDistance >= 0)) throw new RangeError(`nearest: maxDistance must be >= 0, got ${maxDistance}`);
    const returnAll = options.returnAll ?? true;
    if (this.tree !== null) {
      this.pointGrid ??= PointGrid.of(this.array, this.rows);
      const fast = this.pointGrid?.nearest(input, maxDistance, returnAll);
      if (fast) return fast;
    }
    const box = bounds(input);
    const inputRows = new JstsRows(input);
    const a: number[] = [];
    const b: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < input.length; i++) {
      if (this.tree === null || Number.isNaN(box[4 * i])) continue;
      const [x0, y0, x1, y1] = [box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]];
      // an upper bound: the exact distance to the row whose box is nearest to the input's centre
      const first = this.tree.neighbors((x0 + x1) / 2, (y0 + y1) / 2, 1)[0];
      let radius = Math.min(maxDistance, distancePair(inputRows, i, this.rowsView, this.rows[first]));
      // every row within `radius` has its box within the input's box grown by it; grown a hair
      // more so that rounding cannot drop a row at exactly that distance (a tie)
      radius +=
        radius * 1e-9 + 4 * Number.EPSILON * Math.max(Math.abs(x0), Math.abs(x1), Math.abs(y0), Math.abs(y1));
      let best = Number.POSITIVE_INFINITY;
      const found: number[] = [];
      for (const j of this.queryBox(x0 - radius, y0 - radius, x1 + radius, y1 + radius)) {
        const dist = distancePair(inputRows, i, this.rowsView, j);
        if (dist > maxDistance || dist > best) continue;
        if (dist < best) {
          best = dist;
          found.length = 0;
        }
        found.push(j);
      }
      for (const j of returnAll ? found : found.slice(0, 1)) {
        a.push(i);
        b.push(j);
        d.push(best);
      }
    }
    return { input: Int32Array.from(a), tree: Int32Array.from(b), distance: Float64Array.from(d) };
  }
}
