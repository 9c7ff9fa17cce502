import type { Crs } from '@geoframe/core';
import {
  type DispatchExplanation,
  type ExplainOptions,
  explainOperation,
  FRAME_EXPLAINABLE,
} from '../dispatch/explain.js';
import type { GeoDataFrame } from '../geo-data-frame.js';
import { GeoSeries, type VoronoiSeriesOptions, voronoiOptionsOf } from '../geo-series.js';
import {
  type CentroidalVoronoiOptions,
  type CentroidalVoronoiResult,
  computeCentroidalVoronoi,
} from '../ops/centroidal-voronoi.js';
import { type CostAllocationOptions, computeCostAllocation } from '../ops/cost-allocation.js';
import { checkSameCrs } from '../ops/crs-resolve.js';
import { type DissolveOptions, dissolveTable } from '../ops/dissolve.js';
import { explode } from '../ops/explode.js';
import { checkVoronoiCrs } from '../ops/geographic-warning.js';
import { clipRows, type OverlayHow } from '../ops/overlay.js';
import { overlayTable, replaceRows } from '../ops/overlay-table.js';
import {
  type JoinSide,
  joinTable,
  type SjoinNearestOptions,
  type SjoinOptions,
  sjoinNearestPairs,
  sjoinPairs,
} from '../ops/sjoin.js';
import type { CostAllocationRaster } from '../raster/cost-allocation-raster.js';
import type { DelaunayOptions } from '../voronoi/delaunay-triangles.js';
import { computeVoronoi } from '../voronoi/voronoi-polygons.js';
import { FrameBase } from './frame-base.js';
import { seriesTable } from './frame-tables.js';

/**
 * A GeoDataFrame's operations on its active geometry that keep the other columns: tessellations,
 * measures, CRS, explode, clip, dissolve, overlay and the spatial joins.
 */
export abstract class FrameSpatial extends FrameBase {
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
    if (options.onlyEdges) {
      const { table, name } = seriesTable(cells, {});
      return this.derive(table, name, cells.rename(name));
    }
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
    return this.fromTable(table, { geometry: geometryName, validate: false });
  }

  /**
   * Nearest join (GeoPandas' `sjoin_nearest`): each row with the nearest rows of `right` (all ties),
   * within `maxDistance`, with the distance in `distanceCol` when named. Shape as {@link sjoin}.
   */
  sjoinNearest(right: GeoDataFrame, options: SjoinNearestOptions = {}): GeoDataFrame {
    const [l, r] = [joinSide(this), joinSide(right)];
    const { table, geometryName } = joinTable(l, r, sjoinNearestPairs(l, r, options), options);
    return this.fromTable(table, { geometry: geometryName, validate: false });
  }

  /** The frame with its active geometry labelled `crs` (coordinates unchanged; GeoPandas' `set_crs`, see GeoSeries.setCrs). */
  setCrs(crs: Crs | null, options: { allowOverride?: boolean } = {}): GeoDataFrame {
    return this.withGeometry(this.geometry.setCrs(crs, options));
  }

  /** Multi-part rows split into one row per part, other columns repeated; null and empty rows dropped (GeoPandas' `explode(index_parts=False)`). */
  explode(): GeoDataFrame {
    const { geometry, rows } = explode(this.geometry.array);
    return this.rebuilt(replaceRows(this.table, this.geometryName, rows, geometry));
  }

  /** The rows that meet `mask`, their geometry cut to it (GeoPandas' `clip`, keeping each row's dimension). */
  clip(mask: GeoSeries | GeoDataFrame): GeoDataFrame {
    const m = mask instanceof FrameBase ? mask.geometry : mask;
    checkSameCrs(this.crs, m.crs, 'clip');
    const { rows, geometry } = clipRows(this.geometry.array, m.array);
    return this.rebuilt(replaceRows(this.table, this.geometryName, rows, geometry));
  }

  /**
   * Geometries merged per group of `by` (GeoPandas' `dissolve(by, aggfunc).reset_index()`): one
   * row per distinct value, sorted; see {@link DissolveOptions}.
   */
  dissolve(options: DissolveOptions = {}): GeoDataFrame {
    return this.rebuilt(dissolveTable(this.table, this.geometryName, this.geometry.array, options));
  }

  /**
   * GeoPandas' `overlay(self, other, how)`: 'intersection' (default), 'union', 'identity',
   * 'symmetric_difference' or 'difference' of the two frames' geometries, with both sides' columns.
   */
  overlay(other: GeoDataFrame, options: { how?: OverlayHow } = {}): GeoDataFrame {
    return this.rebuilt(overlayTable(joinSide(this), joinSide(other), options.how ?? 'intersection'));
  }
}

/** A frame as one side of a join (its table, active geometry and that geometry's cached index). */
function joinSide(frame: FrameBase): JoinSide {
  const geometry = frame.geometry;
  return {
    table: frame.table,
    geometryName: frame.geometryName,
    geometry: geometry.array,
    index: geometry.sindex,
  };
}
