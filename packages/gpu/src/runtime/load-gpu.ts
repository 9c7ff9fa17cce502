import { gpuWithoutNavigator } from '#platform/gpu-entry';

let fallbackGpu: Promise<GPU> | undefined;

/**
 * The WebGPU entry point: `navigator.gpu` where it exists (browsers, Deno), otherwise the
 * platform's own (Node: Dawn from the `webgpu` package, loaded once by a dynamic import; a
 * browser build has no other and says so).
 *
 * @throws GpuUnavailableError when there is none (the message says what to install).
 */
export async function loadGpu(): Promise<GPU> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  fallbackGpu ??= gpuWithoutNavigator();
  try {
    return await fallbackGpu;
  } catch (error) {
    fallbackGpu = undefined;
    throw error;
  }
}
