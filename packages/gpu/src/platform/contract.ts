/**
 * What each platform module provides, so the Node (`platform/node/`) and the web
 * (`platform/web/`) builds cannot drift apart. Code elsewhere imports `#platform/<module>`;
 * package.json's `imports` map picks the build by export condition (`browser` → web, `node` →
 * node, anything else → web). adr/0030.
 */

/** The WebGPU entry point where `navigator.gpu` is absent; throws GpuUnavailableError saying why. */
export type GpuWithoutNavigator = () => Promise<GPU>;
