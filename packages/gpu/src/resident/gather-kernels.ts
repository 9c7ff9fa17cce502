import type { KernelSpec } from '../runtime/pipeline-cache.js';
import { residentEntry } from './measure-kernels.js';

/**
 * Pass 1 of a gather of rows: the point count of each picked row (`lengths[j]` for pick j), to be
 * scanned into the new ring offsets. Params: picks.
 */
export const PICKED_LENGTHS_KERNEL: KernelSpec<Record<string, never>> = {
  name: 'resident/picked-lengths',
  source: () => /* wgsl */ `
struct Params { picks: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> picks: array<u32>;
@group(0) @binding(3) var<storage, read_write> lengths: array<u32>;

${residentEntry('j', 'params.picks')}
  let r = picks[j];
  lengths[j] = offsets[r + 1u] - offsets[r];
}
`,
};

/**
 * Pass 2 of a gather of rows: one thread per pick copies its row's points to the scanned offset.
 * Params: picks.
 */
export const COPY_PICKED_KERNEL: KernelSpec<Record<string, never>> = {
  name: 'resident/copy-picked',
  source: () => /* wgsl */ `
struct Params { picks: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> coords: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> picks: array<u32>;
@group(0) @binding(4) var<storage, read> placed: array<u32>;
@group(0) @binding(5) var<storage, read_write> out: array<vec4<u32>>;

${residentEntry('j', 'params.picks')}
  let r = picks[j];
  let first = offsets[r];
  let count = offsets[r + 1u] - first;
  let to = placed[j];
  for (var i = 0u; i < count; i++) {
    out[to + i] = coords[first + i];
  }
}
`,
};
