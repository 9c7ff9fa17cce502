import { type ProgressOption, ProgressReporter } from '@geoframe/core';

/**
 * The progress stages of `voronoiPolygons` and their rough shares of its time (measured on the
 * CPU path at 1M sites: the diagram dominates, clipping to a detailed outline is next).
 */
export function voronoiProgress(option: ProgressOption | undefined, clips: boolean): ProgressReporter {
  return new ProgressReporter('voronoiPolygons', option, [
    { name: 'sites', weight: 1, unit: 'rows' },
    { name: 'diagram', weight: 6, unit: 'sites' },
    ...(clips ? [{ name: 'clip', weight: 2, unit: 'sites' }] : []),
    { name: 'cells', weight: 1, unit: 'cells' },
  ]);
}

/** The progress stages of `delaunayTriangles`. */
export function delaunayProgress(option: ProgressOption | undefined): ProgressReporter {
  return new ProgressReporter('delaunayTriangles', option, [
    { name: 'sites', weight: 1, unit: 'rows' },
    { name: 'triangulation', weight: 6, unit: 'sites' },
    { name: 'triangles', weight: 2, unit: 'sites' },
  ]);
}
