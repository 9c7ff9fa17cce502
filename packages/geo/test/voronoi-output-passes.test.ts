// The Voronoi output passes on worker threads (repeated points removed, the output check) give
// what the one-thread passes give — the same rings bit for bit, the same first failing ring and
// message — over thread counts, seeds, repeats (−0 against 0 included) and every kind of bad ring.
import { RING_PASSES_PARALLEL_FROM } from '@geoframe/cpu';
import { mulberry32 } from '@geoframe/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkRings,
  checkRingsParallel,
  withoutRepeatedPoints,
  withoutRepeatedPointsParallel,
} from '../src/voronoi/output-check.js';

interface Rings {
  coords: Float64Array;
  ringOffsets: Int32Array;
}

/**
 * `count` closed rings of 4–11 points (a random polygon around a centre), on shared memory; with
 * `repeatRate`, a point is written again after itself (as −0 where it is 0, at random); the
 * rings of `given` are those coordinates instead.
 */
function randomRings(
  count: number,
  seed: number,
  repeatRate: number,
  given = new Map<number, number[]>(),
): Rings {
  const random = mulberry32(seed);
  const coords: number[] = [];
  const offsets = [0];
  for (let r = 0; r < count; r++) {
    const k = 3 + Math.floor(random() * 8);
    const cx = (random() - 0.5) * 1e6;
    const cy = random() < 0.1 ? 0 : (random() - 0.5) * 1e6;
    const ring: number[] = [];
    for (let i = 0; i < k; i++) {
      // some rings touch y = 0 exactly, so −0 repeats of 0 occur
      const y = random() < 0.2 ? 0 : cy + Math.sin(i) * 10;
      ring.push(cx + Math.cos(i) * 10, y);
      if (random() < repeatRate) ring.push(cx + Math.cos(i) * 10, y === 0 && random() < 0.5 ? -0 : y);
    }
    ring.push(ring[0], ring[1]);
    if (random() < repeatRate) ring.push(ring[0], ring[1]);
    if (given.has(r)) ring.splice(0, ring.length, ...(given.get(r) as number[]));
    coords.push(...ring);
    offsets.push(offsets[offsets.length - 1] + ring.length / 2);
  }
  const shared = new Float64Array(new SharedArrayBuffer(8 * coords.length));
  shared.set(coords);
  return { coords: shared, ringOffsets: Int32Array.from(offsets) };
}

/** Whether two arrays hold the same bytes (−0 and 0 differ). */
function sameBits(a: Float64Array | Int32Array, b: Float64Array | Int32Array): boolean {
  return (
    Buffer.compare(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    ) === 0
  );
}

/** The error message `check` throws, or null. */
async function messageOf(check: () => unknown): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const COUNT = RING_PASSES_PARALLEL_FROM + 7_777;
const what = (r: number) => `the cell of site ${r}`;

