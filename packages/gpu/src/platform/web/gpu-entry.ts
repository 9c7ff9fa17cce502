import { GpuUnavailableError } from '../../runtime/errors.js';
import type { GpuWithoutNavigator } from '../contract.js';

/** A browser (or worker) without `navigator.gpu` has no WebGPU: nothing else to try. */
export const gpuWithoutNavigator: GpuWithoutNavigator = async () => {
  throw new GpuUnavailableError(
    'navigator.gpu is absent: this browser has no WebGPU (or it is turned off; pages need a secure context, https or localhost)',
  );
};
