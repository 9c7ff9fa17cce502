export { chooseCoarseLevel, maxCoarseLevel } from './coarse-level.js';
export { type RasterGpuOptions, type RasterGpuStats, RasterPlan } from './raster-plan.js';
export { NO_SITE, prepareRaster, type RasterSetup } from './raster-setup.js';
export { type VoronoiRasterGpuOptions, voronoiRasterGpu } from './voronoi-raster-gpu.js';
