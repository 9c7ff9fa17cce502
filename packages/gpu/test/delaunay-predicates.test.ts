import { generatePoints } from '@geoframe/testing';
import { incircle, orient2d } from 'robust-predicates';
import { describe, expect } from 'vitest';
import { fixedGrid, fixedSiteBigInt } from '../src/exact/fixed-grid.js';
import { evalPredicates, IN_WORDS, type PredicateOp } from './delaunay-predicates-harness.js';
import { type BigPoint, incircleBig, orientBig, putPoint, RandomBig, sign } from './fixed-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

const LIMIT = 1n << 58n; // grid values are below 2^58 in magnitude
const MAX = LIMIT - 1n;
const NOT_AGREED = 0x7fffffff; // the kernel's word when rotated arguments disagreed

// ---- symbolic perturbation reference: a generic determinant of polynomials in ε -------------

/** A polynomial in ε: exponent → coefficient. */
type Poly = Map<number, bigint>;

function polyMul(p: Poly, q: Poly): Poly {
  const r: Poly = new Map();
  for (const [e1, c1] of p) for (const [e2, c2] of q) r.set(e1 + e2, (r.get(e1 + e2) ?? 0n) + c1 * c2);
  return r;
}

function permutations(n: number): number[][] {
  if (n === 1) return [[0]];
  const out: number[][] = [];
  for (const p of permutations(n - 1))
    for (let k = 0; k < n; k++) out.push([...p.slice(0, k), n - 1, ...p.slice(k)]);
  return out;
}

function parity(p: readonly number[]): number {
  let inversions = 0;
  for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) if (p[i] > p[j]) inversions++;
  return inversions % 2 === 0 ? 1 : -1;
}

/** Sign of the lowest-order nonzero coefficient of det(m) (Leibniz over polynomial entries). */
function perturbedDetSign(m: Poly[][]): number {
  const total: Poly = new Map();
  for (const p of permutations(m.length)) {
    let term: Poly = new Map([[0, BigInt(parity(p))]]);
    p.forEach((col, row) => {
      term = polyMul(term, m[row][col]);
    });
    for (const [e, c] of term) total.set(e, (total.get(e) ?? 0n) + c);
  }
  const exponents = [...total.keys()].filter((e) => total.get(e) !== 0n).sort((x, y) => x - y);
  return exponents.length === 0 ? 0 : sign(total.get(exponents[0]) ?? 0n);
}

/**
 * The perturbation of the SoS scheme, written out: site of rank r (ascending index among the
 * arguments) gets z + ε^(2^r), y + ε^(2^(4+r)), x + ε^(2^(8+r)) — every z term dominates every y
 * term, which dominates every x term, and smaller indices dominate. Distinct sums of powers of two
 * order all products.
 */
function sosReference(points: readonly BigPoint[], indices: readonly number[]): number {
  const ranks = indices.map((v, i) => indices.filter((w, j) => w < v || (w === v && j < i)).length);
  const entry = (value: bigint, exponent: number | null): Poly =>
    exponent === null
      ? new Map([[0, value]])
      : new Map([
          [0, value],
          [exponent, 1n],
        ]);
  const rows = points.map(([x, y], i) => {
    const r = ranks[i];
    const row = [entry(x, 2 ** (8 + r)), entry(y, 2 ** (4 + r))];
    if (points.length === 4) row.push(entry(x * x + y * y, 2 ** r));
    row.push(entry(1n, null));
    return row;
  });
  return perturbedDetSign(rows);
}

// ---- case generation --------------------------------------------------------------------------

function clampGrid(v: bigint): bigint {
  return v > MAX ? MAX : v < -MAX ? -MAX : v;
}

function packCases(op: PredicateOp, cases: readonly (readonly BigPoint[])[], indices?: readonly number[][]) {
  const words = IN_WORDS[op];
  const input = new Uint32Array(cases.length * words);
  cases.forEach((points, i) => {
    points.forEach((p, k) => {
      putPoint(input, i * words + 4 * k, p);
    });
    indices?.[i].forEach((v, k) => {
      input[i * words + 4 * points.length + k] = v;
    });
  });
  return input;
}

