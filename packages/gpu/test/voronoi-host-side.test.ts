import { clipBox, uniqueSites } from '@geoframe/core';
import {
  copyRingsCounted,
  expandWithoutRepeatsParallel,
  type PolygonBuffers,
  RING_PASSES_PARALLEL_FROM,
} from '@geoframe/cpu';
import { GpuPrecisionError, type IndexedRings, RepeatedSitesError, voronoiCellsGpu } from '@geoframe/gpu';
import { adversarialSet, generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect, vi } from 'vitest';
import { CPU_STAGES } from './cpu-stages.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

// The indexed emit (each Voronoi vertex once, rings as indices; adr/0015) must give the
// coordinate emit's cells bit for bit, and both must drop a point equal in f64 to the one before
// it exactly as geo's serial pass did (the coordinates compared as their 64-bit patterns: −0
// against 0 counts), on sets where they differ most: cocircular vertices shared by many rings,
// clipped cells along the box, extreme magnitudes and offsets; and with extra vertices past their
// room the coordinates are emitted instead.

function bits(b: PolygonBuffers): { coords: BigUint64Array; offsets: Int32Array } {
  return {
    coords: new BigUint64Array(b.coords.buffer, b.coords.byteOffset, b.coords.length),
    offsets: b.ringOffsets,
  };
}

function sets(): { name: string; xy: Float64Array }[] {
  const rng = new SeededRandom(31);
  // a thin strip: long cells clipped at the top and the bottom of the box (extra vertices)
  const strip = new Float64Array(2 * 1500);
  for (let i = 0; i < strip.length; i++) strip[i] = i % 2 ? rng.next() : rng.next() * 1000;
  return [
    { name: 'uniform-3000', xy: generatePoints('uniform', 3000, 7) },
    { name: 'lattice-1000 (cocircular quads)', xy: generatePoints('lattice', 1000, 3) },
    { name: 'clusters-1000', xy: generatePoints('clusters', 1000, 12) },
    { name: 'near-duplicates-1000', xy: generatePoints('near-duplicates', 1000, 5) },
    { name: 'cocircular', xy: adversarialSet('cocircular', 800, 8).xy },
    { name: 'offset', xy: adversarialSet('offset', 800, 9).xy },
    { name: 'magnitude', xy: adversarialSet('magnitude', 800, 10).xy },
    { name: 'rotated-lattice', xy: adversarialSet('rotated-lattice', 800, 11).xy },
    { name: 'strip-1500', xy: strip },
    { name: 'three sites', xy: Float64Array.of(0, 0, 1, 0, 0, 1) },
  ];
}

/** The rings without a point equal (===) to the raw point before it: the serial pass geo had. */
function withoutRepeats(b: PolygonBuffers): PolygonBuffers {
  const coords: number[] = [];
  const offsets = [0];
  for (let r = 0; r + 1 < b.ringOffsets.length; r++) {
    const lo = b.ringOffsets[r];
    for (let p = lo; p < b.ringOffsets[r + 1]; p++) {
      const same =
        p > lo && b.coords[2 * p] === b.coords[2 * p - 2] && b.coords[2 * p + 1] === b.coords[2 * p - 1];
      if (!same) coords.push(b.coords[2 * p], b.coords[2 * p + 1]);
    }
    offsets.push(coords.length / 2);
  }
  return { coords: Float64Array.from(coords), ringOffsets: Int32Array.from(offsets) };
}

