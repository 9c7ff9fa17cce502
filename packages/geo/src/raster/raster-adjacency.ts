import type { Adjacency } from '../plot/edge-adjacency.js';

/**
 * Which labels touch in a 2D label image: two labels (≥ 0, below `labelCount`) are adjacent when
 * some pixel of one has a 4-neighbour (left, right, up, down) of the other. Pixels labelled −1
 * touch nothing. Pairs are collected as numeric keys in a typed array, sorted and deduplicated.
 */
export function rasterAdjacency(
  labels: Int32Array,
  width: number,
  height: number,
  labelCount: number,
): Adjacency {
  let keys = new Float64Array(1024);
  let count = 0;
  const push = (a: number, b: number) => {
    if (a < 0 || b < 0 || a === b) return;
    if (count + 2 > keys.length) {
      const grown = new Float64Array(keys.length * 2);
      grown.set(keys);
      keys = grown;
    }
    keys[count++] = a * labelCount + b;
    keys[count++] = b * labelCount + a;
  };
  for (let r = 0; r < height; r++) {
    const row = r * width;
    for (let c = 0; c < width; c++) {
      const l = labels[row + c];
      if (c + 1 < width) {
        const right = labels[row + c + 1];
        if (right !== l) push(l, right);
      }
      if (r + 1 < height) {
        const down = labels[row + width + c];
        if (down !== l) push(l, down);
      }
    }
  }
  const sorted = keys.subarray(0, count).sort();
  const offsets = new Int32Array(labelCount + 1);
  const neighbors = new Int32Array(count);
  let n = 0;
  for (let k = 0; k < count; k++) {
    if (k > 0 && sorted[k] === sorted[k - 1]) continue;
    const a = Math.floor(sorted[k] / labelCount);
    neighbors[n++] = sorted[k] - a * labelCount;
    offsets[a + 1]++;
  }
  for (let i = 0; i < labelCount; i++) offsets[i + 1] += offsets[i];
  return { offsets, neighbors: neighbors.slice(0, n) };
}