/** (signs, paths) of a 2-word-output op; fails when rotated arguments disagreed. */
async function signsAndPaths(op: 'orient' | 'incircle', cases: readonly (readonly BigPoint[])[]) {
  const ctx = await requireGpu();
  const { out } = await evalPredicates(ctx, op, packCases(op, cases), 3);
  const signs = cases.map((_, i) => out[2 * i] | 0);
  const paths = cases.map((_, i) => out[2 * i + 1]);
  expect(signs.includes(NOT_AGREED)).toBe(false);
  return { signs, paths };
}

function pathCounts(paths: readonly number[]): [number, number, number] {
  const counts: [number, number, number] = [0, 0, 0];
  for (const p of paths) counts[p]++;
  return counts;
}

/** Points on the circle of radius R = 5²·13·17·29·37 around the origin with integer coordinates. */
function pythagoreanCircle(): BigPoint[] {
  const r = 5n * 5n * 13n * 17n * 29n * 37n;
  const seen = new Set<string>();
  const out: BigPoint[] = [];
  for (let m = 1n; m < 80n; m++)
    for (let n = 0n; n < m; n++) {
      const q = m * m + n * n;
      if (r % q !== 0n) continue;
      const k = r / q;
      const x = k * (m * m - n * n);
      const y = k * 2n * m * n;
      for (const [u, v] of [
        [x, y],
        [y, x],
      ])
        for (const su of [1n, -1n])
          for (const sv of [1n, -1n]) {
            const key = `${su * u},${sv * v}`;
            if (!seen.has(key)) {
              seen.add(key);
              out.push([su * u, sv * v]);
            }
          }
    }
  return out;
}

const CIRCLE = pythagoreanCircle();

/** Four distinct points of the Pythagorean circle, scaled by `scale` and moved to `centre`. */
function cocircularQuad(random: RandomBig, centre: BigPoint, scale: bigint): BigPoint[] {
  const picked = new Set<number>();
  while (picked.size < 4) picked.add(random.int(CIRCLE.length));
  return [...picked].map(
    (k) => [centre[0] + scale * CIRCLE[k][0], centre[1] + scale * CIRCLE[k][1]] as BigPoint,
  );
}

/** Corners of a random rectangle with integer sides (cocircular) in random order. */
function rectangle(random: RandomBig, bits: number, centreBits: number): BigPoint[] {
  const p: BigPoint = [random.signed(centreBits), random.signed(centreBits)];
  const u: BigPoint = [random.signed(bits), random.signed(bits) | 1n]; // never zero
  const k = BigInt(1 + random.int(3));
  const v: BigPoint = [-k * u[1], k * u[0]];
  const corners: BigPoint[] = [
    p,
    [p[0] + u[0], p[1] + u[1]],
    [p[0] + u[0] + v[0], p[1] + u[1] + v[1]],
    [p[0] + v[0], p[1] + v[1]],
  ];
  for (let i = 3; i > 0; i--) {
    const j = random.int(i + 1);
    [corners[i], corners[j]] = [corners[j], corners[i]];
  }
  return corners;
}

/** Grid values of a `generatePoints` lattice (`side`² sites) through the Voronoi fixed grid. */
function latticeGrid(kind: 'lattice' | 'lattice-offset', side: number): (i: number, j: number) => BigPoint {
  const xy = generatePoints(kind, side * side);
  const o = kind === 'lattice' ? 0 : 1e7;
  const grid = fixedGrid(xy, { minX: o - 1, minY: o - 1, maxX: o + side, maxY: o + side });
  return (i, j) => fixedSiteBigInt(grid, j * side + i);
}

function toDoubles(points: readonly BigPoint[]): number[] {
  return points.flatMap(([x, y]) => [Number(x), Number(y)]);
}

const small = (points: readonly BigPoint[]) =>
  points.every(([x, y]) => -(1n << 52n) < x && x < 1n << 52n && -(1n << 52n) < y && y < 1n << 52n);

