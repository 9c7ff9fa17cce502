/**
 * The order of collinear sites along their line (lexicographic by x, then y — for distinct
 * points on one line that is their order along it, vertical lines included).
 */
export function lineOrder(sites: Float64Array): Uint32Array {
  const n = sites.length >> 1;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => sites[2 * a] - sites[2 * b] || sites[2 * a + 1] - sites[2 * b + 1]);
  return order;
}
