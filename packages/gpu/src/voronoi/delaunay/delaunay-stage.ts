import {
  availableThreads,
  type RobustTriangulation,
  triangulateOrdered,
  triangulatePresortedParallel,
} from '@geoframe/cpu';

/**
 * Stage 2 of the GPU Voronoi pipeline: the Delaunay triangulation of the sites (numbered along
 * the Hilbert curve), in delaunator's half-edge form. Arrays live on the host (this CPU stage)
 * or already on the device (a GPU stage); the later stages take either.
 */
export interface DelaunayStage {
  /** Site indices, three per triangle, clockwise in a y-up frame (delaunator's convention). */
  triangles: Uint32Array | GPUBuffer;
  /** Per half-edge: its twin in the adjacent triangle, or −1 on the convex hull. */
  halfedges: Int32Array | GPUBuffer;
  triangleCount: number;
  /** Where it ran and what it needed (for stats). */
  path: 'cpu' | 'gpu';
  /** Interior edges flipped by the exact repair (CPU), for stats. */
  flips: number;
}

/** Fewest sites for which {@link cpuDelaunayStageParallel} splits its verification over threads. */
export const PARALLEL_DELAUNAY_FROM = 200_000;

/**
 * The CPU Delaunay stage: delaunator on the curve-ordered sites, verified and repaired with exact
 * predicates (`triangulateOrdered` of @geoframe/cpu, ADR 0004), keeping their numbering.
 * Returns null when there is no triangle (fewer than three sites, or all collinear: decided exactly).
 */
export function cpuDelaunayStage(curveSites: Float64Array): DelaunayStage | null {
  const ordered = triangulateOrdered(curveSites, false);
  return ordered === null ? null : stageOf(ordered.tri);
}

/**
 * {@link cpuDelaunayStage} with the exact verification's float filter on worker threads from
 * `parallelFrom` sites (default {@link PARALLEL_DELAUNAY_FROM}): the same triangles, numbered along
 * the sites' order. What the GPU pipeline runs.
 */
export async function cpuDelaunayStageParallel(
  curveSites: Float64Array,
  parallelFrom = PARALLEL_DELAUNAY_FROM,
): Promise<DelaunayStage | null> {
  const threads = curveSites.length >> 1 >= parallelFrom ? await availableThreads() : 1;
  if (threads < 2) return cpuDelaunayStage(curveSites);
  const tri = await triangulatePresortedParallel(curveSites, threads);
  return tri === null ? null : stageOf(tri);
}

function stageOf(tri: RobustTriangulation): DelaunayStage {
  return {
    triangles: tri.triangles,
    halfedges: tri.halfedges,
    triangleCount: tri.triangles.length / 3,
    path: 'cpu',
    flips: tri.flips,
  };
}
