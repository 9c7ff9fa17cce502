import { mulberry32 } from './mulberry32.js';

/**
 * Seeded adversarial site sets for the Voronoi/Delaunay property suite: each generator draws
 * its own parameters (magnitude, offset, spacing, angle…) from the seed, so a new seed gives new
 * cases, and the same (kind, size, seed) always gives the same points.
 */
export type AdversarialKind =
  | 'magnitude'
  | 'offset'
  | 'near-duplicates'
  | 'clusters'
  | 'lattice'
  | 'rotated-lattice'
  | 'cocircular'
  | 'collinear'
  | 'near-collinear'
  | 'mixed-magnitudes'
  | 'tiny';

export const adversarialKinds: readonly AdversarialKind[] = [
  'magnitude',
  'offset',
  'near-duplicates',
  'clusters',
  'lattice',
  'rotated-lattice',
  'cocircular',
  'collinear',
  'near-collinear',
  'mixed-magnitudes',
  'tiny',
];

/** A generated set: interleaved xy and a one-line description of the drawn parameters. */
export interface AdversarialSet {
  xy: Float64Array;
  params: string;
}

/** Power of ten with an exponent drawn uniformly in [lo, hi]. */
function decade(rnd: () => number, lo: number, hi: number): { value: number; exponent: number } {
  const exponent = Math.round(lo + rnd() * (hi - lo));
  return { value: 10 ** exponent, exponent };
}

function uniform(rnd: () => number, n: number, scale: number, ox = 0, oy = 0): Float64Array {
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    xy[2 * i] = ox + rnd() * scale;
    xy[2 * i + 1] = oy + rnd() * scale;
  }
  return xy;
}

/**
 * About `size` sites of `kind` ('tiny': 0 to 3 sites whatever `size`), drawn from `seed`.
 * Sites may repeat (the operations remove duplicates).
 */
export function adversarialSet(kind: AdversarialKind, size: number, seed: number): AdversarialSet {
  const rnd = mulberry32(seed ^ 0x5bd1e995);
  const n = Math.max(4, size);
  return STRUCTURED.includes(kind) ? structuredSet(kind, rnd, n) : spreadSet(kind, rnd, n);
}

const STRUCTURED: readonly AdversarialKind[] = [
  'lattice',
  'rotated-lattice',
  'cocircular',
  'collinear',
  'near-collinear',
];

/** The randomly spread kinds: magnitudes, offsets, near-duplicates, clusters, mixed, tiny. */
function spreadSet(kind: AdversarialKind, rnd: () => number, n: number): AdversarialSet {
  switch (kind) {
    case 'magnitude': {
      // a uniform set scaled by 10^k, k in [-300, 300]: spans and offsets at every magnitude
      const { value, exponent } = decade(rnd, -300, 300);
      const xy = uniform(rnd, n, 1, rnd() < 0.5 ? 0 : 3, rnd() < 0.5 ? 0 : -2);
      for (let k = 0; k < xy.length; k++) xy[k] *= value;
      return { xy, params: `scale 1e${exponent}` };
    }
    case 'offset': {
      // spread 10^s around an offset up to 1e15 (at least ~1e4 ulps wide)
      const { value: offset, exponent } = decade(rnd, 0, 15);
      const spread = Math.max(10 ** Math.round(-2 + rnd() * 5), offset * 2 ** -40);
      const sign = rnd() < 0.5 ? -1 : 1;
      return {
        xy: uniform(rnd, n, spread, sign * offset, offset * 0.7),
        params: `offset 1e${exponent}, spread ${spread}`,
      };
    }
    case 'near-duplicates': {
      // pairs: a uniform site and a copy moved by a relative 1e-15 … 1e-6 of the extent
      const { value: rel, exponent } = decade(rnd, -15, -6);
      const extent = 10 ** Math.round(-3 + rnd() * 9);
      const half = n >> 1;
      const base = uniform(rnd, half, extent);
      const xy = new Float64Array(4 * half);
      for (let i = 0; i < half; i++) {
        const angle = rnd() * 2 * Math.PI;
        xy[4 * i] = base[2 * i];
        xy[4 * i + 1] = base[2 * i + 1];
        xy[4 * i + 2] = base[2 * i] + Math.cos(angle) * rel * extent;
        xy[4 * i + 3] = base[2 * i + 1] + Math.sin(angle) * rel * extent;
      }
      return { xy, params: `relative 1e${exponent}, extent ${extent}` };
    }
    case 'clusters': {
      // a few clusters 1e-12 … 1e-3 wide (relative to the extent 1000) plus 4 far outliers
      const { value: width, exponent } = decade(rnd, -12, -3);
      const clusters = 1 + Math.floor(rnd() * 3);
      const xy = new Float64Array(2 * (n + 4));
      for (let i = 0; i < n; i++) {
        const c = i % clusters;
        const cx = 0.5 + 300 * c;
        xy[2 * i] = cx + rnd() * width * 1000;
        xy[2 * i + 1] = cx + rnd() * width * 1000;
      }
      const far = [-1000, -1000, 1000, -1000, 1000, 1000, -1000, 1000];
      for (let k = 0; k < 8; k++) xy[2 * n + k] = far[k];
      return { xy, params: `${clusters} clusters 1e${exponent} × 1000 wide` };
    }
    case 'mixed-magnitudes': {
      // ±rand·10^k, k in [−K, K], K up to 30
      const top = 1 + Math.floor(rnd() * 30);
      const xy = new Float64Array(2 * n);
      for (let k = 0; k < xy.length; k++) {
        xy[k] = (rnd() < 0.5 ? -1 : 1) * rnd() * 10 ** Math.round(-top + rnd() * 2 * top);
      }
      return { xy, params: `10^±${top}` };
    }
    case 'tiny': {
      const count = Math.floor(rnd() * 4);
      const scale = 10 ** Math.round(-200 + rnd() * 400);
      return { xy: uniform(rnd, count, scale), params: `${count} sites, scale ${scale}` };
    }
    default:
      throw new Error(`not a spread kind: ${kind}`);
  }
}

