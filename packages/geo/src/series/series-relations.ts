import type { GeometryArray } from '@geoframe/core';
import type { GeoSeries } from '../geo-series.js';
import { checkSameCrs } from '../ops/crs-resolve.js';
import { binaryPredicate, distanceRows, type Predicate } from '../ops/predicates.js';
import { SpatialIndex } from '../ops/sindex.js';
import { arrayOf } from './series-base.js';
import { SeriesMeasures } from './series-measures.js';

/** A GeoSeries' binary predicates, distance and spatial index. */
export abstract class SeriesRelations extends SeriesMeasures {
  /** 1 where the row shares any point with `other`'s row (GeoPandas' `intersects`; positional, a one-row `other` is broadcast; null → 0). */
  intersects(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'intersects');
  }

  /** 1 where the row lies in the interior of (boundary contact allowed, interiors meet) `other`'s row (GeoPandas' `within`; positional, a one-row `other` is broadcast; null → 0). */
  within(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'within');
  }

  /** 1 where the row has in its interior (the other never reaches the exterior) `other`'s row (GeoPandas' `contains`; positional, a one-row `other` is broadcast; null → 0). */
  contains(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'contains');
  }

  /** 1 where the row meets only on boundaries `other`'s row (GeoPandas' `touches`; positional, a one-row `other` is broadcast; null → 0). */
  touches(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'touches');
  }

  /** 1 where the row has no point of the other outside it `other`'s row (GeoPandas' `covers`; positional, a one-row `other` is broadcast; null → 0). */
  covers(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'covers');
  }

  /** 1 where the row has no point outside the other `other`'s row (GeoPandas' `covered_by`; positional, a one-row `other` is broadcast; null → 0). */
  coveredBy(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'coveredBy');
  }

  /** 1 where the row shares no point with `other`'s row (GeoPandas' `disjoint`; positional, a one-row `other` is broadcast; null → 0). */
  disjoint(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'disjoint');
  }

  /** 1 where the row overlaps (same dimension, neither covers the other) `other`'s row (GeoPandas' `overlaps`; positional, a one-row `other` is broadcast; null → 0). */
  overlaps(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'overlaps');
  }

  /** 1 where the row crosses `other`'s row (GeoPandas' `crosses`; positional, a one-row `other` is broadcast; null → 0). */
  crosses(other: GeoSeries | GeometryArray): Uint8Array {
    return this.predicate(other, 'crosses');
  }

  private predicate(other: GeoSeries | GeometryArray, name: Predicate): Uint8Array {
    const b = arrayOf(other);
    checkSameCrs(this.crs, b.crs, name);
    return binaryPredicate(this.array, b, name);
  }

  /** Planar distance to `other`'s row (GeoPandas' `distance`; a one-row `other` is broadcast); NaN for null/empty rows. */
  distance(other: GeoSeries | GeometryArray): Float64Array {
    const b = arrayOf(other);
    checkSameCrs(this.crs, b.crs, 'distance');
    return distanceRows(this.array, b);
  }

  private sindexCache?: SpatialIndex;

  /**
   * The spatial index of the rows (GeoPandas' `sindex`): a flatbush R-tree over the row bounds,
   * built on first use and cached. `query(geometry, predicate)` and `nearest(geometry)` return
   * (input row, tree row) pairs.
   */
  get sindex(): SpatialIndex {
    this.sindexCache ??= new SpatialIndex(this.array);
    return this.sindexCache;
  }
}
