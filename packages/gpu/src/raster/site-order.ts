import { encodeRadixSort } from '../primitives/sort/radix-sort.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { Alloc } from './level-grid.js';
import type { RasterProgram } from './raster-program.js';
import { NO_SITE, type RasterSetup } from './raster-setup.js';
import { LIST_WORKGROUP, paramBlock } from './raster-wgsl.js';
import { FILL_KERNEL } from './seed-kernels.js';
import { RANK_KEYS_KERNEL, RANK_SCATTER_KERNEL } from './site-order-kernels.js';

/** Seeded sites renumbered along a Z-order curve of their seed pixels, on the GPU (see {@link rankSites}). */
export interface SiteRanks {
  /** Per site: its rank, or {@link NO_SITE} for a site that seeds nothing. */
  rank: GPUBuffer;
  /** Per rank: the site's index (seeded sites first). */
  original: GPUBuffer;
  /** Per rank: the site's position as in `setup.positions` (vec2f in 2D, vec4f in 3D). */
  positions: GPUBuffer;
  /** The highest rank (0 when no site seeds). */
  lastRank: number;
}

/**
 * Records the ranking of the seeded sites by (Z-order key of their seed pixel at level `level`,
 * site index): sites near each other get nearby ranks, so a JFA pass's gathers of site positions
 * through rank labels touch few cache lines, and the sites of one level pixel keep their index
 * order (the seeding's "lowest index" rule picks the lowest rank). Keys on the GPU, a stable
 * radix sort of (key, index), then a scatter of ranks and positions: nothing on the host but
 * the parameters. The key uses the level pixel's coordinates shifted right until every axis fits
 * 15 bits (2D) or 10 bits (3D).
 */
export async function rankSites(
  ctx: GpuContext,
  program: RasterProgram,
  setup: RasterSetup,
  level: number,
  seedPixels: GPUBuffer,
  positions: GPUBuffer,
  make: Alloc,
): Promise<SiteRanks> {
  const { dims, width, height, count, seeded } = setup;
  const bits = dims === 2 ? 15 : 10;
  let shift = level;
  while (Math.max(width, height, setup.depth) >> shift >= 2 ** bits) shift++;
  const n = Math.max(1, count);
  const keys = await make.storage(n * 4, 'rank keys');
  const original = await make.storage(n * 4, 'rank order');
  const rank = await make.storage(n * 4, 'site ranks');
  const ranked = await make.storage(Math.max(1, seeded) * (dims === 2 ? 8 : 16), 'ranked positions');
  const constants = { dims };
  const sites = { linear: Math.ceil(count / LIST_WORKGROUP) };
  program
    .pass('rank')
    .dispatch(FILL_KERNEL, {
      constants,
      params: paramBlock([0, 0, 0, 0, count, NO_SITE], []),
      buffers: { out: rank },
      workgroups: sites,
    })
    .dispatch(RANK_KEYS_KERNEL, {
      constants,
      params: paramBlock([0, 0, 0, 0, count, width, height, shift], []),
      buffers: {
        seed: seedPixels,
        keys,
        values: original,
      },
      workgroups: sites,
    });
  program.encode((encoder) =>
    encodeRadixSort(ctx, encoder, { keys, values: original, count, scratchPrefix: 'raster/rank' }),
  );
  program.pass('rank scatter').dispatch(RANK_SCATTER_KERNEL, {
    constants,
    params: paramBlock([0, 0, 0, 0, seeded], []),
    buffers: {
      sites: positions,
      order: original,
      rank,
      ranked,
    },
    workgroups: { linear: Math.ceil(seeded / LIST_WORKGROUP) },
  });
  return { rank, original, positions: ranked, lastRank: Math.max(0, seeded - 1) };
}
