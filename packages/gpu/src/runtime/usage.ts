/**
 * The WebGPU flag values this package uses, as fixed by the WebGPU specification. Browsers
 * define `GPUBufferUsage` and `GPUMapMode` globally; Node's `webgpu` package does not unless its
 * `globals` are installed, so the package uses these instead and works with any injected device.
 */
export const BufferUsage = {
  MAP_READ: 0x0001,
  MAP_WRITE: 0x0002,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  INDEX: 0x0010,
  VERTEX: 0x0020,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
  INDIRECT: 0x0100,
  QUERY_RESOLVE: 0x0200,
} as const;

/** `GPUMapMode` values (see {@link BufferUsage} for why they are defined here). */
export const MapMode = {
  READ: 0x0001,
  WRITE: 0x0002,
} as const;
