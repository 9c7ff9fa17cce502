export {
  type AdapterClass,
  type AdapterSummary,
  CvtError,
  type DeviceOption,
  type DispatchEvent,
  onDispatch,
} from '@geoframe/core';
export type { CvtDensityInput, PolygonDensity } from './cvt/cvt-density.js';
export type { CvtRegionInput } from './cvt/cvt-region.js';
export { DEMO_NAMES, type DemoData, type LoadDemoOptions, loadDemo } from './demo/demo-data.js';
export { DeviceGeoSeries } from './device/device-geo-series.js';
export { type DispatchExplanation, probeGpu } from './dispatch/explain.js';
export {
  encodeFile,
  type FileFormat,
  formatOfPath,
  type ReadFileOptions,
  readFile,
  type WriteFileOptions,
  writeFile,
} from './file-io.js';
export type { ColumnInput } from './frame/column-data.js';
export type { MergeOptions } from './frame/merge.js';
export type { SortByOptions } from './frame/sort-by.js';
export type { ValueCountsOptions } from './frame/value-counts.js';
export type { FramePlotOptions } from './geo-data-frame.js';
export {
  clip,
  concat,
  GeoDataFrame,
  type GeoDataFrameOptions,
  overlay,
  sjoin,
  sjoinNearest,
} from './geo-data-frame.js';
export {
  type BoundsColumns,
  GeoSeries,
  type GeoSeriesOptions,
  type SeriesPlotOptions,
  type VoronoiSeriesOptions,
} from './geo-series.js';
export {
  type GeoTable,
  readArrowIpc,
  readGeoJson,
  readGeoParquet,
  writeArrowIpc,
  writeGeoJson,
  writeGeoParquet,
} from './io/index.js';
export type { BlueNoiseOptions } from './ops/blue-noise.js';
export type { CentroidalVoronoiOptions, CentroidalVoronoiResult } from './ops/centroidal-voronoi.js';
export type { BufferOptions } from './ops/constructive.js';
export type { CostAllocationOptions } from './ops/cost-allocation.js';
export type { CostRaster, CostRaster2D, CostRaster3D } from './ops/cost-sources.js';
export { CrsError } from './ops/crs-resolve.js';
export type { AggFunc, DissolveOptions } from './ops/dissolve.js';
export type { OverlayHow } from './ops/overlay.js';
export { PREDICATES, type Predicate } from './ops/predicates.js';
export { type IndexPairs, type NearestOptions, type NearestPairs, SpatialIndex } from './ops/sindex.js';
export type { JoinPairs, SjoinNearestOptions, SjoinOptions } from './ops/sjoin.js';
export type { ByteSource } from './platform/contract.js';
export { COLORMAP_NAMES } from './plot/colormaps.js';
export { NEIGHBOR_PALETTE, type PlotOptions, plotPng, plotSvg } from './plot/index.js';
export type {
  RasterCommonOptions,
  VoronoiRasterOptions,
  VoronoiVolumeOptions,
} from './raster/compute-voronoi-raster.js';
export { CostAllocationRaster } from './raster/cost-allocation-raster.js';
export type { CostPngOptions } from './raster/cost-png.js';
export {
  type Raster2D,
  RasterFileError,
  readRaster,
  type WriteRasterOptions,
  writeRaster,
} from './raster/geotiff-io.js';
export type { RasterPngOptions } from './raster/raster-png.js';
export { type RasterError, VoronoiRaster } from './raster/voronoi-raster.js';
export type { DelaunayOptions } from './voronoi/delaunay-triangles.js';
export { InvalidOutputError } from './voronoi/output-check.js';
export type { VoronoiOptions } from './voronoi/voronoi-polygons.js';
