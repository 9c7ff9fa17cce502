import { COST_WORKGROUP, TAIL } from './cost-wgsl.js';

/**
 * How a round's workgroups take the entries of its list:
 * - `'serial'`: each workgroup takes the entries id, id + stride, … one at a time, thread 0
 *   reading the entry and, in the ordered pass, deciding whether the tile runs or waits; a tile
 *   that waits is passed on to the next list by the same thread (its key, flag, slot and the
 *   list's least key: a chain of dependent global atomics, several of them on the list's two
 *   shared words). With most listed tiles waiting (the ordered pass defers about 8 for each it
 *   runs) that chain, one entry after the other, was most of a round;
 * - `'parallel'`: each workgroup takes a run of consecutive entries (as many as spread the list
 *   over the round's workgroups), one thread per entry: the tiles that wait are passed on
 *   together (one `atomicAdd` reserves their slots, one `atomicMin` lowers the next list's least
 *   key), the tiles that run are queued in workgroup memory and run one after the other.
 * Both run the same tiles with the same keys in a round; only the lists' order differs.
 */
export type TilePicks = 'serial' | 'parallel';

/**
 * The round's bookkeeping, by the first workgroup's thread 0: counts the round, writes its
 * `changed` word (whether its list holds a tile) and empties the list after the next.
 */
const BOOKKEEPING = /* wgsl */ `
    let r = atomicAdd(&flags[${TAIL.round}u], 1u);
    atomicStore(&flags[r % MAX_BATCH], select(0u, 1u, listed > 0u));
    atomicStore(&list_c[2u * tiles], 0u);
    atomicStore(&list_c[2u * tiles + 1u], INF);`;

/** The ordered pass's threshold: the least key delivered to this round's list + Δ (+∞ when none). */
const THRESHOLD = /* wgsl */ `
  let least_listed = atomicLoad(&list_a[2u * tiles + 1u]);
  let threshold = select(bitcast<u32>(bitcast<f32>(least_listed) + bitcast<f32>(params.misc.y)), INF, least_listed >= INF);`;

/** The tile's grid position, from its index `t`. */
const TILE_OF =
  'let wg = vec3u(t % params.tiles.x, (t / params.tiles.x) % params.tiles.y, t / (params.tiles.x * params.tiles.y));';

/** Workgroup memory of the parallel picks. */
export const PICK_DECLARATIONS = /* wgsl */ `
var<workgroup> wg_listed: u32;
var<workgroup> wg_runs: u32;
var<workgroup> run_count: atomic<u32>;
var<workgroup> run_queue: array<u32, ${COST_WORKGROUP}>;
var<workgroup> pass_count: atomic<u32>;
var<workgroup> pass_base: u32;
var<workgroup> waiting: atomic<u32>;
var<workgroup> pass_least: atomic<u32>;
`;

function serialPick(ordered: boolean, reset: string): string {
  const defer = `let key = atomicExchange(&keys[t], INF);
      if (key > threshold) {
        atomicMin(&keys[t], key);
        list_next(t, key);
        atomicAdd(&flags[${TAIL.deferred}u], 1u);
        picked = 0u;
      }`;
  return /* wgsl */ `
  let tiles = params.tiles.w;
  let stride = nw.x * nw.y;
  var id = wid.y * nw.x + wid.x;
  let listed = atomicLoad(&list_a[2u * tiles]);
  if (id == 0u && li == 0u) {${BOOKKEEPING}
  }
  ${ordered ? THRESHOLD : ''}
  loop {
  if (li == 0u) {
    // the workgroup's next entry of this round's list, whose flag is cleared for reuse
    var picked = END;
    if (id < listed) {
      let t = atomicLoad(&list_a[tiles + id]);
      atomicStore(&list_a[t], 0u);
      picked = t + 1u;
      ${ordered ? defer : ''}
    }
    tile_on = picked;
    ${reset}
  }
  let picked = workgroupUniformLoad(&tile_on);
  if (picked == END) {
    break;
  }
  id += stride;
  if (picked != 0u) {
  let t = picked - 1u;
  ${TILE_OF}
`;
}

