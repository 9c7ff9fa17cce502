/**
 * Seeded point sets shared by geometry tests and benchmarks: the same name, size and seed give
 * the same coordinates on every machine (the generator uses only 32-bit integer arithmetic and
 * exactly rounded floating-point operations).
 */

/** The kinds of point set {@link generatePoints} makes. */
export type PointSetKind =
  | 'uniform'
  | 'clusters'
  | 'lattice'
  | 'lattice-offset'
  | 'circle'
  | 'collinear'
  | 'duplicates'
  | 'near-duplicates';

/** Every {@link PointSetKind}, for tests that loop over all of them. */
export const pointSetKinds: readonly PointSetKind[] = [
  'uniform',
  'clusters',
  'lattice',
  'lattice-offset',
  'circle',
  'collinear',
  'duplicates',
  'near-duplicates',
];

/** A seeded pseudo-random generator of doubles in [0, 1) (32-bit state, SplitMix-style mixing). */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  }

  /** A double in [0, 1) with 53 random bits. */
  next(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** A standard normal deviate (Box–Muller). */
  gaussian(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/**
 * `n` points of the given kind as interleaved xy, reproducible from `seed` (default 1):
 *
 * - `uniform`: uniform in [0, 1000)².
 * - `clusters`: gaussian clusters (σ = 10) around ⌈√n / 2⌉ uniform centres in [0, 1000)².
 * - `lattice`: integer grid points, row by row, ⌈√n⌉ per row (many cocircular quadruples).
 * - `lattice-offset`: the same grid shifted by (1e7, 1e7) — spacing 1 at 1e7.
 * - `circle`: n points on the circle of radius 100 around (500, 500), at equal angles (cocircular
 *   up to rounding).
 * - `collinear`: n points on the line y = 2x + 1, at random positions (exactly collinear: x are
 *   multiples of 1/1024 below 1000, so 2x + 1 is exact).
 * - `duplicates`: ⌈n/2⌉ uniform points, then each of them again in a shuffled order.
 * - `near-duplicates`: ⌈n/2⌉ uniform points, each followed by a copy moved 1e-12 in x.
 *
 * The seed is ignored by the deterministic kinds (`lattice`, `lattice-offset`, `circle`).
 */
export function generatePoints(kind: PointSetKind, n: number, seed = 1): Float64Array {
  const rng = new SeededRandom(seed);
  const xy = new Float64Array(2 * n);
  switch (kind) {
    case 'uniform':
      for (let i = 0; i < 2 * n; i++) xy[i] = rng.next() * 1000;
      break;
    case 'clusters': {
      const k = Math.max(1, Math.ceil(Math.sqrt(n) / 2));
      const centres = new Float64Array(2 * k);
      for (let i = 0; i < 2 * k; i++) centres[i] = rng.next() * 1000;
      for (let i = 0; i < n; i++) {
        const c = Math.floor(rng.next() * k);
        xy[2 * i] = centres[2 * c] + 10 * rng.gaussian();
        xy[2 * i + 1] = centres[2 * c + 1] + 10 * rng.gaussian();
      }
      break;
    }
    case 'lattice':
    case 'lattice-offset': {
      const side = Math.max(1, Math.ceil(Math.sqrt(n)));
      const offset = kind === 'lattice' ? 0 : 1e7;
      for (let i = 0; i < n; i++) {
        xy[2 * i] = offset + (i % side);
        xy[2 * i + 1] = offset + Math.floor(i / side);
      }
      break;
    }
    case 'circle':
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        xy[2 * i] = 500 + 100 * Math.cos(a);
        xy[2 * i + 1] = 500 + 100 * Math.sin(a);
      }
      break;
    case 'collinear':
      for (let i = 0; i < n; i++) {
        const x = Math.floor(rng.next() * 1024 * 1000) / 1024;
        xy[2 * i] = x;
        xy[2 * i + 1] = 2 * x + 1;
      }
      break;
    case 'duplicates': {
      const m = Math.ceil(n / 2);
      for (let i = 0; i < 2 * m && i < 2 * n; i++) xy[i] = rng.next() * 1000;
      const order = new Int32Array(m);
      for (let i = 0; i < m; i++) order[i] = i;
      for (let i = m - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      for (let i = m; i < n; i++) {
        xy[2 * i] = xy[2 * order[i - m]];
        xy[2 * i + 1] = xy[2 * order[i - m] + 1];
      }
      break;
    }
    case 'near-duplicates':
      for (let i = 0; i < n; i += 2) {
        const x = rng.next() * 1000;
        const y = rng.next() * 1000;
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
        if (i + 1 < n) {
          xy[2 * i + 2] = x + 1e-12;
          xy[2 * i + 3] = y;
        }
      }
      break;
    default:
      throw new RangeError(
        `generatePoints: unknown kind ${JSON.stringify(kind)} (kinds: ${pointSetKinds.join(', ')})`,
      );
  }
  return xy;
}

/** A named point set for table-driven tests. */
export interface NamedPointSet {
  name: string;
  xy: Float64Array;
}

/**
 * The standard collection of point sets for geometry tests: every kind at `size` points, plus
 * the tiny cases 0, 1, 2 and 3 points (3 both in general position and collinear).
 */
export function pointSets(size = 100, seed = 1): NamedPointSet[] {
  const sets: NamedPointSet[] = pointSetKinds.map((kind) => ({
    name: `${kind}-${size}`,
    xy: generatePoints(kind, size, seed),
  }));
  sets.push(
    { name: 'empty', xy: new Float64Array(0) },
    { name: 'one', xy: new Float64Array([3, 4]) },
    { name: 'two', xy: new Float64Array([0, 0, 2, 1]) },
    { name: 'three', xy: new Float64Array([0, 0, 4, 0, 1, 3]) },
    { name: 'three-collinear', xy: new Float64Array([0, 0, 2, 2, 1, 1]) },
  );
  return sets;
}
