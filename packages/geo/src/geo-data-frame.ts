import {
  type Crs,
  checkOptions,
  crsLabel,
  type GeometryArray,
  geometryArrayFromArrow,
  isGeoArrowField,
  validateGeometryArray,
} from '@geoframe/core';
import { type Data, type Field, Table, type Vector } from 'apache-arrow';
import {
  type DispatchExplanation,
  type ExplainOptions,
  explainOperation,
  FRAME_EXPLAINABLE,
} from './dispatch/explain.js';
import { formatFrame } from './display/format-frame.js';
import { frameHtml } from './display/html-table.js';
import { JUPYTER_DISPLAY, type MimeBundle } from './display/rich-display.js';
import type { ColumnInput } from './frame/column-data.js';
import { concatTables } from './frame/concat.js';
import { assignColumns, dropColumns, renameColumns } from './frame/edit-columns.js';
import { makeTable } from './frame/make-table.js';
import { type MergeOptions, mergeTables } from './frame/merge.js';
import { plotColumn } from './frame/plot-column.js';
import { type SortByOptions, sortIndices } from './frame/sort-by.js';
import { takeColumn } from './frame/take-column.js';
import { countBy, type ValueCountsOptions, valueCounts } from './frame/value-counts.js';
import {
  GeoSeries,
  type SeriesPlotOptions,
  type VoronoiSeriesOptions,
  voronoiOptionsOf,
} from './geo-series.js';
import { readGeoJson, type WriteGeoJsonOptions, writeGeoJson } from './io/index.js';
import {
  type CentroidalVoronoiOptions,
  type CentroidalVoronoiResult,
  computeCentroidalVoronoi,
} from './ops/centroidal-voronoi.js';
import { type CostAllocationOptions, computeCostAllocation } from './ops/cost-allocation.js';
import { checkSameCrs } from './ops/crs-resolve.js';
import { type DissolveOptions, dissolveTable } from './ops/dissolve.js';
import { explode } from './ops/explode.js';
import { checkVoronoiCrs } from './ops/geographic-warning.js';
import { clipRows, type OverlayHow } from './ops/overlay.js';
import { overlayTable, replaceRows } from './ops/overlay-table.js';
import {
  type JoinSide,
  joinTable,
  type SjoinNearestOptions,
  type SjoinOptions,
  sjoinNearestPairs,
  sjoinPairs,
} from './ops/sjoin.js';
import type { CostAllocationRaster } from './raster/cost-allocation-raster.js';
import type { DelaunayOptions } from './voronoi/delaunay-triangles.js';
import { computeVoronoi } from './voronoi/voronoi-polygons.js';

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

/** Options of {@link GeoDataFrame.fromArrow}. */
export interface GeoDataFrameOptions {
  /** The active geometry column; default: the column named "geometry", else the first GeoArrow column. */
  geometry?: string;
  /** Check the active geometry column (offsets, rings, finite coordinates; default true). */
  validate?: boolean;
}

/**
 * A table with an active geometry column — geoframe's GeoDataFrame. It wraps an Arrow `Table`:
 * geometry columns are GeoArrow fields; every other column is kept untouched (types, metadata,
 * dictionaries). Operations return new frames; the caller's table is never modified.
 */
export class GeoDataFrame {
  readonly table: Table;
  /** Name of the active geometry column. */
  readonly geometryName: string;
  private geometryCache?: GeoSeries;

  private constructor(table: Table, geometryName: string, geometry?: GeoSeries) {
    this.table = table;
    this.geometryName = geometryName;
    this.geometryCache = geometry;
  }

