import { describe, expect } from 'vitest';
import { runCases } from './fixed-harness.js';
import {
  type BigPoint,
  doubleWords,
  get64,
  orientBig,
  put64,
  putPoint,
  RandomBig,
  timesPow2Reference,
} from './fixed-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

const LIMIT = 1n << 58n; // grid values are below 2^58 in magnitude

function clampGrid(v: bigint): bigint {
  return v >= LIMIT ? LIMIT - 1n : v <= -LIMIT ? -LIMIT + 1n : v;
}

/** Triples of points: random at every magnitude, near-collinear and exactly collinear, ±2^58. */
function orientCases(count: number, seed: number): BigPoint[][] {
  const random = new RandomBig(seed);
  const cases: BigPoint[][] = [];
  const point = (bits: number): BigPoint => [random.anyMagnitude(bits), random.anyMagnitude(bits)];
  const max = LIMIT - 1n;
  const corners: BigPoint[] = [
    [max, max],
    [-max, -max],
    [max, -max],
    [-max, max],
    [0n, 0n],
  ];
  for (const a of corners) for (const b of corners) for (const c of corners) cases.push([a, b, c]);
  while (cases.length < count) {
    const kind = cases.length % 4;
    if (kind === 0) cases.push([point(58), point(58), point(58)]);
    else {
      // collinear: c = a + k·(b − a) with small direction, then nudged by 0 or ±1 unit (kind 2, 3)
      const a = point(58);
      const dir: BigPoint = [random.anyMagnitude(20), random.anyMagnitude(20)];
      const k1 = random.anyMagnitude(36);
      const k2 = random.anyMagnitude(36);
      const b: BigPoint = [clampGrid(a[0] + k1 * dir[0]), clampGrid(a[1] + k1 * dir[1])];
      const nudge = kind === 1 ? 0n : kind === 2 ? 1n : -1n;
      const c: BigPoint = [clampGrid(a[0] + k2 * dir[0] + nudge), clampGrid(a[1] + k2 * dir[1])];
      cases.push(random.int(2) ? [a, b, c] : [c, a, b]);
    }
  }
  return cases;
}

