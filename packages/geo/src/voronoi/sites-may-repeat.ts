import type { Box } from '@geoframe/core';
import {
  type GpuContext,
  RepeatedSitesError,
  type VoronoiGpuOptions,
  voronoiCellsGpu,
  voronoiCellsGpuOnDevice,
} from '@geoframe/gpu';

/**
 * Sites that go to the GPU before their duplicates are removed: the GPU checks them distinct
 * after its Hilbert sort (`sitesMayRepeat`, 8 bytes back) and most inputs need no host pass at
 * all; `distinct()` removes the duplicates on the host (once) when the check finds some or is
 * unsure, and the pipeline runs again on those. Below this many sites the host's pass is cheap.
 */
export const SITES_CHECKED_ON_GPU_FROM = 1 << 15;

/** The cells of `xy` (which may repeat), as `voronoiCellsGpu` gives those of distinct sites. */
export async function voronoiCellsGpuMayRepeat(
  ctx: GpuContext,
  xy: Float64Array,
  box: Box,
  options: VoronoiGpuOptions,
  distinct: () => Promise<Float64Array>,
): ReturnType<typeof voronoiCellsGpu> {
  try {
    return await voronoiCellsGpu(ctx, xy, box, { ...options, sitesMayRepeat: true });
  } catch (error) {
    if (!(error instanceof RepeatedSitesError)) throw error;
    return voronoiCellsGpu(ctx, await distinct(), box, options);
  }
}

/** {@link voronoiCellsGpuMayRepeat} with the cells kept on the device (adr/0032). */
export async function keptCellsMayRepeat(
  ctx: GpuContext,
  xy: Float64Array,
  box: Box,
  options: VoronoiGpuOptions,
  distinct: () => Promise<Float64Array>,
): ReturnType<typeof voronoiCellsGpuOnDevice> {
  try {
    return await voronoiCellsGpuOnDevice(ctx, xy, box, { ...options, sitesMayRepeat: true });
  } catch (error) {
    if (!(error instanceof RepeatedSitesError)) throw error;
    return voronoiCellsGpuOnDevice(ctx, await distinct(), box, options);
  }
}
