import type { RasterMode } from '@geoframe/core';

/**
 * Which 2D JFA passes carry site positions with their labels (see `JFA_CARRY_KERNEL`), per step
 * of `steps`: `true` every pass, `false` none, `'auto'` the passes where gathering positions
 * through the labels costs more than carrying them.
 *
 * Why 'auto' looks like this (H100, 4096², per-pass timestamps): a gathering pass costs about
 * 0.15–0.2 ms while neighbouring pixels hold the same or nearby sites, and up to 0.74 ms (0.91
 * without Z-order ranks) while they hold unrelated far-away ones; a carrying pass costs 0.2–0.24
 * ms whatever the labels. Labels are scattered in between two steps: after a pass at step s each
 * pixel has seen the seeds on a lattice of spacing s, about `seeded / s²` of them, so the grid
 * is covered once s falls below √seeded; and the labels settle on nearby sites once s reaches
 * the typical site spacing √(pixels / seeded). So 'auto' carries for spacing ≤ s ≤ √seeded / 2
 * (4096² with 100k sites: steps 128 to 16; 1k or fewer sites: none). Not in '1+jfa': its first
 * step-1 pass turns every seed into a 3×3 block, so neighbouring pixels see the same blocks on
 * their lattices and the labels stay coherent enough to gather (0.22 ms at the worst step).
 */
export function carryPlan(
  carry: boolean | 'auto',
  mode: RasterMode,
  steps: readonly number[],
  seeded: number,
  levelPixels: number,
): boolean[] {
  if (carry !== 'auto') return steps.map(() => carry);
  if (mode === '1+jfa' || seeded === 0) return steps.map(() => false);
  const spacing = Math.sqrt(levelPixels / seeded);
  const top = Math.sqrt(seeded) / 2;
  return steps.map((s) => s >= spacing && s <= top);
}
