import type { Crs, GeometryArray } from '@geoframe/core';
import {
  type DevicePolygons,
  residentArea,
  residentBounds,
  residentTake,
  residentTotalBounds,
} from '@geoframe/gpu';
import type { BoundsColumns, GeoSeries, VoronoiSeriesOptions } from '../geo-series.js';
import type { VoronoiRasterOptions } from '../raster/compute-voronoi-raster.js';
import type { VoronoiRaster } from '../raster/voronoi-raster.js';
import { boundsColumns } from '../series/series-measures.js';
import { singleRingPolygons } from '../voronoi/cell-arrays.js';
import { checkRings, withoutRepeatedPoints } from '../voronoi/output-check.js';

/**
 * A Polygon column whose buffers stay on the GPU: what `GeoSeries.voronoiPolygons({keep:
 * 'device'})` returns (adr/0032). It is not a GeoSeries: everything that reads it returns a
 * promise, because the data is on another device —
 *
 * - `area()`, `bounds()`, `totalBounds()` run on the GPU over the device buffers and bring back
 *   one value (or four) a row; the values equal the host's within its rounding (the device's
 *   area is exact and rounded once; bounds are exact);
 * - `take()` / `filter()` gather rows on the GPU into a new DeviceGeoSeries (the source stays);
 * - `toHost()` copies the column to the host once, as a GeoSeries equal to what `keep: 'host'`
 *   returns; it is cached, and everything else that needs host data (`centroid()`,
 *   `voronoiPolygons()`, `voronoiRaster()`, printing the geometries, writing files) goes through it;
 * - `destroy()` frees the GPU buffers now (the garbage collector does it for a dropped series);
 *   afterwards every device read throws `GpuResultReleasedError`, and after the device is lost
 *   `GpuDeviceLostError` — never stale data. A host copy already made stays valid.
 */
export class DeviceGeoSeries {
  readonly name: string | null;
  readonly crs: Crs | null;
  private readonly polygons: DevicePolygons;
  private readonly series: (array: GeometryArray, name: string | null) => GeoSeries;
  private host: Promise<GeoSeries> | null = null;

  /**
   * `series` wraps the host copy as a GeoSeries (handed in by GeoSeries itself, so that this
   * module does not import it: the two would import each other).
   */
  constructor(
    polygons: DevicePolygons,
    options: {
      name?: string | null;
      crs?: Crs | null;
      series: (array: GeometryArray, name: string | null) => GeoSeries;
    },
  ) {
    this.polygons = polygons;
    this.name = options.name ?? null;
    this.crs = options.crs ?? null;
    this.series = options.series;
  }

  /** Number of rows. */
  get length(): number {
    return this.polygons.rows;
  }

  /** The geometry type of every row. */
  get geomType(): 'Polygon' {
    return 'Polygon';
  }

  /** Whether {@link destroy} was called. */
  get destroyed(): boolean {
    return this.polygons.destroyed;
  }

  /** Planar area per row, computed on the GPU (exact, rounded once); the host copy's where the GPU declines. */
  async area(): Promise<Float64Array> {
    return (await residentArea(this.polygons)) ?? (await this.toHost()).area();
  }

  /** Per-row bounds as four columns (NaN for empty rows), computed on the GPU, exact. */
  async bounds(): Promise<BoundsColumns> {
    const flat = (await residentBounds(this.polygons)) ?? null;
    if (flat === null) return (await this.toHost()).bounds;
    return boundsColumns(flat, this.length);
  }

  /** The bounds of the whole column, `[minx, miny, maxx, maxy]`, reduced on the GPU. */
  totalBounds(): Promise<[number, number, number, number]> {
    return residentTotalBounds(this.polygons);
  }

  /** The centroid of each row, from the host copy (see the class notes). */
  async centroid(): Promise<GeoSeries> {
    return (await this.toHost()).centroid();
  }

  /** The rows at `indices` (repeats allowed), gathered on the GPU. */
  async take(indices: ArrayLike<number>): Promise<DeviceGeoSeries> {
    const picks = new Uint32Array(indices.length);
    for (let j = 0; j < indices.length; j++) {
      const i = indices[j];
      if (!Number.isInteger(i) || i < 0 || i >= this.length) {
        throw new RangeError(`take: index ${i} at position ${j} is outside 0..${this.length - 1}`);
      }
      picks[j] = i;
    }
    return this.derived(await residentTake(this.polygons, picks));
  }

  /** The rows where `mask` is true (or non-zero), gathered on the GPU. */
  filter(mask: ArrayLike<boolean | number>): Promise<DeviceGeoSeries> {
    if (mask.length !== this.length) {
      return Promise.reject(
        new RangeError(`filter: mask has ${mask.length} entries for ${this.length} rows`),
      );
    }
    const picks: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i]) picks.push(i);
    return this.take(picks);
  }

  /**
   * The column on the host, copied once (later calls return the same GeoSeries): the rings as
   * `keep: 'host'` gives them (repeated points removed, checked closed and finite).
   */
  toHost(): Promise<GeoSeries> {
    this.host ??= this.polygons.toHost().then((raw) => {
      const rings = withoutRepeatedPoints(raw);
      checkRings(rings.coords, rings.ringOffsets, (r) => `row ${r} of the device-resident cells`);
      return this.series(singleRingPolygons(rings.coords, rings.ringOffsets, this.crs), this.name);
    });
    const copy = this.host;
    // a failed copy (a lost device) is not kept: the error reaches this caller, the next one tries again
    copy.catch(() => {
      if (this.host === copy) this.host = null;
    });
    return copy;
  }

  /** Voronoi polygons of this column's vertices, from the host copy (see the class notes). */
  voronoiPolygons(options: VoronoiSeriesOptions & { keep: 'device' }): Promise<DeviceGeoSeries>;
  voronoiPolygons(options?: VoronoiSeriesOptions): Promise<GeoSeries>;
  async voronoiPolygons(options: VoronoiSeriesOptions = {}): Promise<GeoSeries | DeviceGeoSeries> {
    const host = await this.toHost();
    return options.keep === 'device'
      ? host.voronoiPolygons({ ...options, keep: 'device' })
      : host.voronoiPolygons({ ...options, keep: 'host' });
  }

  /** The raster Voronoi diagram of this column's vertices, from the host copy. */
  async voronoiRaster(options: VoronoiRasterOptions): Promise<VoronoiRaster> {
    return (await this.toHost()).voronoiRaster(options);
  }

  /** Frees the GPU buffers (at once, or when work on them ends); idempotent. */
  destroy(): void {
    this.polygons.destroy();
  }

  /** A summary that reads nothing from the device (print the host copy for the geometries). */
  toString(): string {
    const state = this.destroyed ? 'destroyed' : 'on the GPU; await toHost() to read the geometries';
    return `DeviceGeoSeries(${this.length} rows, Polygon${this.name ? `, name ${this.name}` : ''}: ${state})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  private derived(polygons: DevicePolygons): DeviceGeoSeries {
    return new DeviceGeoSeries(polygons, { name: this.name, crs: this.crs, series: this.series });
  }
}
