export {
  type DelaunayGpuOptions,
  type DelaunayGpuOutput,
  type DelaunayGpuStats,
  delaunayGpu,
  type GpuDelaunayResult,
  gpuDelaunayStage,
} from './delaunay-gpu.js';
export { hullOfCandidates } from './hull-chain.js';
export { type StarGrid, starGridOf } from './star-grid.js';
export { STAR_CAPACITY } from './star-kernels.js';
