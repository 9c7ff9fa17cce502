import type { Adjacency } from './edge-adjacency.js';

/**
 * The smallest-last (degeneracy) order of a graph: repeatedly remove a vertex of least remaining
 * degree; the result lists vertices in removal order. Bucket queue (Matula & Beck), O(V + E).
 */
export function smallestLastOrder(graph: Adjacency): Int32Array {
  const { offsets, neighbors } = graph;
  const n = offsets.length - 1;
  const degree = new Int32Array(n);
  let maxDegree = 0;
  for (let v = 0; v < n; v++) {
    degree[v] = offsets[v + 1] - offsets[v];
    if (degree[v] > maxDegree) maxDegree = degree[v];
  }
  // vertices sorted by degree; binStart[d] = first position of degree d in `order`
  const binStart = new Int32Array(maxDegree + 2);
  for (let v = 0; v < n; v++) binStart[degree[v] + 1]++;
  for (let d = 0; d <= maxDegree; d++) binStart[d + 1] += binStart[d];
  const order = new Int32Array(n);
  const position = new Int32Array(n);
  const fill = binStart.slice();
  for (let v = 0; v < n; v++) {
    position[v] = fill[degree[v]]++;
    order[position[v]] = v;
  }
  // take vertices front to back; a removed vertex lowers its later neighbours by one bin, swapping
  // each to the front of its bin and moving the bin start past it
  for (let p = 0; p < n; p++) {
    const v = order[p];
    for (let j = offsets[v]; j < offsets[v + 1]; j++) {
      const u = neighbors[j];
      if (position[u] <= p) continue;
      const du = degree[u];
      const front = Math.max(binStart[du], p + 1);
      const w = order[front];
      if (w !== u) {
        order[front] = u;
        order[position[u]] = w;
        position[w] = position[u];
        position[u] = front;
      }
      binStart[du] = front + 1;
      degree[u] = du - 1;
    }
  }
  return order;
}

/**
 * Greedy colouring in smallest-last order: vertices are coloured from the last removed to the
 * first, each with the smallest colour no coloured neighbour has. Neighbours never share a
 * colour; at most degeneracy + 1 colours are used, so at most 6 for a planar graph (a map of
 * edge-sharing polygons) and usually 4 or 5. Vertices without neighbours get colour 0.
 *
 * Returns one colour index per vertex.
 */
export function smallestLastColoring(graph: Adjacency): Int32Array {
  const { offsets, neighbors } = graph;
  const n = offsets.length - 1;
  const order = smallestLastOrder(graph);
  const color = new Int32Array(n).fill(-1);
  let taken = new Int32Array(16).fill(-1); // taken[c] === v: colour c is used next to v
  for (let p = n - 1; p >= 0; p--) {
    const v = order[p];
    const degree = offsets[v + 1] - offsets[v];
    if (degree + 1 > taken.length) {
      const grown = new Int32Array(2 * (degree + 1)).fill(-1);
      grown.set(taken);
      taken = grown;
    }
    for (let j = offsets[v]; j < offsets[v + 1]; j++) {
      const c = color[neighbors[j]];
      // a colour above the degree can never be the smallest free one
      if (c >= 0 && c <= degree) taken[c] = v;
    }
    let c = 0;
    while (taken[c] === v) c++;
    color[v] = c;
  }
  return color;
}
