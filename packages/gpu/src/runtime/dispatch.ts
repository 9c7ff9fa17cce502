/** WebGPU's guaranteed `maxComputeWorkgroupsPerDimension`. */
export const DEFAULT_MAX_WORKGROUPS_PER_DIMENSION = 65535;

/**
 * Workgroup counts `[x, y]` covering `workgroups` workgroups of a 1D grid, split over x and y
 * when more than `maxPerDimension` are needed: `x * y >= workgroups` and both ≤ the maximum, with
 * at most `y - 1` surplus workgroups. Kernels recover the linear index as
 * `workgroup_id.y * num_workgroups.x + workgroup_id.x` and return when it is past the end.
 * Zero workgroups gives `[0, 0]` (dispatch nothing).
 *
 * @throws RangeError when even `maxPerDimension²` workgroups are not enough.
 */
export function dispatchSize(
  workgroups: number,
  maxPerDimension = DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
): [number, number] {
  if (!Number.isInteger(workgroups) || workgroups < 0) {
    throw new RangeError(`dispatchSize: ${workgroups} is not a workgroup count`);
  }
  if (workgroups === 0) return [0, 0];
  if (workgroups <= maxPerDimension) return [workgroups, 1];
  const y = Math.ceil(workgroups / maxPerDimension);
  if (y > maxPerDimension) {
    throw new RangeError(
      `dispatchSize: ${workgroups} workgroups exceed ${maxPerDimension}² for one dispatch`,
    );
  }
  return [Math.ceil(workgroups / y), y];
}

/** Dispatches enough workgroups of `workgroupSize` threads for `threads` threads, split as {@link dispatchSize}. */
export function dispatchThreads(
  pass: GPUComputePassEncoder,
  threads: number,
  workgroupSize: number,
  maxPerDimension = DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
): void {
  const [x, y] = dispatchSize(Math.ceil(threads / workgroupSize), maxPerDimension);
  if (x > 0) pass.dispatchWorkgroups(x, y);
}
