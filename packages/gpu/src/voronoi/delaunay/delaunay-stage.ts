import { triangulateOrdered } from '@geoframe/cpu-fallback';

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

/**
 * The CPU Delaunay stage: delaunator on the curve-ordered sites, verified and repaired with exact
 * predicates (`triangulateOrdered` of @geoframe/cpu-fallback, ADR 0004), keeping their numbering.
 * Returns null when there is no triangle (fewer than three sites, or all collinear: decided exactly).
 */
export function cpuDelaunayStage(curveSites: Float64Array): DelaunayStage | null {
  const ordered = triangulateOrdered(curveSites, false);
  if (ordered === null) return null;
  const { tri } = ordered;
  return {
    triangles: tri.triangles,
    halfedges: tri.halfedges,
    triangleCount: tri.triangles.length / 3,
    path: 'cpu',
    flips: tri.flips,
  };
}