/** The structured kinds: lattices, cocircular and collinear sets. */
function structuredSet(kind: AdversarialKind, rnd: () => number, n: number): AdversarialSet {
  switch (kind) {
    case 'lattice':
    case 'rotated-lattice': {
      const side = Math.max(2, Math.round(Math.sqrt(n)));
      const step = 2 ** Math.round(-4 + rnd() * 8) * (rnd() < 0.5 ? 1 : 3);
      const offset = kind === 'lattice' && rnd() < 0.5 ? 1e7 : 0;
      const angle = kind === 'rotated-lattice' ? rnd() * Math.PI : 0;
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      const xy = new Float64Array(2 * side * side);
      for (let i = 0; i < side; i++) {
        for (let j = 0; j < side; j++) {
          const u = i * step;
          const v = j * step;
          const k = i * side + j;
          xy[2 * k] = offset + (angle === 0 ? u : c * u - s * v);
          xy[2 * k + 1] = offset + (angle === 0 ? v : s * u + c * v);
        }
      }
      return { xy, params: `${side}×${side} step ${step}, offset ${offset}, angle ${angle}` };
    }
    case 'cocircular': {
      // exactly cocircular integer points (x² + y² = r², r = 5^k) plus rounded points on a circle
      const exact = cocircularIntegers(
        Math.min(5 ** Math.max(2, Math.ceil(Math.log(n) / Math.log(5))), 5 ** 6),
      );
      const m = Math.max(3, n - exact.length / 2);
      const r = 10 ** Math.round(-3 + rnd() * 9);
      const cx = rnd() < 0.5 ? 0 : 1e6;
      const xy = new Float64Array(exact.length + 2 * m);
      xy.set(exact);
      for (let i = 0; i < m; i++) {
        const a = (2 * Math.PI * i) / m;
        xy[exact.length + 2 * i] = cx + r * Math.cos(a);
        xy[exact.length + 2 * i + 1] = cx + r * Math.sin(a);
      }
      return { xy, params: `${exact.length / 2} integer cocircular, ${m} on a circle r ${r} at ${cx}` };
    }
    case 'collinear': {
      // exactly collinear runs (y = 2x + 1 with dyadic x) plus one run along each axis
      const xy = new Float64Array(2 * n);
      const third = Math.floor(n / 3);
      for (let i = 0; i < n; i++) {
        const t = Math.floor(rnd() * 4096) / 64;
        if (i < third) xy.set([t, 2 * t + 1], 2 * i);
        else if (i < 2 * third) xy.set([t, -50], 2 * i);
        else xy.set([-70, t], 2 * i);
      }
      return { xy, params: 'three exact runs' };
    }
    case 'near-collinear': {
      // x = 0.1·i, y = 0.3·i + (r − 0.5)·ε·i (issue 19), ε in 1e-16 … 1e-12
      const { value: eps, exponent } = decade(rnd, -16, -12);
      const xy = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) {
        xy[2 * i] = 0.1 * i;
        xy[2 * i + 1] = 0.3 * i + (rnd() - 0.5) * eps * i;
      }
      return { xy, params: `noise 1e${exponent}` };
    }
    default:
      throw new Error(`not a structured kind: ${kind}`);
  }
}

/** Every integer point (x, y) with x² + y² = r², interleaved. */
function cocircularIntegers(r: number): Float64Array {
  const out: number[] = [];
  for (let x = -r; x <= r; x++) {
    const y = Math.round(Math.sqrt(r * r - x * x));
    if (x * x + y * y !== r * r) continue;
    out.push(x, y);
    if (y !== 0) out.push(x, -y);
  }
  return Float64Array.from(out);
}
