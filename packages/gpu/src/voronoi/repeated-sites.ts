import { GeoframeError } from '@geoframe/core';
import { CELL_WORKGROUP_SIZE, HALFEDGE, threadEntry } from '../mesh/halfedge-wgsl.js';
import { planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { scratchBuffer } from '../primitives/scratch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { submitAndRead } from '../runtime/staging.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { SAME_POINT_WGSL } from './cells/same-point-wgsl.js';

/**
 * Thrown by a pipeline run with `sitesMayRepeat` whose sites are not all distinct, or whose check
 * could not be sure (a curve cell holding more sites than the check compares): the caller removes
 * the duplicates on the host and runs again. Not a failure of the GPU.
 */
export class RepeatedSitesError extends GeoframeError {
  constructor(
    readonly repeated: number,
    readonly unsure: number,
  ) {
    super(
      'REPEATED_SITES',
      `the sites are not known to be distinct (${repeated} repeat an earlier one, ${unsure} not checked)`,
    );
    this.name = 'RepeatedSitesError';
  }
}

/** Sites of one Hilbert cell compared with each other at most (past it the check is unsure). */
export const REPEAT_CHECK_RUN = 32;

/**
 * Per site along the curve (after the stable sort by Hilbert key): whether an earlier site of the
 * same key has the same f64 coordinates (`===`, so −0 equals 0). Equal points have equal grid
 * values and so equal keys, so every repeat is found among the sites of its own key; a key shared
 * by more than {@link REPEAT_CHECK_RUN} sites counts as unsure instead of being compared further.
 * `flags[0]` counts repeats, `flags[1]` unsure sites.
 */
export const REPEATED_SITES_KERNEL = defineKernel({
  name: 'voronoi/repeated-sites',
  bindings: { keys: 1, order: 2, xy: 3, flags: 4 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read> order: array<u32>;
@group(0) @binding(3) var<storage, read> xy: array<vec4u>;
@group(0) @binding(4) var<storage, read_write> flags: array<atomic<u32>>;
${SAME_POINT_WGSL}

${threadEntry('k', 'params.sites')}
  let key = keys[k];
  let p = xy[order[k]];
  var j = k;
  var compared = 0u;
  loop {
    if (j == 0u) {
      break;
    }
    j -= 1u;
    if (keys[j] != key) {
      break;
    }
    compared += 1u;
    if (compared > ${REPEAT_CHECK_RUN}u) {
      atomicAdd(&flags[1], 1u);
      break;
    }
    if (same_point(xy[order[j]], p)) {
      atomicAdd(&flags[0], 1u);
      break;
    }
  }
}
`,
});

/**
 * Checks on the GPU that the `n` sites (f64 in `xy`, their Hilbert keys sorted in `keys` with the
 * site indices in `order`) are distinct: one pass and an 8-byte round trip.
 *
 * @throws RepeatedSitesError when two are equal or the check cannot be sure
 */
export async function checkSitesDistinct(
  ctx: GpuContext,
  n: number,
  buffers: { keys: GPUBuffer; order: GPUBuffer; xy: GPUBuffer },
  maxPerDimension: number,
): Promise<void> {
  const flags = scratchBuffer(ctx, 'voronoi/repeated-sites', 16);
  const encoder = ctx.device.createCommandEncoder({ label: 'voronoi/repeated-sites' });
  encoder.clearBuffer(flags, 0, 16);
  await recordDispatches(
    ctx,
    encoder,
    'voronoi/repeated-sites',
    [
      planned(REPEATED_SITES_KERNEL, {
        params: [n],
        buffers: { keys: buffers.keys, order: buffers.order, xy: buffers.xy, flags },
        workgroups: Math.ceil(n / CELL_WORKGROUP_SIZE),
      }),
    ],
    maxPerDimension,
  );
  const words = new Uint32Array(2);
  await submitAndRead(ctx, encoder, 'voronoi/repeated-sites', [{ source: flags, target: words }]);
  if (words[0] > 0 || words[1] > 0) throw new RepeatedSitesError(words[0], words[1]);
}
