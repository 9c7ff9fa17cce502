import { existsSync } from 'node:fs';

/** Where the browser tests look for Chromium: GEOFRAME_CHROMIUM, then the usual Debian/Ubuntu paths. */
const CANDIDATES = [
  process.env.GEOFRAME_CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

export const INSTALL_HINT =
  'The browser tests drive a system Chromium (no browser download): on Debian `apt-get install -y chromium` (`bash .ci/run` does it), or set GEOFRAME_CHROMIUM to a Chromium or Chrome binary.';

/** The Chromium binary, or null when none is installed. */
export const chromiumPath: string | null =
  CANDIDATES.find((p) => p !== undefined && p !== '' && existsSync(p)) ?? null;

export const inCi = process.env.CI === 'true';

/**
 * The flags the page runs under. `--enable-unsafe-webgpu` exposes WebGPU on Linux, where
 * Chromium ships it turned off; headless, the adapter is Chromium's own SwiftShader (software
 * Vulkan). adr/0030 lists what was tried to reach Mesa's lavapipe instead.
 */
export const CHROMIUM_FLAGS = ['--enable-unsafe-webgpu'];
