import { boxOfXY, uniqueSites } from '@geoframe/core';
import { triangulate } from '@geoframe/cpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { incircle, orient2d } from 'robust-predicates';
import { describe, expect, test } from 'vitest';
import {
  type DelaunayGpuOptions,
  type DelaunayGpuOutput,
  delaunayGpu,
  gpuDelaunayStage,
} from '../src/delaunay/delaunay-gpu.js';
import { hullOfCandidates } from '../src/delaunay/hull-chain.js';
import { fixedGrid, wordsToBigInt } from '../src/exact/fixed-grid.js';
import { gridOfBounds } from '../src/exact/to-grid-kernel.js';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { CPU_STAGES } from './cpu-stages.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

/** Grid values of the sites as doubles (exact: at most 53 significant bits, ADR 0010). */
function gridXy(sites: Float64Array): Float64Array {
  const grid = fixedGrid(sites, boxOfXY(sites));
  const out = new Float64Array(sites.length);
  for (let k = 0; k < sites.length; k++) {
    const v = wordsToBigInt(grid.sites, 2 * k);
    out[k] = Number(v);
    expect(BigInt(out[k])).toBe(v);
  }
  return out;
}

const next = (e: number): number => (e % 3 === 2 ? e - 2 : e + 1);

/** Sorted vertex triples, one string a triangle, for set comparison. */
function triangleKeys(triangles: Uint32Array): string[] {
  const keys: string[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const v = [triangles[t], triangles[t + 1], triangles[t + 2]].sort((a, b) => a - b);
    keys.push(v.join(','));
  }
  return keys.sort();
}

/**
 * Checks `out` as a Delaunay triangulation of `sites` against robust-predicates on the grid
 * values and against the CPU's triangulation; returns the number of cocircular interior edges.
 */
function checkDelaunay(sites: Float64Array, out: DelaunayGpuOutput): number {
  const n = sites.length >> 1;
  const xy = gridXy(sites);
  const { triangles, halfedges } = out;
  const cpu = triangulate(sites);
  expect(cpu).not.toBeNull();
  if (cpu === null) return 0;
  const h = cpu.hull.length;
  // counts: every site a vertex, 2n − 2 − h triangles, h hull half-edges
  expect(triangles.length).toBe(3 * (2 * n - 2 - h));
  expect(halfedges.length).toBe(triangles.length);
  const used = new Uint8Array(n);
  for (const v of triangles) used[v] = 1;
  expect(used.reduce((a, b) => a + b, 0)).toBe(n);
  expect(out.stats.hull).toBe(h);
  let hullEdges = 0;
  let ties = 0;
  let badOrient = 0;
  let badTwin = 0;
  let notDelaunay = 0;
  const p = (v: number): [number, number] => [xy[2 * v], xy[2 * v + 1]];
  for (let t = 0; t < triangles.length; t += 3) {
    const [ax, ay] = p(triangles[t]);
    const [bx, by] = p(triangles[t + 1]);
    const [cx, cy] = p(triangles[t + 2]);
    // clockwise in y up: robust-predicates' orient2d is positive for clockwise
    if (!(orient2d(ax, ay, bx, by, cx, cy) > 0)) badOrient++;
  }
  for (let e = 0; e < halfedges.length; e++) {
    const f = halfedges[e];
    if (f === -1) {
      hullEdges++;
      continue;
    }
    if (halfedges[f] !== e || triangles[f] !== triangles[next(e)] || triangles[next(f)] !== triangles[e]) {
      badTwin++;
      continue;
    }
    if (f < e) continue;
    // the vertex opposite e across it must not be inside e's (clockwise) circumcircle
    const t = e - (e % 3);
    const [ax, ay] = p(triangles[t]);
    const [bx, by] = p(triangles[t + 1]);
    const [cx, cy] = p(triangles[t + 2]);
    const [dx, dy] = p(triangles[next(next(f))]);
    const s = incircle(ax, ay, bx, by, cx, cy, dx, dy); // positive inside a counter-clockwise circle
    if (s < 0) notDelaunay++;
    else if (s === 0) ties++;
  }
  expect({ badOrient, badTwin, notDelaunay }).toEqual({ badOrient: 0, badTwin: 0, notDelaunay: 0 });
  expect(hullEdges).toBe(h);
  // where the Delaunay triangulation is unique, it is the CPU's
  if (cpu.cocircularEdges === 0) expect(triangleKeys(triangles)).toEqual(triangleKeys(cpu.triangles));
  return ties;
}

