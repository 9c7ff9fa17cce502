import { type Box, clipBox, InvalidGeometryError, uniqueSites } from '@geoframe/core';
import { type LineBuffers, type PolygonBuffers, voronoiCells, voronoiEdges } from '@geoframe/cpu';
import {
  GpuOutOfMemoryError,
  GpuProfiler,
  prepareVoronoiSites,
  voronoiCellsGpu,
  voronoiCellsPrepared,
  voronoiEdgesGpu,
} from '@geoframe/gpu';
import { generatePoints, pointSets, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { CPU_STAGES } from './cpu-stages.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

/** Signed area of ring `r` (shoelace, relative to its first point: coordinates may be around 1e9). */
function ringArea(b: PolygonBuffers, r: number): number {
  const o = b.ringOffsets[r];
  const [x0, y0] = [b.coords[2 * o], b.coords[2 * o + 1]];
  let a = 0;
  for (let p = o; p + 1 < b.ringOffsets[r + 1]; p++) {
    a +=
      (b.coords[2 * p] - x0) * (b.coords[2 * p + 3] - y0) -
      (b.coords[2 * p + 2] - x0) * (b.coords[2 * p + 1] - y0);
  }
  return a / 2;
}

function perimeter(b: PolygonBuffers, r: number): number {
  let sum = 0;
  for (let p = b.ringOffsets[r]; p + 1 < b.ringOffsets[r + 1]; p++) {
    sum += Math.hypot(b.coords[2 * p + 2] - b.coords[2 * p], b.coords[2 * p + 3] - b.coords[2 * p + 1]);
  }
  return sum;
}

/** Distance from point (x, y) to the closed polyline of ring `r`. */
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

/** The largest distance from a vertex of ring `r` of `a` to ring `r` of `b`. */
function farthestVertex(a: PolygonBuffers, b: PolygonBuffers, r: number): number {
  let worst = 0;
  for (let p = a.ringOffsets[r]; p < a.ringOffsets[r + 1]; p++) {
    worst = Math.max(worst, distanceToRing(b, r, a.coords[2 * p], a.coords[2 * p + 1]));
  }
  return worst;
}

/**
 * The pipeline's bar: the same site → cell mapping (ring i is site i's cell), every vertex of
 * either within `1e-9 × diagonal` of the other's boundary (a vertex where the boundary turns by
 * an ulp may be kept on one side and dropped as not strictly convex on the other), areas within
 * 1e-9 relative, rings closed and counter-clockwise, the cells tiling the box.
 */
function expectSameCells(gpu: PolygonBuffers, cpu: PolygonBuffers, box: Box, label: string): void {
  expect(gpu.ringOffsets.length, label).toBe(cpu.ringOffsets.length);
  const diagonal = Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
  const tol = 1e-9 * diagonal;
  const largest = Math.max(Math.abs(box.minX), Math.abs(box.maxX), Math.abs(box.minY), Math.abs(box.maxY));
  const ulp = largest * 2 ** -52;
  let boxArea = 0;
  for (let r = 0; r + 1 < cpu.ringOffsets.length; r++) {
    const [g0, g1] = [gpu.ringOffsets[r], gpu.ringOffsets[r + 1]];
    expect(g1 - g0 > 0, `${label}: cell ${r} is empty on one side only`).toBe(
      cpu.ringOffsets[r + 1] - cpu.ringOffsets[r] > 0,
    );
    if (g1 === g0) continue;
    expect([gpu.coords[2 * g0], gpu.coords[2 * g0 + 1]], `${label}: cell ${r} closed`).toEqual([
      gpu.coords[2 * g1 - 2],
      gpu.coords[2 * g1 - 1],
    ]);
    const off = Math.max(farthestVertex(gpu, cpu, r), farthestVertex(cpu, gpu, r));
    if (!(off <= tol))
      expect.fail(`${label}: cell ${r} has a vertex ${off} from the CPU's cell (tolerance ${tol})`);
    const ga = ringArea(gpu, r);
    const ca = ringArea(cpu, r);
    expect(ga, `${label}: cell ${r} is counter-clockwise`).toBeGreaterThan(0);
    // both paths round every vertex to f64: half an ulp of the largest coordinate each, which at
    // offsets like 1e9 outweighs 1e-9 of a small cell's area
    const rounding = perimeter(cpu, r) * ulp;
    expect(Math.abs(ga - ca), `${label}: cell ${r} area`).toBeLessThanOrEqual(1e-9 * ca + rounding);
    boxArea += ga;
  }
  if (cpu.ringOffsets.length > 2) {
    const want = (box.maxX - box.minX) * (box.maxY - box.minY);
    expect(Math.abs(boxArea - want) / want, `${label}: cells tile the box`).toBeLessThan(1e-9);
  }
}

function partLength(lines: LineBuffers, k: number): number {
  const p = lines.partOffsets[k];
  return Math.hypot(
    lines.coords[2 * p + 2] - lines.coords[2 * p],
    lines.coords[2 * p + 3] - lines.coords[2 * p + 1],
  );
}

function totalLength(lines: LineBuffers): number {
  let sum = 0;
  for (let k = 0; k + 1 < lines.partOffsets.length; k++) sum += partLength(lines, k);
  return sum;
}

/** Indices of the parts longer than `tol` (an ulp-sized edge may exist on one side only). */
function longParts(lines: LineBuffers, tol: number): number[] {
  const out: number[] = [];
  for (let k = 0; k + 1 < lines.partOffsets.length; k++) if (partLength(lines, k) > tol) out.push(k);
  return out;
}

/**
 * Every set of the shared generator, plus the ones the pipeline is most likely to get wrong: the
 * unique sites and their clip box (extended where a case says so).
 */
function cases(): { name: string; sites: Float64Array; box: Box }[] {
  const sets: { name: string; xy: Float64Array; extend?: [number, number, number, number] }[] = [
    ...pointSets(300, 11),
    ...pointSets(40, 5).map((s) => ({ ...s, name: `${s.name}/small` })),
    { name: 'uniform-100000', xy: generatePoints('uniform', 100_000, 3) },
    { name: 'lattice-offset-5000', xy: generatePoints('lattice-offset', 5000, 2) },
    { name: 'clusters-5000', xy: generatePoints('clusters', 5000, 9) },
  ];
  // a tight box (extendTo cannot shrink it, so grow the sites instead): cells crossing it everywhere
  const rng = new SeededRandom(4);
  const spread = new Float64Array(2 * 500);
  for (let i = 0; i < spread.length; i++) spread[i] = rng.next() * 10 - 5;
  sets.push({ name: 'extend-to', xy: spread, extend: [-100, -3, 7, 60] });
  // negative and huge coordinates
  sets.push({
    name: 'offset-1e9',
    xy: generatePoints('uniform', 500, 6).map((v, i) => (i % 2 ? -1e9 : 1e9) + v),
  });
  return sets.map(({ name, xy, extend }) => {
    const sites = uniqueSites(xy).xy;
    const extendTo = extend ? { minX: extend[0], minY: extend[1], maxX: extend[2], maxY: extend[3] } : null;
    return { name, sites, box: clipBox(sites, extendTo) };
  });
}

describe('voronoiCellsGpu', () => {
  gpuTest(
    'gives the CPU path’s cells on every shared point set (mapping, vertices, areas, tiling)',
    async () => {
      const ctx = await requireGpu();
      for (const { name, sites, box } of cases()) {
        const cpu = voronoiCells(sites, box);
        // the default Delaunay stage (the GPU's) and the CPU's
        for (const delaunay of [undefined, 'cpu'] as const) {
          const { cells, stats } = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, delaunay });
          expectSameCells(cells, cpu, box, `${name} (${delaunay ?? 'default'} Delaunay)`);
          if (stats.path === 'gpu') expect(stats.triangles, name).toBeGreaterThan(0);
          if (stats.path === 'gpu') expect(stats.delaunay.path, name).toBe(delaunay ?? 'gpu');
        }
      }
    },
    240_000,
  );

  gpuTest(
    'with the GPU Delaunay stage: the same cells, and the stars certified on general and tie-heavy sets',
    async () => {
      const ctx = await requireGpu();
      const sets = [
        { name: 'uniform-5000', xy: generatePoints('uniform', 5000, 41), gpu: true },
        { name: 'clusters-3000', xy: generatePoints('clusters', 3000, 42), gpu: true },
        { name: 'lattice-2500', xy: generatePoints('lattice', 2500, 43), gpu: true },
        { name: 'lattice-offset-2500', xy: generatePoints('lattice-offset', 2500, 44), gpu: true },
        { name: 'near-duplicates-1000', xy: generatePoints('near-duplicates', 1000, 45), gpu: true },
        { name: 'circle-300', xy: generatePoints('circle', 300, 46), gpu: true },
        { name: 'three', xy: new Float64Array([0, 0, 4, 0, 1, 3]), gpu: true },
      ];
      for (const { name, xy, gpu } of sets) {
        const sites = uniqueSites(xy).xy;
        const box = clipBox(sites, null);
        const { cells, stats } = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, delaunay: 'gpu' });
        expectSameCells(cells, voronoiCells(sites, box), box, `${name} (GPU Delaunay)`);
        // where the stars must certify, no fallback; elsewhere a fallback must say why
        if (gpu) expect(stats.delaunay, name).toEqual({ path: 'gpu' });
      }
    },
    240_000,
  );

  gpuTest('runs again on reused buffers with the same result, and profiles its passes', async () => {
    const ctx = await requireGpu();
    const sites = uniqueSites(generatePoints('uniform', 3000, 21)).xy;
    const box = clipBox(sites, null);
    const first = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES });
    const profiler = new GpuProfiler(ctx);
    const again = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, profiler });
    const passes = await profiler.read();
    profiler.destroy();
    expect(again.cells.coords).toEqual(first.cells.coords);
    expect(again.cells.ringOffsets).toEqual(first.cells.ringOffsets);
    // timestamps name each pass; wall time (no timestamp queries) names them all in one entry
    const names = passes.map((p) => p.name).join(', ');
    for (const name of ['circumcenters', 'walk starts', 'plan cells', 'rings', 'emit'])
      expect(names).toContain(name);
    // the GPU Delaunay stage leaves its triangles on the device; the CPU's uploads them
    expect(again.stats.bytesUp).toBe(0);
    const cpuStage = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, delaunay: 'cpu' });
    expect(cpuStage.stats.bytesUp).toBeGreaterThan(0);
    expect(cpuStage.cells.coords).toEqual(first.cells.coords);
    const stages = again.stats.stages.map((s) => s.stage);
    expect(stages).toContain('delaunay');
    // the GPU stage's own steps follow it; the CPU's has none
    expect(stages.slice(stages.indexOf('delaunay') + 1, stages.indexOf('delaunay') + 4)).toEqual([
      '(of which hull round trip)',
      '(of which recording the stars)',
      "(of which submission to the stars' statistics)",
    ]);
    expect(cpuStage.stats.stages.map((s) => s.stage)).not.toContain('(of which hull round trip)');
  });

  gpuTest(
    'an output guess too small: emitted again at the exact size, same cells (also profiled)',
    async () => {
      const ctx = await requireGpu();
      const sites = uniqueSites(generatePoints('uniform', 3000, 22)).xy;
      const box = clipBox(sites, null);
      const reference = voronoiCells(sites, box);
      const profiler = new GpuProfiler(ctx);
      const small = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, outputGuess: 100, profiler });
      await profiler.read();
      profiler.destroy();
      expect(small.cells.ringOffsets).toEqual(reference.ringOffsets);
      expect(small.cells.coords.length).toBe(reference.coords.length);
      expect(small.stats.stages.map((s) => s.stage)).toContain('offsets back (output larger than guessed)');
      for (const emit of ['coordinates', 'indexed'] as const) {
        const exact = await voronoiCellsGpu(ctx, sites, box, {
          cpu: CPU_STAGES,
          outputGuess: reference.coords.length / 2,
          emit,
        });
        expect(exact.cells.coords).toEqual(small.cells.coords);
        expect(exact.stats.stages.map((s) => s.stage)).toContain(
          emit === 'indexed' ? 'offsets, indices and vertices back' : 'offsets and coordinates back',
        );
      }
    },
  );

  gpuTest(
    'prepared sites: the output prepared during the Delaunay stage serves one run, the next prepares its own',
    async () => {
      const ctx = await requireGpu();
      const sites = uniqueSites(generatePoints('clusters', 2500, 23)).xy;
      const box = clipBox(sites, null);
      const reference = voronoiCells(sites, box);
      const prepared = await prepareVoronoiSites(ctx, sites, box, { cpu: CPU_STAGES });
      if (prepared === null) throw new Error('clusters have a triangulation');
      expect(prepared.output?.points).toBeGreaterThanOrEqual(reference.coords.length / 2);
      const first = await voronoiCellsPrepared(ctx, prepared);
      expect(prepared.output).toBeNull();
      const second = await voronoiCellsPrepared(ctx, prepared);
      expect(first.cells.ringOffsets).toEqual(reference.ringOffsets);
      expect(second.cells.coords).toEqual(first.cells.coords);
    },
  );

  gpuTest('leaves the caller’s sites untouched', async () => {
    const ctx = await requireGpu();
    const sites = uniqueSites(generatePoints('clusters', 2000, 8)).xy;
    const before = Float64Array.from(sites);
    await voronoiCellsGpu(ctx, sites, clipBox(sites, null), { cpu: CPU_STAGES });
    expect(sites).toEqual(before);
  });

  gpuTest('a NaN or infinite site is an InvalidGeometryError naming its row', async () => {
    const ctx = await requireGpu();
    const sites = generatePoints('uniform', 1000, 9);
    const box = clipBox(sites, null);
    for (const [row, bad] of [
      [417, Number.NaN],
      [3, Number.POSITIVE_INFINITY],
    ]) {
      const broken = Float64Array.from(sites);
      broken[2 * row + 1] = bad;
      await expect(voronoiCellsGpu(ctx, broken, box, { cpu: CPU_STAGES })).rejects.toThrow(
        InvalidGeometryError,
      );
      await expect(voronoiCellsGpu(ctx, broken, box, { cpu: CPU_STAGES })).rejects.toThrow(
        new RegExp(`point ${row} `),
      );
    }
  });
});

