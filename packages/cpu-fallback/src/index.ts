export { type ClipCounts, clipCellsToRegion, zeroClipCounts } from './clip/clip-cells.js';
export { clipLinesToRegion } from './clip/clip-lines.js';
export { type ClipRegion, prepareClipRegion, regionContains } from './clip/clip-region.js';
export type { EdgeGrid } from './clip/edge-grid.js';
export type { MultiPolygonBuffers } from './clip/multi-polygon-buffers.js';
export {
  emptyLines,
  emptyPolygons,
  type LineBuffers,
  nextHalfedge,
  type PolygonBuffers,
  prevHalfedge,
  type Triangulation,
} from './voronoi/buffers.js';
export { delaunay, delaunayEdgeLines, delaunayTriangleRings } from './voronoi/delaunay-output.js';
export {
  type OrderedTriangulation,
  type RobustTriangulation,
  triangulate,
  triangulateOrdered,
} from './voronoi/triangulate.js';
export { type ParallelCellsOptions, voronoiCells, voronoiCellsParallel } from './voronoi/voronoi-cells.js';
export { voronoiEdges } from './voronoi/voronoi-edges.js';
