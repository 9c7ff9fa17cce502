/**
 * WGSL entry-point statements shared by the tile-scanning kernels (the chained scan and the
 * downsweep of the reduce-then-scan). Both need at module scope `ITEMS`, `TILE`, `params.count`,
 * `var<workgroup> tile: array<u32, TILE>`, `fn load(i: u32) -> u32` and `fn store(i: u32, v: u32)`
 * (indices relative to the bound ranges), and the ranks set up by `init_rank`.
 */

/**
 * Stages tile `tileIndex` (a WGSL u32 expression) in workgroup memory with striped loads (zeros
 * past `params.count`), then each thread sums its `ITEMS` consecutive values and the workgroup
 * scans the sums. Declares `start` (first element of the tile), `n` (`params.count`), `r` (the
 * thread's rank) and `s` (`wg_scan` of the thread's sum: exclusive prefix, tile total). Must run
 * in uniform control flow.
 */
export function stageAndScanTile(tileIndex: string): string {
  return /* wgsl */ `
  let start = ${tileIndex} * TILE;
  let n = params.count;
  for (var j = 0u; j < ITEMS; j++) {
    let i = j * WG + lid;
    var v = 0u;
    if (start + i < n) {
      v = load(start + i);
    }
    tile[i] = v;
  }
  workgroupBarrier();
  let r = thread_rank();
  var sum = 0u;
  for (var k = 0u; k < ITEMS; k++) {
    sum += tile[r * ITEMS + k];
  }
  let s = wg_scan(sum);`;
}

/**
 * After {@link stageAndScanTile}: each thread scans its `ITEMS` values in place starting from
 * `run` (a WGSL u32 expression: everything before the thread's first value), inclusive when
 * `params.inclusive != 0u`, else exclusive, and the tile is stored back striped (only elements
 * below `n`). Must run in uniform control flow (it has a barrier).
 */
export function scanAndStoreTile(run: string): string {
  return /* wgsl */ `
  var run = ${run};
  if (params.inclusive != 0u) {
    for (var k = 0u; k < ITEMS; k++) {
      run += tile[r * ITEMS + k];
      tile[r * ITEMS + k] = run;
    }
  } else {
    for (var k = 0u; k < ITEMS; k++) {
      let v = tile[r * ITEMS + k];
      tile[r * ITEMS + k] = run;
      run += v;
    }
  }
  workgroupBarrier();
  for (var j = 0u; j < ITEMS; j++) {
    let i = j * WG + lid;
    if (start + i < n) {
      store(start + i, tile[i]);
    }
  }`;
}
