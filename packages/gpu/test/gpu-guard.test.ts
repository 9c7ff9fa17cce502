import { type Box, clipBox, uniqueSites } from '@geoframe/core';
import { delaunay, type PolygonBuffers, voronoiCells } from '@geoframe/cpu';
import { delaunayGpu, GpuPrecisionError, voronoiCellsGpu } from '@geoframe/gpu';
import { SeededRandom } from '@geoframe/testing';
import { incircle, orient2d } from 'robust-predicates';
import { describe, expect } from 'vitest';
import { CPU_STAGES } from './cpu-stages.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

/** Distance from (x, y) to the closed polyline of ring `r`. */
function distanceToRing(b: PolygonBuffers, r: number, x: number, y: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let p = b.ringOffsets[r]; p + 1 < b.ringOffsets[r + 1]; p++) {
    const [ax, ay, bx, by] = [b.coords[2 * p], b.coords[2 * p + 1], b.coords[2 * p + 2], b.coords[2 * p + 3]];
    const dx = bx - ax;
    const dy = by - ay;
    const len = dx * dx + dy * dy;
    const t = len > 0 ? Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len)) : 0;
    best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
  }
  return best;
}

/** The largest distance from a vertex of either ring r to the other's, over every cell. */
function cellDistance(a: PolygonBuffers, b: PolygonBuffers): number {
  let worst = 0;
  for (const [p, q] of [
    [a, b],
    [b, a],
  ]) {
    for (let r = 0; r + 1 < p.ringOffsets.length; r++) {
      if (p.ringOffsets[r + 1] === p.ringOffsets[r]) {
        if (q.ringOffsets[r + 1] !== q.ringOffsets[r]) return Number.POSITIVE_INFINITY;
        continue;
      }
      for (let k = p.ringOffsets[r]; k < p.ringOffsets[r + 1]; k++) {
        const d = distanceToRing(q, r, p.coords[2 * k], p.coords[2 * k + 1]);
        worst = Math.max(worst, Number.isNaN(d) ? Number.POSITIVE_INFINITY : d);
      }
    }
  }
  return worst;
}

/** Every coordinate finite. */
function allFinite(b: PolygonBuffers): boolean {
  return b.coords.every((v) => Number.isFinite(v));
}

/** The sites scaled by 2^k (exact) and their default clip box. */
function scaled(xy: Float64Array, k: number): Float64Array {
  return xy.map((v) => v * 2 ** k);
}

function boxOf(xy: Float64Array): Box {
  return clipBox(xy, null);
}

/** Shader compilation on a loaded software GPU takes minutes; the runs themselves are small. */
const SLOW = 900_000;

type Outcome = { path: 'gpu'; distance: number } | { path: 'declined'; reason: string };

/**
 * The GPU's cells against the CPU's (on the sites scaled by `safe`, a power of two that keeps the
 * CPU's f64 arithmetic in range, and scaled back): either they agree within 1e-9 of the diagonal,
 * finite, or the GPU declined with a GpuPrecisionError naming its reason.
 */
async function voronoiOutcome(xy: Float64Array, safe = 0): Promise<Outcome> {
  const ctx = await requireGpu();
  const box = boxOf(xy);
  let gpu: PolygonBuffers;
  try {
    // repeats kept: the CPU engine's raw cells keep them too (the geo layer drops them after it;
    // the GPU's own dropping is voronoi-host-side.test.ts')
    gpu = (await voronoiCellsGpu(ctx, xy, box, { cpu: CPU_STAGES, keepRepeats: true })).cells;
  } catch (error) {
    if (error instanceof GpuPrecisionError) return { path: 'declined', reason: error.reason };
    throw error;
  }
  expect(allFinite(gpu)).toBe(true);
  // compared in the safe frame (exact power-of-two scaling), where distances neither overflow
  // nor underflow
  const frame = boxOf(scaled(xy, safe));
  const cpu = voronoiCells(scaled(xy, safe), frame);
  const gpuInFrame = { ...gpu, coords: scaled(gpu.coords, safe) };
  // the tolerance: 1e-9 of the diagonal, or a few ulps of the largest coordinate where those are
  // coarser (sites around 1e15), which neither path can do better than
  const largest = Math.max(...[frame.minX, frame.minY, frame.maxX, frame.maxY].map(Math.abs));
  const tol = Math.max(
    1e-9 * Math.hypot(frame.maxX - frame.minX, frame.maxY - frame.minY),
    4 * largest * 2 ** -52,
  );
  return { path: 'gpu', distance: (1e-9 * cellDistance(gpuInFrame, cpu)) / tol };
}

function expectFaithful(outcome: Outcome, label: string): void {
  if (outcome.path === 'declined') {
    expect(outcome.reason.length, label).toBeGreaterThan(10);
    return;
  }
  expect(outcome.distance, label).toBeLessThanOrEqual(1e-9);
}

/** Triangles as sorted keys, and the exact checks: counter-clockwise (as rings), empty circles. */
function triangleKeys(triangles: Uint32Array): string[] {
  const keys: string[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    keys.push([triangles[t], triangles[t + 1], triangles[t + 2]].sort((p, q) => p - q).join(','));
  }
  return keys.sort();
}

