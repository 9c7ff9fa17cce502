import { checkBits, type HilbertOptions, quantizeHilbertGrid } from './hilbert-grid.js';

/**
 * Hilbert keys of interleaved points `xy` on the CPU: the reference the GPU path equals bit for
 * bit. Points are quantized by {@link quantizeHilbertGrid}, then each cell `(x, y)` of the
 * 2^bits × 2^bits grid gets its index along the Hilbert curve that starts at cell (0, 0) and ends
 * at cell (2^bits − 1, 0); consecutive indices are edge-adjacent cells.
 *
 * Output: 16 bits → one u32 per point (the index, 0 … 2^32 − 1); 32 bits → two u32 per point,
 * `[hi, lo]` of the 64-bit index. Sorting by the key (hi first) orders the points along the curve.
 *
 * @throws InvalidGeometryError naming the point index of a NaN or infinite coordinate.
 * @throws RangeError for bad `bits`, bad `bounds` or an odd-length `xy`.
 */
export function hilbertKeysCpu(xy: Float64Array, options: HilbertOptions): Uint32Array {
  const bits = checkBits(options.bits);
  return hilbertKeysOfGrid(quantizeHilbertGrid(xy, options), bits);
}

/**
 * Hilbert keys of grid cells as {@link quantizeHilbertGrid} lays them out (16 bits: `x | y << 16`
 * per point; 32 bits: `x, y`). Same output layout as {@link hilbertKeysCpu}.
 */
export function hilbertKeysOfGrid(grid: Uint32Array, bits: 16 | 32): Uint32Array {
  const keys = new Uint32Array(grid.length);
  if (bits === 16) {
    for (let i = 0; i < grid.length; i++) {
      const g = grid[i];
      keys[i] = hilbertLevels(g & 0xffff, g >>> 16, 15, null);
    }
  } else {
    const state = new Int32Array(2);
    for (let i = 0; i < grid.length; i += 2) {
      state[0] = grid[i];
      state[1] = grid[i + 1];
      keys[i] = hilbertLevels(state[0], state[1], 31, state);
      keys[i + 1] = hilbertLevels(state[0], state[1], 15, null);
    }
  }
  return keys;
}

/**
 * 16 levels of the Hilbert index, from bit `top` of x and y down to bit `top − 15`, as 32 key
 * bits (2 per level, most significant first). At each level the quadrant digit is
 * `(3·rx) xor ry`; then the lower bits are mapped into the sub-square's frame: a lower-left
 * quadrant is transposed, a lower-right one reflected through its anti-diagonal (complement both,
 * then transpose). Only bits below the current one are read later, so complementing the whole
 * word is as good as complementing the low bits. When `state` is given, the transformed x and y
 * are left in it so that the next 16 levels can continue.
 */
function hilbertLevels(x: number, y: number, top: number, state: Int32Array | null): number {
  let key = 0;
  for (let k = top; k > top - 16; k--) {
    const rx = (x >>> k) & 1;
    const ry = (y >>> k) & 1;
    key = (key << 2) | ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = ~x;
        y = ~y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  if (state) {
    state[0] = x;
    state[1] = y;
  }
  return key >>> 0;
}