function parallelPick(ordered: boolean, reset: string): string {
  const sort = ordered
    ? `let key = atomicExchange(&keys[entry], INF);
      if (key > threshold) {
        // waits: key kept, passed on to the next list with the others of this run
        atomicMin(&keys[entry], key);
        atomicAdd(&waiting, 1u);
        atomicMin(&pass_least, key);
        if (atomicExchange(&list_b[entry], 1u) == 0u) {
          slot = atomicAdd(&pass_count, 1u);
        }
      } else {
        run_queue[atomicAdd(&run_count, 1u)] = entry;
      }`
    : 'run_queue[atomicAdd(&run_count, 1u)] = entry;';
  return /* wgsl */ `
  let tiles = params.tiles.w;
  let stride = nw.x * nw.y;
  let id = wid.y * nw.x + wid.x;
  if (li == 0u) {
    let listed = atomicLoad(&list_a[2u * tiles]);
    if (id == 0u) {${BOOKKEEPING}
    }
    wg_listed = listed;
  }
  let listed = workgroupUniformLoad(&wg_listed);
  ${ordered ? THRESHOLD : ''}
  // consecutive entries per workgroup: as many as spread the list over the round's workgroups
  let chunk = min(${COST_WORKGROUP}u, max(1u, (listed + stride - 1u) / stride));
  var base = id * chunk;
  loop {
  if (base >= listed) {
    break;
  }
  if (li == 0u) {
    atomicStore(&run_count, 0u);
    atomicStore(&pass_count, 0u);
    atomicStore(&waiting, 0u);
    atomicStore(&pass_least, INF);
  }
  workgroupBarrier();
  var entry = NONE;
  var slot = NONE;
  if (li < chunk && base + li < listed) {
    // this thread's entry, whose flag is cleared for reuse
    entry = atomicLoad(&list_a[tiles + base + li]);
    atomicStore(&list_a[entry], 0u);
    ${sort}
  }
  workgroupBarrier();
  if (li == 0u) {
    let passed = atomicLoad(&pass_count);
    if (passed > 0u) {
      pass_base = atomicAdd(&list_b[2u * tiles], passed);
    }
    let waited = atomicLoad(&waiting);
    if (waited > 0u) {
      atomicMin(&list_b[2u * tiles + 1u], atomicLoad(&pass_least));
      atomicAdd(&flags[${TAIL.deferred}u], waited);
    }
    wg_runs = atomicLoad(&run_count);
  }
  let runs = workgroupUniformLoad(&wg_runs);
  if (slot != NONE) {
    atomicStore(&list_b[tiles + pass_base + slot], entry);
  }
  for (var q = 0u; q < runs; q++) {
  if (li == 0u) {
    ${reset}
  }
  {
  let t = run_queue[q];
  ${TILE_OF}
`;
}

/**
 * The start of the relax kernel's round: the bookkeeping, then a loop taking this round's tiles
 * (the first workgroup's thread 0 also does the round's bookkeeping). Ordered: a tile whose key
 * is above the round's threshold (the least key delivered to the list + Δ, or +∞ when that is)
 * goes on the next round's list as it is (key kept, counted as deferred) and is not run; a tile
 * that runs takes its key (+∞ until a neighbour delivers another). `reset`: thread 0's WGSL
 * resetting the workgroup's words before a tile runs. Opens the scope in which the tile `t` at
 * `wg` runs; {@link pickEnd} closes it.
 */
export function pickTile(picks: TilePicks, ordered: boolean, reset: string): string {
  return picks === 'parallel' ? parallelPick(ordered, reset) : serialPick(ordered, reset);
}

/** Closes what {@link pickTile} opened, every thread done with a tile before the next is taken. */
export function pickEnd(picks: TilePicks): string {
  return picks === 'parallel'
    ? `  }
  workgroupBarrier();
  }
  base += stride * chunk;
  }
`
    : `  }
  workgroupBarrier();
  }
`;
}
