// The work per star of the GPU Delaunay stars kernel (ADR 0013), from the kernel's statistics:
// grid cells visited, candidates examined and finality checks (each recomputes the star's pending
// regions) per site (mean, max, max / mean: the tail), rings,
// sites not final, and a checksum of the sorted triangle set (to compare results across
// versions of the kernel). Runs anywhere WebGPU runs (lavapipe included: the statistics do not
// depend on the device's speed). Bundle or run with vite-node:
//   vite-node bench/gpu/delaunay-tail.ts [--small]
// Cases: uniform 1e5 and 3e5, lattice 1e5 (`--small`: uniform 2e4, lattice 1e4).

import { delaunayGpu } from '../../packages/gpu/src/delaunay/delaunay-gpu.js';
import { generatePoints, type PointSetKind } from '../../packages/testing/src/index.js';
import { createBenchContext, describeDevice, fmt, markdownTable } from './bench-harness.js';

const small = process.argv.includes('--small');
const cases: [PointSetKind, number][] = small
  ? [
      ['uniform', 20_000],
      ['lattice', 10_000],
    ]
  : [
      ['uniform', 100_000],
      ['uniform', 300_000],
      ['lattice', 100_000],
    ];

/** FNV-1a over the triangles as sorted vertex triples, in sorted order. */
function triangleChecksum(triangles: Uint32Array): string {
  const keys: bigint[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const v = [triangles[t], triangles[t + 1], triangles[t + 2]].sort((a, b) => a - b);
    keys.push((BigInt(v[0]) << 42n) | (BigInt(v[1]) << 21n) | BigInt(v[2]));
  }
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let hash = 0xcbf29ce484222325n;
  for (const k of keys) hash = ((hash ^ k) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

const ctx = await createBenchContext();
console.log(describeDevice(ctx));
const rows: (string | number)[][] = [];
for (const [kind, n] of cases) {
  const sites = generatePoints(kind, n, 1);
  const start = performance.now();
  const out = await delaunayGpu(ctx, sites, { fallback: 'never' });
  const ms = performance.now() - start;
  if (out === null) throw new Error(`${kind} ${n}: no triangle`);
  const { stats } = out;
  const sitesN = stats.sites;
  const cellMean = stats.cellsVisited / sitesN;
  const candMean = stats.candidates / sitesN;
  rows.push([
    `${kind} ${fmt(n)}`,
    `${fmt(stats.meanRing)} / ${stats.maxRing}`,
    `${fmt(cellMean)} / ${stats.maxCellsVisited}`,
    fmt(stats.maxCellsVisited / cellMean),
    `${fmt(candMean)} / ${stats.maxCandidates}`,
    fmt(stats.maxCandidates / candMean),
    `${fmt(stats.finalChecks / sitesN)} / ${stats.maxFinalChecks}`,
    fmt((stats.maxFinalChecks * sitesN) / stats.finalChecks),
    stats.farSites,
    fmt(stats.incircleTests / sitesN),
    stats.fallbackReason ?? 'none',
    triangleChecksum(out.triangles),
    fmt(ms),
  ]);
}
console.log(
  markdownTable(
    [
      'case',
      'rings mean / max',
      'cells mean / max',
      'cells max / mean',
      'candidates mean / max',
      'cand. max / mean',
      'final checks mean / max',
      'checks max / mean',
      'beyond ring 4',
      'incircle / site',
      'fallback',
      'triangle checksum',
      'wall ms',
    ],
    rows,
  ),
);
