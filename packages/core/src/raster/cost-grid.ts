/**
 * The cost-allocation vocabulary shared by the CPU and GPU engines and the geo API: a grid of
 * per-cell costs, sources in cells, and for every cell the source reachable most cheaply with
 * that accumulated cost (multi-source shortest paths on the grid graph).
 *
 * Cells follow the raster convention (raster-grid.ts, docs/raster.md):
 * `index = (slice * height + row) * width + col`, row 0 at the top (largest y), slice 0 lowest z.
 */

/** Neighbours a step may reach: 4/8/16 in 2D (16 adds the knight's moves), 6/18/26 in 3D. */
export type CostConnectivity = 4 | 8 | 16 | 6 | 18 | 26;

/**
 * How a step between two neighbouring cells a and b, `len` CRS units apart (centre to centre),
 * costs, with `u` the cost per unit length of a cell:
 * - `'cost'`: `u = v` — values are costs per unit length (GRASS r.cost, scikit-image
 *   MCP_Geometric); a face or diagonal step costs `len · (u[a] + u[b]) / 2`, in f64 exactly so.
 * - `'compliance'`: `u = 1/v` — values are stiffness; its inverse, the compliance, is the cost
 *   per unit length (the compliance-scaled distance Toss et al. use, after Faure et al.):
 *   distances are short through rigid material and long through soft.
 * A knight's move (16-connectivity) runs through four cells for a quarter of its length each:
 * a, b and the two cells c, d it crosses between them ({@link crossedCells}). It costs
 * `len · ((u[a] + u[b]) + (u[c] + u[d])) / 4`, in f64 exactly so, and is blocked when any of
 * the four is a barrier — GRASS r.cost's knight's move (`-k`), which a barrier one cell thick
 * cannot be jumped by.
 */
export type CostMetric = 'cost' | 'compliance';

/** Every {@link CostConnectivity} valid in `dimensions` (2 or 3). */
export function connectivitiesOf(dimensions: 2 | 3): readonly CostConnectivity[] {
  return dimensions === 2 ? [4, 8, 16] : [6, 18, 26];
}

/** A cost-allocation problem, normalised: what both engines take. */
export interface CostGridProblem {
  /**
   * Per cell, its value (cost per unit length, or stiffness for 'compliance'), finite and ≥ 0
   * ('compliance': > 0). NaN marks a barrier: no path enters or leaves the cell.
   */
  values: Float32Array;
  /** [width, height] in 2D, [width, height, depth] in 3D. */
  dims: readonly number[];
  /** The cell size along each axis in CRS units: [pixelWidth, pixelHeight(, voxelDepth)]. */
  spacing: readonly number[];
  /**
   * The cell of each source (a linear index as above); the source's id is its position here.
   * A source starts at accumulated cost 0 in its cell. Several sources in one cell: the lowest id
   * takes the cell.
   */
  sources: Int32Array;
  connectivity: CostConnectivity;
  metric: CostMetric;
  /** Cells whose accumulated cost would exceed this stay unreached. Default Infinity. */
  maxCost?: number;
}

/** What an engine returns for a {@link CostGridProblem}. */
export interface CostAllocation {
  /** Per cell: the id of the cheapest source, −1 when unreachable (barrier, or beyond maxCost). */
  labels: Int32Array;
  /** Per cell: the accumulated cost from that source; Infinity when unreachable. */
  cost: Float32Array;
  /**
   * Per cell (when asked for): the index into {@link neighbourSteps} of the step from the
   * predecessor to this cell, 255 at a source or an unreached cell. Following steps backwards
   * from a cell reaches its source along a least-cost path.
   */
  backlink?: Uint8Array;
}

/** One neighbour step: cell offsets along x (col), y (row), z (slice). */
export type NeighbourStep = readonly [number, number, number];

/**
 * The steps of a connectivity, in a fixed order that both engines and `backlink` use: 2D steps
 * have dz = 0. Order: by squared length, then dz, dy, dx ascending.
 */
export function neighbourSteps(connectivity: CostConnectivity): readonly NeighbourStep[] {
  const is3d = connectivity === 6 || connectivity === 18 || connectivity === 26;
  const maxSquared = { 4: 1, 8: 2, 16: 5, 6: 1, 18: 2, 26: 3 }[connectivity];
  const steps: NeighbourStep[] = [];
  const reach = connectivity === 16 ? 2 : 1;
  for (let dz = is3d ? -1 : 0; dz <= (is3d ? 1 : 0); dz++) {
    for (let dy = -reach; dy <= reach; dy++) {
      for (let dx = -reach; dx <= reach; dx++) {
        const squared = dx * dx + dy * dy + dz * dz;
        if (squared === 0 || squared > maxSquared) continue;
        // 16-connectivity: the 8 neighbours plus the knight's moves (squared length 5), not (±2, 0)
        if (connectivity === 16 && squared === 4) continue;
        steps.push([dx, dy, dz]);
      }
    }
  }
  const squaredOf = (s: NeighbourStep) => s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
  return steps.sort((a, b) => squaredOf(a) - squaredOf(b) || a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
}

/** The length in CRS units of `step` on a grid of cell sizes `spacing` (centre to centre). */
export function stepLength(step: NeighbourStep, spacing: readonly number[]): number {
  const x = step[0] * spacing[0];
  const y = step[1] * spacing[1];
  const z = step[2] * (spacing[2] ?? 0);
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * The two cells a knight's move `step` ((±1, ±2) or (±2, ±1)) crosses between its end cells, as
 * offsets from the start cell: along the long axis half way, on both columns (rows) of the
 * move — e.g. (1, 2) crosses (0, 1) and (1, 1). Null for any other step.
 */
export function crossedCells(step: NeighbourStep): [NeighbourStep, NeighbourStep] | null {
  const [dx, dy, dz] = step;
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (dz !== 0 || ax + ay !== 3 || ax === 0 || ay === 0) return null;
  return ay === 2
    ? [
        [0, dy / 2, 0],
        [dx, dy / 2, 0],
      ]
    : [
        [dx / 2, 0, 0],
        [dx / 2, dy, 0],
      ];
}
