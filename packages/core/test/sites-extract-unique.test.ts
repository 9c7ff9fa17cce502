// Site extraction, duplicate removal with tolerance, and the GEOS clip box.
import {
  clipBox,
  defaultClipBox,
  extractSites,
  GeometryArray,
  GeometryType,
  InvalidGeometryError,
  readWkt,
  uniqueSites,
} from '@geoframe/core';
import { generatePoints, pointSetKinds } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';

describe('extractSites', () => {
  test('every vertex of every non-null, non-empty row, with its row; z ignored', () => {
    const array = readWkt([
      'POINT Z (1 2 3)',
      null,
      'LINESTRING Z (0 0 9, 1 1 9)',
      'POLYGON EMPTY',
      'POLYGON Z ((0 0 1, 2 0 1, 2 2 1, 0 0 1))',
      'MULTIPOINT Z ((5 5 0), (6 6 0))',
      'POINT EMPTY',
    ]);
    const sites = extractSites(array);
    expect(Array.from(sites.xy)).toEqual([1, 2, 0, 0, 1, 1, 0, 0, 2, 0, 2, 2, 0, 0, 5, 5, 6, 6]);
    expect(Array.from(sites.row)).toEqual([0, 2, 2, 4, 4, 4, 4, 5, 5]);
  });

  test('point columns with nulls and empties, and sliced columns', () => {
    const array = readWkt(['POINT (1 1)', 'POINT EMPTY', null, 'POINT (3 4)']);
    expect(array.type).toBe(GeometryType.Point);
    expect(Array.from(extractSites(array).xy)).toEqual([1, 1, 3, 4]);
    expect(Array.from(extractSites(array).row)).toEqual([0, 3]);
    const sliced = array.slice(2);
    expect(Array.from(extractSites(sliced).xy)).toEqual([3, 4]);
    expect(Array.from(extractSites(sliced).row)).toEqual([1]);
    expect(extractSites(array.slice(0, 0)).xy.length).toBe(0);
  });

  test('point columns without nulls: xy and xyz, every point a site of its row; an empty point skipped', () => {
    const n = 1000;
    const xyz = new Float64Array(3 * n);
    for (let k = 0; k < xyz.length; k++) xyz[k] = Math.sin(k * 12.9898) * 1e7;
    const column = (stride: 2 | 3, coords: Float64Array) =>
      new GeometryArray({
        type: GeometryType.Point,
        dimension: stride === 2 ? 'xy' : 'xyz',
        coords,
        offsets: [],
        length: n,
        crs: null,
      });
    const xy = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      xy[2 * i] = xyz[3 * i];
      xy[2 * i + 1] = xyz[3 * i + 1];
    }
    for (const array of [column(2, xy), column(3, xyz)]) {
      const sites = extractSites(array);
      expect(Array.from(sites.xy)).toEqual(Array.from(xy));
      expect(Array.from(sites.row)).toEqual(Array.from({ length: n }, (_, i) => i));
    }
    // an empty point (NaN, NaN) in a column without nulls gives no site
    const holed = xyz.slice();
    holed[3 * 500] = Number.NaN;
    holed[3 * 500 + 1] = Number.NaN;
    const sites = extractSites(column(3, holed));
    expect(sites.row.length).toBe(n - 1);
    expect(sites.row[499]).toBe(499);
    expect(sites.row[500]).toBe(501);
    expect(sites.xy[1000]).toBe(xy[1002]);
    // one NaN coordinate, or an infinite one, is an error naming its row
    for (const [row, axis, value] of [
      [0, 1, Number.NaN],
      [777, 0, Number.NEGATIVE_INFINITY],
      [n - 1, 1, Number.POSITIVE_INFINITY],
    ]) {
      const bad = xy.slice();
      bad[2 * row + axis] = value;
      expect(() => extractSites(column(2, bad))).toThrow(new RegExp(`^row ${row}: `));
    }
  });

  test('NaN or infinite coordinates are an error naming the row', () => {
    const array = readWkt(['POINT (1 1)', 'LINESTRING (0 0, 1 1)']);
    const coords = array.coords.slice();
    coords[coords.length - 1] = Number.POSITIVE_INFINITY;
    const bad = new GeometryArray({ ...array.parts(), coords });
    expect(() => extractSites(bad)).toThrow(InvalidGeometryError);
    expect(() => extractSites(bad)).toThrow(/row 1/);
  });
});