describe('fixed-point WGSL on the GPU against BigInt', () => {
  test('fixed_orient: exact sign on random, near-collinear and collinear triples up to ±2^58', async () => {
    const ctx = await requireGpu();
    const cases = orientCases(20000, 1);
    const input = new Uint32Array(cases.length * 12);
    cases.forEach(([a, b, c], i) => {
      putPoint(input, 12 * i, a);
      putPoint(input, 12 * i + 4, b);
      putPoint(input, 12 * i + 8, c);
    });
    const out = await runCases(
      ctx,
      'fixed-orient',
      'out_word(0u, bitcast<u32>(fixed_orient(in4(0u), in4(4u), in4(8u))));',
      input,
      12,
      1,
    );
    const expected = cases.map(([a, b, c]) => orientBig(a, b, c));
    const actual = [...out].map((w) => w | 0);
    expect(actual).toEqual(expected);
    // the generator must produce all three outcomes, many of them ties
    const zeros = expected.filter((s) => s === 0).length;
    expect(zeros).toBeGreaterThan(2000);
    expect(expected.filter((s) => s > 0).length).toBeGreaterThan(2000);
  });

  test('fixed_less and fixed_equal: lexicographic signed order', async () => {
    const ctx = await requireGpu();
    const random = new RandomBig(2);
    const pairs: [BigPoint, BigPoint][] = [];
    for (let i = 0; i < 5000; i++) {
      const a: BigPoint = [random.anyMagnitude(63), random.anyMagnitude(63)];
      const kind = i % 4;
      const b: BigPoint =
        kind === 0
          ? [random.anyMagnitude(63), random.anyMagnitude(63)]
          : kind === 1
            ? [a[0], random.anyMagnitude(63)]
            : kind === 2
              ? [a[0], a[1]]
              : [-a[0], a[1]];
      pairs.push([a, b]);
    }
    const input = new Uint32Array(pairs.length * 8);
    pairs.forEach(([a, b], i) => {
      putPoint(input, 8 * i, a);
      putPoint(input, 8 * i + 4, b);
    });
    const out = await runCases(
      ctx,
      'fixed-less',
      `out_word(0u, select(0u, 1u, fixed_less(in4(0u), in4(4u))));
  out_word(1u, select(0u, 1u, fixed_equal(in4(0u), in4(4u))));`,
      input,
      8,
      2,
    );
    pairs.forEach(([a, b], i) => {
      const less = a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
      expect(out[2 * i], `${a} < ${b}`).toBe(less ? 1 : 0);
      expect(out[2 * i + 1]).toBe(a[0] === b[0] && a[1] === b[1] ? 1 : 0);
    });
  });

  test('fixed_to_f64: correctly rounded (ties to even) for random i64 and exponents, subnormal and huge', async () => {
    const ctx = await requireGpu();
    const random = new RandomBig(3);
    const cases: [bigint, number][] = [];
    const special = [0n, 1n, -1n, (1n << 63n) - 1n, -(1n << 63n), (1n << 53n) + 1n, (1n << 53n) + 3n];
    for (const v of special)
      for (const e of [0, -1074, -1075, -1100, -1137, 960, 961, 1023, -500]) cases.push([v, e]);
    for (let i = 0; i < 30000; i++) {
      const kind = i % 5;
      let v = random.anyMagnitude(64);
      if (v >= 1n << 63n || v < -(1n << 63n)) v >>= 1n;
      if (kind === 1) {
        // exact ties: 54..63 significant bits ending in 1 followed by zeros after bit 53
        const bits = 54 + random.int(10);
        const top = (1n << BigInt(bits - 1)) | (random.signed(bits - 1) & ((1n << BigInt(bits - 1)) - 1n));
        const shift = BigInt(bits - 53);
        v = ((top >> shift) << shift) | (1n << (shift - 1n));
        if (random.int(2)) v = -v;
      }
      const e =
        kind === 2 ? -1074 - random.int(64) : kind === 3 ? 1023 - random.int(64) : random.int(2200) - 1100;
      cases.push([v, e]);
    }
    const input = new Uint32Array(cases.length * 3);
    cases.forEach(([v, e], i) => {
      put64(input, 3 * i, v);
      input[3 * i + 2] = e >>> 0;
    });
    const out = await runCases(
      ctx,
      'fixed-to-f64',
      'out2(0u, fixed_to_f64_exp(in2(0u), bitcast<i32>(in_word(2u))));',
      input,
      3,
      2,
    );
    let ties = 0;
    cases.forEach(([v, e], i) => {
      const expected = doubleWords(timesPow2Reference(v, e));
      expect([out[2 * i], out[2 * i + 1]], `${v} · 2^${e}`).toEqual(expected);
      if (get64(input, 3 * i) === v && i % 5 === 1) ties++;
    });
    expect(ties).toBeGreaterThan(5000);
  });

  test('fixed_to_f64 reads the exponent set by grid_init', async () => {
    const ctx = await requireGpu();
    const values = [0n, 3n, -5n, 123456789n, -(1n << 57n)];
    const input = new Uint32Array(values.length * 2);
    values.forEach((v, i) => {
      put64(input, 2 * i, v);
    });
    const grid = new Uint32Array(12);
    grid[8] = -40 >>> 0;
    const out = await runCases(
      ctx,
      'fixed-to-f64-grid',
      'out2(0u, fixed_to_f64(in2(0u)));',
      input,
      2,
      2,
      grid,
    );
    values.forEach((v, i) => {
      expect(new Float64Array(out.slice(2 * i, 2 * i + 2).buffer)[0]).toBe(Number(v) * 2 ** -40);
    });
  });
});
