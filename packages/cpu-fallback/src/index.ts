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
export { type RobustTriangulation, triangulate } from './voronoi/triangulate.js';
export { voronoiCells } from './voronoi/voronoi-cells.js';
export { voronoiEdges } from './voronoi/voronoi-edges.js';
