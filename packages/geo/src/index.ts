export {
  type DeviceOption,
  type DispatchEvent,
  onDispatch,
} from '@geoframe/core';
export { type FileFormat, formatOfPath, readFile, type WriteFileOptions, writeFile } from './file-io.js';
export { GeoDataFrame, type GeoDataFrameOptions } from './geo-data-frame.js';
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
export { NEIGHBOR_PALETTE, type PlotOptions, plotPng, plotSvg } from './plot/index.js';
export type {
  RasterCommonOptions,
  VoronoiRasterOptions,
  VoronoiVolumeOptions,
} from './raster/compute-voronoi-raster.js';
export type { RasterPngOptions } from './raster/raster-png.js';
export { type RasterError, VoronoiRaster } from './raster/voronoi-raster.js';
export type { DelaunayOptions } from './voronoi/delaunay-triangles.js';
export { InvalidOutputError } from './voronoi/output-check.js';
export type { VoronoiOptions } from './voronoi/voronoi-polygons.js';
