import { GpuUnavailableError } from '../../runtime/errors.js';
import type { GpuWithoutNavigator } from '../contract.js';

/** The flag namespaces the `webgpu` package exports in `globals` (constructors are left out). */
const FLAG_GLOBALS = ['GPUBufferUsage', 'GPUMapMode', 'GPUShaderStage', 'GPUTextureUsage', 'GPUColorWrite'];

/**
 * Dawn from the `webgpu` package, loaded by a dynamic import on first use. The flag namespaces
 * (`GPUBufferUsage`, …) are defined globally if missing, so code written for browsers runs
 * unchanged; nothing else is added to `globalThis`.
 */
export const gpuWithoutNavigator: GpuWithoutNavigator = async () => {
  let module: { create(flags: string[]): GPU; globals: Record<string, unknown> };
  try {
    module = (await import('webgpu')) as unknown as typeof module;
  } catch (cause) {
    throw new GpuUnavailableError(
      `navigator.gpu is absent and the 'webgpu' package could not be loaded (${String(cause)})`,
      { cause },
    );
  }
  const target = globalThis as Record<string, unknown>;
  for (const name of FLAG_GLOBALS) if (target[name] === undefined) target[name] = module.globals[name];
  return module.create([]);
};
