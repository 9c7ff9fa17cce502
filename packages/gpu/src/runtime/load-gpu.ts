import { GpuUnavailableError } from './errors.js';

/** The package name Node gets WebGPU from. Kept in a variable so bundlers never pull it into a browser build. */
const NODE_WEBGPU = 'webgpu';

/** The flag namespaces the `webgpu` package exports in `globals` (constructors are left out). */
const FLAG_GLOBALS = ['GPUBufferUsage', 'GPUMapMode', 'GPUShaderStage', 'GPUTextureUsage', 'GPUColorWrite'];

let nodeGpu: Promise<GPU> | undefined;

/**
 * The WebGPU entry point: `navigator.gpu` where it exists (browsers, Deno), otherwise Dawn from
 * the `webgpu` package, loaded once by a dynamic import so that browsers never load it. When the
 * Node path is taken the flag namespaces (`GPUBufferUsage`, …) are defined globally if missing,
 * so code written for browsers runs unchanged; nothing else is added to `globalThis`.
 *
 * @throws GpuUnavailableError when neither exists (the message says what to install).
 */
export async function loadGpu(): Promise<GPU> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  nodeGpu ??= importNodeGpu();
  try {
    return await nodeGpu;
  } catch (error) {
    nodeGpu = undefined;
    throw error;
  }
}

async function importNodeGpu(): Promise<GPU> {
  let module: { create(flags: string[]): GPU; globals: Record<string, unknown> };
  try {
    module = await import(/* @vite-ignore */ NODE_WEBGPU);
  } catch (cause) {
    throw new GpuUnavailableError(
      `navigator.gpu is absent and the 'webgpu' package could not be loaded (${String(cause)})`,
      { cause },
    );
  }
  const target = globalThis as Record<string, unknown>;
  for (const name of FLAG_GLOBALS) if (target[name] === undefined) target[name] = module.globals[name];
  return module.create([]);
}
