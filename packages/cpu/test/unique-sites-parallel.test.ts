import { boxOfXY, uniqueSites } from '@geoframe/core';
import { generatePoints } from '@geoframe/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { uniqueSitesParallel } from '../src/sites/unique-sites-parallel.js';

/** A seeded generator of floats in [0, 1). */
function uniformOf(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Sites of one adversarial kind, `n` of them; many repeat, far apart in the input. */
function sitesOf(kind: string, n: number, seed: number): Float64Array {
  const u = uniformOf(seed);
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    let x: number;
    let y: number;
    switch (kind) {
      case 'lattice repeated': {
        const k = Math.floor(u() * 300 * 300);
        x = k % 300;
        y = Math.floor(k / 300);
        break;
      }
      case 'signed zeros':
        x = u() < 0.5 ? -0 : 0;
        y = u() < 0.5 ? -0 : Math.floor(u() * 3);
        break;
      case 'huge offset':
        x = 1e15 + Math.floor(u() * 1000);
        y = -1e15 - Math.floor(u() * 1000);
        break;
      case 'one point':
        x = 7.25;
        y = -3.5;
        break;
      default:
        x = u();
        y = u();
    }
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
  }
  return xy;
}

const threadsBefore = process.env.GEOFRAME_THREADS;
afterEach(() => {
  if (threadsBefore === undefined) delete process.env.GEOFRAME_THREADS;
  else process.env.GEOFRAME_THREADS = threadsBefore;
});

describe('uniqueSitesParallel', () => {
  test('equals uniqueSites (and its box) on 1 to 5 threads, with and without repeats', async () => {
    let seed = 1;
    for (const threads of [1, 2, 3, 5]) {
      process.env.GEOFRAME_THREADS = String(threads);
      for (const kind of ['uniform', 'lattice repeated', 'signed zeros', 'huge offset', 'one point']) {
        for (const n of [1000, 70_000, 150_001]) {
          const xy = sitesOf(kind, n, seed++);
          const expected = uniqueSites(xy);
          const got = await uniqueSitesParallel(xy);
          const label = `${kind}, ${n} sites, ${threads} threads`;
          expect(Array.from(got.xy), label).toEqual(Array.from(expected.xy));
          expect(Array.from(got.siteOfInput), label).toEqual(Array.from(expected.siteOfInput));
          expect(Array.from(got.inputOfSite), label).toEqual(Array.from(expected.inputOfSite));
          expect(got.box, label).toEqual(boxOfXY(expected.xy));
        }
      }
    }
  });

  test('sites without repeats but with a −0 coordinate keep it as 0, as uniqueSites does', async () => {
    process.env.GEOFRAME_THREADS = '3';
    const xy = generatePoints('uniform', 80_000, 9).slice();
    xy[2 * 40_000 + 1] = -0;
    const got = await uniqueSitesParallel(xy);
    expect(Object.is(got.xy[2 * 40_000 + 1], 0)).toBe(true);
    expect(Array.from(got.xy)).toEqual(Array.from(uniqueSites(xy).xy));
    expect(Object.is(xy[2 * 40_000 + 1], -0)).toBe(true); // the caller's array is left alone
  });

  test('sites without repeats are their own unique sites', async () => {
    process.env.GEOFRAME_THREADS = '4';
    const xy = generatePoints('uniform', 100_000, 5);
    const got = await uniqueSitesParallel(xy);
    expect(got.xy.length).toBe(xy.length);
    expect(Array.from(got.xy)).toEqual(Array.from(xy));
    expect(got.siteOfInput.every((s, i) => s === i)).toBe(true);
    expect(got.inputOfSite.every((s, i) => s === i)).toBe(true);
  });
});