function cloudWithLines(n: number, seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  const xy: number[] = [];
  for (let i = 0; i < n; i++) xy.push(rng.next() * 1000, rng.next() * 1000);
  // a horizontal, a vertical and a diagonal run of evenly spaced sites through the cloud
  for (let k = 0; k < 200; k++) xy.push(100 + 4 * k, 500);
  for (let k = 0; k < 200; k++) xy.push(300, 50 + 4.5 * k);
  for (let k = 0; k < 150; k++) xy.push(200 + 3 * k, 150 + 3 * k);
  return uniqueSites(new Float64Array(xy)).xy;
}

function clustered(seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  const xy: number[] = [];
  for (let i = 0; i < 1200; i++) xy.push(500 + 1e-6 * rng.gaussian(), 500 + 1e-6 * rng.gaussian());
  for (let i = 0; i < 100; i++) xy.push(rng.next() * 1000, rng.next() * 1000);
  return uniqueSites(new Float64Array(xy)).xy;
}

// `clusterLimit` 0: the star search itself on a dense cluster (the pipeline declines such input
// up front by default, adr/0020; its own tests are in gpu-guard.test.ts)
const CASES: { name: string; xy: () => Float64Array; gpu: boolean; clusterLimit?: number }[] = [
  { name: 'uniform 20000', xy: () => generatePoints('uniform', 20_000, 3), gpu: true },
  { name: 'clustered σ = 1e-6 plus outliers', xy: () => clustered(5), gpu: true, clusterLimit: 0 },
  { name: 'lattice 100 × 100', xy: () => generatePoints('lattice', 10_000), gpu: true },
  { name: 'lattice 60 × 60 at 1e7', xy: () => generatePoints('lattice-offset', 3600), gpu: true },
  { name: 'circle 1000', xy: () => generatePoints('circle', 1000), gpu: true },
  { name: 'collinear runs in a cloud', xy: () => cloudWithLines(3000, 7), gpu: true },
  { name: 'three sites', xy: () => new Float64Array([0, 0, 4, 0, 1, 3]), gpu: true },
  { name: 'four cocircular sites', xy: () => new Float64Array([0, 0, 1, 0, 1, 1, 0, 1]), gpu: true },
  { name: 'four sites, one inside', xy: () => new Float64Array([0, 0, 10, 0, 5, 9, 5, 3]), gpu: true },
  { name: 'collinear border', xy: () => new Float64Array([0, 0, 1, 0, 2, 0, 3, 0, 1.5, 2]), gpu: true },
  { name: 'near-duplicates 1e-12 apart', xy: () => generatePoints('near-duplicates', 2000, 4), gpu: true },
  { name: 'gaussian clusters', xy: () => uniqueSites(generatePoints('clusters', 5000, 6)).xy, gpu: true },
];

