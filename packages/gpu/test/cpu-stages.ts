import { preparedFloat64Array, triangulateOrdered, voronoiCells, voronoiEdges } from '@geoframe/cpu';
import type { CpuStages } from '@geoframe/gpu';

/**
 * The CPU stages the GPU pipelines take, from the CPU engine (tests only: in src the two engines
 * meet in geo's ops/engines.ts). The Delaunay stage is the serial exact one.
 */
export const CPU_STAGES: CpuStages = {
  async delaunay(sites) {
    const ordered = triangulateOrdered(sites, false);
    if (ordered === null) return null;
    const { triangles, halfedges, flips } = ordered.tri;
    return { triangles, halfedges, flips };
  },
  voronoiCells,
  voronoiEdges,
  outputArray: preparedFloat64Array,
};