describe('voronoiCellsGpu, indexed emit', () => {
  gpuTest(
    "gives the coordinate emit's cells bit for bit, repeats dropped as the serial pass drops them",
    async () => {
      const ctx = await requireGpu();
      let fellBack = 0;
      let declined = 0;
      let repeated = 0;
      let indexedRuns = 0;
      for (const { name, xy } of sets()) {
        const sites = uniqueSites(xy).xy;
        const box = clipBox(sites, null);
        const run = (emit: 'coordinates' | 'indexed', keepRepeats = false) =>
          voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, emit, keepRepeats }).catch((e: Error) => e);
        const coords = await run('coordinates');
        const indexed = await run('indexed');
        const raw = await run('coordinates', true);
        // an input the grid cannot answer is declined before either emit, the same way
        if (coords instanceof Error || indexed instanceof Error) {
          expect(String(indexed), name).toBe(String(coords));
          expect(coords, name).toBeInstanceOf(GpuPrecisionError);
          declined++;
          continue;
        }
        if (indexed.stats.path !== 'gpu' || raw instanceof Error) continue;
        // the emits drop a point equal in f64 to the one before it, as geo's serial pass did
        const expected = bits(withoutRepeats(raw.cells));
        if (expected.coords.length < raw.cells.coords.length) repeated++;
        expect(bits(coords.cells).offsets, name).toEqual(expected.offsets);
        expect(bits(coords.cells).coords, name).toEqual(expected.coords);
        const stages = indexed.stats.stages.map((s) => s.stage);
        if (stages.includes('offsets, indices and vertices back')) indexedRuns++;
        else if (stages.includes('offsets back (output larger than guessed)')) fellBack++;
        expect(bits(indexed.cells).offsets, name).toEqual(bits(coords.cells).offsets);
        expect(bits(indexed.cells).coords, name).toEqual(bits(coords.cells).coords);
        // fewer bytes back than every point as f64
        if (stages.includes('offsets, indices and vertices back') && sites.length > 2000)
          expect(indexed.stats.bytesDown, name).toBeLessThan(coords.stats.bytesDown);
      }
      // most sets run on the GPU (the grid declines some extreme magnitudes and near-ties)
      expect(indexedRuns + declined).toBe(sets().length);
      expect(indexedRuns).toBeGreaterThanOrEqual(7);
      expect(fellBack).toBe(0);
      expect(repeated).toBeGreaterThanOrEqual(1); // the offset set's near-ties round to one double
    },
    240_000,
  );

  gpuTest('extra vertices past their room: the coordinates emitted instead, the same cells', async () => {
    const ctx = await requireGpu();
    const strip = sets().find((s) => s.name === 'strip-1500')?.xy as Float64Array;
    const sites = uniqueSites(strip).xy;
    const box = clipBox(sites, null);
    const coords = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, emit: 'coordinates' });
    for (const extraVertices of [0, 10]) {
      const short = await voronoiCellsGpu(ctx, sites, box, {
        cpu: CPU_STAGES,
        emit: 'indexed',
        extraVertices,
      });
      expect(short.stats.stages.map((s) => s.stage)).toContain('offsets back (output larger than guessed)');
      expect(bits(short.cells).coords).toEqual(bits(coords.cells).coords);
      expect(bits(short.cells).offsets).toEqual(bits(coords.cells).offsets);
    }
  });

  gpuTest(
    'hands the indexed rings to cpu.expandRings (worker threads expand them to the coordinate emit), and the coordinates to cpu.copyRings',
    async () => {
      const ctx = await requireGpu();
      vi.stubEnv('GEOFRAME_THREADS', '3');
      try {
        // enough rings for the worker pass
        const n = RING_PASSES_PARALLEL_FROM + 1000;
        const sites = uniqueSites(generatePoints('uniform', n, 21)).xy;
        const box = clipBox(sites, null);
        const seen: IndexedRings[] = [];
        const cpu = {
          ...CPU_STAGES,
          async expandRings(rings: IndexedRings, out: Float64Array) {
            seen.push(rings);
            const done = await expandWithoutRepeatsParallel(rings, out);
            expect(done).not.toBeNull(); // the arrays lie on shared memory
            expect(done?.firstBad).toBe(-1);
            return done?.rings ?? { coords: out, ringOffsets: rings.ringOffsets };
          },
        };
        const { cells, stats } = await voronoiCellsGpu(ctx, sites, box, { cpu, emit: 'indexed' });
        const reference = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, emit: 'coordinates' });
        expect(seen).toHaveLength(1);
        const [rings] = seen;
        // one index a ring point; the vertices are the triangles' circumcentres and a few extras
        expect(rings.index.length).toBe(cells.ringOffsets[n]);
        expect(rings.vertices.length / 2).toBeGreaterThanOrEqual(stats.triangles);
        expect(rings.vertices.length / 2).toBeLessThan(stats.triangles + 2000);
        expect(bits(cells).offsets).toEqual(bits(reference.cells).offsets);
        expect(bits(cells).coords).toEqual(bits(reference.cells).coords);
        // the coordinate emit's copy out, counted and checked by workers as it goes
        let counts: unknown = null;
        const copied = await voronoiCellsGpu(ctx, sites, box, {
          cpu: {
            ...CPU_STAGES,
            async copyRings(source: Float64Array, out: Float64Array, ringOffsets: Int32Array) {
              const started = await copyRingsCounted(source, out, ringOffsets);
              counts = await started?.counts;
            },
          },
        });
        expect(counts).toEqual({ repeats: 0, firstBad: -1 });
        expect(bits(copied.cells).coords).toEqual(bits(reference.cells).coords);
      } finally {
        vi.unstubAllEnvs();
      }
    },
    120_000,
  );
});