describe('Voronoi output passes on worker threads', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  for (const threads of [1, 2, 3, 5]) {
    it(`removes repeated points as the serial pass does (${threads} threads)`, async () => {
      vi.stubEnv('GEOFRAME_THREADS', String(threads));
      for (const [seed, rate] of [
        [1, 0.05],
        [2, 0.0005],
        [3, 0.5],
      ]) {
        const rings = randomRings(COUNT, seed + 10 * threads, rate);
        const serial = withoutRepeatedPoints(rings);
        const parallel = await withoutRepeatedPointsParallel(rings);
        expect(serial).not.toBe(rings); // the seeds make repeats
        expect(parallel.coords.length).toBe(serial.coords.length);
        expect(sameBits(parallel.ringOffsets, serial.ringOffsets)).toBe(true);
        expect(sameBits(parallel.coords, serial.coords)).toBe(true);
        await checkRingsParallel(parallel.coords, parallel.ringOffsets, what);
      }
      const clean = randomRings(COUNT, 4, 0);
      expect(await withoutRepeatedPointsParallel(clean)).toBe(clean);
    });

    it(`finds the first bad ring and words it as the serial check (${threads} threads)`, async () => {
      vi.stubEnv('GEOFRAME_THREADS', String(threads));
      const random = mulberry32(100 + threads);
      const spoilers: [string, (rings: Rings, r: number) => void][] = [
        ['NaN', (g, r) => (g.coords[2 * g.ringOffsets[r] + 3] = Number.NaN)],
        ['infinity', (g, r) => (g.coords[2 * g.ringOffsets[r + 1] - 3] = -Infinity)],
        ['open', (g, r) => (g.coords[2 * g.ringOffsets[r + 1] - 1] += 1e-9)],
        ['open at the first point', (g, r) => (g.coords[2 * g.ringOffsets[r]] = 5e5 + 1)],
      ];
      for (const [name, spoil] of spoilers) {
        const rings = randomRings(COUNT, 200 + threads, 0);
        // two bad rings in different shares: the first is reported
        const late = Math.floor(COUNT * (0.5 + random() * 0.45));
        const early = Math.floor(late * random());
        spoil(rings, late);
        expect(await messageOf(() => checkRingsParallel(rings.coords, rings.ringOffsets, what)), name).toBe(
          await messageOf(() => checkRings(rings.coords, rings.ringOffsets, what)),
        );
        spoil(rings, early);
        const serial = await messageOf(() => checkRings(rings.coords, rings.ringOffsets, what));
        expect(serial).toContain(`site ${early} `);
        expect(await messageOf(() => checkRingsParallel(rings.coords, rings.ringOffsets, what))).toBe(serial);
      }
    });
  }

  it('checks the rings in the repeats pass: the first bad ring after the repeats are gone', async () => {
    vi.stubEnv('GEOFRAME_THREADS', '3');
    // a ring of 4 points of which one repeats: 3 points left
    const shrinking = [0, 0, 0, 0, 1, 0, 0, 0];
    const spoilers: [string, Map<number, number[]>][] = [
      ['shrinks below 4', new Map([[25_000, shrinking]])],
      [
        'NaN, then open',
        new Map([
          [9_000, [0, 0, Number.NaN, 1, 1, 1, 0, 0]],
          [30_000, [0, 0, 1, 0, 1, 1, 0, 1e-300]],
        ]),
      ],
      ['open at the end, after a repeat', new Map([[12_345, [0, 0, 1, 0, 1, 1, 1, 1, 0, 1e-9]]])],
    ];
    for (const [name, given] of spoilers) {
      const rings = randomRings(COUNT, 300, 0.02, given);
      const serial = withoutRepeatedPoints(rings);
      const expected = await messageOf(() => checkRings(serial.coords, serial.ringOffsets, what));
      expect(expected, name).not.toBeNull();
      const parallel = await withoutRepeatedPointsParallel(rings);
      expect(
        await messageOf(() => checkRingsParallel(parallel.coords, parallel.ringOffsets, what)),
        name,
      ).toBe(expected);
      // the answer found on the way serves once; a second check scans again, to the same answer
      expect(await messageOf(() => checkRingsParallel(parallel.coords, parallel.ringOffsets, what))).toBe(
        expected,
      );
    }
  });

  it('rings of 3 points, of 0 points with and without allowEmpty, and an unshared output', async () => {
    vi.stubEnv('GEOFRAME_THREADS', '4');
    const triangle = [0, 0, 1, 0, 0, 0]; // closed, but 3 points
    const empty = randomRings(COUNT, 7, 0, new Map([[20_000, []]]));
    const zero = await messageOf(() => checkRingsParallel(empty.coords, empty.ringOffsets, what));
    expect(zero).toBe(await messageOf(() => checkRings(empty.coords, empty.ringOffsets, what)));
    expect(zero).toContain('ring of 0 points');
    expect(await messageOf(() => checkRingsParallel(empty.coords, empty.ringOffsets, what, true))).toBeNull();
    const three = randomRings(COUNT, 8, 0, new Map([[30_000, triangle]]));
    const message = await messageOf(() => checkRingsParallel(three.coords, three.ringOffsets, what));
    expect(message).toBe(await messageOf(() => checkRings(three.coords, three.ringOffsets, what)));
    expect(message).toContain('site 30000 has a ring of 3 points');
    // an unshared output takes the one-thread passes
    const unshared = { coords: Float64Array.from(three.coords), ringOffsets: three.ringOffsets };
    expect(await messageOf(() => checkRingsParallel(unshared.coords, unshared.ringOffsets, what))).toBe(
      message,
    );
    expect(await withoutRepeatedPointsParallel(unshared)).toBe(unshared);
  });
});
