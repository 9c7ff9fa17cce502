import { GpuLoopLimitError } from './errors.js';
import type { GpuContext } from './gpu-context.js';
import { BufferUsage } from './usage.js';

/**
 * Fault flags: a kernel loop whose termination rests on an invariant of its input (a half-edge
 * fan that closes, a list that ends) carries a counter with a proven maximum; reaching it means
 * the invariant is broken, so the kernel leaves the loop and raises a bit in a small per-run
 * storage buffer instead of spinning or vouching for what it wrote. The host reads the word with
 * the run's results and throws {@link GpuLoopLimitError} (recoverable: the CPU answers under
 * 'auto'), so a broken invariant is a fallback, never a hang and never a wrong result.
 */

/** A Voronoi cell's walk around its site's fan did not close within the half-edge count. */
export const FAULT_FAN_WALK = 1;

/** What each fault bit means, for messages. */
export const FAULT_NAMES: Readonly<Record<number, string>> = {
  [FAULT_FAN_WALK]: 'a walk around a site fan did not close within the half-edge count',
};

/** WGSL declaring the fault word at `binding` of group 0 and `raise_fault(bit)`. */
export function faultWgsl(binding: number): string {
  return /* wgsl */ `
@group(0) @binding(${binding}) var<storage, read_write> fault_flags: array<atomic<u32>>;
fn raise_fault(bit: u32) {
  atomicOr(&fault_flags[0], bit);
}`;
}

/**
 * A new fault word for one run (16 bytes, zeroed by WebGPU at creation; `COPY_SRC` to read it
 * back). One per run, not per context: runs sharing a context must not clear or see each other's.
 */
export function createFaultBuffer(ctx: GpuContext, label: string): GPUBuffer {
  ctx.assertUsable();
  return ctx.device.createBuffer({
    label: `${label} faults`,
    size: 16,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
  });
}

/** @throws GpuLoopLimitError naming `kernel` and the raised faults when `word` is not 0. */
export function throwOnFault(word: number, kernel: string): void {
  if (word === 0) return;
  const names = Object.entries(FAULT_NAMES)
    .filter(([bit]) => (word & Number(bit)) !== 0)
    .map(([, name]) => name);
  throw new GpuLoopLimitError(`${kernel} (${names.join('; ') || 'unknown fault'})`, word >>> 0);
}
