import {
  area,
  type BinaryColumn,
  bounds,
  type Crs,
  centroid,
  checkOptions,
  crsLabel,
  GeometryArray,
  GeometryType,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  geometryTypeName,
  InvalidGeometryError,
  lengthOf,
  readWkb,
  readWkt,
  totalBounds,
  validateGeometryArray,
  writeWkb,
  writeWkt,
} from '@geoframe/core';
import type { Data, Field, Vector } from 'apache-arrow';
import { type DeviceGeoSeries, voronoiOnDevice } from './device/voronoi-on-device-series.js';
import {
  type DispatchExplanation,
  type ExplainableOperation,
  type ExplainOptions,
  explainOperation,
} from './dispatch/explain.js';
import { formatSeries } from './display/format-series.js';
import { seriesHtml } from './display/html-table.js';
import { JUPYTER_DISPLAY, type MimeBundle } from './display/rich-display.js';
import { makeTable } from './frame/make-table.js';
import { readGeoJson, writeGeoJson } from './io/index.js';
import { type BlueNoiseOptions, sampleBlueNoise } from './ops/blue-noise.js';
import {
  type CentroidalVoronoiOptions,
  type CentroidalVoronoiResult,
  computeCentroidalVoronoi,
} from './ops/centroidal-voronoi.js';
import { type BufferOptions, buffer, convexHull, envelope, isValid, simplify } from './ops/constructive.js';
import { type CostAllocationOptions, computeCostAllocation } from './ops/cost-allocation.js';
import { checkSameCrs, checkSetCrs } from './ops/crs-resolve.js';
import { estimateUtmCrs } from './ops/estimate-utm-crs.js';
import { explode } from './ops/explode.js';
import { checkVoronoiCrs } from './ops/geographic-warning.js';
import { makeValid } from './ops/make-valid.js';
import { clipRows, rowwiseSetOperation, type SetOperation, unionAll } from './ops/overlay.js';
import { binaryPredicate, distanceRows, type Predicate } from './ops/predicates.js';
import { SpatialIndex } from './ops/sindex.js';
import { toCrs } from './ops/to-crs.js';
import { type PlotOptions, plotPng, plotSvg } from './plot/index.js';
import {
  computeVoronoiRaster,
  type VoronoiRasterOptions,
  type VoronoiVolumeOptions,
} from './raster/compute-voronoi-raster.js';
import type { CostAllocationRaster } from './raster/cost-allocation-raster.js';
import type { VoronoiRaster } from './raster/voronoi-raster.js';
import { computeDelaunay, type DelaunayOptions } from './voronoi/delaunay-triangles.js';
import { type VoronoiSeriesOptions, voronoiOptionsOf } from './voronoi/series-options.js';
import { computeVoronoi } from './voronoi/voronoi-polygons.js';

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

/** Per-row bounds as four columns, like GeoPandas' `bounds` DataFrame. NaN for null/empty rows. */
export interface BoundsColumns {
  minx: Float64Array;
  miny: Float64Array;
  maxx: Float64Array;
  maxy: Float64Array;
}

/**
 * A column of geometries with a CRS and a name — geoframe's GeoSeries. It wraps an immutable
 * {@link GeometryArray} (GeoArrow buffers); every method returns new data and never mutates the
 * caller's buffers. Null rows (missing) and empty geometries are distinct, as in GeoPandas.
 */
export class GeoSeries {
  readonly array: GeometryArray;
  readonly name: string | null;

