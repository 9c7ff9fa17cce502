import { boxOfXY, defaultClipBox } from '@geoframe/core';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import {
  bigIntTimesPow2,
  fixedBoxBigInt,
  fixedGrid,
  fixedSiteBigInt,
  fixedToNumber,
  floorLog2,
} from '../src/exact/fixed-grid.js';
import { gridUniformWords } from '../src/exact/fixed-point-wgsl.js';
import { RandomBig, timesPow2Reference } from './fixed-reference.js';

/** Exact value of a double as a rational m · 2^k (m odd or 0), via its bits. */
function exactRational(v: number): { m: bigint; k: number } {
  if (v === 0) return { m: 0n, k: 0 };
  const bits = new BigUint64Array(new Float64Array([v]).buffer)[0];
  const field = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let k: number;
  if (field === 0) k = -1074;
  else {
    m |= 1n << 52n;
    k = field - 1075;
  }
  if (v < 0) m = -m;
  return { m, k };
}

/** The largest double below a positive double. */
function previousDouble(v: number): number {
  const bits = new BigUint64Array(new Float64Array([v]).buffer);
  bits[0] -= 1n;
  return new Float64Array(bits.buffer)[0];
}

/** round(v / 2^e), half toward +∞, exactly with BigInt. */
function roundToGrid(v: number, e: number): bigint {
  const { m, k } = exactRational(v);
  const shift = k - e; // v / 2^e = m · 2^shift
  if (shift >= 0) return m << BigInt(shift);
  const d = 1n << BigInt(-shift);
  // floor(m / d + 1/2) = floor((2m + d) / 2d)
  const n = 2n * m + d;
  const q = n / (2n * d);
  return n < 0n && q * 2n * d !== n ? q - 1n : q;
}

function checkGrid(sites: Float64Array, box: { minX: number; minY: number; maxX: number; maxY: number }) {
  const grid = fixedGrid(sites, box);
  const e = grid.exponent;
  const all = [...sites, box.minX, box.minY, box.maxX, box.maxY];
  const max = Math.max(...all.map(Math.abs));
  if (max > 0) {
    // smallest e with max < 2^(e+58)
    expect(max < bigIntTimesPow2(1n, e + 58)).toBe(true);
    expect(max >= bigIntTimesPow2(1n, e + 57)).toBe(true);
  }
  for (let i = 0; i < sites.length / 2; i++) {
    const [x, y] = fixedSiteBigInt(grid, i);
    expect(x).toBe(roundToGrid(sites[2 * i], e));
    expect(y).toBe(roundToGrid(sites[2 * i + 1], e));
    expect(x < 1n << 58n && x > -(1n << 58n)).toBe(true);
    // exact whenever the coordinate is at least 2^-6 of the largest
    for (const [g, v] of [
      [x, sites[2 * i]],
      [y, sites[2 * i + 1]],
    ] as const) {
      if (Math.abs(v) >= max * 2 ** -6) expect(fixedToNumber(e, g)).toBe(v);
      else expect(Math.abs(fixedToNumber(e, g) - v)).toBeLessThanOrEqual(bigIntTimesPow2(1n, e - 1));
    }
  }
  const [minX, minY, maxX, maxY] = fixedBoxBigInt(grid);
  expect([minX, minY, maxX, maxY]).toEqual(
    [box.minX, box.minY, box.maxX, box.maxY].map((v) => roundToGrid(v, e)),
  );
  return grid;
}

