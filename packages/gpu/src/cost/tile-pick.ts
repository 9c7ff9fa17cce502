import { TAIL } from './cost-wgsl.js';

/**
 * The workgroup takes the entries id, id + stride, … of this round's list in turn (a fixed number
 * of workgroups is dispatched each round, whatever the list's length); thread 0 takes an entry
 * and clears its flag. The first workgroup also does the round's bookkeeping: counts the round,
 * writes its `changed` word (whether its list holds a tile) and empties the list after the next.
 * Ordered: a tile whose key is above the round's threshold (the least key delivered to the list
 * + Δ, or +∞ when that is) goes on the next round's list as it is (key kept, counted as deferred)
 * and is not run; a tile that runs takes its key (+∞ until a neighbour delivers another).
 * `reset`: thread 0's WGSL resetting workgroup words before a tile is taken (tile-marks.ts).
 */
export function pickTile(ordered: boolean, reset: string): string {
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
  if (id == 0u && li == 0u) {
    let r = atomicAdd(&flags[${TAIL.round}u], 1u);
    atomicStore(&flags[r % MAX_BATCH], select(0u, 1u, listed > 0u));
    atomicStore(&list_c[2u * tiles], 0u);
    atomicStore(&list_c[2u * tiles + 1u], INF);
  }
  ${
    ordered
      ? `let least_listed = atomicLoad(&list_a[2u * tiles + 1u]);
  let threshold = select(bitcast<u32>(bitcast<f32>(least_listed) + bitcast<f32>(params.misc.y)), INF, least_listed >= INF);`
      : ''
  }
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
    atomicStore(&dirs, 0u);
    ${ordered ? 'atomicStore(&least, INF);' : ''}
    ${reset}
  }
  let picked = workgroupUniformLoad(&tile_on);
  if (picked == END) {
    break;
  }
  id += stride;
  if (picked != 0u) {
  let t = picked - 1u;
  let wg = vec3u(t % params.tiles.x, (t / params.tiles.x) % params.tiles.y, t / (params.tiles.x * params.tiles.y));
`;
}
