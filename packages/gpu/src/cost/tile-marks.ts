import { TAIL } from './cost-wgsl.js';

/**
 * How a tile that changed lists the neighbouring tiles reading a changed cell (and itself, when
 * it stopped at `inner`) for the next round:
 * - `'serial'`: thread 0 walks the 27 candidates, for each a chain of dependent global atomics
 *   (the key's `atomicMin`, the flag's `atomicExchange`, the length's `atomicAdd`, the entry's
 *   store, the list's least key) — up to ~130 in 3D, one after the other;
 * - `'parallel'`: thread k takes candidate k (its key and flag), the first-listed ones take a
 *   slot in workgroup memory, and thread 0 reserves them all in the list with one `atomicAdd` and
 *   lowers the list's least key once; the entries are then stored by the threads that own them.
 *   The same tiles are listed with the same keys (the list's order differs, which no pass reads).
 */
export type TileMarks = 'serial' | 'parallel';

/** Workgroup memory of the parallel marks. */
export const MARK_DECLARATIONS = /* wgsl */ `
var<workgroup> appended: atomic<u32>;
var<workgroup> marked: atomic<u32>;
var<workgroup> list_base: u32;
`;

/** Resets the parallel marks' workgroup words (thread 0, before a tile is taken). */
export const MARK_RESET = 'atomicStore(&appended, 0u);\n    atomicStore(&marked, 0u);';

/** Thread 0's visit counters. */
function countVisit(): string {
  return `if (li == 0u) {
    atomicAdd(&flags[${TAIL.visits}u], 1u);
    atomicAdd(&flags[${TAIL.iterations}u], it);
  }`;
}

/** Candidate neighbour k's tile offset: bit k of `dirs` is (dz+1)·9 + (dy+1)·3 + (dx+1). */
const SERIAL_LOOPS = {
  3: 'for (var dz = -1; dz <= 1; dz++) { for (var dy = -1; dy <= 1; dy++) { for (var dx = -1; dx <= 1; dx++) {',
  2: 'for (var dz = 0; dz <= 0; dz++) { for (var dy = -1; dy <= 1; dy++) { for (var dx = -1; dx <= 1; dx++) {',
};

function serialMarks(ordered: boolean, dims: 2 | 3): string {
  return /* wgsl */ `
  ${countVisit()}
  let woken = atomicLoad(&dirs);
  if (li == 0u && woken != 0u) {
    let key = ${ordered ? 'atomicLoad(&least)' : 'INF'};
    let t = vec3i(wg);
    let tn = vec3i(params.tiles.xyz);
    ${SERIAL_LOOPS[dims]}
      let n = t + vec3i(dx, dy, dz);
      let me = dx == 0 && dy == 0 && dz == 0;
      let read = ((woken >> u32((dz + 1) * 9 + (dy + 1) * 3 + dx + 1)) & 1u) != 0u;
      if (all(n >= vec3i(0)) && all(n < tn) && ((read && !me) || (me && capped != 0u))) {
        let ni = u32((n.z * tn.y + n.y) * tn.x + n.x);
        ${ordered ? 'atomicMin(&keys[ni], key);' : ''}
        list_next(ni, key);
      }
    }}}
  }
`;
}

function parallelMarks(ordered: boolean, dims: 2 | 3): string {
  // in 2D only the candidates of the tile's own slice (dz = 0: bits 9–17)
  const candidate = dims === 3 ? 'li < 27u' : 'li >= 9u && li < 18u';
  return /* wgsl */ `
  ${countVisit()}
  let woken = atomicLoad(&dirs);
  let key = ${ordered ? 'atomicLoad(&least)' : 'INF'};
  var ni = NONE;
  var slot = NONE;
  if (${candidate} && woken != 0u) {
    let n = vec3i(wg) + vec3i(i32(li % 3u) - 1, i32((li / 3u) % 3u) - 1, i32(li / 9u) - 1);
    let tn = vec3i(params.tiles.xyz);
    let read = ((woken >> li) & 1u) != 0u;
    let me = li == 13u;
    if (all(n >= vec3i(0)) && all(n < tn) && ((read && !me) || (me && capped != 0u))) {
      ni = u32((n.z * tn.y + n.y) * tn.x + n.x);
      atomicStore(&marked, 1u);
      ${ordered ? 'atomicMin(&keys[ni], key);' : ''}
      if (atomicExchange(&list_b[ni], 1u) == 0u) {
        slot = atomicAdd(&appended, 1u);
      }
    }
  }
  workgroupBarrier();
  if (li == 0u) {
    let count = atomicLoad(&appended);
    if (count > 0u) {
      list_base = atomicAdd(&list_b[2u * params.tiles.w], count);
    }
    ${ordered ? 'if (atomicLoad(&marked) != 0u) { atomicMin(&list_b[2u * params.tiles.w + 1u], key); }' : ''}
  }
  workgroupBarrier();
  if (slot != NONE) {
    atomicStore(&list_b[params.tiles.w + list_base + slot], ni);
  }
`;
}

/** The marking code of a tile visit, after its changed cells are written back and a barrier. */
export function tileMarks(marks: TileMarks, ordered: boolean, dims: 2 | 3): string {
  return marks === 'parallel' ? parallelMarks(ordered, dims) : serialMarks(ordered, dims);
}
