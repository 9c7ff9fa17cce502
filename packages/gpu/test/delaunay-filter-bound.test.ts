import { describe, expect, it } from 'vitest';
import { Faithful, toF32Scaled } from './faithful-f32.js';
import { type BigPoint, incircleBig, orientBig, RandomBig } from './fixed-reference.js';

// The float filters of the Delaunay predicates (packages/gpu/src/delaunay/predicates) replayed on
// the CPU under an adversarial model of WGSL's f32: every + − × returns either float around the
// exact value (faithful rounding, chosen by the adversary), products may be fused into the next
// addition, the three outer terms of incircle are added in any order, and results below the
// normal range may be flushed to zero. Lavapipe rounds one fixed way; this is where the bound's
// derivation meets the other roundings a conforming GPU may use.

/** The orient filter of `orient_sign_path`: the decided sign, or null when it defers. */
function orientFilter(fl: Faithful, a: BigPoint, b: BigPoint, c: BigPoint, factor: number): number | null {
  const [bx, by, cx, cy] = [b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1]].map((v) => toF32Scaled(v, 0));
  const t1 = fl.mul(bx, cy);
  const t2 = fl.mul(by, cx);
  const det = fl.random() ? fl.mulAdd(bx, cy, -t2) : fl.add(t1, -t2);
  const bound = fl.mul(factor, fl.add(Math.abs(t1), Math.abs(t2)));
  return Math.abs(det) > bound ? Math.sign(det) : null;
}

