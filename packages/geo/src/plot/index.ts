export { type Adjacency, adjacencyFromPairs, edgeAdjacency } from './edge-adjacency.js';
export { neighborColors } from './neighbor-colors.js';
export { NEIGHBOR_PALETTE } from './palette.js';
export { type PlotFrame, type PlotOptions, plotBounds, plotFrame } from './plot-options.js';
export { plotPng } from './plot-png.js';
export { plotSvg } from './plot-svg.js';
export { smallestLastColoring, smallestLastOrder } from './smallest-last-coloring.js';
