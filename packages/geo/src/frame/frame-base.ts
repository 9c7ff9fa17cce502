import {
  type Crs,
  crsLabel,
  type GeometryArray,
  geometryArrayFromArrow,
  isGeoArrowField,
} from '@geoframe/core';
import type { Data, Field, Table, Vector } from 'apache-arrow';
import { formatFrame } from '../display/format-frame.js';
import { frameHtml } from '../display/html-table.js';
import { JUPYTER_DISPLAY, type MimeBundle } from '../display/rich-display.js';
import type { GeoDataFrame, GeoDataFrameOptions } from '../geo-data-frame.js';
import { GeoSeries, type SeriesPlotOptions } from '../geo-series.js';
import { type WriteGeoJsonOptions, writeGeoJson } from '../io/index.js';
import { encodingOf, singleChunk } from './frame-tables.js';
import { makeTable } from './make-table.js';
import { plotColumn } from './plot-column.js';
import { takeColumn } from './take-column.js';

// GeoDataFrame is built in layers, one concern a file, each a class the next extends:
// FrameBase (columns, rows, the active geometry, conversions, display) → FrameSpatial
// (geometry operations and joins) → FrameColumns (pandas' column verbs) → GeoDataFrame (the
// constructors). A layer makes new frames through `derive` and `fromTable`, which GeoDataFrame
// implements, so no layer imports GeoDataFrame at run time.

/** Plot options of a frame: `column` may name one of its columns. */
export interface FramePlotOptions extends Omit<SeriesPlotOptions, 'column'> {
  column?: string | SeriesPlotOptions['column'];
}

function framePlotOptions(table: Table, options: FramePlotOptions): SeriesPlotOptions {
  if (options === null || typeof options !== 'object' || options.column === undefined) {
    return options as SeriesPlotOptions;
  }
  const { values, label } = plotColumn(table, options.column);
  return { ...options, column: values, legendLabel: options.legendLabel ?? label };
}

/**
 * The table of a GeoDataFrame: its columns and rows, the active geometry, the conversions, the
 * pictures and the notebook display.
 */
export abstract class FrameBase {
  readonly table: Table;
  /** Name of the active geometry column. */
  readonly geometryName: string;
  private geometryCache?: GeoSeries;

  protected constructor(table: Table, geometryName: string, geometry?: GeoSeries) {
    this.table = table;
    this.geometryName = geometryName;
    this.geometryCache = geometry;
  }

  /** A frame of `table` with the active geometry `geometryName` (decoded from `geometry` if given). */
  protected abstract derive(table: Table, geometryName: string, geometry?: GeoSeries): GeoDataFrame;

  /** `GeoDataFrame.fromArrow(table, options)`: how a layer wraps a table it built. */
  protected abstract fromTable(table: Table, options: GeoDataFrameOptions): GeoDataFrame;

  /** The active geometry column as a GeoSeries (decoded once, then cached). */
  get geometry(): GeoSeries {
    if (!this.geometryCache) this.geometryCache = this.seriesOf(this.geometryName);
    return this.geometryCache;
  }

  /** Number of rows. */
  get length(): number {
    return this.table.numRows;
  }

  /** Column names, in order. */
  get columns(): string[] {
    return this.table.schema.fields.map((f) => f.name);
  }

  /** CRS of the active geometry column. */
  get crs(): Crs | null {
    return this.geometry.crs;
  }

  /** Names of all GeoArrow geometry columns. */
  get geometryColumns(): string[] {
    return this.table.schema.fields.filter((f) => isGeoArrowField(f)).map((f) => f.name);
  }

  /** A column: a GeoSeries for geometry columns, else the Arrow vector. */
  get(name: string): GeoSeries | Vector {
    const field = this.field(name);
    if (name === this.geometryName) return this.geometry;
    if (isGeoArrowField(field)) return this.seriesOf(name);
    return this.table.getChild(name)!;
  }

  /** Another column (a GeoArrow one, or WKB/WKT) becomes the active geometry. GeoPandas' `set_geometry`. */
  setGeometry(name: string): GeoDataFrame {
    this.field(name);
    return this.fromTable(this.table, { geometry: name });
  }

