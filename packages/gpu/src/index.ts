export {
  type CostGpuOptions,
  type CostGpuStats,
  CostProblemError,
  costAllocationGpu,
  DEFAULT_INNER,
} from './cost/index.js';
export { type CvtRasterGpuOptions, cvtRasterGpu } from './cvt/index.js';
export {
  type CvtCellMomentsGpu,
  cvtCellMomentsGpu,
  type InteriorBuckets,
} from './cvt-exact/cvt-cell-moments.js';

export type {
  CpuStages,
  CpuTriangulation,
  DelaunayStage,
  IndexedRings,
  LineBuffers,
  PolygonBuffers,
  StageFallbackListener,
} from './delaunay/delaunay-stage.js';
export {
  type DelaunayGpuOptions,
  type DelaunayGpuOutput,
  type DelaunayGpuStats,
  delaunayGpu,
} from './delaunay/index.js';
export { compactIndices } from './primitives/compact/index.js';
export { type HilbertGpuOptions, hilbertKeysGpu } from './primitives/hilbert/hilbert.js';
export {
  type CountScatterOptions,
  type CountScatterResult,
  countScatter,
} from './primitives/histogram/index.js';
export { type ScanU32Options, scanU32 } from './primitives/scan/index.js';
export { radixSort, type SortedPairs } from './primitives/sort/radix-sort.js';
export { segmentedReduce } from './primitives/sort/segmented-reduce.js';
export { segmentedSort } from './primitives/sort/segmented-sort.js';
export {
  type RasterGpuOptions,
  type RasterGpuStats,
  type VoronoiRasterGpuOptions,
  voronoiRasterGpu,
} from './raster/index.js';
export {
  DevicePolygons,
  type ResidentBuffers,
  residentArea,
  residentBounds,
  residentTake,
  residentTotalBounds,
} from './resident/index.js';
export { abandonedDeviceCount } from './runtime/abandoned-devices.js';
export {
  GpuCompilingError,
  GpuDeclinedError,
  GpuDeviceLostError,
  GpuLoopLimitError,
  GpuOutOfMemoryError,
  GpuPrecisionError,
  GpuResultReleasedError,
  GpuTimeoutError,
  GpuUnavailableError,
  GpuValidationError,
} from './runtime/errors.js';
export {
  type GpuAdapterSummary,
  GpuContext,
  type GpuContextOptions,
  type GpuFeatures,
} from './runtime/gpu-context.js';
export { probedGpuAdapter, probeGpuAdapter } from './runtime/probe-adapter.js';
export {
  formatProfile,
  type GpuPassTime,
  type GpuProfile,
  GpuProfiler,
  type GpuProfilerOptions,
  type GpuTimeSource,
} from './runtime/profiler.js';
export { runExclusive } from './runtime/run-queue.js';
export { getGpuContext, releaseGpuContext } from './runtime/shared-context.js';
export { awaitWarmUp, GPU_WARM_WAIT_ENV, warmUp } from './runtime/warm-up.js';
export { GPU_TIMEOUT_ENV, type GpuRunOptions, gpuDeadlineMs, runOnGpu } from './runtime/watchdog.js';
export { RepeatedSitesError } from './voronoi/repeated-sites.js';
export {
  type CellsOutput,
  cellsOutput,
  type PreparedSites,
  prepareVoronoiSites,
  type StageTime,
  type VoronoiGpuOptions,
  type VoronoiGpuStats,
  voronoiCellsGpu,
  voronoiCellsGpuOnDevice,
  voronoiCellsPrepared,
  voronoiEdgesGpu,
} from './voronoi/voronoi-gpu.js';
export { warmUpVoronoi } from './voronoi/voronoi-warm-up.js';
