export type { BinaryColumn } from './array/binary-column.js';
export { type Crs, crsLabel, sameCrs } from './array/crs.js';
export { GeometryArray, type GeometryArrayParts, type NestedOffsets } from './array/geometry-array.js';
export { GeometryBuilder } from './array/geometry-builder.js';
export {
  type ColumnType,
  type Dimension,
  GeometryType,
  geometryTypeName,
  offsetLevels,
} from './array/geometry-type.js';
export { GrowableInt32 } from './array/growable.js';
export { type ValidateOptions, validateGeometryArray } from './array/validate.js';
export { concatBinaryColumns } from './arrow/binary-column-arrow.js';
export { concatGeometryArrays } from './arrow/concat-native.js';
export {
  extensionNameOfField,
  type GeoArrowEncoding,
  type GeoArrowMetadata,
  geoArrowEncodingOf,
  isGeoArrowField,
  readGeoArrowMetadata,
} from './arrow/extension-metadata.js';
export { type FromArrowOptions, geometryArrayFromArrow } from './arrow/read-arrow.js';
export { geometryArrayToArrow, type ToArrowOptions } from './arrow/write-arrow.js';
export { CvtError } from './cvt/cvt-error.js';
export {
  type CvtIteration,
  type CvtMethod,
  type CvtRasterProblem,
  type CvtRun,
  cvtConverged,
} from './cvt/cvt-problem.js';
export {
  type AdapterClass,
  type AdapterInfoLike,
  type AdapterSummary,
  classifyAdapter,
} from './dispatch/adapter-class.js';
export {
  type DeviceOption,
  type DispatchEvent,
  type ExecutionPath,
  onDispatch,
} from './dispatch/dispatch-events.js';
export {
  ADAPTER_CROSSOVER_FACTOR,
  crossoverFor,
  type DispatchExplanation,
  explainDispatch,
  GpuRequiredError,
  type KernelProfile,
  kernelProfile,
  type PlanOptions,
  planDispatch,
} from './dispatch/plan-dispatch.js';
export {
  type Dispatched,
  type GpuRunReport,
  isRecoverableGpuError,
  runDispatched,
} from './dispatch/run-dispatched.js';
export { FileError, GeoframeError, InvalidGeometryError, UnsupportedInputError } from './errors.js';
export { area } from './measures/area.js';
export { bounds } from './measures/bounds.js';
export { centroid } from './measures/centroid.js';
export { lengthOf } from './measures/length.js';
export { totalBounds } from './measures/total-bounds.js';
export { checkOptions } from './options/check-options.js';
export {
  type ProgressCallback,
  type ProgressEvent,
  type ProgressListener,
  type ProgressOption,
  ProgressReporter,
  type ProgressStage,
} from './progress/progress.js';
export { CostGridError, checkCostGridProblem, describeCell } from './raster/check-cost-grid.js';
export {
  type CostAllocation,
  type CostConnectivity,
  type CostGridProblem,
  type CostMetric,
  connectivitiesOf,
  crossedCells,
  type NeighbourStep,
  neighbourSteps,
  stepLength,
} from './raster/cost-grid.js';
export { RASTER_MODES, type RasterGrid, type RasterLabels, type RasterMode } from './raster/raster-grid.js';
export { type Box, boxArea, boxOfXY, isEmptyBox } from './sites/box.js';
export { clipBox, defaultClipBox } from './sites/clip-box.js';
export { extractSites, type Sites } from './sites/extract-sites.js';
export { type UniqueSites, type UniqueSitesOptions, uniqueSites } from './sites/unique-sites.js';
export { type ReadWkbOptions, readWkb } from './wkb/read-wkb.js';
export { writeWkb } from './wkb/write-wkb.js';
export { type ReadWktOptions, readWkt } from './wkt/read-wkt.js';
export { formatWkt, type WriteWktOptions, writeWkt } from './wkt/write-wkt.js';