describe('GPU Delaunay by per-site stars', () => {
  // the first pass a workgroup a star (the default), with its rings chosen by density or 0
  // (every star not final in its own cell goes on in the cooperative tail pass, which then builds
  // nearly every triangle) or on cells of ≈ 4 sites (blocks of hundreds of candidates, several a
  // lane); or the per-thread first pass, with stars of 5 entries (below a lattice's 6: a star
  // needing more starts again in the tail pass), or one scan step between exact steps (a flat
  // loop) on cells of ≈ 4 sites
  const VARIANTS: { label: string; options: DelaunayGpuOptions }[] = [
    { label: '', options: {} },
    { label: ' (tail pass after ring 0)', options: { firstPassRings: 0 } },
    { label: ' (cells of 4 sites)', options: { sitesPerCell: 4 } },
    {
      label: ' (per-thread first pass, stars of 5 entries)',
      options: { firstPass: 'threads', firstPassCapacity: 5 },
    },
    {
      label: ' (per-thread first pass, one scan step, cells of 4 sites)',
      options: { firstPass: 'threads', firstPassScan: 1, sitesPerCell: 4 },
    },
  ];
  for (const c of CASES) {
    for (const v of VARIANTS) {
      gpuTest(
        `${c.name}${v.label}: a valid Delaunay triangulation, the CPU's where unique`,
        async () => {
          const ctx = await requireGpu();
          const sites = c.xy();
          const out = await delaunayGpu(ctx, sites, {
            fallback: 'never',
            clusterLimit: c.clusterLimit,
            ...v.options,
          });
          expect(out).not.toBeNull();
          if (out === null) return;
          const { stats } = out;
          console.log(
            `${c.name}${v.label}: n ${stats.sites}, hull ${stats.hull} (${stats.hullCandidates} candidates), ` +
              `grid ${stats.grid.width}×${stats.grid.height}, rings mean ${stats.meanRing.toFixed(2)} max ${stats.maxRing}, ` +
              `candidates mean ${(stats.candidates / stats.sites).toFixed(1)} max ${stats.maxCandidates}, ${stats.farSites} beyond ring 4, ` +
              `${stats.tailSites} to the tail pass, failed ${stats.failedSites}, disagreeing ${stats.disagreeingSites}, ` +
              `not filtered ${(100 * stats.exactFraction).toFixed(1)}%, fallback: ${stats.fallbackReason ?? 'none'}`,
          );
          if (c.gpu) expect(stats.fallbackReason).toBeNull();
          // searching only its own cell first, nearly every star of a spread set goes on
          if (v.options.firstPassRings === 0 && stats.grid.width * stats.grid.height > 9) {
            expect(stats.tailSites).toBeGreaterThan(c.name.startsWith('uniform') ? stats.sites / 2 : 0);
          }
          // the first pass by lanes decides a uniform set's stars in floats and hands every
          // lattice star (all ties) to the exact per-thread pass
          if (v.label === '' && c.name.startsWith('uniform'))
            expect(stats.tiedSites).toBeLessThan(stats.sites / 100);
          if (v.label === '' && c.name.startsWith('lattice')) expect(stats.tiedSites).toBe(stats.sites);
          if (v.options.firstPassCapacity === 5 && stats.sites > 100)
            expect(stats.tailSites).toBeGreaterThan(0);
          // a power-of-two cell of ≈ 4 sites holds 2 to 8 of a uniform set
          if (v.options.sitesPerCell === 4 && c.name.startsWith('uniform')) {
            expect(stats.grid.width * stats.grid.height).toBeLessThan(stats.sites / 1.5);
            // the lanes' blocks then hold more candidates than a workgroup has lanes
            if (v.options.firstPass === undefined) expect(stats.maxCandidates).toBeGreaterThan(64);
          }
          const ties = checkDelaunay(sites, out);
          if (c.name.startsWith('lattice')) expect(ties).toBeGreaterThan(0);
        },
        180_000, // the first test compiles the star kernels: seconds on lavapipe, more under load
      );
    }
  }

  gpuTest(
    'the largest sizes of the CI bar: uniform and gaussian clusters of 1e5 sites, valid and Delaunay without the CPU',
    async () => {
      const ctx = await requireGpu();
      for (const sites of [
        generatePoints('uniform', 100_000, 31),
        uniqueSites(generatePoints('clusters', 100_000, 32)).xy,
      ]) {
        const out = await delaunayGpu(ctx, sites, { fallback: 'never' });
        expect(out).not.toBeNull();
        if (out === null) return;
        expect(out.stats.fallbackReason).toBeNull();
        // boundary stars go on in the tail pass
        expect(out.stats.tailSites).toBeGreaterThan(0);
        checkDelaunay(sites, out);
      }
    },
    300_000,
  );

  gpuTest(
    'the same triangles with 1, 2 or 4 stars a lanes workgroup and from the per-thread pass',
    async () => {
      const ctx = await requireGpu();
      for (const sites of [generatePoints('uniform', 5000, 21), cloudWithLines(2000, 22)]) {
        const keys: string[][] = [];
        for (const options of [
          { starsPerWorkgroup: 1 },
          { starsPerWorkgroup: 2 },
          { starsPerWorkgroup: 4 },
          { firstPass: 'threads' as const },
        ]) {
          const out = await delaunayGpu(ctx, sites, { fallback: 'never', ...options });
          expect(out?.stats.fallbackReason).toBeNull();
          keys.push(triangleKeys(out?.triangles ?? new Uint32Array(0)));
        }
        expect(keys[0].length).toBeGreaterThan(0);
        for (const k of keys.slice(1)) expect(k).toEqual(keys[0]);
      }
    },
  );

  gpuTest('a forced failure (ring limit 1) answers with the CPU and says so', async () => {
    const ctx = await requireGpu();
    const sites = generatePoints('uniform', 2000, 9);
    const out = await delaunayGpu(ctx, sites, { ringLimit: 1, cpuDelaunay: CPU_STAGES.delaunay });
    expect(out).not.toBeNull();
    if (out === null) return;
    expect(out.stats.path).toBe('cpu');
    expect(out.stats.failedSites).toBeGreaterThan(0);
    expect(out.stats.fallbackReason).toMatch(/not final/);
    checkDelaunay(sites, out);
  });

  gpuTest('first-pass rings are capped at 8: a huge count still answers from the GPU', async () => {
    const ctx = await requireGpu();
    const sites = generatePoints('uniform', 3000, 14);
    const out = await delaunayGpu(ctx, sites, { firstPassRings: 1e9, fallback: 'never' });
    expect(out?.stats.fallbackReason).toBeNull();
    // rings 0..8 of a ~39 × 39 grid of ~2 sites a cell: ~580 candidates a site, not all 3000
    expect((out?.stats.candidates ?? 0) / 3000).toBeLessThan(1000);
    if (out) checkDelaunay(sites, out);
  });

  gpuTest(
    'a hull of more than 8192 vertices comes back whole (its count and head in one readback)',
    async () => {
      const ctx = await requireGpu();
      const sites = generatePoints('circle', 9000, 3);
      const cpu = triangulate(sites);
      expect(cpu).not.toBeNull();
      // no search (ring limit 0): only the hull is of interest here
      const out = await delaunayGpu(ctx, sites, { ringLimit: 0, fallback: 'never' });
      expect(out?.stats.hullCandidates).toBe(9000);
      expect(out?.stats.hull).toBe(cpu?.hull.length);
      // the same sites in another caller order, the device sites in curve order and the order
      // given lazily: the candidates past the head are read through it (once), the head's grid
      // values come from the device
      const n = sites.length >> 1;
      const order = Uint32Array.from({ length: n }, (_, k) => (k * 7919) % n); // 7919 is prime to 9000
      const caller = new Float64Array(2 * n);
      for (let k = 0; k < n; k++) caller.set([sites[2 * k], sites[2 * k + 1]], 2 * order[k]);
      const grid = gridOfBounds(sites, boxOfXY(sites));
      const fixedSites = await uploadStorage(ctx, fixedGrid(sites, boxOfXY(sites)).sites, 'test fixed');
      let reads = 0;
      const staged = await gpuDelaunayStage(ctx, caller, {
        ringLimit: 0,
        fallback: 'never',
        fixed: { sites: fixedSites, grid },
        order: async () => {
          reads++;
          return order;
        },
      });
      fixedSites.destroy();
      expect(reads).toBe(1);
      expect(staged?.stats.hullCandidates).toBe(9000);
      expect(staged?.stats.hull).toBe(cpu?.hull.length);
    },
  );

  gpuTest('the device-level stage leaves the same triangulation in GPU buffers', async () => {
    const ctx = await requireGpu();
    const sites = generatePoints('uniform', 3000, 12);
    const result = await gpuDelaunayStage(ctx, sites, { fallback: 'never' });
    expect(result).not.toBeNull();
    if (result === null) return;
    const { stage, stats } = result;
    expect(stage.path).toBe('gpu');
    expect(stats.fallbackReason).toBeNull();
    expect(stage.triangles).not.toBeInstanceOf(Uint32Array);
    const nh = 3 * stage.triangleCount;
    const triangles = await readback(ctx, stage.triangles as GPUBuffer, new Uint32Array(nh));
    const halfedges = await readback(ctx, stage.halfedges as GPUBuffer, new Int32Array(nh));
    checkDelaunay(sites, { triangles, halfedges, stats });
  });

  gpuTest('sites in the caller order with an order to the device sites: the same triangulation', async () => {
    const ctx = await requireGpu();
    const caller = generatePoints('uniform', 3000, 15);
    const n = caller.length >> 1;
    // a seeded permutation: triangulation site k is caller site order[k]
    const rng = new SeededRandom(16);
    const order = Uint32Array.from({ length: n }, (_, k) => k);
    for (let k = n - 1; k > 0; k--) {
      const j = Math.floor(rng.next() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    const ordered = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) ordered.set([caller[2 * order[k]], caller[2 * order[k] + 1]], 2 * k);
    const grid = gridOfBounds(ordered, boxOfXY(ordered));
    const fixedSites = await uploadStorage(ctx, fixedGrid(ordered, boxOfXY(ordered)).sites, 'test fixed');
    // the order as an array, or as a function the stage calls only when it needs the order on
    // the host (a CPU fallback here: the hull candidates' grid values come from the device)
    for (const [options, lazy] of [
      [{ fallback: 'never' as const }, false],
      [{ ringLimit: 1, cpuDelaunay: CPU_STAGES.delaunay }, false],
      [{ fallback: 'never' as const }, true],
      [{ ringLimit: 1, cpuDelaunay: CPU_STAGES.delaunay }, true],
    ] as const) {
      let reads = 0;
      const result = await gpuDelaunayStage(ctx, caller, {
        ...options,
        fixed: { sites: fixedSites, grid },
        order: lazy
          ? async () => {
              reads++;
              return order;
            }
          : order,
      });
      // read once: by the faithful-representation guard, which needs the caller's f64 sites in curve
      // order when they are not handed in on the device (`input`, as the pipeline does), and then
      // by the forced failure's CPU answer from the same read
      if (lazy) expect(reads).toBe(1);
      expect(result).not.toBeNull();
      if (result === null) continue;
      const { stage, stats } = result;
      // the forced failure's CPU answer is of the ordered sites too
      expect(stats.path).toBe(options.ringLimit === 1 ? 'cpu' : 'gpu');
      const nh = 3 * stage.triangleCount;
      const triangles =
        stage.triangles instanceof Uint32Array
          ? stage.triangles
          : await readback(ctx, stage.triangles, new Uint32Array(nh));
      const halfedges =
        stage.halfedges instanceof Int32Array
          ? stage.halfedges
          : await readback(ctx, stage.halfedges, new Int32Array(nh));
      checkDelaunay(ordered, { triangles, halfedges, stats });
    }
    fixedSites.destroy();
    await expect(
      gpuDelaunayStage(ctx, caller, { fixed: { sites: fixedSites, grid }, order: order.subarray(1) }),
    ).rejects.toThrow(/order entries/);
  });

  gpuTest('a non-finite coordinate is an error naming it', async () => {
    const ctx = await requireGpu();
    await expect(delaunayGpu(ctx, new Float64Array([0, 0, 1, 0, Number.NaN, 1, 0, 1]))).rejects.toThrow(
      RangeError,
    );
  });

  gpuTest('no triangle: fewer than three sites or all collinear', async () => {
    const ctx = await requireGpu();
    expect(await delaunayGpu(ctx, new Float64Array([0, 0, 1, 1]))).toBeNull();
    expect(await delaunayGpu(ctx, generatePoints('collinear', 500, 2))).toBeNull();
  });
});

describe('hull of the octagon survivors', () => {
  test('keeps collinear boundary sites, counter-clockwise, and equals a brute-force hull', () => {
    const rng = new SeededRandom(11);
    const xy: number[] = [];
    for (let x = 0; x <= 6; x++) for (let y = 0; y <= 4; y++) xy.push(x, y);
    for (let k = 0; k < 40; k++) xy.push(Math.floor(rng.next() * 7), Math.floor(rng.next() * 5));
    const sites = uniqueSites(new Float64Array(xy)).xy;
    const m = sites.length >> 1;
    const ids = new Uint32Array(m).map((_, k) => k);
    const hull = hullOfCandidates(ids, sites);
    expect(hull).not.toBeNull();
    if (hull === null) return;
    // brute force: the sites on the boundary of the 6 × 4 rectangle
    const boundary = [];
    for (let k = 0; k < m; k++) {
      const [x, y] = [sites[2 * k], sites[2 * k + 1]];
      if (x === 0 || x === 6 || y === 0 || y === 4) boundary.push(k);
    }
    expect([...hull].sort((a, b) => a - b)).toEqual(boundary);
    for (let k = 0; k < hull.length; k++) {
      const [a, b, c] = [hull[k], hull[(k + 1) % hull.length], hull[(k + 2) % hull.length]];
      const o = orient2d(
        sites[2 * a],
        sites[2 * a + 1],
        sites[2 * b],
        sites[2 * b + 1],
        sites[2 * c],
        sites[2 * c + 1],
      );
      expect(o).toBeLessThanOrEqual(0); // counter-clockwise or straight, never clockwise
    }
    expect(hullOfCandidates(new Uint32Array([0, 1, 2]), new Float64Array([0, 0, 1, 1, 2, 2]))).toBeNull();
  });
});
