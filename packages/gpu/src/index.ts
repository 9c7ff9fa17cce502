export {
  type CostGpuOptions,
  type CostGpuStats,
  CostProblemError,
  costAllocationGpu,
  DEFAULT_INNER,
} from './cost/index.js';
export { type CvtRasterGpuOptions, cvtRasterGpu } from './cvt/index.js';
export type {
  CpuStages,
  CpuTriangulation,
  DelaunayStage,
  LineBuffers,
  PolygonBuffers,
  StageFallbackListener,
} from './delaunay/delaunay-stage.js';
export {
  type DelaunayGpuOptions,
  type DelaunayGpuOutput,
  type DelaunayGpuStats,
  delaunayGpu,
  type GpuDelaunayResult,
  gpuDelaunayStage,
} from './delaunay/index.js';
export { type FixedGrid, fixedGrid } from './exact/index.js';
export { DELAUNAY_PREDICATES_WGSL } from './exact/predicates/index.js';
export { gridOfBounds, TO_GRID_KERNEL, toGridGpu } from './exact/to-grid-kernel.js';
export { encodeTwins, twinsGpu } from './mesh/halfedge-kernels.js';
export { hilbertOrderGpu } from './order/hilbert-order.js';
export {
  type CompactArgs,
  type CompactValuesArgs,
  compactIndices,
  encodeCompact,
  encodeCompactValues,
} from './primitives/compact/index.js';
export {
  type EncodeHilbertKeysOptions,
  encodeHilbertKeys,
  HILBERT_KERNEL,
  type HilbertGpuOptions,
  hilbertKeysGpu,
  hilbertWordsPerPoint,
} from './primitives/hilbert/hilbert.js';
export { hilbertKeysCpu, hilbertKeysOfGrid } from './primitives/hilbert/hilbert-cpu.js';
export {
  type HilbertBits,
  type HilbertBounds,
  type HilbertOptions,
  hilbertBounds,
  quantizeHilbertGrid,
} from './primitives/hilbert/hilbert-grid.js';
export {
  type CountScatterOptions,
  type CountScatterResult,
  countScatter,
  encodeHistogram,
  type HistogramArgs,
  MAX_PRIVATE_BINS,
} from './primitives/histogram/index.js';
export {
  encodeScan,
  SCAN_TILE,
  type ScanArgs,
  type ScanOptions,
  type ScanU32Options,
  type ScanVariant,
  scanU32,
} from './primitives/scan/index.js';
export { scratchBuffer } from './primitives/scratch.js';
export {
  encodeRadixSort,
  type RadixSortArgs,
  radixSort,
  type SortedPairs,
} from './primitives/sort/radix-sort.js';
export {
  encodeSegmentedReduce,
  type SegmentedReduceArgs,
  segmentedReduce,
} from './primitives/sort/segmented-reduce.js';
export {
  checkSegmentOffsets,
  encodeSegmentedSort,
  MAX_TILE_SEGMENT,
  orderedF32Bits,
  type SegmentedSortArgs,
  segmentedSort,
} from './primitives/sort/segmented-sort.js';
export { type DigitPass, planDigitPasses } from './primitives/sort/sort-plan.js';
export {
  chooseCoarseLevel,
  maxCoarseLevel,
  NO_SITE,
  prepareRaster,
  type RasterGpuOptions,
  type RasterGpuStats,
  RasterPlan,
  type RasterSetup,
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
  alignBufferSize,
  createBufferChecked,
  createStorage,
  readback,
  uploadStorage,
  uploadUniform,
} from './runtime/buffers.js';
export { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchSize, dispatchThreads } from './runtime/dispatch.js';
export {
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
  DEFAULT_RELEASE_WAIT_MS,
  type GpuAdapterSummary,
  GpuContext,
  type GpuContextOptions,
  type GpuFeatures,
  summarizeAdapter,
} from './runtime/gpu-context.js';
export { loadGpu } from './runtime/load-gpu.js';
export { type KernelConstants, type KernelSpec, PipelineCache } from './runtime/pipeline-cache.js';
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
export { BufferUsage, MapMode } from './runtime/usage.js';
export {
  GPU_TIMEOUT_ENV,
  type GpuRunOptions,
  gpuDeadlineMs,
  isSoftwareAdapter,
  runOnGpu,
} from './runtime/watchdog.js';
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
