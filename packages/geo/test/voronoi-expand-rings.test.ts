// The GPU's indexed rings (each Voronoi vertex once, rings as indices; adr/0015) expanded on
// worker threads in the pass that drops repeated points and checks the rings: the result is the
// one-thread gather followed by the serial passes, bit for bit (−0 against 0 included), with the
// serial check's message for every kind of bad ring, over thread counts and seeds.
import { copyRingsCounted, RING_PASSES_PARALLEL_FROM } from '@geoframe/cpu';
import { mulberry32 } from '@geoframe/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkRings,
  checkRingsParallel,
  copyRings,
  expandRings,
  withoutRepeatedPoints,
  withoutRepeatedPointsParallel,
} from '../src/voronoi/output-check.js';

interface Indexed {
  vertices: Float64Array;
  index: Uint32Array;
  ringOffsets: Int32Array;
}

/**
 * `count` closed rings of 4–11 points sharing their vertices as a Voronoi diagram does (a ring's
 * points drawn from a pool, neighbours' pools overlapping), repeats at `repeatRate` (a vertex of
 * the same value under another index, as −0 where it is 0), on shared memory at an offset as the
 * GPU's staging array holds them; `spoil` edits the vertex pool before the rings are indexed.
 */
function indexedRings(count: number, seed: number, repeatRate: number): Indexed {
  const random = mulberry32(seed);
  const pool: number[] = [];
  const index: number[] = [];
  const offsets = [0];
  let before: number[] = []; // the ring before's own vertices
  for (let r = 0; r < count; r++) {
    const k = 3 + Math.floor(random() * 8);
    const first = index.length;
    const own: number[] = [];
    for (let i = 0; i < k; i++) {
      let v: number;
      if (i < 2 && i < before.length && random() < 0.5) v = before[before.length - 1 - i];
      else {
        v = pool.length / 2;
        pool.push((random() - 0.5) * 1e6, random() < 0.2 ? 0 : (random() - 0.5) * 1e6);
        own.push(v);
      }
      index.push(v);
      if (random() < repeatRate) {
        // the same value again, under a vertex of its own
        const y = pool[2 * v + 1];
        index.push(pool.length / 2);
        pool.push(pool[2 * v], y === 0 && random() < 0.5 ? -0 : y);
      }
    }
    index.push(index[first]);
    offsets.push(index.length);
    before = own;
  }
  const lead = 24; // doubles before the vertices, as a view into a larger staging array
  const buffer = new SharedArrayBuffer(8 * (lead + pool.length) + 4 * index.length);
  const vertices = new Float64Array(buffer, 8 * lead, pool.length);
  vertices.set(pool);
  const idx = new Uint32Array(buffer, 8 * (lead + pool.length), index.length);
  idx.set(index);
  const ringOffsets = new Int32Array(new SharedArrayBuffer(4 * offsets.length));
  ringOffsets.set(offsets);
  return { vertices, index: idx, ringOffsets };
}

function gathered(rings: Indexed): { coords: Float64Array; ringOffsets: Int32Array } {
  const coords = new Float64Array(2 * rings.index.length);
  for (let p = 0; p < rings.index.length; p++) {
    coords[2 * p] = rings.vertices[2 * rings.index[p]];
    coords[2 * p + 1] = rings.vertices[2 * rings.index[p] + 1];
  }
  return { coords, ringOffsets: Int32Array.from(rings.ringOffsets) };
}

function sharedOut(points: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(16 * points + 64), 16, 2 * points);
}

function sameBits(a: Float64Array | Int32Array, b: Float64Array | Int32Array): boolean {
  return (
    Buffer.compare(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    ) === 0
  );
}

async function messageOf(check: () => unknown): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const COUNT = RING_PASSES_PARALLEL_FROM + 3_333;
const what = (r: number) => `the cell of site ${r}`;

