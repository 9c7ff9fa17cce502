import { describe, expect } from 'vitest';
import { runCases } from './fixed-harness.js';
import {
  type BigPoint,
  circumcenterFixedReference,
  getPoint,
  putPoint,
  RandomBig,
} from './fixed-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

const LIMIT = 1n << 58n;
const clampGrid = (v: bigint) => (v >= LIMIT ? LIMIT - 1n : v <= -LIMIT ? -LIMIT + 1n : v);

/** Triangles of every kind the stage meets, plus far and degenerate ones. */
function triangles(seed: number): { name: string; tri: BigPoint[] }[] {
  const random = new RandomBig(seed);
  const out: { name: string; tri: BigPoint[] }[] = [];
  const pt = (bits: number): BigPoint => [random.anyMagnitude(bits), random.anyMagnitude(bits)];
  for (let i = 0; i < 3000; i++) out.push({ name: 'random', tri: [pt(58), pt(58), pt(58)] });
  for (let i = 0; i < 1500; i++) {
    // a small triangle far from the origin (1e7 offset in units of 2^-34 ≈ 2^57.2)
    const o: BigPoint = [10000000n << 34n, 10000000n << 34n];
    const s = 1 + random.int(40);
    out.push({
      name: '1e7 offset',
      tri: [0, 1, 2].map(() => [o[0] + random.anyMagnitude(s), o[1] + random.anyMagnitude(s)] as BigPoint),
    });
  }
  for (let i = 0; i < 1500; i++) {
    // thin: c near the segment ab (within a few units), so the circumcenter is far away or far out
    const a = pt(50);
    const b = pt(50);
    const k = random.next();
    const c: BigPoint = [
      a[0] + BigInt(Math.floor(Number(b[0] - a[0]) * k)) + random.anyMagnitude(3),
      a[1] + BigInt(Math.floor(Number(b[1] - a[1]) * k)) + random.anyMagnitude(3),
    ];
    out.push({ name: 'thin', tri: [a, b, c] });
  }
  for (let i = 0; i < 1500; i++) {
    // lattice squares (odd spacing gives exact halves), both diagonals' triangles
    const h = BigInt(1 + 2 * random.int(1000)) << BigInt(random.int(40));
    const x = clampGrid(random.anyMagnitude(56));
    const y = clampGrid(random.anyMagnitude(56));
    const corners: BigPoint[] = [
      [x, y],
      [x + h, y],
      [x + h, y + h],
      [x, y + h],
    ];
    const drop = random.int(4);
    out.push({ name: 'lattice', tri: corners.filter((_, k) => k !== drop) });
  }
  // beyond ±2^62 and degenerate
  out.push({
    name: 'far',
    tri: [
      [0n, 0n],
      [LIMIT - 1n, 1n],
      [-(LIMIT - 1n), 1n],
    ],
  });
  out.push({
    name: 'far',
    tri: [
      [0n, 0n],
      [LIMIT - 1n, -1n],
      [-(LIMIT - 1n), -1n],
    ],
  });
  out.push({
    name: 'far',
    tri: [
      [0n, 0n],
      [1n, LIMIT - 1n],
      [-1n, -(LIMIT - 2n)],
    ],
  });
  out.push({
    name: 'degenerate',
    tri: [
      [0n, 0n],
      [5n, 5n],
      [-7n, -7n],
    ],
  });
  out.push({
    name: 'degenerate',
    tri: [
      [3n, 4n],
      [3n, 4n],
      [3n, 4n],
    ],
  });
  out.push({
    name: 'degenerate',
    tri: [
      [LIMIT - 1n, 0n],
      [0n, 0n],
      [-(LIMIT - 1n), 0n],
    ],
  });
  return out;
}

const PERMUTATIONS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [1, 0, 2],
  [0, 2, 1],
  [2, 1, 0],
];

describe('circumcenter_fixed', () => {
  test('floor of the exact rational, the same bits in every vertex order; far saturated; degenerate flagged', async () => {
    const ctx = await requireGpu();
    const cases = triangles(5);
    const input = new Uint32Array(cases.length * PERMUTATIONS.length * 12);
    let at = 0;
    for (const { tri } of cases) {
      for (const perm of PERMUTATIONS) {
        for (const k of perm) {
          putPoint(input, at, tri[k]);
          at += 4;
        }
      }
    }
    const out = await runCases(
      ctx,
      'circumcenter-fixed',
      `let r = circumcenter_fixed(in4(0u), in4(4u), in4(8u));
  out4(0u, r.p);
  out_word(4u, select(0u, 1u, r.far));`,
      input,
      12,
      5,
    );
    const counts: Record<string, number> = {};
    cases.forEach(({ name, tri }, c) => {
      const expected = circumcenterFixedReference(tri[0], tri[1], tri[2]);
      for (let p = 0; p < PERMUTATIONS.length; p++) {
        const base = 5 * (c * PERMUTATIONS.length + p);
        const got = getPoint(out, base);
        const far = out[base + 4] === 1;
        if (expected === null) {
          expect(far, `${name} ${tri}`).toBe(true);
          for (const v of got) expect(v === 0n || v === 1n << 62n || v === -(1n << 62n)).toBe(true);
          continue;
        }
        expect(got, `${name} ${tri} permutation ${p}`).toEqual(expected.p);
        expect(far, `${name} ${tri}`).toBe(expected.far);
      }
      counts[name] = (counts[name] ?? 0) + (expected?.far ? 1 : 0);
    });
    // the far cases are far; the ordinary kinds mostly are not
    expect(counts.far).toBe(3);
    expect(counts.random).toBeGreaterThan(100); // mixed magnitudes: both outcomes
    expect(counts.random).toBeLessThan(2000);
    expect(counts.lattice).toBe(0);
  });
});
