import { defineKernel } from '../runtime/pipeline-cache.js';
import { residentEntry } from './measure-kernels.js';

/**
 * Pass 1 of a gather of rows: the point count of each picked row (`lengths[j]` for pick j), to be
 * scanned into the new ring offsets. Params: picks.
 */
export const PICKED_LENGTHS_KERNEL = defineKernel({
  name: 'resident/picked-lengths',
  bindings: { offsets: 1, picks: 2, lengths: 3 },
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
});

/**
 * Pass 2 of a gather of rows: one thread per pick copies its row's points to the scanned offset.
 * Params: picks.
 */
export const COPY_PICKED_KERNEL = defineKernel({
  name: 'resident/copy-picked',
  bindings: { offsets: 1, coords: 2, picks: 3, placed: 4, out: 5 },
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
});