describe('fixedGrid', () => {
  test('exponent is the smallest with every |coordinate| < 2^(e+58); values are round(v / 2^e)', () => {
    const random = new RandomBig(7);
    for (let trial = 0; trial < 200; trial++) {
      const scale = 2 ** (random.int(2000) - 1000);
      const n = 1 + random.int(20);
      const sites = new Float64Array(2 * n).map(() => (random.next() - 0.5) * scale);
      const box = { minX: -scale, minY: -scale * 0.75, maxX: scale * 0.5, maxY: scale };
      checkGrid(sites, box);
    }
  });

  test('shared point sets: lattice 1e7 offset and near duplicates stay exact and distinct', () => {
    for (const kind of ['uniform', 'lattice', 'lattice-offset', 'near-duplicates', 'clusters'] as const) {
      const sites = generatePoints(kind, 500, 3);
      const grid = checkGrid(sites, defaultClipBox(boxOfXY(sites)));
      if (kind.startsWith('lattice')) expect(grid.inexactSites, kind).toBe(0);
      const seen = new Set<string>();
      for (let i = 0; i < 500; i++) seen.add(fixedSiteBigInt(grid, i).join(','));
      const distinct = new Set<string>();
      for (let i = 0; i < 500; i++) distinct.add(`${sites[2 * i]},${sites[2 * i + 1]}`);
      expect(seen.size, kind).toBe(distinct.size);
    }
  });

  test('extremes: subnormal sites, coordinates near f64 max, exact powers of two, negative zero', () => {
    checkGrid(new Float64Array([5e-324, -1e-320, 2.5e-310, 0]), {
      minX: -1e-318,
      minY: 0,
      maxX: 1e-309,
      maxY: 3e-310,
    });
    checkGrid(new Float64Array([1.7e308, -1.7e308, 1e300, -3]), {
      minX: -1.79e308,
      minY: -1e308,
      maxX: 1e308,
      maxY: 1.7e308,
    });
    const g = checkGrid(new Float64Array([1, 2, -0, 0.5]), { minX: -4, minY: -4, maxX: 4, maxY: 4 });
    expect(g.exponent).toBe(2 - 57); // max 4 = 2^2 < 2^(e + 58)
    expect(fixedSiteBigInt(g, 1)[0]).toBe(0n);
  });

  test('all zero: one site at the origin with a point box', () => {
    const grid = fixedGrid(new Float64Array([0, 0]), { minX: 0, minY: 0, maxX: 0, maxY: 0 });
    expect(grid.exponent).toBe(0);
    expect([...grid.sites]).toEqual([0, 0, 0, 0]);
    expect([...grid.box]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  test('a box far larger than the sites rounds the sites near the origin and says so', () => {
    const sites = generatePoints('near-duplicates', 100, 3);
    const grid = fixedGrid(sites, { minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9 });
    expect(grid.inexactSites).toBeGreaterThan(90);
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) seen.add(fixedSiteBigInt(grid, i).join(','));
    expect(seen.size).toBeLessThan(100); // 1e-12 apart at unit 2^-27: merged
    const lattice = generatePoints('lattice', 100);
    expect(fixedGrid(lattice, { minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9 }).inexactSites).toBe(0);
  });

  test('ties round toward +∞ below the unit', () => {
    // max 2^10 → e = -47; sites 1.5 and -1.5 units
    const u = 2 ** -47;
    const grid = fixedGrid(new Float64Array([1.5 * u, -1.5 * u, 2.5 * u, -2.5 * u]), {
      minX: -1024,
      minY: 0,
      maxX: 1,
      maxY: 1,
    });
    expect(grid.exponent).toBe(-47);
    expect(fixedSiteBigInt(grid, 0)).toEqual([2n, -1n]);
    expect(fixedSiteBigInt(grid, 1)).toEqual([3n, -2n]);
  });

  test('rejects NaN, infinities and odd lengths', () => {
    const box = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
    expect(() => fixedGrid(new Float64Array([0, Number.NaN]), box)).toThrow(/site 0/);
    expect(() => fixedGrid(new Float64Array([0, 1, Number.POSITIVE_INFINITY, 0]), box)).toThrow(/site 1/);
    expect(() => fixedGrid(new Float64Array([0]), box)).toThrow(RangeError);
    expect(() => fixedGrid(new Float64Array([0, 0]), { ...box, maxY: Number.NaN })).toThrow(/box/);
  });

  test('floorLog2 is exact at and around powers of two, subnormals included', () => {
    for (const k of [-1074, -1073, -1023, -1022, -1, 0, 1, 52, 53, 1023]) {
      const p = bigIntTimesPow2(1n, k);
      expect(floorLog2(p)).toBe(k);
      if (k > -1074) expect(floorLog2(previousDouble(p))).toBe(k - 1);
    }
  });

  test('fixedToNumber rounds to nearest even like an independent reference', () => {
    const random = new RandomBig(11);
    for (let trial = 0; trial < 5000; trial++) {
      const v = random.anyMagnitude(63);
      const e = random.int(2300) - 1150;
      expect(Object.is(bigIntTimesPow2(v, e), timesPow2Reference(v, e)) || v === 0n).toBe(true);
    }
  });

  test('gridUniformWords: box words then the exponent', () => {
    const grid = fixedGrid(new Float64Array([1, 2]), { minX: -3, minY: -4, maxX: 5, maxY: 6 });
    const words = gridUniformWords(grid);
    expect(words.length).toBe(12);
    expect([...words.subarray(0, 8)]).toEqual([...grid.box]);
    expect(words[8] | 0).toBe(grid.exponent);
  });
});