describe('voronoiCellsGpu, sites that may repeat (checked distinct on the GPU)', () => {
  gpuTest('distinct sites: the same cells; repeats and unsure checks: RepeatedSitesError', async () => {
    const ctx = await requireGpu();
    const run = (xy: Float64Array) =>
      voronoiCellsGpu(ctx, xy, clipBox(xy, null), { cpu: CPU_STAGES, sitesMayRepeat: true }).catch(
        (e: Error) => e,
      );
    for (const { name, xy } of sets().filter((s) => s.xy.length > 6)) {
      const sites = uniqueSites(xy).xy;
      const checked = await run(sites);
      if (checked instanceof GpuPrecisionError) continue; // declined before the cells, both ways
      if (checked instanceof Error) throw checked;
      const plain = await voronoiCellsGpu(ctx, sites, clipBox(sites, null), { cpu: CPU_STAGES });
      expect(bits(checked.cells).coords, name).toEqual(bits(plain.cells).coords);
      expect(checked.stats.stages.map((s) => s.stage)).toContain('sites checked distinct');
    }
    // exact repeats anywhere in the input (−0 against 0 too): every one counted
    const rng = new SeededRandom(8);
    const base = generatePoints('uniform', 3000, 19);
    base[2 * 17] = 0;
    const repeated = new Float64Array(2 * 3400);
    repeated.set(base);
    for (let i = 3000; i < 3400; i++) {
      const from = Math.floor(rng.next() * 3000);
      repeated[2 * i] = base[2 * from];
      repeated[2 * i + 1] = base[2 * from + 1];
    }
    repeated[2 * 3399] = -0; // the site with x = 0, as −0
    repeated[2 * 3399 + 1] = base[2 * 17 + 1];
    const error = await run(repeated);
    expect(error).toBeInstanceOf(RepeatedSitesError);
    const distinct = uniqueSites(repeated).xy.length >> 1;
    expect((error as RepeatedSitesError).repeated).toBe(3400 - distinct);
    expect((error as RepeatedSitesError).unsure).toBe(0);
    // distinct sites crowded into one curve cell: the check cannot be sure
    const crowded = generatePoints('uniform', 2000, 23);
    for (let i = 0; i < 40; i++) {
      crowded[2 * i] = 0.5 + i * 1e-12;
      crowded[2 * i + 1] = 0.5;
    }
    const unsure = await run(crowded);
    expect(unsure).toBeInstanceOf(RepeatedSitesError);
    expect((unsure as RepeatedSitesError).repeated).toBe(0);
    expect((unsure as RepeatedSitesError).unsure).toBeGreaterThan(0);
    // 1–2 sites are never checked: the CPU's stages need them distinct
    expect(await run(Float64Array.of(1, 1, 1, 1))).toBeInstanceOf(RepeatedSitesError);
  });
});
