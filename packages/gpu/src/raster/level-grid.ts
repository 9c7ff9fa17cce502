import type { RasterSetup } from './raster-setup.js';
import { paramBlock } from './raster-wgsl.js';

/** `data` padded to at least 4 elements (a binding is never empty). */
export function padTo4(data: Float32Array): Float32Array {
  if (data.length >= 4) return data;
  const out = new Float32Array(4);
  out.set(data);
  return out;
}

/** Allocations of a plan: every buffer made through it is destroyed with the plan. */
export interface Alloc {
  storage(size: number, label: string, usage?: number): Promise<GPUBuffer>;
  upload(data: ArrayBufferView, label: string): Promise<GPUBuffer>;
}

/** Grid dimensions of Facet-JFA level `level` (2^level-pixel cells, rounded up). */
export function levelSize(setup: RasterSetup, level: number): [number, number, number] {
  const f = 2 ** level;
  return [Math.ceil(setup.width / f), Math.ceil(setup.height / f), Math.ceil(setup.depth / f)];
}

/**
 * A parameter block for level `level`: size = level grid, misc as given, scale with block side
 * 2^level, extra, auxu.
 */
export function gridParams(
  setup: RasterSetup,
  level: number,
  misc: number[],
  extra: number[] = [],
  auxu: number[] = [],
): Uint32Array {
  const [w, h, d] = levelSize(setup, level);
  const [sx, sy, sz] = setup.scale;
  return paramBlock(
    [w, h, d, w * h * d, ...misc],
    [sx, sy, sz, 2 ** level, ...extra, 0, 0, 0, 0].slice(0, 8),
    auxu,
  );
}
