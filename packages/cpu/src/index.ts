export { type ClipCounts, clipCellsToRegion } from './clip/clip-cells.js';
export { clipLinesToRegion } from './clip/clip-lines.js';
export { type ClipRegion, prepareClipRegion, regionContains } from './clip/clip-region.js';
export type { MultiPolygonBuffers } from './clip/multi-polygon-buffers.js';
export { type CostAllocationCpuOptions, costAllocationCpu } from './cost/cost-allocation-cpu.js';
export type { CvtEvaluation, CvtStopping } from './cvt/cvt-evaluation.js';
export {
  type CellSource,
  type CvtExactOptions,
  type CvtExactProblem,
  cvtExact,
  type ExactDensity,
  exactEvaluator,
} from './cvt/cvt-exact-cpu.js';
export { type CvtRasterCpuOptions, cvtRasterCpu } from './cvt/cvt-raster-cpu.js';
export { type DensityPieces, densityPieces, regionPolygons } from './cvt/density-pieces.js';
export type { MomentSource, SourcedMoments } from './cvt/moment-source.js';
export { type CvtEvaluateAsync, type CvtRunOptions, runCvtAsync } from './cvt/run-cvt.js';
export { fillRings } from './cvt/scanline-fill.js';
export type { DensityAt } from './cvt/triangle-quadrature.js';
export { separateDuplicates, uniqueCvtSites } from './cvt/unique-cvt-sites.js';
export type { LineBuffers, PolygonBuffers, Triangulation } from './delaunay/buffers.js';
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
  pointDistance,
  pointPolygonalDistance,
} from './predicates/locate-point.js';
export { bruteForceRaster } from './raster/brute-force-raster.js';
export { facetCoarseLevel } from './raster/facet-jfa.js';
export { type RasterFrame, rasterFrame } from './raster/raster-frame.js';
export { sitePixelIndices } from './raster/seed-raster.js';
export {
  type RasterStats,
  type VoronoiRasterCpuOptions,
  voronoiRasterCpu,
} from './raster/voronoi-raster-cpu.js';
export { type GeosToleranceOptions, geosToleranceSites } from './sites/geos-tolerance-sites.js';
export { uniqueSitesParallel } from './sites/unique-sites-parallel.js';
export {
  copyRingsCounted,
  expandWithoutRepeatsParallel,
  firstBadRing,
  RING_PASSES_PARALLEL_FROM,
  withoutRepeatsParallel,
} from './voronoi/ring-passes.js';
export { type ParallelCellsOptions, voronoiCells, voronoiCellsParallel } from './voronoi/voronoi-cells.js';
export { voronoiEdges } from './voronoi/voronoi-edges.js';
export type { WorkProgress } from './workers/work-meter.js';
export {
  availableThreads,
  preparedFloat32Array,
  preparedFloat64Array,
  preparedInt32Array,
} from './workers/worker-pool.js';