/** The incircle filter of `incircle_sign_path`: the decided sign, or null when it defers. */
function incircleFilter(
  fl: Faithful,
  a: BigPoint,
  b: BigPoint,
  c: BigPoint,
  d: BigPoint,
  factor: number,
  floor: number,
): number | null {
  const diffs = [a[0] - d[0], a[1] - d[1], b[0] - d[0], b[1] - d[1], c[0] - d[0], c[1] - d[1]];
  const len = Math.max(...diffs.map((v) => (v < 0n ? -v : v).toString(2).length));
  if (diffs.every((v) => v === 0n)) return null;
  const [ax, ay, bx, by, cx, cy] = diffs.map((v) => toF32Scaled(v, len - 1));
  const lift = (x: number, y: number) => fl.mulAdd(x, x, fl.mul(y, y));
  const cross = (p: number, q: number, r: number, s: number) => {
    const t1 = fl.mul(p, q);
    const t2 = fl.mul(r, s);
    return {
      value: fl.random() ? fl.mulAdd(p, q, -t2) : fl.add(t1, -t2),
      perm: fl.add(Math.abs(t1), Math.abs(t2)),
    };
  };
  const lifts = [lift(ax, ay), lift(bx, by), lift(cx, cy)];
  const crosses = [cross(bx, cy, by, cx), cross(cx, ay, cy, ax), cross(ax, by, ay, bx)];
  // the three outer terms in an order of the adversary's choosing, the last product fused or not
  const order = [0, 1, 2];
  for (let i = 2; i > 0; i--) {
    const j = fl.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const [i0, i1, i2] = order;
  const first = fl.mul(lifts[i0], crosses[i0].value);
  const det = fl.mulAdd(lifts[i2], crosses[i2].value, fl.mulAdd(lifts[i1], crosses[i1].value, first));
  const perm = fl.mulAdd(
    lifts[i2],
    crosses[i2].perm,
    fl.mulAdd(lifts[i1], crosses[i1].perm, fl.mul(lifts[i0], crosses[i0].perm)),
  );
  const bound = fl.mulAdd(factor, perm, floor);
  return Math.abs(det) > bound ? Math.sign(det) : null;
}

/** Nearly degenerate triples: collinear, then one point moved by ±2^0..2^50 units. */
function nearCollinear(random: RandomBig): BigPoint[] {
  const a: BigPoint = [random.signed(57), random.signed(57)];
  const dirBits = 1 + random.int(28);
  const dir: BigPoint = [random.anyMagnitude(dirBits) | 1n, random.anyMagnitude(dirBits)];
  const kBits = 1 + random.int(56 - dirBits);
  const k1 = random.anyMagnitude(kBits);
  const k2 = random.anyMagnitude(kBits);
  const nudge = (random.int(2) ? 1n : -1n) << BigInt(random.int(51));
  return [a, [a[0] + k1 * dir[0], a[1] + k1 * dir[1]], [a[0] + k2 * dir[0] + nudge, a[1] + k2 * dir[1]]];
}

/** Nearly cocircular quads: rectangle corners (any orientation), one moved by ±2^0..2^50 units. */
function nearCocircular(random: RandomBig): BigPoint[] {
  const bits = 1 + random.int(55);
  const p: BigPoint = [random.signed(56), random.signed(56)];
  const u: BigPoint = [random.anyMagnitude(bits), random.anyMagnitude(bits) | 1n];
  const v: BigPoint = [-u[1], u[0]];
  const nudge = (random.int(2) ? 1n : -1n) << BigInt(random.int(Math.min(51, bits + 4)));
  return [
    p,
    [p[0] + u[0], p[1] + u[1]],
    [p[0] + u[0] + v[0], p[1] + u[1] + v[1]],
    [p[0] + v[0] + nudge, p[1] + v[1]],
  ];
}

const EPS = 2 ** -23;

/** Filter outcomes over `count` cases for each adversary: wrong signs, decided, decided near the bound. */
function replay(
  count: number,
  seed: number,
  evaluate: (fl: Faithful, random: RandomBig) => { decided: number | null; exact: number; margin: boolean },
) {
  let wrong = 0;
  let decided = 0;
  let nearBound = 0;
  for (const mode of ['up', 'down', 'random'] as const) {
    const random = new RandomBig(seed);
    const fl = new Faithful(random, mode, true);
    for (let i = 0; i < count; i++) {
      const { decided: s, exact, margin } = evaluate(fl, random);
      if (s === null) continue;
      decided++;
      if (margin) nearBound++;
      if (s !== exact) wrong++;
    }
  }
  return { wrong, decided, nearBound };
}

describe('Delaunay predicate float filters under adversarial faithful f32 rounding and contraction', () => {
  const orientCase = (factor: number) => (fl: Faithful, random: RandomBig) => {
    const [a, b, c] = nearCollinear(random);
    const decided = orientFilter(fl, a, b, c, factor);
    const exact = orientBig(a, b, c);
    // "near the bound": the exact |D| is within 64 bound-widths (64 · factor · P)
    const [bx, by, cx, cy] = [b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1]];
    const det = Number(bx * cy - by * cx);
    const perm = Math.abs(Number(bx * cy)) + Math.abs(Number(by * cx));
    return { decided, exact, margin: Math.abs(det) < 64 * factor * perm };
  };

  it('orient: the shipped bound 2^-20 · P never accepts a wrong sign; a bound of ε/2 · P does', () => {
    const shipped = replay(30000, 1, orientCase(2 ** -20));
    expect(shipped.wrong).toBe(0);
    expect(shipped.nearBound).toBeGreaterThan(2000); // the threshold is exercised
    const tooSmall = replay(30000, 1, orientCase(EPS / 2));
    expect(tooSmall.wrong).toBeGreaterThan(0);
  });

  const incircleCase = (factor: number, floor: number) => (fl: Faithful, random: RandomBig) => {
    const [a, b, c, d] = nearCocircular(random);
    const decided = incircleFilter(fl, a, b, c, d, factor, floor);
    const exact = incircleBig(a, b, c, d);
    const diffs = [a[0] - d[0], a[1] - d[1], b[0] - d[0], b[1] - d[1], c[0] - d[0], c[1] - d[1]];
    const [ax, ay, bx, by, cx, cy] = diffs;
    const lift = (x: bigint, y: bigint) => x * x + y * y;
    const abs = (v: bigint) => (v < 0n ? -v : v);
    const perm =
      lift(ax, ay) * (abs(bx * cy) + abs(by * cx)) +
      lift(bx, by) * (abs(cx * ay) + abs(cy * ax)) +
      lift(cx, cy) * (abs(ax * by) + abs(ay * bx));
    const det =
      lift(ax, ay) * (bx * cy - by * cx) +
      lift(bx, by) * (cx * ay - cy * ax) +
      lift(cx, cy) * (ax * by - ay * bx);
    return { decided, exact, margin: abs(det) * 2n ** 19n < 64n * perm };
  };

  it('incircle: the shipped bound 2^-19 · P + 2^-100 never accepts a wrong sign; a bound of ε/2 · P does', () => {
    const shipped = replay(20000, 2, incircleCase(2 ** -19, 2 ** -100));
    expect(shipped.wrong).toBe(0);
    expect(shipped.nearBound).toBeGreaterThan(1000);
    const tooSmall = replay(20000, 2, incircleCase(EPS / 2, 0));
    expect(tooSmall.wrong).toBeGreaterThan(0);
  });
});
