import type { DeviceGeoSeries } from '../device/device-geo-series.js';
import { voronoiOnDevice } from '../device/voronoi-on-device-series.js';
import {
  type DispatchExplanation,
  type ExplainableOperation,
  type ExplainOptions,
  explainOperation,
} from '../dispatch/explain.js';
import type { GeoSeries } from '../geo-series.js';
import {
  type CentroidalVoronoiOptions,
  type CentroidalVoronoiResult,
  computeCentroidalVoronoi,
} from '../ops/centroidal-voronoi.js';
import { type CostAllocationOptions, computeCostAllocation } from '../ops/cost-allocation.js';
import { checkVoronoiCrs } from '../ops/geographic-warning.js';
import {
  computeVoronoiRaster,
  type VoronoiRasterOptions,
  type VoronoiVolumeOptions,
} from '../raster/compute-voronoi-raster.js';
import type { CostAllocationRaster } from '../raster/cost-allocation-raster.js';
import type { VoronoiRaster } from '../raster/voronoi-raster.js';
import { computeDelaunay, type DelaunayOptions } from '../voronoi/delaunay-triangles.js';
import { type VoronoiSeriesOptions, voronoiOptionsOf } from '../voronoi/series-options.js';
import { computeVoronoi } from '../voronoi/voronoi-polygons.js';
import { SeriesConstructive } from './series-constructive.js';

/**
 * A GeoSeries' tessellations — Voronoi polygons and rasters, cost allocation, centroidal
 * Voronoi, Delaunay — and `explain`, which says where they would run.
 */
export abstract class SeriesTessellation extends SeriesConstructive {
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
      return voronoiOnDevice(this, unwrapped, (array, name) => this.derive(array, name));
    }
    const result = await computeVoronoi(this.array, unwrapped);
    return this.derive(result.geometry, this.name);
  }

  /**
   * The raster Voronoi diagram of this series' points on a `width × height` grid over `bounds`
   * (default: the points' bounding box): per pixel, the row whose point is nearest to the pixel
   * centre (ties to the lower row). `mode` picks the algorithm ('exact' by default; the JFA
   * family is approximate), `device` where it runs. Null and empty rows are skipped; other
   * non-point rows and non-finite points are errors naming the row. See docs/raster.md.
   */
  voronoiRaster(options: VoronoiRasterOptions): Promise<VoronoiRaster> {
    return computeVoronoiRaster(this.array, 2, [options.width, options.height], options, (array) =>
      this.derive(array, null),
    );
  }

  /**
   * The 3D raster Voronoi diagram on an `nx × ny × nz` voxel grid: points with z, or xy points at
   * the plane `z`. Otherwise as {@link voronoiRaster}.
   */
  voronoiVolume(options: VoronoiVolumeOptions): Promise<VoronoiRaster> {
    return computeVoronoiRaster(this.array, 3, options.dims, options, (array) => this.derive(array, null));
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
    return computeCostAllocation(this.array, options, (array) => this.derive(array, null));
  }

  /**
   * The centroidal Voronoi tessellation of this series' points (docs/cvt.md): Lloyd or L-BFGS
   * moves the sites until each sits at the ρ-centroid of its cell in `region` (default: the
   * points' bounding box grown by 5 % of its larger side). Returns the final sites and their
   * cells clipped to the region, one row per input row, with the energy and gradient norm per
   * iterate. Null and empty rows stay null; other bad input is a CvtError or names its row.
   */
  centroidalVoronoi(options: CentroidalVoronoiOptions = {}): Promise<CentroidalVoronoiResult> {
    return computeCentroidalVoronoi(
      this.array,
      options,
      (array) => this.derive(array, null),
      (cells) => cells.rename(this.name),
    );
  }

  /**
   * The Delaunay triangulation of every vertex (GeoPandas' `delaunay_triangles`): one triangle
   * Polygon per row, or one LineString per unique edge with `onlyEdges`.
   */
  async delaunayTriangles(options: DelaunayOptions = {}): Promise<GeoSeries> {
    return this.derive((await computeDelaunay(this.array, options)).geometry, this.name);
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
}
