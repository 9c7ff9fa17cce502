export { computeRowBoundsGpu, DEFAULT_PIECE_SIZE, type RowBoundsOptions } from './kernels/row-bounds.js';
export { computeRowBoundsCpu } from './kernels/row-bounds-cpu.js';
export {
  type EncodeHilbertKeysOptions,
  type EncodeHilbertKeysOptions,
  encodeHilbertKeys,
  encodeHilbertKeys,
  HILBERT_KERNEL,
  HILBERT_KERNEL,
  type HilbertGpuOptions,
  type HilbertGpuOptions,
  hilbertKeysGpu,
  hilbertKeysGpu,
  hilbertWordsPerPoint,
  hilbertWordsPerPoint,
} from './primitives/hilbert/hilbert.js';
export {
  hilbertKeysCpu,
  hilbertKeysCpu,
  hilbertKeysOfGrid,
  hilbertKeysOfGrid,
} from './primitives/hilbert/hilbert-cpu.js';
export {
  type HilbertBits,
  type HilbertBits,
  type HilbertBounds,
  type HilbertBounds,
  type HilbertOptions,
  type HilbertOptions,
  hilbertBounds,
  hilbertBounds,
  quantizeHilbertGrid,
  quantizeHilbertGrid,
} from './primitives/hilbert/hilbert-grid.js';
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
export { type DigitPass, planDigitPasses } from './primitives/sort/sort-plan.js';
export {
  BufferPool,
  BufferPool,
  type BufferPoolOptions,
  type BufferPoolOptions,
  type BufferPoolStats,
  type BufferPoolStats,
} from './runtime/buffer-pool.js';
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
  GpuDeviceLostError,
  GpuOutOfMemoryError,
  GpuUnavailableError,
  GpuValidationError,
} from './runtime/errors.js';
export {
  type GpuAdapterSummary,
  GpuContext,
  type GpuContextOptions,
  type GpuFeatures,
} from './runtime/gpu-context.js';
export { loadGpu } from './runtime/load-gpu.js';
export { type KernelConstants, type KernelSpec, PipelineCache } from './runtime/pipeline-cache.js';
export {
  formatProfile,
  formatProfile,
  type GpuPassTime,
  type GpuPassTime,
  type GpuProfile,
  type GpuProfile,
  GpuProfiler,
  GpuProfiler,
  type GpuProfilerOptions,
  type GpuProfilerOptions,
  type GpuTimeSource,
  type GpuTimeSource,
} from './runtime/profiler.js';
export { getGpuContext, releaseGpuContext } from './runtime/shared-context.js';
export { BufferUsage, MapMode } from './runtime/usage.js';
