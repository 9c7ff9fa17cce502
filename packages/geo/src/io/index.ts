export { readArrowIpc, type WriteArrowIpcOptions, writeArrowIpc } from './arrow-ipc.js';
export { defaultPrimary, type GeoTable, geometryColumnNames } from './geo-table.js';
export { GEOJSON_DEFAULT_CRS } from './geojson-crs.js';
export { FEATURE_ID_KEY, JSON_COLUMN_KEY } from './geojson-properties.js';
export { readGeoJson } from './geojson-read.js';
export { type WriteGeoJsonOptions, writeGeoJson } from './geojson-write.js';
export { epsg4326Projjson, GEOPARQUET_DEFAULT_CRS } from './geoparquet-crs.js';
export {
  GEOPARQUET_VERSION,
  type GeoParquetColumn,
  type GeoParquetMetadata,
  geoMetadataProblems,
} from './geoparquet-metadata.js';
export { readGeoParquet } from './geoparquet-read.js';
export { type WriteGeoParquetOptions, writeGeoParquet } from './geoparquet-write.js';
