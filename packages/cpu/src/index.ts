export { type ClipCounts, clipCellsToRegion, zeroClipCounts } from './clip/clip-cells.js';
export { clipLinesToRegion } from './clip/clip-lines.js';
export { type ClipRegion, prepareClipRegion, regionContains } from './clip/clip-region.js';
export type { EdgeGrid } from './clip/edge-grid.js';
export type { MultiPolygonBuffers } from './clip/multi-polygon-buffers.js';
export { type CostAllocationCpuOptions, costAllocationCpu } from './cost/cost-allocation-cpu.js';
export {
  emptyLines,
  emptyPolygons,
  type LineBuffers,
  nextHalfedge,
  type PolygonBuffers,
  prevHalfedge,
  type Triangulation,
} from './delaunay/buffers.js';
export { delaunay, delaunayEdgeLines, delaunayTriangleRings } from './delaunay/delaunay-output.js';
export {
  type OrderedTriangulation,
  type RobustTriangulation,
  triangulate,
  triangulateOrdered,
  triangulatePresortedParallel,
} from './delaunay/triangulate.js';
export {
  BOUNDARY,
  EXTERIOR,
  INTERIOR,
  isPolygonalRow,
  type Location,
  locatePointInPolygonal,
  onSegment,
  pointDistance,
  pointPolygonalDistance,
  pointSegmentDistance,
} from './predicates/locate-point.js';
export { bruteForceRaster } from './raster/brute-force-raster.js';
export { exactRaster } from './raster/exact-raster.js';
export { facetCoarseLevel, facetJumpFlood, levelOf, paddedSide } from './raster/facet-jfa.js';
export { jumpFlood, jumpFloodSteps } from './raster/jump-flood.js';
export { isInterior, jumpFloodPass, type LevelGrid } from './raster/jump-flood-pass.js';
export { rasterDistance } from './raster/raster-distance.js';
export {
  type CentrePixels,
  centrePixels,
  centreX,
  centreY,
  centreZ,
  nextPowerOfTwo,
  type RasterFrame,
  rasterFrame,
  type SitePixels,
  sitePixels,
  squaredDistanceF32,
} from './raster/raster-frame.js';
export { seedLevel, sitePixelIndices } from './raster/seed-raster.js';
export { SiteBuckets } from './raster/site-buckets.js';
export {
  type RasterStats,
  type VoronoiRasterCpuOptions,
  voronoiRasterCpu,
} from './raster/voronoi-raster-cpu.js';
export { type GeosToleranceOptions, geosToleranceSites } from './sites/geos-tolerance-sites.js';
export { uniqueSitesParallel } from './sites/unique-sites-parallel.js';
export { type ParallelCellsOptions, voronoiCells, voronoiCellsParallel } from './voronoi/voronoi-cells.js';
export { voronoiEdges } from './voronoi/voronoi-edges.js';
export { availableThreads, preparedFloat64Array } from './workers/worker-pool.js';
