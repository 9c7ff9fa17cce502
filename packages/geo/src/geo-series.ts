import {
  type BinaryColumn,
  type Crs,
  checkOptions,
  GeometryArray,
  GeometryType,
  geometryArrayFromArrow,
  InvalidGeometryError,
  readWkb,
  readWkt,
  validateGeometryArray,
} from '@geoframe/core';
import type { Data, Field, Vector } from 'apache-arrow';
import { readGeoJson } from './io/index.js';
import { type BlueNoiseOptions, sampleBlueNoise } from './ops/blue-noise.js';
import { SeriesTessellation } from './series/series-tessellation.js';

export type { SeriesPlotOptions } from './series/series-base.js';
export type { BoundsColumns } from './series/series-measures.js';
export { type VoronoiSeriesOptions, voronoiOptionsOf } from './voronoi/series-options.js';

/** Options shared by the GeoSeries constructors. */
export interface GeoSeriesOptions {
  /** CRS as PROJJSON or a string such as "EPSG:4326"; labels the data, never transforms it. */
  crs?: Crs | null;
  /** The series name (the column name when it joins a frame). */
  name?: string | null;
  /** Check offsets, ring closure and finite coordinates (default true; errors name the row). */
  validate?: boolean;
}

/** The keys of {@link GeoSeriesOptions}: anything else is refused (`checkOptions`). */
const SERIES_OPTION_KEYS = ['crs', 'name', 'validate'] as const;

// The methods live in layers by concern, each extending the one before (adr/0016):
// series/series-base.ts (rows, conversions, pictures, display), series-measures.ts,
// series-relations.ts (predicates, distance, sindex), series-constructive.ts and
// series-tessellation.ts (Voronoi, rasters, cost allocation, CVT, Delaunay, explain). This file
// holds the constructors.

/**
 * A column of geometries with a CRS and a name — geoframe's GeoSeries. It wraps an immutable
 * {@link GeometryArray} (GeoArrow buffers); every method returns new data and never mutates the
 * caller's buffers. Null rows (missing) and empty geometries are distinct, as in GeoPandas.
 */
export class GeoSeries extends SeriesTessellation {
  protected derive(array: GeometryArray, name: string | null): GeoSeries {
    return new GeoSeries(array, { name });
  }

  /** Points from parallel x and y arrays (copied, interleaved). NaN or ±Infinity → error naming the row. */
  static fromXY(x: ArrayLike<number>, y: ArrayLike<number>, options: GeoSeriesOptions = {}): GeoSeries {
    checkOptions(options, SERIES_OPTION_KEYS, 'fromXY');
    if (x.length !== y.length) throw new RangeError(`fromXY: x has ${x.length} values and y has ${y.length}`);
    const coords = new Float64Array(x.length * 2);
    for (let i = 0; i < x.length; i++) {
      if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) {
        throw new InvalidGeometryError(i, `coordinate (${x[i]}, ${y[i]}) is not finite`);
      }
      coords[2 * i] = x[i];
      coords[2 * i + 1] = y[i];
    }
    const array = new GeometryArray({
      type: GeometryType.Point,
      dimension: 'xy',
      coords,
      offsets: [],
      length: x.length,
      crs: options.crs ?? null,
    });
    return new GeoSeries(array, options);
  }

  /** Parses WKT strings; null/undefined entries are null rows. */
  static fromWKT(values: ArrayLike<string | null | undefined>, options: GeoSeriesOptions = {}): GeoSeries {
    checkOptions(options, SERIES_OPTION_KEYS, 'fromWKT');
    return GeoSeries.checked(readWkt(values, { crs: options.crs ?? null }), options);
  }

  /** Decodes WKB (ISO or extended, either byte order); null/undefined entries are null rows. */
  static fromWKB(
    values: ArrayLike<Uint8Array | null | undefined>,
    options: GeoSeriesOptions = {},
  ): GeoSeries {
    checkOptions(options, SERIES_OPTION_KEYS, 'fromWKB');
    return GeoSeries.checked(readWkb(packBinary(values), { crs: options.crs ?? null }), options);
  }

  /**
   * From a GeoJSON FeatureCollection, Feature, Geometry, or an array of geometries/features (the
   * geometries only; see GeoDataFrame.fromGeoJSON for properties). CRS: OGC:CRS84 unless given.
   */
  static fromGeoJSON(input: unknown, options: GeoSeriesOptions = {}): GeoSeries {
    checkOptions(options, SERIES_OPTION_KEYS, 'fromGeoJSON');
    const { table, primary } = readGeoJson(input as string | object);
    const field = table.schema.fields.find((f) => f.name === primary)!;
    const array = geometryArrayFromArrow(table.getChild(primary!)!, { field });
    return GeoSeries.checked(options.crs !== undefined ? array.withCrs(options.crs) : array, options);
  }

  /** From a GeoArrow column (native, WKB or WKT). Pass the field to read the extension metadata. */
  static fromArrow(input: Vector | Data, options: GeoSeriesOptions & { field?: Field } = {}): GeoSeries {
    checkOptions(options, [...SERIES_OPTION_KEYS, 'field'], 'fromArrow');
    const array = geometryArrayFromArrow(input, {
      field: options.field,
      ...(options.crs !== undefined ? { crs: options.crs } : {}),
    });
    return GeoSeries.checked(array, { name: options.field?.name ?? null, ...options });
  }

  private static checked(array: GeometryArray, options: GeoSeriesOptions): GeoSeries {
    if (options.validate !== false) validateGeometryArray(array);
    return new GeoSeries(array, options);
  }

  /** `n` blue-noise points over `region` under `density`: a seeded random start, then a CVT (docs/cvt.md). */
  static sampleBlueNoise(n: number, options: BlueNoiseOptions): Promise<GeoSeries> {
    return sampleBlueNoise(n, options, (array) => new GeoSeries(array));
  }
}

/** Packs separate byte arrays into one BinaryColumn (the layout the WKB reader takes). */
function packBinary(values: ArrayLike<Uint8Array | null | undefined>): BinaryColumn {
  const n = values.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += values[i]?.length ?? 0;
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(n + 1);
  let validity: Uint8Array | null = null;
  for (let i = 0, at = 0; i < n; i++) {
    const value = values[i];
    if (value == null) {
      validity ??= new Uint8Array((n + 7) >> 3).fill(0xff);
      validity[i >> 3] &= ~(1 << (i & 7));
    } else {
      bytes.set(value, at);
      at += value.length;
    }
    offsets[i + 1] = at;
  }
  return { length: n, values: bytes, offsets, validity, validityOffset: 0 };
}