describe('indexed rings expanded on worker threads', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  for (const threads of [1, 2, 5]) {
    it(`give the gather and the serial passes' rings bit for bit (${threads} threads)`, async () => {
      vi.stubEnv('GEOFRAME_THREADS', String(threads));
      for (const [seed, rate] of [
        [1, 0.05],
        [2, 0],
        [3, 0.4],
      ]) {
        const rings = indexedRings(COUNT, seed + 10 * threads, rate);
        const serial = withoutRepeatedPoints(gathered(rings));
        const expanded = await expandRings(rings, sharedOut(rings.index.length));
        const result = await withoutRepeatedPointsParallel(expanded);
        if (threads > 1) expect(result).toBe(expanded); // the repeats went in the expansion's pass
        expect(sameBits(result.ringOffsets, serial.ringOffsets)).toBe(true);
        expect(sameBits(result.coords, serial.coords)).toBe(true);
        await checkRingsParallel(result.coords, result.ringOffsets, what);
      }
    });
  }

  it('words a bad ring as the serial check: NaN, infinity, an index past the vertices, fewer than 4 points', async () => {
    vi.stubEnv('GEOFRAME_THREADS', '3');
    const random = mulberry32(77);
    const spoilers: [string, (g: Indexed, r: number) => void][] = [
      ['NaN', (g, r) => (g.vertices[2 * g.index[g.ringOffsets[r] + 1] + 1] = Number.NaN)],
      ['infinity', (g, r) => (g.vertices[2 * g.index[g.ringOffsets[r] + 2]] = Infinity)],
      ['index past the vertices', (g, r) => (g.index[g.ringOffsets[r] + 1] = 0xfffffff0)],
      [
        'a repeat leaves 3 points',
        (g, r) => {
          const a = g.ringOffsets[r];
          const b = g.ringOffsets[r + 1];
          for (let p = a + 1; p < b - 1; p++) g.index[p] = g.index[a + 1];
        },
      ],
    ];
    for (const [name, spoil] of spoilers) {
      const rings = indexedRings(COUNT, 500, 0.02);
      const late = Math.floor(COUNT * (0.5 + random() * 0.45));
      const early = Math.floor(late * random());
      spoil(rings, late);
      spoil(rings, early);
      const serial = withoutRepeatedPoints(gathered(rings));
      const expected = await messageOf(() => checkRings(serial.coords, serial.ringOffsets, what));
      expect(expected, name).toContain(`site ${early} `);
      const expanded = await withoutRepeatedPointsParallel(
        await expandRings(rings, sharedOut(rings.index.length)),
      );
      expect(
        await messageOf(() => checkRingsParallel(expanded.coords, expanded.ringOffsets, what)),
        name,
      ).toBe(expected);
    }
  });

  for (const threads of [2, 5]) {
    it(`rings counted and checked by workers while copied: the serial passes' answer (${threads} threads)`, async () => {
      vi.stubEnv('GEOFRAME_THREADS', String(threads));
      for (const [seed, rate, spoil] of [
        [1, 0, false],
        [2, 0, true],
        [3, 0.05, false],
        [4, 0.05, true],
      ] as const) {
        const rings = indexedRings(COUNT, 900 + seed + threads, rate);
        if (spoil) {
          // a NaN late, then a ring left with 3 points earlier: the earlier is reported
          rings.vertices[2 * rings.index[rings.ringOffsets[COUNT - 20] + 1]] = Number.NaN;
          const a = rings.ringOffsets[COUNT >> 2];
          const b = rings.ringOffsets[(COUNT >> 2) + 1];
          for (let p = a + 1; p < b - 1; p++) rings.index[p] = rings.index[a + 1];
        }
        const source = gathered(rings);
        const out = sharedOut(rings.index.length);
        await copyRings(source.coords, out, rings.ringOffsets);
        expect(sameBits(out, source.coords)).toBe(true);
        const result = await withoutRepeatedPointsParallel({ coords: out, ringOffsets: rings.ringOffsets });
        const serial = withoutRepeatedPoints(source);
        if (rate === 0 && !spoil) expect(result.coords === out).toBe(true); // counted on the way: no pass of its own
        expect(sameBits(result.coords, serial.coords)).toBe(true);
        expect(sameBits(result.ringOffsets, serial.ringOffsets)).toBe(true);
        // the workers' counts themselves: the repeats and the first bad ring
        const direct = await copyRingsCounted(
          source.coords,
          sharedOut(rings.index.length),
          rings.ringOffsets,
        );
        expect(direct).not.toBeNull();
        const counts = await direct?.counts;
        expect(counts?.repeats).toBe(rings.index.length - serial.ringOffsets[COUNT]);
        expect(counts?.firstBad).toBe(spoil ? COUNT >> 2 : -1);
        const expected = await messageOf(() => checkRings(serial.coords, serial.ringOffsets, what));
        if (spoil) expect(expected).toContain(`site ${COUNT >> 2} `);
        else expect(expected).toBeNull();
        expect(await messageOf(() => checkRingsParallel(result.coords, result.ringOffsets, what))).toBe(
          expected,
        );
      }
    });
  }
});
