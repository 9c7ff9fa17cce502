export { type FileFormat, formatOfPath, readFile, type WriteFileOptions, writeFile } from './file-io.js';
export { GeoDataFrame, type GeoDataFrameOptions } from './geo-data-frame.js';
export { type BoundsColumns, GeoSeries, type GeoSeriesOptions } from './geo-series.js';
export {
  type GeoTable,
  readArrowIpc,
  readGeoJson,
  readGeoParquet,
  writeArrowIpc,
  writeGeoJson,
  writeGeoParquet,
} from './io/index.js';
