import type { GpuContext } from './gpu-context.js';
import { BufferUsage } from './usage.js';

/**
 * A small uniform buffer holding `words`, written through `mappedAtCreation` — synchronous, with
 * no error scope to wait for (in Dawn's Node binding each popped scope can cost a round trip of
 * milliseconds, which a pipeline run pays per uniform). For parameter blocks of a few words,
 * whose allocation cannot meaningfully fail; freed when garbage collected after its use.
 */
export function uniformBlock(ctx: GpuContext, words: Uint32Array, label: string): GPUBuffer {
  ctx.assertUsable();
  const buffer = ctx.device.createBuffer({
    label,
    size: Math.max(16, Math.ceil(words.byteLength / 16) * 16),
    usage: BufferUsage.UNIFORM,
    mappedAtCreation: true,
  });
  new Uint32Array(buffer.getMappedRange()).set(words);
  buffer.unmap();
  return buffer;
}
