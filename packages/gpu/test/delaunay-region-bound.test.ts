import { describe, expect, it } from 'vitest';
import { REGION_BOUNDS } from '../src/delaunay/star-region-wgsl.js';
import { Faithful, toF32Scaled } from './faithful-f32.js';
import { RandomBig } from './fixed-reference.js';

// The conflict region's disk (`disk_from` in star-region-wgsl.ts) replayed on the CPU under an
// adversarial model of WGSL's f32 (faithful + − ×, optional fusing, quotients and square roots
// anywhere within their ULP accuracy), against the exact circumcircle from integers: the disk must
// hold the whole circumdisk, or the search of a star could stop before a conflicting site. The
// triangles are the ones that matter near a hull: nearly flat, with the obtuse vertex m between
// the two others, circles up to far larger than the grid.

const { radiusSlack, radiusMargin, tightRadiusMargin, crossRelErr, cellMargin } = REGION_BOUNDS;

type Vec = [bigint, bigint];

/** The GPU's disk: centre relative to m (cells) and radius, or null when it declines. */
function diskFrom(
  fl: Faithful,
  v1: [number, number],
  v2: [number, number],
  cross: number,
  crossErr: number,
  margin: number,
): { x: number; y: number; rho: number } | null {
  const crossLow = fl.add(Math.abs(cross), -crossErr);
  if (!(crossLow > 0)) return null;
  const dot = (v: [number, number]) => fl.mulAdd(v[0], v[0], fl.mul(v[1], v[1]));
  const l1 = dot(v1);
  const l2 = dot(v2);
  // a·b − c·d with either product fused into the subtraction, or neither
  const diff = (a: number, b: number, c: number, d: number) => {
    const pick = fl.int(3);
    if (pick === 0) return fl.add(fl.mul(a, b), -fl.mul(c, d));
    if (pick === 1) return fl.mulAdd(a, b, -fl.mul(c, d));
    return fl.mulAdd(-c, d, fl.mul(a, b));
  };
  const nx = diff(v2[1], l1, v1[1], l2);
  const ny = diff(v1[0], l2, v2[0], l1);
  const twoCross = 2 * cross;
  const ux = fl.div(nx, twoCross);
  const uy = fl.div(ny, twoCross);
  const abs = Math.abs;
  const nErr = fl.mul(
    radiusSlack,
    fl.add(
      fl.add(fl.mul(abs(v2[1]), l1), fl.mul(abs(v1[1]), l2)),
      fl.add(fl.mul(abs(v1[0]), l2), fl.mul(abs(v2[0]), l1)),
    ),
  );
  const spread = fl.div(fl.mul(fl.add(abs(nx), abs(ny)), crossErr), crossLow);
  const err = fl.add(
    fl.add(
      fl.div(fl.mul(radiusMargin, fl.add(nErr, spread)), fl.mul(2, crossLow)),
      fl.mul(radiusSlack, fl.add(abs(ux), abs(uy))),
    ),
    cellMargin,
  );
  const radius = fl.sqrt(fl.mulAdd(ux, ux, fl.mul(uy, uy)));
  const rho = fl.mulAdd(margin, radius, fl.mul(2, err));
  if (!(rho < 1e15)) return null;
  return { x: ux, y: uy, rho };
}

/** The exact circumcentre of (m, m + v1, m + v2) relative to m, in cells of 2^shift units. */
function exactCentre(v1: Vec, v2: Vec, shift: number): [number, number] {
  const l1 = v1[0] * v1[0] + v1[1] * v1[1];
  const l2 = v2[0] * v2[0] + v2[1] * v2[1];
  const twoCross = 2n * (v1[0] * v2[1] - v1[1] * v2[0]);
  const nx = v2[1] * l1 - v1[1] * l2;
  const ny = v1[0] * l2 - v2[0] * l1;
  // each quotient to f64 from its leading bits (relative error ~2^-52, far below the margins)
  const quotient = (a: bigint, b: bigint) => {
    const shiftBits = Math.max(0, Math.max(a.toString(2).length, b.toString(2).length) - 1000);
    return Number(a >> BigInt(shiftBits)) / Number(b >> BigInt(shiftBits));
  };
  const scale = 2 ** -shift;
  return [quotient(nx, twoCross) * scale, quotient(ny, twoCross) * scale];
}

/**
 * A nearly flat triangle (m, m + v1, m + v2) with m between the others: offsets of up to 2^16
 * cells of 2^shift grid units, m moved off the line by 2^0..2^(shift + 8) units.
 */