describe('voronoiCellsGpu on a device too small for the input', () => {
  gpuTest(
    'reports a buffer over the binding limit as out of GPU memory (auto dispatch then runs the CPU)',
    async () => {
      const ctx = await requireGpu();
      const sites = uniqueSites(generatePoints('uniform', 2000, 4)).xy;
      // the same device, seen through limits that cannot hold the 2000 sites' buffers
      const small = Object.create(ctx, {
        limits: { value: { ...limitsOf(ctx.limits), maxStorageBufferBindingSize: 4096 } },
      }) as typeof ctx;
      const failing = voronoiCellsGpu(small, sites, clipBox(sites, null), { cpu: CPU_STAGES });
      await expect(failing).rejects.toBeInstanceOf(GpuOutOfMemoryError);
      await expect(failing).rejects.toMatchObject({ code: 'GPU_OUT_OF_MEMORY' });
      // and the device is fine afterwards
      const { cells } = await voronoiCellsGpu(ctx, sites, clipBox(sites, null), { cpu: CPU_STAGES });
      expect(cells.ringOffsets.length).toBe(2001);
    },
  );
});

/** A plain copy of a GPUSupportedLimits (its fields are getters on the prototype). */
function limitsOf(limits: GPUSupportedLimits): Record<string, number> {
  const out: Record<string, number> = {};
  for (let proto = limits; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value = (limits as unknown as Record<string, unknown>)[key];
      if (typeof value === 'number') out[key] = value;
    }
  }
  return out;
}