  /** Wraps an Arrow table whose geometry columns carry GeoArrow extension metadata. */
  static fromArrow(table: Table, options: GeoDataFrameOptions = {}): GeoDataFrame {
    checkOptions(options, ['geometry', 'validate'], 'fromArrow');
    const name = options.geometry ?? defaultGeometryName(table);
    if (name === null) {
      throw new TypeError(
        `fromArrow: the table has no GeoArrow geometry column (columns: ${table.schema.fields.map((f) => f.name).join(', ')}); pass {geometry: name} with a WKB/WKT column`,
      );
    }
    const field = table.schema.fields.find((f) => f.name === name);
    if (!field) throw new TypeError(`fromArrow: no column named "${name}"`);
    const frame = new GeoDataFrame(table, name);
    // decode the active geometry now, so bad input fails here and names its row
    if (options.validate !== false) validateGeometryArray(frame.geometry.array);
    return frame;
  }

  /** From a GeoJSON FeatureCollection (or Feature, geometry, array of either): properties become columns. */
  static fromGeoJSON(input: string | object, options: GeoDataFrameOptions = {}): GeoDataFrame {
    checkOptions(options, ['geometry', 'validate'], 'fromGeoJSON');
    const { table, primary } = readGeoJson(input);
    return GeoDataFrame.fromArrow(table, { geometry: primary ?? undefined, ...options });
  }

