import { type Box, clipBox, uniqueSites } from '@geoframe/core';
import { delaunay, type PolygonBuffers, voronoiCells } from '@geoframe/cpu';
import { delaunayGpu, GpuPrecisionError, voronoiCellsGpu } from '@geoframe/gpu';
import { SeededRandom } from '@geoframe/testing';
import { incircle, orient2d } from 'robust-predicates';
import { describe, expect } from 'vitest';
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
    gpu = (await voronoiCellsGpu(ctx, xy, box)).cells;
  } catch (error) {
    if (error instanceof GpuPrecisionError) return { path: 'declined', reason: error.reason };
    throw error;
  }
  const cpuScaled = voronoiCells(scaled(xy, safe), boxOf(scaled(xy, safe)));
  const cpu = { ...cpuScaled, coords: scaled(cpuScaled.coords, -safe) };
  expect(allFinite(gpu)).toBe(true);
  return {
    path: 'gpu',
    distance: cellDistance(gpu, cpu) / Math.hypot(box.maxX - box.minX, box.maxY - box.minY),
  };
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
    out = await delaunayGpu(ctx, xy);
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
  gpuTest('near-duplicates at relative 1e-12 in [0, 1000]²: the CPU cells or a named decline', async () => {
    const base = uniform(new SeededRandom(19), 1000, 1000);
    const outcome = await voronoiOutcome(
      concat(
        base,
        base.map((v) => v * (1 + 1e-12)),
      ),
    );
    expectFaithful(outcome, 'near-duplicates');
  });

  gpuTest('10,000 sites 1e-9 wide plus 4 far outliers: declined up front, in seconds', async () => {
    const rng = new SeededRandom(7);
    const cluster = new Float64Array(20000).map(() => 0.5 + rng.next() * 1e-9);
    const xy = concat(cluster, Float64Array.of(-1000, -1000, 1000, -1000, 1000, 1000, -1000, 1000));
    const started = performance.now();
    const outcome = await voronoiOutcome(xy);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(outcome.path).toBe('declined');
    expectFaithful(outcome, 'cluster');
  });

  gpuTest('600 sites ±rand·10^k, k in −10…10: the CPU cells or a named decline', async () => {
    const rng = new SeededRandom(600);
    const xy = new Float64Array(1200).map(
      () => (rng.next() < 0.5 ? -1 : 1) * rng.next() * 10 ** Math.floor(rng.next() * 21 - 10),
    );
    expectFaithful(await voronoiOutcome(uniqueSites(xy).xy), 'mixed magnitudes');
  });

  gpuTest('near-collinear run with 1e-15 noise: the CPU triangles or a decline', async () => {
    const rng = new SeededRandom(500);
    const xy = new Float64Array(1000);
    for (let i = 0; i < 500; i++) {
      xy[2 * i] = 0.1 * i;
      xy[2 * i + 1] = 0.3 * i + (rng.next() - 0.5) * 1e-15 * i;
    }
    await expectDelaunayFaithful(uniqueSites(xy).xy, 'near-collinear');
  });

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
  );
});
