import {
  area,
  bounds,
  type Crs,
  centroid,
  GeometryType,
  geometryTypeName,
  InvalidGeometryError,
  lengthOf,
  totalBounds,
} from '@geoframe/core';
import type { GeoSeries } from '../geo-series.js';
import { estimateUtmCrs } from '../ops/estimate-utm-crs.js';
import { toCrs } from '../ops/to-crs.js';
import { SeriesBase } from './series-base.js';

/** Per-row bounds as four columns, like GeoPandas' `bounds` DataFrame. NaN for null/empty rows. */
export interface BoundsColumns {
  minx: Float64Array;
  miny: Float64Array;
  maxx: Float64Array;
  maxy: Float64Array;
}

/** Per-row boxes, four values a row (minx, miny, maxx, maxy), as four columns. */
export function boundsColumns(flat: ArrayLike<number>, n: number): BoundsColumns {
  const columns = {
    minx: new Float64Array(n),
    miny: new Float64Array(n),
    maxx: new Float64Array(n),
    maxy: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    columns.minx[i] = flat[4 * i] as number;
    columns.miny[i] = flat[4 * i + 1] as number;
    columns.maxx[i] = flat[4 * i + 2] as number;
    columns.maxy[i] = flat[4 * i + 3] as number;
  }
  return columns;
}

/** A GeoSeries' planar measures, point ordinates and coordinate reference transforms. */
export abstract class SeriesMeasures extends SeriesBase {
  /** Per-row bounds as four columns; NaN for null and empty rows. */
  get bounds(): BoundsColumns {
    return boundsColumns(bounds(this.array), this.length);
  }

  /** [minx, miny, maxx, maxy] over all rows; NaN×4 when there is nothing. */
  get totalBounds(): [number, number, number, number] {
    return totalBounds(this.array);
  }

  /** Planar area per row (holes subtracted); 0 for points and lines, NaN for null rows. */
  area(): Float64Array {
    return area(this.array);
  }

  /** Planar length per row (a polygon's perimeter, holes included); NaN for null rows. GeoPandas' `length`. */
  lengthOf(): Float64Array {
    return lengthOf(this.array);
  }

  /** The centroid of each row, GEOS semantics; empty → POINT EMPTY, null → null. */
  centroid(): GeoSeries {
    return this.derive(centroid(this.array), this.name);
  }

  /** x of each point row; NaN for null and empty rows. A non-point row is an error naming it. */
  get x(): Float64Array {
    return this.pointOrdinate(0);
  }

  /** y of each point row; NaN for null and empty rows. */
  get y(): Float64Array {
    return this.pointOrdinate(1);
  }

  private pointOrdinate(axis: 0 | 1): Float64Array {
    const a = this.array;
    const out = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const type = a.typeOf(i);
      if (type === null || a.isEmpty(i)) {
        out[i] = Number.NaN;
      } else if (type !== GeometryType.Point) {
        throw new InvalidGeometryError(
          i,
          `x/y need Point geometries, this row is a ${geometryTypeName(type)}`,
        );
      } else {
        out[i] = a.coords[a.coordRange(i)[0] * a.stride + axis];
      }
    }
    return out;
  }

  /**
   * The geometries transformed to `crs` (GeoPandas' `to_crs`): EPSG codes proj4 knows (4326,
   * 4269, 3857, WGS 84 / UTM), PROJJSON, WKT or proj strings; x = longitude/easting as in
   * GeoPandas. A series without a CRS, or an unknown CRS, is a `CrsError`.
   */
  toCrs(crs: Crs): GeoSeries {
    return this.derive(toCrs(this.array, crs), this.name);
  }

  /** The WGS 84 / UTM CRS ("EPSG:326zz"/"EPSG:327zz") for the centre of the bounds (GeoPandas' `estimate_utm_crs`). */
  estimateUtmCrs(): string {
    return estimateUtmCrs(this.array);
  }
}