function flatTriangle(random: RandomBig): { v1: Vec; v2: Vec; shift: number } {
  const shift = random.int(37);
  const cellsBits = 1 + random.int(16);
  const dirBits = 1 + random.int(shift + cellsBits);
  const dir: Vec = [random.anyMagnitude(dirBits) | 1n, random.anyMagnitude(dirBits)];
  const room = Math.max(1, shift + cellsBits - dirBits);
  const scale = () => {
    const k = random.anyMagnitude(room);
    return 1n + (k < 0n ? -k : k);
  };
  const k1 = scale();
  const k2 = scale();
  const nudge = () => (random.int(2) ? 1n : -1n) * (1n << BigInt(random.int(shift + 9)));
  const v1: Vec = [k1 * dir[0] + nudge(), k1 * dir[1] + nudge()];
  const v2: Vec = [-k2 * dir[0] + nudge(), -k2 * dir[1] + nudge()];
  return { v1, v2, shift };
}

interface Outcome {
  /** Disks that miss part of the exact circumdisk. */
  misses: number;
  /** Disks given (not declined). */
  given: number;
  /** Given disks whose margin over the exact one is under a cell. */
  tight: number;
  /** Of those, circles of more than 1024 cells' radius (the boundary's). */
  largeTight: number;
}

function replay(count: number, seed: number, path: 'float' | 'exact' | 'no margin'): Outcome {
  const outcome: Outcome = { misses: 0, given: 0, tight: 0, largeTight: 0 };
  for (const mode of ['up', 'down', 'random'] as const) {
    const random = new RandomBig(seed);
    const fl = new Faithful(random, mode, true);
    for (let i = 0; i < count; i++) {
      const { v1, v2, shift } = flatTriangle(random);
      const exactCross = v1[0] * v2[1] - v1[1] * v2[0];
      if (exactCross === 0n) continue;
      const f1: [number, number] = [toF32Scaled(v1[0], shift), toF32Scaled(v1[1], shift)];
      const f2: [number, number] = [toF32Scaled(v2[0], shift), toF32Scaled(v2[1], shift)];
      let disk: ReturnType<typeof diskFrom>;
      if (path === 'float') {
        const t1 = fl.mul(f1[0], f2[1]);
        const t2 = fl.mul(f1[1], f2[0]);
        const cross = fl.random() ? fl.mulAdd(f1[0], f2[1], -t2) : fl.add(t1, -t2);
        const crossErr = fl.mul(radiusSlack, fl.add(Math.abs(t1), Math.abs(t2)));
        disk = diskFrom(fl, f1, f2, cross, crossErr, radiusMargin);
      } else {
        const cross = toF32Scaled(exactCross, 2 * shift);
        const crossErr = path === 'exact' ? fl.mul(crossRelErr, Math.abs(cross)) : 0;
        disk = diskFrom(fl, f1, f2, cross, crossErr, path === 'exact' ? tightRadiusMargin : 1);
        if (disk && path === 'no margin') {
          // the bare float disk: the computed radius, no error terms
          disk.rho = Math.hypot(disk.x, disk.y);
        }
      }
      if (disk === null) continue;
      outcome.given++;
      const [cx, cy] = exactCentre(v1, v2, shift);
      const radius = Math.hypot(cx, cy);
      const reach = Math.hypot(disk.x - cx, disk.y - cy) + radius;
      if (reach > disk.rho * (1 - 2 ** -40)) outcome.misses++;
      else if (disk.rho - radius < 1) {
        outcome.tight++;
        if (radius > 1024) outcome.largeTight++;
      }
    }
  }
  return outcome;
}

describe('conflict-region disks under adversarial faithful f32 rounding', () => {
  it('the disk from the float cross product holds the exact circumdisk', () => {
    const result = replay(4000, 11, 'float');
    expect(result.misses).toBe(0);
    expect(result.given).toBeGreaterThan(3000);
  });

  it('the disk from the exact cross product holds it too, and is under a cell wide of it far more often', () => {
    const exact = replay(4000, 11, 'exact');
    const float = replay(4000, 11, 'float');
    expect(exact.misses).toBe(0);
    expect(exact.given).toBeGreaterThanOrEqual(float.given);
    // flat triangles: the float cross product's error grows the margin with the radius squared, so
    // circles over 1024 cells wide are never within a cell from it (the exact one: most of them)
    expect(exact.tight).toBeGreaterThan(float.tight + 1000);
    expect(exact.largeTight).toBeGreaterThan(1000);
    expect(float.largeTight).toBeLessThan(exact.largeTight / 10);
  });

  it('the same disk without its error terms misses part of the circumdisk (the replay can fail)', () => {
    const bare = replay(4000, 11, 'no margin');
    expect(bare.misses).toBeGreaterThan(100);
  });
});