  /** A frame from a GeoSeries and optional attribute columns (Arrow vectors of the same length). */
  static fromSeries(geometry: GeoSeries, columns: Record<string, Vector> = {}): GeoDataFrame {
    const name = geometry.name ?? 'geometry';
    const { field, data } = geometry.toArrow();
    const fields: Field[] = [];
    const datas: Data[] = [];
    for (const [key, vector] of Object.entries(columns)) {
      if (vector.length !== geometry.length) {
        throw new RangeError(
          `fromSeries: column ${key} has ${vector.length} rows, the geometry ${geometry.length}`,
        );
      }
      const table = new Table({ [key]: vector });
      fields.push(table.schema.fields[0]);
      datas.push(singleChunk(vector));
    }
    fields.push(field.name === name ? field : field.clone({ name }));
    datas.push(data);
    return new GeoDataFrame(makeTable(fields, datas), name, geometry.rename(name));
  }

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
    return GeoDataFrame.fromArrow(this.table, { geometry: name });
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
    return new GeoDataFrame(makeTable(fields, datas, this.table.schema.metadata), this.geometryName);
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
    return new GeoDataFrame(this.table.slice(0, end), this.geometryName);
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
    return new GeoDataFrame(makeTable(fields, datas, this.table.schema.metadata), name, series.rename(name));
  }

  /**
   * Voronoi cells of the active geometry's vertices, as a frame that keeps attributes: by default
   * one row per unique site with the columns of the row where the site first appears; with
   * `ordered`, one row per input row with every column unchanged (service areas keep their
   * attributes). With `onlyEdges`, a one-row frame holding only the edges.
   */
  async voronoiPolygons(options: VoronoiSeriesOptions = {}): Promise<GeoDataFrame> {
    const unwrapped = voronoiOptionsOf(options);
    checkVoronoiCrs(this.crs, unwrapped);
    const result = await computeVoronoi(this.geometry.array, unwrapped);
    const cells = new GeoSeries(result.geometry, { name: this.geometryName });
    if (options.onlyEdges) return GeoDataFrame.fromSeries(cells);
    const base = options.ordered ? this : this.take(result.rows);
    return base.withGeometry(cells);
  }

  /**
   * Cost allocation with the active geometry's points as sources (see GeoSeries.costAllocation);
   * the result's `toPolygons()` is a frame with one row per input row and every column kept.
   */
  costAllocation(options: CostAllocationOptions): Promise<CostAllocationRaster<GeoDataFrame>> {
    return computeCostAllocation(
      this.geometry.array,
      options,
      (array) => new GeoSeries(array),
      (cells) => this.withGeometry(cells.rename(this.geometryName)),
    );
  }

  /**
   * The centroidal Voronoi tessellation of the active geometry's points (see
   * GeoSeries.centroidalVoronoi); `cells` is this frame with every column kept and the cells as
   * its geometry, one row per input row.
   */
  centroidalVoronoi(options: CentroidalVoronoiOptions = {}): Promise<CentroidalVoronoiResult<GeoDataFrame>> {
    return computeCentroidalVoronoi(
      this.geometry.array,
      options,
      (array) => new GeoSeries(array),
      (cells) => this.withGeometry(cells.rename(this.geometryName)),
    );
  }

  /** Delaunay triangles (or edges) of the active geometry's vertices, as a GeoSeries. */
  async delaunayTriangles(options: DelaunayOptions = {}): Promise<GeoSeries> {
    return this.geometry.delaunayTriangles(options);
  }

  /**
   * Where `op` ('voronoiPolygons' or 'delaunayTriangles') on the active geometry would run and
   * why, without running it or emitting an event (see GeoSeries.explain).
   */
  explain<Op extends (typeof FRAME_EXPLAINABLE)[number]>(
    op: Op,
    options?: ExplainOptions[Op],
  ): DispatchExplanation {
    return explainOperation(this.geometry.array, op, options, FRAME_EXPLAINABLE);
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

  /** Planar area of the active geometry per row. */
  area(): Float64Array {
    return this.geometry.area();
  }

  /** Planar length of the active geometry per row. */
  lengthOf(): Float64Array {
    return this.geometry.lengthOf();
  }

  /** Per-row bounds of the active geometry. */
  get bounds() {
    return this.geometry.bounds;
  }

  /** Bounds of the active geometry over all rows. */
  get totalBounds(): [number, number, number, number] {
    return this.geometry.totalBounds;
  }

  /** Centroids of the active geometry. */
  centroid(): GeoSeries {
    return this.geometry.centroid();
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

  /** The frame with its active geometry transformed to `crs` (GeoPandas' `to_crs`; see GeoSeries.toCrs). */
  toCrs(crs: Crs): GeoDataFrame {
    return this.withGeometry(this.geometry.toCrs(crs));
  }

  /** The WGS 84 / UTM CRS for the centre of the active geometry's bounds (GeoPandas' `estimate_utm_crs`). */
  estimateUtmCrs(): string {
    return this.geometry.estimateUtmCrs();
  }

  /**
   * Spatial join (GeoPandas' `sjoin`): rows of this frame paired with rows of `right` where
   * `predicate(left, right)` holds, in GeoPandas' shape — left columns, `index_right` (right row
   * positions), right columns; `_left`/`_right` suffixes on clashing names. See {@link SjoinOptions}.
   * Different CRS on the two sides is a `CrsError`.
   */
  sjoin(right: GeoDataFrame, options: SjoinOptions = {}): GeoDataFrame {
    const [l, r] = [joinSide(this), joinSide(right)];
    const { table, geometryName } = joinTable(l, r, sjoinPairs(l, r, options), options);
    return GeoDataFrame.fromArrow(table, { geometry: geometryName, validate: false });
  }

  /**
   * Nearest join (GeoPandas' `sjoin_nearest`): each row with the nearest rows of `right` (all ties),
   * within `maxDistance`, with the distance in `distanceCol` when named. Shape as {@link sjoin}.
   */
  sjoinNearest(right: GeoDataFrame, options: SjoinNearestOptions = {}): GeoDataFrame {
    const [l, r] = [joinSide(this), joinSide(right)];
    const { table, geometryName } = joinTable(l, r, sjoinNearestPairs(l, r, options), options);
    return GeoDataFrame.fromArrow(table, { geometry: geometryName, validate: false });
  }

  /** The frame with its active geometry labelled `crs` (coordinates unchanged; GeoPandas' `set_crs`, see GeoSeries.setCrs). */
  setCrs(crs: Crs | null, options: { allowOverride?: boolean } = {}): GeoDataFrame {
    return this.withGeometry(this.geometry.setCrs(crs, options));
  }

  /** Multi-part rows split into one row per part, other columns repeated; null and empty rows dropped (GeoPandas' `explode(index_parts=False)`). */
  explode(): GeoDataFrame {
    const { geometry, rows } = explode(this.geometry.array);
    return GeoDataFrame.fromArrow(replaceRows(this.table, this.geometryName, rows, geometry), {
      geometry: this.geometryName,
      validate: false,
    });
  }

  /** The rows that meet `mask`, their geometry cut to it (GeoPandas' `clip`, keeping each row's dimension). */
  clip(mask: GeoSeries | GeoDataFrame): GeoDataFrame {
    const m = mask instanceof GeoDataFrame ? mask.geometry : mask;
    checkSameCrs(this.crs, m.crs, 'clip');
    const { rows, geometry } = clipRows(this.geometry.array, m.array);
    return GeoDataFrame.fromArrow(replaceRows(this.table, this.geometryName, rows, geometry), {
      geometry: this.geometryName,
      validate: false,
    });
  }

  /**
   * Geometries merged per group of `by` (GeoPandas' `dissolve(by, aggfunc).reset_index()`): one
   * row per distinct value, sorted; see {@link DissolveOptions}.
   */
  dissolve(options: DissolveOptions = {}): GeoDataFrame {
    const table = dissolveTable(this.table, this.geometryName, this.geometry.array, options);
    return GeoDataFrame.fromArrow(table, { geometry: this.geometryName, validate: false });
  }

  /**
   * GeoPandas' `overlay(self, other, how)`: 'intersection' (default), 'union', 'identity',
   * 'symmetric_difference' or 'difference' of the two frames' geometries, with both sides' columns.
   */
  overlay(other: GeoDataFrame, options: { how?: OverlayHow } = {}): GeoDataFrame {
    const table = overlayTable(joinSide(this), joinSide(other), options.how ?? 'intersection');
    return GeoDataFrame.fromArrow(table, { geometry: this.geometryName, validate: false });
  }

  /** pandas' `assign`: columns replaced in place or appended (values: Arrow vector, array, one value, or a GeoSeries). */
  assign(columns: Record<string, ColumnInput | GeoSeries>): GeoDataFrame {
    const specs = Object.fromEntries(
      Object.entries(columns).map(([k, v]) => [k, v instanceof GeoSeries ? v.toArrow() : v]),
    );
    return this.rebuilt(assignColumns(this.table, this.geometryName, specs));
  }

  /** One column replaced or appended (see {@link assign}). */
  withColumn(name: string, values: ColumnInput | GeoSeries): GeoDataFrame {
    return this.assign({ [name]: values });
  }

  /** Rows sorted by one or more columns, stable, nulls last (pandas' `sort_values(by, kind='stable')`). */
  sortBy(by: string | string[], options: SortByOptions = {}): GeoDataFrame {
    return this.take(sortIndices(this.table, by, options));
  }

  /** Columns renamed by `{old: new}` (pandas' `rename(columns=…, errors='raise')`); the active geometry follows its name. */
  rename(mapping: Record<string, string>): GeoDataFrame {
    const { table, geometryName } = renameColumns(this.table, this.geometryName, mapping);
    return GeoDataFrame.fromArrow(table, { geometry: geometryName, validate: false });
  }

  /** The frame without the named columns (pandas' `drop(columns=…)`). */
  drop(columns: string | string[]): GeoDataFrame {
    return this.rebuilt(
      dropColumns(this.table, this.geometryName, typeof columns === 'string' ? [columns] : columns),
    );
  }

  /** pandas' `merge` on attribute columns, keeping this frame's geometry active (see {@link MergeOptions}). */
  merge(right: GeoDataFrame | Table, options: MergeOptions = {}): GeoDataFrame {
    const r = right instanceof GeoDataFrame ? right.table : right;
    const { table, geometryName } = mergeTables(this.table, this.geometryName, r, options);
    return GeoDataFrame.fromArrow(table, { geometry: geometryName, validate: false });
  }

  /** Distinct values of a column and their counts, most frequent first (pandas' `value_counts().reset_index()`), as a table. */
  valueCounts(column: string, options: ValueCountsOptions = {}): Table {
    return valueCounts(this.table, column, options);
  }

  /** Rows per value of `by`, keys ascending (pandas' `groupby(by).size()`): e.g. points per `index_right` after a join. */
  countBy(by: string): Table {
    return countBy(this.table, by);
  }

  /** A GeoJSON FeatureCollection string: other columns become properties (GeoPandas' `to_json`; the CRS as writeGeoJson records it). */
  toGeoJSON(options: WriteGeoJsonOptions = {}): string {
    return writeGeoJson({ table: this.table, primary: this.geometryName }, options);
  }

  private rebuilt(table: Table): GeoDataFrame {
    return GeoDataFrame.fromArrow(table, { geometry: this.geometryName, validate: false });
  }
}

/** GeoPandas' `gpd.overlay(df1, df2, how)`: the same as `df1.overlay(df2, {how})`. */
export function overlay(
  df1: GeoDataFrame,
  df2: GeoDataFrame,
  options: { how?: OverlayHow } = {},
): GeoDataFrame {
  return df1.overlay(df2, options);
}

/** GeoPandas' `gpd.clip(gdf, mask)`: the same as `gdf.clip(mask)`. */
export function clip(gdf: GeoDataFrame, mask: GeoSeries | GeoDataFrame): GeoDataFrame {
  return gdf.clip(mask);
}

/** A frame as one side of a join (its table, active geometry and that geometry's cached index). */
function joinSide(frame: GeoDataFrame): JoinSide {
  const geometry = frame.geometry;
  return {
    table: frame.table,
    geometryName: frame.geometryName,
    geometry: geometry.array,
    index: geometry.sindex,
  };
}

/** GeoPandas' `gpd.sjoin(left, right, …)`: the same as `left.sjoin(right, …)`. */
export function sjoin(left: GeoDataFrame, right: GeoDataFrame, options: SjoinOptions = {}): GeoDataFrame {
  return left.sjoin(right, options);
}

/** GeoPandas' `gpd.sjoin_nearest(left, right, …)`: the same as `left.sjoinNearest(right, …)`. */
export function sjoinNearest(
  left: GeoDataFrame,
  right: GeoDataFrame,
  options: SjoinNearestOptions = {},
): GeoDataFrame {
  return left.sjoinNearest(right, options);
}

/** "geometry" if that column is GeoArrow, else the first GeoArrow column, else null. */
function defaultGeometryName(table: Table): string | null {
  const geo = table.schema.fields.filter((f) => isGeoArrowField(f));
  return (geo.find((f) => f.name === 'geometry') ?? geo[0])?.name ?? null;
}

/** The encoding a geometry column is written back in: WKB and WKT stay so, native stays native. */
function encodingOf(field: Field): 'native' | 'wkb' | 'wkt' {
  const name = field.metadata.get('ARROW:extension:name');
  if (name === 'geoarrow.wkb' || name === 'ogc.wkb') return 'wkb';
  if (name === 'geoarrow.wkt' || name === 'ogc.wkt') return 'wkt';
  return 'native';
}

function singleChunk(vector: Vector): Data {
  if (vector.data.length === 1) return vector.data[0];
  return takeColumn(
    vector,
    Array.from({ length: vector.length }, (_, i) => i),
  );
}

/**
 * GeoPandas' `pd.concat(frames, ignore_index=True)`: rows of every frame in order, columns aligned
 * (a column a frame lacks is null there). The active geometries must share a name and a CRS
 * (a frame without a CRS takes the others'); different CRS are a `CrsError`.
 */
export function concat(frames: GeoDataFrame[]): GeoDataFrame {
  if (frames.length === 0) throw new RangeError('concat: no frames to concatenate');
  const name = frames[0].geometryName;
  for (const f of frames) {
    if (f.geometryName !== name) {
      throw new TypeError(
        `concat: active geometry columns differ ("${name}" and "${f.geometryName}"); rename one`,
      );
    }
  }
  for (const a of frames) for (const b of frames) checkSameCrs(a.crs, b.crs, 'concat');
  return GeoDataFrame.fromArrow(concatTables(frames.map((f) => f.table)), {
    geometry: name,
    validate: false,
  });
}