describe('uniqueSites', () => {
  test('exact duplicates removed in first-appearance order; -0 equals 0', () => {
    const xy = new Float64Array([1, 1, 2, 2, 1, 1, 0, -0, 3, 3, 0, 0, 2, 2]);
    const u = uniqueSites(xy);
    expect(Array.from(u.xy)).toEqual([1, 1, 2, 2, 0, 0, 3, 3]);
    expect(Array.from(u.siteOfInput)).toEqual([0, 1, 0, 2, 3, 2, 1]);
    expect(Array.from(u.inputOfSite)).toEqual([0, 1, 3, 4]);
  });

  test('with tolerance, a later site within the distance maps to the nearest kept site', () => {
    const xy = new Float64Array([0, 0, 10, 0, 0.3, 0.4, 10.5, 0, 0.6, 0.8, 5, 5, 5.5, 5.5]);
    const u = uniqueSites(xy, { tolerance: 0.5 });
    // (0.3, 0.4) is exactly 0.5 from (0, 0): dropped (inclusive); (0.6, 0.8) is 1 from (0, 0)
    // and 0.5 from the dropped (0.3, 0.4) — dropped sites never absorb others: kept
    expect(Array.from(u.xy)).toEqual([0, 0, 10, 0, 0.6, 0.8, 5, 5, 5.5, 5.5]);
    expect(Array.from(u.siteOfInput)).toEqual([0, 1, 0, 1, 2, 3, 4]);
  });

  test('with tolerance, agrees with a brute-force reference on random clustered input', () => {
    const xy = generatePoints('clusters', 3000, 9);
    const tolerance = 0.7;
    const u = uniqueSites(xy, { tolerance });
    const kept: number[] = [];
    const map: number[] = [];
    for (let i = 0; i < xy.length / 2; i++) {
      let best = -1;
      let bestD = Number.POSITIVE_INFINITY;
      for (let s = 0; s < kept.length; s++) {
        const d = Math.hypot(xy[2 * kept[s]] - xy[2 * i], xy[2 * kept[s] + 1] - xy[2 * i + 1]);
        if (d <= tolerance && d < bestD) {
          best = s;
          bestD = d;
        }
      }
      if (best >= 0) map.push(best);
      else {
        map.push(kept.length);
        kept.push(i);
      }
    }
    expect(Array.from(u.inputOfSite)).toEqual(kept);
    expect(Array.from(u.siteOfInput)).toEqual(map);
    expect(kept.length).toBeLessThan(3000);
  });

  test('every generated point set keeps its distinct points (near duplicates included)', () => {
    for (const kind of pointSetKinds) {
      const xy = generatePoints(kind, 200, 2);
      const distinct = new Set<string>();
      for (let i = 0; i < xy.length; i += 2) distinct.add(`${xy[i]},${xy[i + 1]}`);
      expect(uniqueSites(xy).xy.length / 2).toBe(distinct.size);
    }
    expect(uniqueSites(generatePoints('duplicates', 200, 2)).xy.length).toBe(200);
    expect(uniqueSites(new Float64Array(0)).xy.length).toBe(0);
    expect(() => uniqueSites(new Float64Array(2), { tolerance: -1 })).toThrow(RangeError);
  });
});

describe('clip boxes', () => {
  test('the default box grows the site box by max(width, height) on every side', () => {
    expect(defaultClipBox({ minX: 0, minY: 0, maxX: 4, maxY: 1 })).toEqual({
      minX: -4,
      minY: -4,
      maxX: 8,
      maxY: 5,
    });
    expect(clipBox(new Float64Array([0, 0, 4, 1]))).toEqual({ minX: -4, minY: -4, maxX: 8, maxY: 5 });
    expect(clipBox(new Float64Array([2, 3]))).toEqual({ minX: 2, minY: 3, maxX: 2, maxY: 3 });
  });

  test('extendTo enlarges the box to its envelope, never shrinks it', () => {
    const sites = new Float64Array([0, 0, 4, 1]);
    expect(clipBox(sites, { minX: -1, minY: -1, maxX: 1, maxY: 1 })).toEqual(clipBox(sites));
    expect(clipBox(sites, { minX: -10, minY: 0, maxX: 0, maxY: 20 })).toEqual({
      minX: -10,
      minY: -4,
      maxX: 8,
      maxY: 20,
    });
    const column = readWkt([null, 'LINESTRING (100 100, 101 -50)', 'POINT EMPTY']);
    expect(clipBox(sites, column)).toEqual({ minX: -4, minY: -50, maxX: 101, maxY: 100 });
    expect(clipBox(sites, readWkt([null]))).toEqual(clipBox(sites));
    expect(clipBox(new Float64Array(0))).toEqual({
      minX: Number.POSITIVE_INFINITY,
      minY: Number.POSITIVE_INFINITY,
      maxX: Number.NEGATIVE_INFINITY,
      maxY: Number.NEGATIVE_INFINITY,
    });
  });
});
