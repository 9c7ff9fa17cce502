import {
  type Crs,
  checkOptions,
  crsLabel,
  type GeometryArray,
  geometryArrayToArrow,
  geometryTypeName,
  writeWkb,
  writeWkt,
} from '@geoframe/core';
import type { Data, Field } from 'apache-arrow';
import { formatSeries } from '../display/format-series.js';
import { seriesHtml } from '../display/html-table.js';
import { JUPYTER_DISPLAY, type MimeBundle } from '../display/rich-display.js';
import { makeTable } from '../frame/make-table.js';
import type { GeoSeries } from '../geo-series.js';
import { writeGeoJson } from '../io/index.js';
import { checkSetCrs } from '../ops/crs-resolve.js';
import { type PlotOptions, plotPng, plotSvg } from '../plot/index.js';

// GeoSeries is built in layers, one concern a file, each a class the next extends:
// SeriesBase (rows, CRS, conversions, pictures, display) → SeriesMeasures → SeriesRelations →
// SeriesConstructive → SeriesTessellation → GeoSeries (the constructors). A layer makes new
// series through `derive`, which GeoSeries implements, so no layer imports GeoSeries at run time.

/**
 * The rows of a GeoSeries: its array and name, row selection, the CRS label, the conversions
 * to WKT/WKB/GeoJSON/Arrow, the pictures and the notebook display.
 */
export abstract class SeriesBase {
  readonly array: GeometryArray;
  readonly name: string | null;

  constructor(array: GeometryArray, options: { name?: string | null } = {}) {
    this.array = array;
    this.name = options.name ?? null;
  }

  /** A GeoSeries of `array` named `name` (how every layer makes its results). */
  protected abstract derive(array: GeometryArray, name: string | null): GeoSeries;

  /** Number of rows. */
  get length(): number {
    return this.array.length;
  }

  /** The CRS, or null when unknown. */
  get crs(): Crs | null {
    return this.array.crs;
  }

  /** Geometry type name per row ('Point', 'Polygon', …), null for null rows. */
  get geomType(): (string | null)[] {
    const out: (string | null)[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) {
      const type = this.array.typeOf(i);
      out[i] = type === null ? null : geometryTypeName(type);
    }
    return out;
  }

  /** 1 where the row is an empty geometry (0 for null rows, as in GeoPandas). */
  get isEmpty(): Uint8Array {
    return Uint8Array.from({ length: this.length }, (_, i) => (this.array.isEmpty(i) ? 1 : 0));
  }

  /** 1 where the row is null (missing). */
  get isNull(): Uint8Array {
    return Uint8Array.from({ length: this.length }, (_, i) => (this.array.isNull(i) ? 1 : 0));
  }

  /** The rows at `indices`, in that order. */
  take(indices: ArrayLike<number>): GeoSeries {
    return this.derive(this.array.take(indices), this.name);
  }

  /** The rows where `mask` is true or non-zero. */
  filter(mask: ArrayLike<boolean | number>): GeoSeries {
    return this.derive(this.array.filter(mask), this.name);
  }

  /** Rows `[start, end)`, sharing buffers with this series. */
  slice(start?: number, end?: number): GeoSeries {
    return this.derive(this.array.slice(start, end), this.name);
  }

  /** The first `n` rows (negative: all but the last |n|). */
  head(n = 5): GeoSeries {
    return this.slice(0, n < 0 ? this.length + n : n);
  }

  /**
   * The same geometries labelled with another CRS (coordinates unchanged). GeoPandas' `set_crs`:
   * replacing a different CRS the series already has is a `CrsError` unless `allowOverride`
   * (relabelling is rarely what is meant there: `toCrs` transforms).
   */
  setCrs(crs: Crs | null, options: { allowOverride?: boolean } = {}): GeoSeries {
    checkOptions(options, ['allowOverride'], 'setCrs');
    if (!options.allowOverride) checkSetCrs(this.crs, crs);
    return this.derive(this.array.withCrs(crs), this.name);
  }

  /** The same series under another name. */
  rename(name: string | null): GeoSeries {
    return this.derive(this.array, name);
  }

  /** WKT per row (null for null rows); full double precision unless `precision` is given. */
  toWKT(options: { precision?: number } = {}): (string | null)[] {
    checkOptions(options, ['precision'], 'toWKT');
    return writeWkt(this.array, options);
  }

  /** ISO WKB per row (null for null rows); each entry is a view into one shared buffer. */
  toWKB(): (Uint8Array | null)[] {
    const column = writeWkb(this.array);
    const out: (Uint8Array | null)[] = new Array(column.length);
    for (let i = 0; i < column.length; i++) {
      out[i] = this.array.isNull(i)
        ? null
        : column.values.subarray(Number(column.offsets[i]), Number(column.offsets[i + 1]));
    }
    return out;
  }

  /** A GeoJSON FeatureCollection string of the geometries. */
  toGeoJSON(options: { precision?: number } = {}): string {
    checkOptions(options, ['precision'], 'toGeoJSON');
    const { field, data } = geometryArrayToArrow(this.array, { name: 'geometry' });
    return writeGeoJson({ table: makeTable([field], [data]), primary: 'geometry' }, options);
  }

  /** The GeoArrow column: a field with extension metadata and its data (interleaved native, or WKB if mixed). */
  toArrow(options: { encoding?: 'native' | 'wkb' | 'wkt' } = {}): { field: Field; data: Data } {
    checkOptions(options, ['encoding'], 'toArrow');
    return geometryArrayToArrow(this.array, { name: this.name ?? 'geometry', ...options });
  }

  /**
   * An SVG picture of the series: polygons filled so that neighbours (polygons sharing an edge)
   * differ in colour, lines stroked, points as dots; `points` draws sites on top. See
   * {@link PlotOptions}.
   */
  plot(options: SeriesPlotOptions = {}): string {
    return plotSvg(this.array, plotOptionsOf(options));
  }

  /** The same picture as {@link plot}, as PNG bytes (rendered with resvg, loaded on first use). */
  plotPng(options: SeriesPlotOptions = {}): Promise<Uint8Array> {
    return plotPng(this.array, plotOptionsOf(options));
  }

  /** A readable summary for notebooks and the console: type, rows, CRS and the first/last rows as WKT. */
  toString(): string {
    return formatSeries(this.array, { name: this.name, crs: crsLabel(this.crs) });
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  /** HTML for notebooks and pages (Observable's `html`): first/last rows as WKT, type, CRS, and a small map. */
  toHTML(): string {
    return seriesHtml(this.array, { name: this.name, crs: crsLabel(this.crs) });
  }

  /** What the Deno Jupyter kernel shows for a series: the HTML table and map, or the text summary. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return { 'text/html': this.toHTML(), 'text/plain': this.toString() };
  }
}

/** The geometry column of a series argument (a GeoSeries or a bare GeometryArray). */
export function arrayOf(other: SeriesBase | GeometryArray): GeometryArray {
  return other instanceof SeriesBase ? other.array : other;
}

/** {@link PlotOptions} where `points` may also be a GeoSeries. */
export interface SeriesPlotOptions extends Omit<PlotOptions, 'points'> {
  points?: GeoSeries | GeometryArray;
}

function plotOptionsOf(options: SeriesPlotOptions): PlotOptions {
  const points = options.points instanceof SeriesBase ? options.points.array : options.points;
  return { ...options, points };
}
