/** Stable CPU reference: the permutation ordering `keys` by their low `keyBits` bits, ties by index. */
export function stableOrder(keys: Uint32Array, keyBits = 32): Uint32Array {
  const mask = keyBits === 32 ? 0xffffffff : 2 ** keyBits - 1;
  const masked = Float64Array.from(keys, (k) => (k & mask) >>> 0);
  const order = Array.from(keys, (_, i) => i);
  order.sort((a, b) => masked[a] - masked[b] || a - b);
  return Uint32Array.from(order);
}

/** `source` gathered through `order`. */
export function gather(source: Uint32Array, order: Uint32Array): Uint32Array {
  return Uint32Array.from(order, (i) => source[i]);
}
