import type { GeometryArray } from '@geoframe/core';
import type { GeoSeries } from '../geo-series.js';
import { type BufferOptions, buffer, convexHull, envelope, isValid, simplify } from '../ops/constructive.js';
import { checkSameCrs } from '../ops/crs-resolve.js';
import { explode } from '../ops/explode.js';
import { makeValid } from '../ops/make-valid.js';
import { clipRows, rowwiseSetOperation, type SetOperation, unionAll } from '../ops/overlay.js';
import { arrayOf } from './series-base.js';
import { SeriesRelations } from './series-relations.js';

/** A GeoSeries' constructive operations: buffer, simplify, hulls, validity, set operations, explode and clip. */
export abstract class SeriesConstructive extends SeriesRelations {
  /** Each row grown by `distance` (GeoPandas' `buffer`; 16 segments per quarter circle by default). Runs on jsts, one object per row. */
  buffer(distance: number, options: BufferOptions = {}): GeoSeries {
    return this.derive(buffer(this.array, distance, options), this.name);
  }

  /** Each row simplified within `tolerance` (GeoPandas' `simplify`; topology preserved unless `preserveTopology: false`). */
  simplify(tolerance: number, options: { preserveTopology?: boolean } = {}): GeoSeries {
    return this.derive(simplify(this.array, tolerance, options.preserveTopology ?? true), this.name);
  }

  /** The convex hull of each row (GeoPandas' `convex_hull`). */
  convexHull(): GeoSeries {
    return this.derive(convexHull(this.array), this.name);
  }

  /** The bounding rectangle of each row (GeoPandas' `envelope`). */
  envelope(): GeoSeries {
    return this.derive(envelope(this.array), this.name);
  }

  /** 1 where the row is a valid geometry (GeoPandas' `is_valid`; 0 for null rows). */
  get isValid(): Uint8Array {
    return isValid(this.array);
  }

  /** Each row made valid (GeoPandas' `make_valid`, the 'linework' method for areas; collapsed lines dropped). */
  makeValid(): GeoSeries {
    return this.derive(makeValid(this.array), this.name);
  }

  /** The union of all rows as a one-row series (GeoPandas' `union_all()`; nulls skipped). */
  unionAll(): GeoSeries {
    return this.derive(unionAll(this.array), this.name);
  }

  /** The same as {@link unionAll} (GeoPandas' deprecated `unary_union`). */
  unaryUnion(): GeoSeries {
    return this.unionAll();
  }

  /** Row-wise intersection with `other` (GeoPandas' `intersection`; a one-row `other` is broadcast). */
  intersection(other: GeoSeries | GeometryArray): GeoSeries {
    return this.setOperation('intersection', other);
  }

  /** Row-wise difference (GeoPandas' `difference`). */
  difference(other: GeoSeries | GeometryArray): GeoSeries {
    return this.setOperation('difference', other);
  }

  /** Row-wise union (GeoPandas' `union`). */
  union(other: GeoSeries | GeometryArray): GeoSeries {
    return this.setOperation('union', other);
  }

  /** Row-wise symmetric difference (GeoPandas' `symmetric_difference`). */
  symmetricDifference(other: GeoSeries | GeometryArray): GeoSeries {
    return this.setOperation('symmetricDifference', other);
  }

  private setOperation(op: SetOperation, other: GeoSeries | GeometryArray): GeoSeries {
    const b = arrayOf(other);
    checkSameCrs(this.crs, b.crs, op);
    return this.derive(rowwiseSetOperation(op, this.array, b), this.name);
  }

  /** Multi-part rows split into one row per part; null and empty rows dropped (GeoPandas' `explode(index_parts=False)`). */
  explode(): GeoSeries {
    return this.derive(explode(this.array).geometry, this.name);
  }

  /** The rows that meet `mask`, cut to it (GeoPandas' `clip`, keeping each row's dimension). */
  clip(mask: GeoSeries | GeometryArray): GeoSeries {
    const m = arrayOf(mask);
    checkSameCrs(this.crs, m.crs, 'clip');
    return this.derive(clipRows(this.array, m).geometry, this.name);
  }
}