/** Point tuples with the kind each was made as (for per-kind statistics). */
function kindedCases(): {
  cases: BigPoint[][];
  kinds: string[];
  push: (kind: string, c: BigPoint[]) => void;
} {
  const cases: BigPoint[][] = [];
  const kinds: string[] = [];
  return {
    cases,
    kinds,
    push: (kind, c) => {
      cases.push(c);
      kinds.push(kind);
    },
  };
}

describe('Delaunay predicates on the GPU (float filter, exact fallback, simulation of simplicity)', () => {
  test('orient_sign: exact against BigInt up to ±2^58 and robust-predicates below 2^52; lattice ties never reach 128 bits', async () => {
    const random = new RandomBig(11);
    const { cases, kinds, push } = kindedCases();
    const corners: BigPoint[] = [
      [MAX, MAX],
      [-MAX, -MAX],
      [MAX, -MAX],
      [-MAX, MAX],
      [0n, 0n],
    ];
    for (const a of corners) for (const b of corners) for (const c of corners) push('corners', [a, b, c]);
    for (let i = 0; i < 4000; i++) {
      const bits = [58, 40, 20, 8][i % 4];
      // same magnitude (uniform in a square), and every magnitude mixed (often ill-conditioned)
      push(
        'random',
        [0, 1, 2].map(() => [random.signed(bits), random.signed(bits)] as BigPoint),
      );
      push(
        'mixed magnitudes',
        [0, 1, 2].map(() => [random.anyMagnitude(bits), random.anyMagnitude(bits)] as BigPoint),
      );
    }
    for (let i = 0; i < 6000; i++) {
      // collinear c = a + k·dir, nudged by 0 or ±1 unit
      const a: BigPoint = [random.anyMagnitude(57), random.anyMagnitude(57)];
      const dirBits = 1 + random.int(28);
      const dir: BigPoint = [random.anyMagnitude(dirBits), random.anyMagnitude(dirBits)];
      const kBits = 1 + random.int(55 - dirBits);
      const k1 = random.anyMagnitude(kBits);
      const k2 = random.anyMagnitude(kBits);
      // graded nudges of ±2^1..2^45 units put cases on both sides of the filter's threshold
      const nudge = [0n, 1n, -1n, (random.int(2) ? 1n : -1n) << BigInt(1 + random.int(45))][i % 4];
      const b: BigPoint = [clampGrid(a[0] + k1 * dir[0]), clampGrid(a[1] + k1 * dir[1])];
      const c: BigPoint = [clampGrid(a[0] + k2 * dir[0]), clampGrid(a[1] + k2 * dir[1] + nudge)];
      const kind = i % 4 === 0 ? 'collinear' : i % 4 === 3 ? 'graded' : 'near-collinear';
      push(kind, random.int(2) ? [a, b, c] : [c, a, b]);
    }
    const at = latticeGrid('lattice-offset', 1000);
    for (let i = 0; i < 2000; i++) {
      const p = () => at(random.int(1000), random.int(1000));
      const a = p();
      const b = p();
      // a third lattice point on the line through a and b, or anywhere
      const t = BigInt(random.int(3) - 1);
      const c: BigPoint = i % 2 ? p() : [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
      push('lattice 1e7', [a, b, c]);
    }
    const { signs, paths } = await signsAndPaths('orient', cases);
    const expected = cases.map(([a, b, c]) => orientBig(a, b, c));
    expect(signs).toEqual(expected);
    let checkedRobust = 0;
    cases.forEach((c, i) => {
      if (!small(c)) return;
      const [ax, ay, bx, by, cx, cy] = toDoubles(c);
      expect(signs[i], `${c}`).toBe(-Math.sign(orient2d(ax, ay, bx, by, cx, cy)) || 0);
      checkedRobust++;
    });
    expect(checkedRobust).toBeGreaterThan(2000);
    expect(expected.filter((s) => s === 0).length).toBeGreaterThan(2000);
    const byKind = new Map<string, number[]>();
    for (let i = 0; i < kinds.length; i++) byKind.set(kinds[i], [...(byKind.get(kinds[i]) ?? []), paths[i]]);
    const report = [...byKind].map(([k, p]) => `${k}: ${pathCounts(p).join('/')}`).join(', ');
    console.log(`orient paths (filter/small exact/128-bit): ${report}`);
    const random58 = pathCounts(byKind.get('random') ?? []);
    expect(random58[0]).toBeGreaterThan(0.99 * 4000); // random triples: the filter decides
    const lattice = pathCounts(byKind.get('lattice 1e7') ?? []);
    expect(lattice[2]).toBe(0); // lattice ties: f32-exact or 64-bit, never 128-bit
    expect(lattice[1]).toBeGreaterThan(500);
    expect(pathCounts(byKind.get('near-collinear') ?? [])[2]).toBeGreaterThan(500);
    const graded = pathCounts(byKind.get('graded') ?? []);
    expect(Math.min(graded[0], graded[2])).toBeGreaterThan(100);
  });

  test('incircle_sign: exact against BigInt up to ±2^58 and robust-predicates below 2^52 (same sign convention)', async () => {
    const random = new RandomBig(12);
    const { cases, kinds, push } = kindedCases();
    const corners: BigPoint[] = [
      [MAX, MAX],
      [-MAX, -MAX],
      [MAX, -MAX],
      [-MAX, MAX],
    ];
    for (const d of [...corners, [0n, 0n] as BigPoint]) push('corners', [...corners.slice(0, 3), d]);
    push('corners', [corners[0], corners[2], corners[1], corners[3]]);
    for (let i = 0; i < 4000; i++) {
      const bits = [58, 45, 30, 12][i % 4];
      // same magnitude (uniform in a square), and every magnitude mixed (often ill-conditioned)
      push(
        'random',
        [0, 1, 2, 3].map(() => [random.signed(bits), random.signed(bits)] as BigPoint),
      );
      push(
        'mixed magnitudes',
        [0, 1, 2, 3].map(() => [random.anyMagnitude(bits), random.anyMagnitude(bits)] as BigPoint),
      );
    }
    for (let i = 0; i < 3000; i++) {
      // exactly cocircular: Pythagorean circle points (radius ≈ 2^22.5) scaled up to ≈ 2^57
      const scale = 1n << BigInt(random.int(35));
      const centre: BigPoint = [random.signed(56), random.signed(56)];
      const quad = cocircularQuad(random, centre, scale).map(
        ([x, y]) => [clampGrid(x), clampGrid(y)] as BigPoint,
      );
      const nudge = [0n, 1n, -1n, (random.int(2) ? 1n : -1n) << BigInt(1 + random.int(45))][i % 4];
      quad[3] = [clampGrid(quad[3][0] + nudge), quad[3][1]];
      push(i % 4 === 0 ? 'cocircular' : i % 4 === 3 ? 'graded' : 'near-cocircular', quad);
    }
    for (let i = 0; i < 2000; i++) {
      const bits = [3, 10, 30, 50][i % 4];
      push('rectangle', rectangle(random, bits, 55));
    }
    for (const kind of ['lattice', 'lattice-offset'] as const) {
      const at = latticeGrid(kind, 1000);
      for (let i = 0; i < 2000; i++) {
        // lattice squares and rectangles (cocircular), and a fourth lattice point anywhere near
        const x = random.int(990);
        const y = random.int(990);
        const w = 1 + random.int(i % 2 ? 1 : 9);
        const h = 1 + random.int(i % 2 ? 1 : 9);
        const d = i % 4 === 3 ? at(random.int(1000), random.int(1000)) : at(x, y + h);
        push(kind, [at(x, y), at(x + w, y), at(x + w, y + h), d]);
      }
    }
    const { signs, paths } = await signsAndPaths('incircle', cases);
    const expected = cases.map(([a, b, c, d]) => incircleBig(a, b, c, d));
    expect(signs).toEqual(expected);
    let checkedRobust = 0;
    cases.forEach((c, i) => {
      if (!small(c)) return;
      expect(signs[i], `${c}`).toBe(
        Math.sign(
          incircle(...(toDoubles(c) as [number, number, number, number, number, number, number, number])),
        ) || 0,
      );
      checkedRobust++;
    });
    expect(checkedRobust).toBeGreaterThan(2000);
    expect(expected.filter((s) => s === 0).length).toBeGreaterThan(4000);
    const byKind = new Map<string, number[]>();
    for (let i = 0; i < kinds.length; i++) byKind.set(kinds[i], [...(byKind.get(kinds[i]) ?? []), paths[i]]);
    const report = [...byKind].map(([k, p]) => `${k}: ${pathCounts(p).join('/')}`).join(', ');
    console.log(`incircle paths (filter/small exact/256-bit): ${report}`);
    expect(pathCounts(byKind.get('random') ?? [])[0]).toBeGreaterThan(0.99 * 4000);
    for (const kind of ['lattice', 'lattice-offset']) {
      const counts = pathCounts(byKind.get(kind) ?? []);
      expect(counts[2], kind).toBe(0); // lattice ties never take the 256-bit path
      expect(counts[1], kind).toBeGreaterThan(1000);
    }
    expect(pathCounts(byKind.get('cocircular') ?? [])[2]).toBeGreaterThan(500);
    expect(pathCounts(byKind.get('near-cocircular') ?? [])[2]).toBeGreaterThan(1000);
    const graded = pathCounts(byKind.get('graded') ?? []);
    expect(Math.min(graded[0], graded[2])).toBeGreaterThan(100);
  });

  test('incircle_sos: never 0 for distinct sites, the exact sign when nonzero, the written-out perturbation otherwise', async () => {
    const ctx = await requireGpu();
    const random = new RandomBig(13);
    const cases: BigPoint[][] = [];
    const indices: number[][] = [];
    const distinctIndices = (n: number) => {
      const s = new Set<number>();
      while (s.size < n) s.add(random.int(1 << 20));
      return [...s];
    };
    const at = latticeGrid('lattice', 1000);
    for (let i = 0; i < 6000; i++) {
      const kind = i % 6;
      let quad: BigPoint[];
      if (kind === 0)
        quad = cocircularQuad(random, [random.signed(50), random.signed(50)], 1n << BigInt(random.int(30)));
      else if (kind === 1) quad = rectangle(random, 1 + random.int(40), 50);
      else if (kind === 2) {
        const x = random.int(998);
        const y = random.int(998);
        quad = [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)];
      } else {
        // four distinct collinear sites: general direction, horizontal, vertical; or three
        // collinear and one off the line
        const a: BigPoint = [random.signed(50), random.signed(50)];
        const dirs: BigPoint[] = [
          [random.anyMagnitude(20), random.anyMagnitude(20)],
          [1n, 0n],
          [0n, 1n],
        ];
        const dir = dirs[kind - 3];
        if (dir[0] === 0n && dir[1] === 0n) continue;
        const ks = new Set<bigint>();
        while (ks.size < 4) ks.add(random.anyMagnitude(20));
        quad = [...ks].map((k) => [a[0] + k * dir[0], a[1] + k * dir[1]] as BigPoint);
        if (i % 12 === 3) quad[0] = [quad[0][0] + 1n, quad[0][1]];
      }
      for (let k = 3; k > 0; k--) {
        const j = random.int(k + 1);
        [quad[k], quad[j]] = [quad[j], quad[k]];
      }
      cases.push(quad);
      indices.push(distinctIndices(4));
    }
    const { out } = await evalPredicates(ctx, 'incircle-sos', packCases('incircle-sos', cases, indices), 3);
    const actual = [...out].map((w) => w | 0);
    const exact = cases.map(([a, b, c, d]) => incircleBig(a, b, c, d));
    expect(exact.filter((s) => s === 0).length).toBeGreaterThan(4000);
    cases.forEach((c, i) => {
      expect(actual[i] === 0 || actual[i] === NOT_AGREED, `${c} ${indices[i]}: ${actual[i]}`).toBe(false);
      if (exact[i] !== 0) expect(actual[i]).toBe(exact[i]);
      expect(actual[i], `${c} ${indices[i]}`).toBe(sosReference(c, indices[i]));
    });
  });

  test('incircle_sos and orient_sos: swapping arguments negates, so every quad is decided one way from any rotation', async () => {
    const ctx = await requireGpu();
    const random = new RandomBig(14);
    const at = latticeGrid('lattice-offset', 1000);
    const quads: BigPoint[][] = [];
    for (let i = 0; i < 120; i++) {
      const x = random.int(990);
      const y = random.int(990);
      const s = 1 + random.int(3);
      const square = [at(x, y), at(x + s, y), at(x + s, y + s), at(x, y + s)];
      const line = [0, 1, 2, 3].map((k) => at(x + k * s, y));
      const column = [0, 1, 2, 3].map((k) => at(x, y + k * s));
      quads.push([square, line, column, cocircularQuad(random, [0n, 0n], 1n)][i % 4]);
    }
    const perms = permutations(4);
    const cases: BigPoint[][] = [];
    const indices: number[][] = [];
    const quadIndices = quads.map(() => [0, 1, 2, 3].map(() => random.int(1 << 30)));
    quads.forEach((q, n) => {
      for (const p of perms) {
        cases.push(p.map((k) => q[k]));
        indices.push(p.map((k) => quadIndices[n][k]));
      }
    });
    const { out } = await evalPredicates(ctx, 'incircle-sos', packCases('incircle-sos', cases, indices), 3);
    quads.forEach((q, n) => {
      const expected = sosReference(q, quadIndices[n]);
      expect(expected === 1 || expected === -1).toBe(true);
      perms.forEach((p, k) => {
        expect((out[n * perms.length + k] | 0) * parity(p), `${q} ${p}`).toBe(expected);
      });
    });
    // orient_sos on collinear triples (general, horizontal, vertical), with coincident sites too
    const triples: BigPoint[][] = [];
    for (let i = 0; i < 300; i++) {
      const a: BigPoint = [random.signed(57), random.signed(57)];
      const dir: BigPoint = [
        [random.anyMagnitude(10), random.anyMagnitude(10)],
        [1n, 0n],
        [0n, 1n],
      ][i % 3] as BigPoint;
      const ks = [0n, random.anyMagnitude(20), random.anyMagnitude(20)];
      if (i % 10 === 9) ks[2] = ks[1]; // two coincident sites
      if (i % 30 === 29) ks[1] = ks[2] = 0n; // three
      triples.push(ks.map((k) => [clampGrid(a[0] + k * dir[0]), clampGrid(a[1] + k * dir[1])] as BigPoint));
    }
    const perms3 = permutations(3);
    const tCases: BigPoint[][] = [];
    const tIndices: number[][] = [];
    const tripleIndices = triples.map(() => [0, 1, 2].map(() => random.int(1 << 30)));
    triples.forEach((t, n) => {
      for (const p of perms3) {
        tCases.push(p.map((k) => t[k]));
        tIndices.push(p.map((k) => tripleIndices[n][k]));
      }
    });
    const oriented = await evalPredicates(ctx, 'orient-sos', packCases('orient-sos', tCases, tIndices), 3);
    triples.forEach((t, n) => {
      const expected = sosReference(t, tripleIndices[n]);
      expect(expected).not.toBe(0);
      perms3.forEach((p, k) => {
        expect((oriented.out[n * 6 + k] | 0) * parity(p), `${t} ${p}`).toBe(expected);
      });
    });
  });

  test('the SoS predicates triangulate cocircular and collinear sets: brute-force empty circles give a valid Delaunay triangulation', async () => {
    const ctx = await requireGpu();
    const random = new RandomBig(15);
    const at = latticeGrid('lattice-offset', 1000);
    const lattice: BigPoint[] = [];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) lattice.push(at(100 + i, 200 + j));
    const circle = CIRCLE.slice(0, 40).filter((_, k) => k % 3 === 0);
    const withLine: BigPoint[] = [
      ...[0, 1, 2, 3, 4, 5].map((k) => [BigInt(k) * 7n, 0n] as BigPoint),
      [10n, 9n],
      [20n, -4n],
      [3n, 5n],
    ];
    for (const sites of [lattice, circle, withLine]) {
      const n = sites.length;
      const index = sites.map((_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = random.int(i + 1);
        [index[i], index[j]] = [index[j], index[i]];
      }
      const triples: number[][] = [];
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) triples.push([i, j, k]);
      const orient = await evalPredicates(
        ctx,
        'orient-sos',
        packCases(
          'orient-sos',
          triples.map((t) => t.map((k) => sites[k])),
          triples.map((t) => t.map((k) => index[k])),
        ),
      );
      const ccw = triples.map((t, q) => ((orient.out[q] | 0) > 0 ? t : [t[0], t[2], t[1]]));
      const tests: BigPoint[][] = [];
      const testIndices: number[][] = [];
      for (const t of ccw)
        for (let l = 0; l < n; l++) {
          if (t.includes(l)) continue;
          tests.push([...t, l].map((k) => sites[k]));
          testIndices.push([...t, l].map((k) => index[k]));
        }
      const inside = await evalPredicates(ctx, 'incircle-sos', packCases('incircle-sos', tests, testIndices));
      const triangles = ccw.filter((_, q) => {
        for (let l = 0; l < n - 3; l++) if ((inside.out[q * (n - 3) + l] | 0) >= 0) return false;
        return true;
      });
      // a triangulation: every site used, every undirected edge in one or two triangles (two
      // with opposite directions), no flat triangle inside, areas adding up to the hull's
      const area2 = (t: number[]) => {
        const [a, b, c] = t.map((k) => sites[k]);
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
      };
      const edges = new Map<string, number>();
      for (const t of triangles) {
        expect(area2(t) >= 0n).toBe(true);
        for (let e = 0; e < 3; e++) {
          const key = `${t[e]},${t[(e + 1) % 3]}`;
          expect(edges.has(key), `edge ${key} twice`).toBe(false);
          edges.set(key, 1);
        }
      }
      const used = new Set(triangles.flat());
      expect(used.size).toBe(n);
      const hull = convexHullArea2(sites);
      expect(triangles.reduce((s, t) => s + area2(t), 0n)).toBe(hull);
      // Delaunay: no site strictly inside a (non-flat) triangle's circle, by the exact predicate
      for (const t of triangles) {
        if (area2(t) === 0n) continue;
        for (let l = 0; l < n; l++)
          if (!t.includes(l))
            expect(incircleBig(sites[t[0]], sites[t[1]], sites[t[2]], sites[l])).toBeLessThanOrEqual(0);
      }
      // the triangle count of a triangulation of n sites with h on the (perturbed) hull: flat
      // triangles on collinear hull runs count, so 2n − 2 − h holds for the hull edges found
      const boundary = [...edges.keys()].filter((key) => {
        const [u, v] = key.split(',');
        return !edges.has(`${v},${u}`);
      }).length;
      expect(triangles.length).toBe(2 * n - 2 - boundary);
    }
  });
});

/** Twice the area of the convex hull of `points` (exact, monotone chain). */
function convexHullArea2(points: readonly BigPoint[]): bigint {
  const p = [...points].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  const half = (list: BigPoint[]) => {
    const h: BigPoint[] = [];
    for (const q of list) {
      while (h.length >= 2 && orientBig(h[h.length - 2], h[h.length - 1], q) <= 0) h.pop();
      h.push(q);
    }
    return h.slice(0, -1);
  };
  const hull = [...half(p), ...half([...p].reverse())];
  let s = 0n;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    s += a[0] * b[1] - a[1] * b[0];
  }
  return s;
}