  /** The rows at `indices`, in that order; every column gathered. */
  take(indices: ArrayLike<number>): GeoDataFrame {
    const fields: Field[] = [];
    const datas: Data[] = [];
    for (const f of this.table.schema.fields) {
      if (isGeoArrowField(f)) {
        const taken = (this.get(f.name) as GeoSeries).take(indices).toArrow({ encoding: encodingOf(f) });
        fields.push(taken.field.clone({ name: f.name }));
        datas.push(taken.data);
      } else {
        fields.push(f);
        datas.push(takeColumn(this.table.getChild(f.name)!, indices));
      }
    }
    return this.derive(makeTable(fields, datas, this.table.schema.metadata), this.geometryName);
  }

  /** The rows where `mask` is true or non-zero. */
  filter(mask: ArrayLike<boolean | number>): GeoDataFrame {
    if (mask.length !== this.length)
      throw new RangeError(`filter: mask has ${mask.length} entries for ${this.length} rows`);
    const indices: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i]) indices.push(i);
    return this.take(indices);
  }

  /** The first `n` rows (negative: all but the last |n|); shares buffers. */
  head(n = 5): GeoDataFrame {
    const end = n < 0 ? Math.max(0, this.length + n) : Math.min(n, this.length);
    return this.derive(this.table.slice(0, end), this.geometryName);
  }

  /**
   * The frame with `series` as its active geometry (same number of rows), replacing the active
   * column (or adding one under the series' name). Other columns are kept as they are.
   */
  withGeometry(series: GeoSeries): GeoDataFrame {
    if (series.length !== this.length) {
      throw new RangeError(`withGeometry: the series has ${series.length} rows, the frame ${this.length}`);
    }
    const name = this.geometryName;
    const { field, data } = series.toArrow();
    const fields: Field[] = [];
    const datas: Data[] = [];
    for (const f of this.table.schema.fields) {
      fields.push(f.name === name ? field.clone({ name }) : f);
      datas.push(f.name === name ? data : singleChunk(this.table.getChild(f.name)!));
    }
    return this.derive(makeTable(fields, datas, this.table.schema.metadata), name, series.rename(name));
  }

  /**
   * An SVG picture of the active geometry (see GeoSeries.plot); `column` names the column to
   * colour by (GeoPandas' `plot(column=…)`), its name heading the legend.
   */
  plot(options: FramePlotOptions = {}): string {
    return this.geometry.plot(framePlotOptions(this.table, options));
  }

  /** A PNG picture of the active geometry (see {@link plot}). */
  plotPng(options: FramePlotOptions = {}): Promise<Uint8Array> {
    return this.geometry.plotPng(framePlotOptions(this.table, options));
  }

  /** The Arrow table (the same object; treat it as read-only). */
  toArrow(): Table {
    return this.table;
  }

  /** A readable table for notebooks and the console (first and last rows, geometry as WKT). */
  toString(): string {
    return formatFrame(this.table, this.geometry.array, {
      geometryName: this.geometryName,
      crs: crsLabel(this.crs),
    });
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  /** HTML for notebooks and pages (Observable's `html`): first/last rows, shape, CRS, and a small map. */
  toHTML(): string {
    return frameHtml(this.table, this.geometry.array, {
      geometryName: this.geometryName,
      crs: crsLabel(this.crs),
    });
  }

  /** What the Deno Jupyter kernel shows for a frame: the HTML table and map, or the text summary. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return { 'text/html': this.toHTML(), 'text/plain': this.toString() };
  }

  /** A GeoJSON FeatureCollection string: other columns become properties (GeoPandas' `to_json`; the CRS as writeGeoJson records it). */
  toGeoJSON(options: WriteGeoJsonOptions = {}): string {
    return writeGeoJson({ table: this.table, primary: this.geometryName }, options);
  }

  /** The table as a frame with the same active geometry, not validated again. */
  protected rebuilt(table: Table): GeoDataFrame {
    return this.fromTable(table, { geometry: this.geometryName, validate: false });
  }

  private field(name: string): Field {
    const field = this.table.schema.fields.find((f) => f.name === name);
    if (!field) throw new RangeError(`no column named "${name}" (columns: ${this.columns.join(', ')})`);
    return field;
  }

  private seriesOf(name: string): GeoSeries {
    const field = this.field(name);
    const array: GeometryArray = geometryArrayFromArrow(this.table.getChild(name)!, { field });
    return new GeoSeries(array, { name });
  }
}
