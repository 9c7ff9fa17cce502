export {
  type CostGpuOptions,
  type CostGpuStats,
  costAllocationGpu,
  DEFAULT_INNER,
} from './cost-allocation-gpu.js';
export { CostProblemError, prepareCost } from './cost-setup.js';
