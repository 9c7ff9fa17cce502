import { defineKernel } from '../runtime/pipeline-cache.js';
import { LIST_BUILTINS, LIST_INDEX, LIST_WORKGROUP, rasterHeader } from './raster-wgsl.js';
import type { DimsConstants } from './seed-kernels.js';

/**
 * Per pixel `p < misc.x`: a site index becomes the caller's label for it, `labels[p] =
 * labelOf[labels[p]]` (NONE stays NONE). The last pass of a run with `labelOf`, so that the
 * host copies the labels it returns and never rewrites them (16M pixels at 4096²).
 */
export const RELABEL_KERNEL = defineKernel({
  name: 'raster/relabel',
  bindings: { labels: 1, label_of: 2 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read_write> labels: array<u32>;
@group(0) @binding(2) var<storage, read> label_of: array<u32>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let p = ${LIST_INDEX};
  if (p >= params.misc.x) {
    return;
  }
  let l = labels[p];
  if (l != NONE) {
    labels[p] = label_of[l];
  }
}
`,
});