/** Edges of a triangulation whose opposite site lies strictly inside the circle (exact, on f64). */
function nonDelaunayEdges(xy: Float64Array, triangles: Uint32Array, halfedges: Int32Array): number {
  const p = (i: number): [number, number] => [xy[2 * i], xy[2 * i + 1]];
  let bad = 0;
  for (let e = 0; e < halfedges.length; e++) {
    const twin = halfedges[e];
    if (twin < 0) continue;
    const t = e - (e % 3);
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const d = triangles[twin % 3 === 0 ? twin + 2 : twin - 1];
    // delaunator's triangles are clockwise (y up): a, c, b is counter-clockwise
    if (incircle(...p(a), ...p(c), ...p(b), ...p(d)) > 0) bad++;
  }
  return bad;
}

function clockwiseCount(xy: Float64Array, triangles: Uint32Array): number {
  let bad = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    // robust-predicates' orient2d is positive for clockwise: delaunator's triangles must be so
    if (!(orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]) > 0)) bad++;
  }
  return bad;
}

/** The GPU's triangulation equals the CPU's (no exact cocircularity in these inputs), or declined. */
async function expectDelaunayFaithful(xy: Float64Array, label: string): Promise<'gpu' | 'declined'> {
  const ctx = await requireGpu();
  let out: Awaited<ReturnType<typeof delaunayGpu>>;
  try {
    out = await delaunayGpu(ctx, xy, { cpuDelaunay: CPU_STAGES.delaunay });
  } catch (error) {
    if (error instanceof GpuPrecisionError) return 'declined';
    throw error;
  }
  const cpu = delaunay(xy);
  if (out === null) {
    expect(cpu.triangles.length, label).toBe(0);
    return 'gpu';
  }
  expect(clockwiseCount(xy, out.triangles), `${label}: flat or turned triangles`).toBe(0);
  expect(nonDelaunayEdges(xy, out.triangles, out.halfedges), `${label}: empty circles`).toBe(0);
  expect(triangleKeys(out.triangles), label).toEqual(triangleKeys(cpu.triangles));
  return 'gpu';
}

function uniform(rng: SeededRandom, n: number, width: number, offset = 0): Float64Array {
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i++) xy[i] = offset + rng.next() * width;
  return xy;
}

function concat(...parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return uniqueSites(out).xy;
}

describe('the GPU guard: the rows of issue 19', () => {
  gpuTest(
    'near-duplicates at relative 1e-12 in [0, 1000]²: the CPU cells or a named decline',
    async () => {
      const base = uniform(new SeededRandom(19), 1000, 1000);
      const outcome = await voronoiOutcome(
        concat(
          base,
          base.map((v) => v * (1 + 1e-12)),
        ),
      );
      expectFaithful(outcome, 'near-duplicates');
    },
    SLOW,
  );

  gpuTest(
    '10,000 sites 1e-9 wide plus 4 far outliers: declined up front, in seconds',
    async () => {
      const rng = new SeededRandom(7);
      const cluster = new Float64Array(20000).map(() => 0.5 + rng.next() * 1e-9);
      const xy = concat(cluster, Float64Array.of(-1000, -1000, 1000, -1000, 1000, 1000, -1000, 1000));
      const started = performance.now();
      const outcome = await voronoiOutcome(xy);
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(outcome.path).toBe('declined');
      expectFaithful(outcome, 'cluster');
    },
    SLOW,
  );

  gpuTest(
    '600 sites ±rand·10^k, k in −10…10: the CPU cells or a named decline',
    async () => {
      const rng = new SeededRandom(600);
      const xy = new Float64Array(1200).map(
        () => (rng.next() < 0.5 ? -1 : 1) * rng.next() * 10 ** Math.floor(rng.next() * 21 - 10),
      );
      expectFaithful(await voronoiOutcome(uniqueSites(xy).xy), 'mixed magnitudes');
    },
    SLOW,
  );

  gpuTest(
    'near-collinear run with 1e-15 noise: the CPU triangles or a decline',
    async () => {
      const rng = new SeededRandom(500);
      const xy = new Float64Array(1000);
      for (let i = 0; i < 500; i++) {
        xy[2 * i] = 0.1 * i;
        xy[2 * i + 1] = 0.3 * i + (rng.next() - 0.5) * 1e-15 * i;
      }
      await expectDelaunayFaithful(uniqueSites(xy).xy, 'near-collinear');
    },
    SLOW,
  );

  gpuTest(
    '5 sites scaled by 1e-300 and by 1e200: finite cells equal to the CPU’s in a safe frame',
    async () => {
      const base = Float64Array.of(1, 1, 3, 1.2, 2, 3, 2.5, 2, 0.7, 2.2);
      for (const [factor, safe] of [
        [1e-300, 990],
        [1e200, -660],
      ]) {
        const outcome = await voronoiOutcome(
          base.map((v) => v * factor),
          safe,
        );
        expect(outcome.path, `scale ${factor}`).toBe('gpu');
        expectFaithful(outcome, `scale ${factor}`);
      }
    },
    SLOW,
  );
});