  constructor(array: GeometryArray, options: { name?: string | null } = {}) {
    this.array = array;
    this.name = options.name ?? null;
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

  /** Per-row bounds as four columns; NaN for null and empty rows. */
  get bounds(): BoundsColumns {
    const flat = bounds(this.array);
    const n = this.length;
    const columns = {
      minx: new Float64Array(n),
      miny: new Float64Array(n),
      maxx: new Float64Array(n),
      maxy: new Float64Array(n),
    };
    for (let i = 0; i < n; i++) {
      columns.minx[i] = flat[4 * i];
      columns.miny[i] = flat[4 * i + 1];
      columns.maxx[i] = flat[4 * i + 2];
      columns.maxy[i] = flat[4 * i + 3];
    }
    return columns;
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
    return new GeoSeries(centroid(this.array), { name: this.name });
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

  /** The rows at `indices`, in that order. */
  take(indices: ArrayLike<number>): GeoSeries {
    return new GeoSeries(this.array.take(indices), { name: this.name });
  }

  /** The rows where `mask` is true or non-zero. */
  filter(mask: ArrayLike<boolean | number>): GeoSeries {
    return new GeoSeries(this.array.filter(mask), { name: this.name });
  }

  /** Rows `[start, end)`, sharing buffers with this series. */
  slice(start?: number, end?: number): GeoSeries {
    return new GeoSeries(this.array.slice(start, end), { name: this.name });
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
    return new GeoSeries(this.array.withCrs(crs), { name: this.name });
  }

  /** The same series under another name. */
  rename(name: string | null): GeoSeries {
    return new GeoSeries(this.array, { name });
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
   * Voronoi polygons of every vertex in this series (GeoPandas' `voronoi_polygons`), one per
   * unique site in order of first appearance — or one per row with `ordered`. See
   * {@link VoronoiOptions} for tolerance, extendTo, onlyEdges, ordered, clipTo and device.
   * Emits a dispatch event saying where it ran. The series is not modified.
   */
  voronoiPolygons(options: VoronoiSeriesOptions & { keep: 'device' }): Promise<DeviceGeoSeries>;
  voronoiPolygons(options?: VoronoiSeriesOptions): Promise<GeoSeries>;
  async voronoiPolygons(options: VoronoiSeriesOptions = {}): Promise<GeoSeries | DeviceGeoSeries> {
    const unwrapped = voronoiOptionsOf(options);
    checkVoronoiCrs(this.crs, unwrapped);
    if (options.keep === 'device') {
      return voronoiOnDevice(this, unwrapped, (array, name) => new GeoSeries(array, { name }));
    }
    const result = await computeVoronoi(this.array, unwrapped);
    return new GeoSeries(result.geometry, { name: this.name });
  }

  /**
   * The raster Voronoi diagram of this series' points on a `width × height` grid over `bounds`
   * (default: the points' bounding box): per pixel, the row whose point is nearest to the pixel
   * centre (ties to the lower row). `mode` picks the algorithm ('exact' by default; the JFA
   * family is approximate), `device` where it runs. Null and empty rows are skipped; other
   * non-point rows and non-finite points are errors naming the row. See docs/raster.md.
   */
  voronoiRaster(options: VoronoiRasterOptions): Promise<VoronoiRaster> {
    return computeVoronoiRaster(this.array, 2, [options.width, options.height], options, asSeries);
  }

  /**
   * The 3D raster Voronoi diagram on an `nx × ny × nz` voxel grid: points with z, or xy points at
   * the plane `z`. Otherwise as {@link voronoiRaster}.
   */
  voronoiVolume(options: VoronoiVolumeOptions): Promise<VoronoiRaster> {
    return computeVoronoiRaster(this.array, 3, options.dims, options, asSeries);
  }

  /**
   * Cost allocation over a cost raster (`cost`: 2D `{values, width, height, bounds}` or 3D
   * `{values, dims, bounds}`, NaN cells barriers): per cell, the row of the source point it
   * reaches most cheaply and that accumulated cost, a step costing its length × the mean of the
   * two cells' values (`metric` 'cost') or of their inverses ('compliance'). Equal costs go to
   * the lower row. Points are the sources (with z in 3D); null and empty rows are skipped; a
   * point outside the raster or in a barrier is an error naming its row. See
   * docs/cost-allocation.md.
   */
  costAllocation(options: CostAllocationOptions): Promise<CostAllocationRaster> {
    return computeCostAllocation(this.array, options, (array) => new GeoSeries(array));
  }

  /**
   * The centroidal Voronoi tessellation of this series' points (docs/cvt.md): Lloyd or L-BFGS
   * moves the sites until each sits at the ρ-centroid of its cell in `region` (default: the
   * points' bounding box grown by 5 % of its larger side). Returns the final sites and their
   * cells clipped to the region, one row per input row, with the energy and gradient norm per
   * iterate. Null and empty rows stay null; other bad input is a CvtError or names its row.
   */
  centroidalVoronoi(options: CentroidalVoronoiOptions = {}): Promise<CentroidalVoronoiResult> {
    return computeCentroidalVoronoi(this.array, options, asSeries, (cells) => cells.rename(this.name));
  }

  /** `n` blue-noise points over `region` under `density`: a seeded random start, then a CVT (docs/cvt.md). */
  static sampleBlueNoise(n: number, options: BlueNoiseOptions): Promise<GeoSeries> {
    return sampleBlueNoise(n, options, asSeries);
  }

  /**
   * The Delaunay triangulation of every vertex (GeoPandas' `delaunay_triangles`): one triangle
   * Polygon per row, or one LineString per unique edge with `onlyEdges`.
   */
  async delaunayTriangles(options: DelaunayOptions = {}): Promise<GeoSeries> {
    return new GeoSeries((await computeDelaunay(this.array, options)).geometry, { name: this.name });
  }

  /**
   * Where `op` ('voronoiPolygons', 'delaunayTriangles', 'voronoiRaster', 'voronoiVolume') would
   * run with `options` and why — `{kernel, rows, path, reason, crossover, measured,
   * gpuImplemented}` — without running it or emitting a dispatch event. `rows` is the size the
   * operation dispatches on (unique sites after `tolerance`; pixels or voxels); invalid options
   * throw as the operation would. An unknown `op` is a TypeError listing the known ones.
   */
  explain<Op extends ExplainableOperation>(op: Op, options?: ExplainOptions[Op]): DispatchExplanation {
    return explainOperation(this.array, op, options);
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

  /**
   * The geometries transformed to `crs` (GeoPandas' `to_crs`): EPSG codes proj4 knows (4326,
   * 4269, 3857, WGS 84 / UTM), PROJJSON, WKT or proj strings; x = longitude/easting as in
   * GeoPandas. A series without a CRS, or an unknown CRS, is a `CrsError`.
   */
  toCrs(crs: Crs): GeoSeries {
    return new GeoSeries(toCrs(this.array, crs), { name: this.name });
  }

  /** The WGS 84 / UTM CRS ("EPSG:326zz"/"EPSG:327zz") for the centre of the bounds (GeoPandas' `estimate_utm_crs`). */
  estimateUtmCrs(): string {
    return estimateUtmCrs(this.array);
  }

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
    const b = other instanceof GeoSeries ? other.array : other;
    checkSameCrs(this.crs, b.crs, name);
    return binaryPredicate(this.array, b, name);
  }

  /** Planar distance to `other`'s row (GeoPandas' `distance`; a one-row `other` is broadcast); NaN for null/empty rows. */
  distance(other: GeoSeries | GeometryArray): Float64Array {
    const b = other instanceof GeoSeries ? other.array : other;
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

  /** Each row grown by `distance` (GeoPandas' `buffer`; 16 segments per quarter circle by default). Runs on jsts, one object per row. */
  buffer(distance: number, options: BufferOptions = {}): GeoSeries {
    return new GeoSeries(buffer(this.array, distance, options), { name: this.name });
  }

  /** Each row simplified within `tolerance` (GeoPandas' `simplify`; topology preserved unless `preserveTopology: false`). */
  simplify(tolerance: number, options: { preserveTopology?: boolean } = {}): GeoSeries {
    return new GeoSeries(simplify(this.array, tolerance, options.preserveTopology ?? true), {
      name: this.name,
    });
  }

  /** The convex hull of each row (GeoPandas' `convex_hull`). */
  convexHull(): GeoSeries {
    return new GeoSeries(convexHull(this.array), { name: this.name });
  }

  /** The bounding rectangle of each row (GeoPandas' `envelope`). */
  envelope(): GeoSeries {
    return new GeoSeries(envelope(this.array), { name: this.name });
  }

  /** 1 where the row is a valid geometry (GeoPandas' `is_valid`; 0 for null rows). */
  get isValid(): Uint8Array {
    return isValid(this.array);
  }

  /** Each row made valid (GeoPandas' `make_valid`, the 'linework' method for areas; collapsed lines dropped). */
  makeValid(): GeoSeries {
    return new GeoSeries(makeValid(this.array), { name: this.name });
  }

  /** The union of all rows as a one-row series (GeoPandas' `union_all()`; nulls skipped). */
  unionAll(): GeoSeries {
    return new GeoSeries(unionAll(this.array), { name: this.name });
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
    const b = other instanceof GeoSeries ? other.array : other;
    checkSameCrs(this.crs, b.crs, op);
    return new GeoSeries(rowwiseSetOperation(op, this.array, b), { name: this.name });
  }

  /** Multi-part rows split into one row per part; null and empty rows dropped (GeoPandas' `explode(index_parts=False)`). */
  explode(): GeoSeries {
    return new GeoSeries(explode(this.array).geometry, { name: this.name });
  }

  /** The rows that meet `mask`, cut to it (GeoPandas' `clip`, keeping each row's dimension). */
  clip(mask: GeoSeries | GeometryArray): GeoSeries {
    const m = mask instanceof GeoSeries ? mask.array : mask;
    checkSameCrs(this.crs, m.crs, 'clip');
    return new GeoSeries(clipRows(this.array, m).geometry, { name: this.name });
  }
}

/** A series of the cells a raster traces (see `VoronoiRaster.toPolygons`). */
function asSeries(array: GeometryArray): GeoSeries {
  return new GeoSeries(array);
}

/** {@link PlotOptions} where `points` may also be a GeoSeries. */
export interface SeriesPlotOptions extends Omit<PlotOptions, 'points'> {
  points?: GeoSeries | GeometryArray;
}

function plotOptionsOf(options: SeriesPlotOptions): PlotOptions {
  const points = options.points instanceof GeoSeries ? options.points.array : options.points;
  return { ...options, points };
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
