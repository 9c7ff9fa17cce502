import { type GpuContext, GpuUnavailableError, getGpuContext } from '@geoframe/gpu';

const INSTALL_HINT = [
  'GPU tests need a WebGPU adapter and never skip.',
  'Without a GPU, install Mesa lavapipe (software Vulkan), e.g. on Debian/Ubuntu:',
  '  sudo apt-get install -y mesa-vulkan-drivers libvulkan1',
  'then check with `vulkaninfo --summary` (package vulkan-tools) that llvmpipe is listed;',
  'if XDG_RUNTIME_DIR is unset, set it (e.g. XDG_RUNTIME_DIR=/tmp).',
].join('\n');

/**
 * The shared GPU context for a test. Fails the test (never skips it) when no adapter is found:
 * in CI (`CI=true`) CI must install lavapipe; elsewhere the developer must.
 */
export async function requireGpu(): Promise<GpuContext> {
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  try {
    return await getGpuContext();
  } catch (error) {
    if (!(error instanceof GpuUnavailableError)) throw error;
    const where =
      process.env.CI === 'true'
        ? 'CI found no WebGPU adapter: the workflow must install lavapipe before the tests.'
        : 'No WebGPU adapter on this machine.';
    throw new Error(`${where}\n${error.message}\n${INSTALL_HINT}`, { cause: error });
  }
}