/** A lattice of side × side sites, spacing `step`, rotated by `angle` about its corner, moved by `offset`. */
function lattice(side: number, step: number, angle: number, offset: number): Float64Array {
  const xy = new Float64Array(2 * side * side);
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      const k = 2 * (i * side + j);
      xy[k] = offset + step * (c * i - s * j);
      xy[k + 1] = offset + step * (s * i + c * j);
    }
  }
  return xy;
}

/** Today's seed: the suite sees new cases every day; a failure prints it. */
function dailySeed(base: number): number {
  return base + (Math.floor(Date.now() / 86_400_000) % 1000);
}

describe('the GPU guard: seeded classes (the CPU cells, or a decline naming its reason)', () => {
  gpuTest(
    'near-duplicates, clusters with outliers, mixed magnitudes, cocircular, rotated lattices, offsets',
    async () => {
      const seed = dailySeed(1900);
      const rng = new SeededRandom(seed);
      const cases: [string, Float64Array][] = [];
      for (const k of [12, 9, 6]) {
        const base = uniform(rng, 150, 1000 * rng.next() + 1, rng.next() < 0.5 ? 0 : 1e6);
        cases.push([
          `near-duplicates 1e-${k}`,
          concat(
            base,
            base.map((v) => v * (1 + 10 ** -k)),
          ),
        ]);
      }
      const outliers = Float64Array.of(-1000, -1000, 1000, -1000, 1000, 1000, -1000, 1000);
      for (const width of [1e-12, 1e-9, 1e-6]) {
        cases.push([`cluster ${width} wide`, concat(uniform(rng, 200, width, rng.next() * 1000), outliers)]);
      }
      const mixed = new Float64Array(400).map(
        () => (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 21 - 10),
      );
      cases.push(['magnitudes 1e-10…1e10', uniqueSites(mixed).xy]);
      const circle = new Float64Array(2 * 64);
      const [cx, cy, r] = [rng.next() * 100, rng.next() * 100, 1 + rng.next() * 10];
      for (let i = 0; i < 64; i++) {
        circle[2 * i] = cx + r * Math.cos((2 * Math.PI * i) / 64);
        circle[2 * i + 1] = cy + r * Math.sin((2 * Math.PI * i) / 64);
      }
      cases.push(['cocircular', uniqueSites(circle).xy]);
      cases.push(['rotated lattice', lattice(12, 0.5 + rng.next(), rng.next() * Math.PI, rng.next() * 10)]);
      for (const offset of [1e7, 1e12, 1e15]) {
        cases.push([`uniform at offset ${offset}`, uniqueSites(uniform(rng, 200, 100, offset)).xy]);
      }
      const paths: string[] = [];
      for (const [label, xy] of cases) {
        const outcome = await voronoiOutcome(xy);
        expectFaithful(outcome, `${label} (seed ${seed})`);
        paths.push(`${label}: ${outcome.path === 'gpu' ? 'gpu' : `declined (${outcome.reason})`}`);
      }
      console.log(paths.join('\n'));
      // the guard declines what it must, not everything
      expect(paths.filter((p) => p.endsWith(': gpu')).length).toBeGreaterThan(0);
    },
    SLOW,
  );

  gpuTest(
    'near-collinear runs with 1e-15 noise: the CPU triangles or a decline',
    async () => {
      const seed = dailySeed(2900);
      const rng = new SeededRandom(seed);
      for (let run = 0; run < 3; run++) {
        const [dx, dy, x0] = [rng.next(), rng.next(), rng.next() * 100];
        const xy = new Float64Array(2 * 200);
        for (let i = 0; i < 200; i++) {
          xy[2 * i] = x0 + dx * i;
          xy[2 * i + 1] = dy * i + (rng.next() - 0.5) * 1e-15 * i;
        }
        await expectDelaunayFaithful(uniqueSites(xy).xy, `near-collinear run ${run} (seed ${seed})`);
      }
    },
    SLOW,
  );
});

describe('the GPU guard keeps ordinary input on the GPU', () => {
  gpuTest(
    'uniform and lattice sites are not declined and give the CPU cells and triangles',
    async () => {
      const rng = new SeededRandom(31);
      const cases: [string, Float64Array][] = [
        ['uniform [0, 1000)²', uniform(rng, 1500, 1000)],
        ['uniform [0, 1)²', uniform(rng, 1500, 1)],
        ['uniform at 1e7', uniform(rng, 1500, 1000, 1e7)],
        ['integer lattice', lattice(30, 1, 0, 0)],
        ['lattice 0.1 apart', lattice(30, 0.1, 0, 3)],
      ];
      for (const [label, xy] of cases) {
        const outcome = await voronoiOutcome(uniqueSites(xy).xy);
        expect(outcome.path, label).toBe('gpu');
        expectFaithful(outcome, label);
      }
      expect(await expectDelaunayFaithful(uniqueSites(uniform(rng, 1500, 1000)).xy, 'uniform')).toBe('gpu');
    },
    SLOW,
  );
});
