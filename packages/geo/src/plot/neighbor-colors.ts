import type { GeometryArray } from '@geoframe/core';
import { edgeAdjacency, isArealRow } from './edge-adjacency.js';
import { smallestLastColoring } from './smallest-last-coloring.js';

/**
 * A colour index per row such that polygon rows sharing a segment (see `edgeAdjacency`) never get
 * the same index: greedy colouring in smallest-last order, so a planar map uses at most six
 * indices (0–5), usually four or five. Rows that are not polygons or multipolygons, and null or
 * empty rows, get -1.
 */
export function neighborColors(array: GeometryArray): Int32Array {
  const graph = edgeAdjacency(array);
  const color = smallestLastColoring(graph);
  for (let i = 0; i < array.length; i++) {
    if (!isArealRow(array, i)) color[i] = -1;
  }
  return color;
}