describe('voronoiEdgesGpu', () => {
  gpuTest(
    'gives the CPU path’s edges: count, total length and each segment',
    async () => {
      const ctx = await requireGpu();
      for (const { name, sites, box } of cases()) {
        const cpu = voronoiEdges(sites, box);
        const { edges } = await voronoiEdgesGpu(ctx, sites, box, { cpu: CPU_STAGES });
        const diagonal = Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
        const length = totalLength(cpu);
        expect(Math.abs(totalLength(edges) - length), name).toBeLessThanOrEqual(
          1e-9 * Math.max(length, diagonal),
        );
        // every edge longer than the tolerance has a twin with the same direction within it
        const tol = 1e-9 * diagonal;
        const gpuParts = longParts(edges, tol);
        const cpuParts = longParts(cpu, tol);
        expect(gpuParts.length, `${name}: edges`).toBe(cpuParts.length);
        const cell = 1e-6 * diagonal;
        const key = (c: Float64Array, p: number) =>
          `${Math.round(c[2 * p] / cell)},${Math.round(c[2 * p + 1] / cell)}`;
        const starts = new Map<string, number[]>();
        for (const k of gpuParts) {
          const id = key(edges.coords, edges.partOffsets[k]);
          starts.set(id, [...(starts.get(id) ?? []), k]);
        }
        for (const k of cpuParts) {
          const p = cpu.partOffsets[k];
          // look in the key's cell and its neighbours (a point near a cell border may round either way)
          const [cx, cy] = key(cpu.coords, p).split(',').map(Number);
          let found = false;
          for (let dx = -1; dx <= 1 && !found; dx++) {
            for (let dy = -1; dy <= 1 && !found; dy++) {
              for (const g of starts.get(`${cx + dx},${cy + dy}`) ?? []) {
                const q = edges.partOffsets[g];
                let d = 0;
                for (let c = 0; c < 4; c++)
                  d = Math.max(d, Math.abs(edges.coords[2 * q + c] - cpu.coords[2 * p + c]));
                if (d <= tol) found = true;
              }
            }
          }
          if (!found) expect.fail(`${name}: CPU edge ${k} has no GPU twin`);
        }
      }
    },
    240_000,
  );
});
