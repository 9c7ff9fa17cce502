import type { CostAllocation, CostGridProblem } from '@geoframe/core';
import { type GpuContext, GpuUnavailableError } from '@geoframe/gpu';

/** The GPU cost-allocation engine of @geoframe/gpu; a stand-in until that engine is merged. */
export async function costAllocationGpu(
  _ctx: GpuContext,
  _problem: CostGridProblem,
  _options?: { backlink?: boolean },
): Promise<CostAllocation> {
  throw new GpuUnavailableError('costAllocationGpu is not merged yet');
}
