import { inflateSync } from 'node:zlib';
import { type DispatchEvent, GeometryArray, GeometryType, onDispatch } from '@geoframe/core';
import { bruteForceRaster, voronoiRasterCpu } from '@geoframe/cpu';
import { GeoSeries, NEIGHBOR_PALETTE, probeGpu, VoronoiRaster } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

function pointsOf(xy: Float64Array): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

let events: DispatchEvent[] = [];
const stop = onDispatch((e) => events.push(e));
afterEach(() => {
  events = [];
  delete process.env.GEOFRAME_CROSSOVER_VORONOIRASTER;
});
afterAll(stop);

describe('GeoSeries.voronoiRaster', () => {
  it('labels pixels with input rows (null and empty rows skipped), equal to the brute force', async () => {
    const series = GeoSeries.fromWKT([
      'POINT (1 1)',
      null,
      'POINT EMPTY',
      'POINT (9 2)',
      'POINT (4 8)',
      'POINT (6 5)',
    ]);
    const raster = await series.voronoiRaster({ width: 30, height: 20, device: 'cpu' });
    expect(raster.bounds).toEqual([1, 1, 9, 8]);
    const rows = [0, 3, 4, 5];
    const sites = new Float64Array([1, 1, 9, 2, 4, 8, 6, 5]);
    const reference = bruteForceRaster(sites, 2, { width: 30, height: 20, depth: 1, bounds: [1, 1, 9, 8] });
    expect([...raster.labels]).toEqual([...reference].map((s) => rows[s]));
    expect(raster.transform).toEqual([1, 8 / 30, 0, 8, 0, -7 / 20]);
    expect(raster.path).toBe('cpu');
    expect(raster.mode).toBe('exact');
    expect(events.map((e) => [e.kernel, e.path, e.rows])).toEqual([['voronoiRaster', 'cpu', 600]]);
  });

  it('every mode runs; JFA modes label every pixel of a seeded grid', async () => {
    const series = pointsOf(generatePoints('uniform', 50, 3));
    const exact = await series.voronoiRaster({ width: 64, height: 48, device: 'cpu', distance: true });
    for (const mode of ['jfa', 'jfa+1', '1+jfa', 'facet-jfa'] as const) {
      const r = await series.voronoiRaster({ width: 64, height: 48, mode, device: 'cpu' });
      expect(r.labels.every((l) => l >= 0 && l < 50)).toBe(true);
      // loose: 50 sites on 64×48 pixels share pixels; rates are measured in the cpu package's tests
      expect(r.errorAgainst(exact).rate).toBeLessThan(0.05);
      expect(r.distance).toBeNull();
    }
    // distance: the Euclidean distance to the labelled point
    const p = 64 * 20 + 33;
    const [x, y] = exact.pixelCentre(p);
    const row = exact.labels[p];
    expect(exact.distance![p]).toBeCloseTo(Math.hypot(x - series.x[row], y - series.y[row]), 3);
  });

  it("device 'auto' falls back to (or agrees with) the CPU when the GPU path is taken, never on a software adapter", async () => {
    process.env.GEOFRAME_CROSSOVER_VORONOIRASTER = '1';
    const adapter = await probeGpu();
    const xy = generatePoints('clusters', 40, 5);
    const series = pointsOf(xy);
    const raster = await series.voronoiRaster({ width: 33, height: 17 });
    // a real adapter takes the GPU from the crossover on; a software one (lavapipe) or none never
    const real = adapter !== null && adapter.class !== 'software';
    expect(events[0].path).toBe(real ? 'gpu' : 'cpu');
    expect(raster.dispatch).toEqual(events.at(-1));
    if (real && raster.path === 'cpu') expect(events.some((e) => e.type === 'fallback')).toBe(true);
    const cpu = voronoiRasterCpu(
      xy,
      2,
      { width: 33, height: 17, depth: 1, bounds: [...raster.bounds] },
      { mode: 'exact' },
    );
    expect([...raster.labels]).toEqual([...cpu.labels]);
  });

  it('default bounds grow a zero-width axis; explicit bounds may cut sites off', async () => {
    const one = await GeoSeries.fromWKT(['POINT (5 7)']).voronoiRaster({ width: 4, height: 4 });
    expect(one.bounds).toEqual([4.5, 6.5, 5.5, 7.5]);
    expect(one.labels.every((l) => l === 0)).toBe(true);
    const line = await GeoSeries.fromWKT(['POINT (0 3)', 'POINT (10 3)']).voronoiRaster({
      width: 10,
      height: 2,
    });
    expect(line.bounds).toEqual([0, -2, 10, 8]);
    const cut = await GeoSeries.fromWKT(['POINT (0 0)', 'POINT (10 10)']).voronoiRaster({
      width: 4,
      height: 4,
      bounds: [6, 6, 8, 8],
      mode: 'jfa',
      device: 'cpu',
    });
    expect(cut.labels.every((l) => l === -1)).toBe(true); // no site inside: JFA seeds nothing
    const cutExact = await GeoSeries.fromWKT(['POINT (0 0)', 'POINT (10 10)']).voronoiRaster({
      width: 4,
      height: 4,
      bounds: [6, 6, 8, 8],
    });
    expect(cutExact.labels.every((l) => l === 1)).toBe(true);
  });

  it('input errors name the row or the option', async () => {
    const lines = GeoSeries.fromWKT(['POINT (0 0)', 'LINESTRING (0 0, 1 1)']);
    await expect(lines.voronoiRaster({ width: 4, height: 4 })).rejects.toThrow(/row 1: .*Points.*LineString/);
    const nan = new GeoSeries(
      new GeometryArray({
        type: GeometryType.Point,
        dimension: 'xy',
        coords: new Float64Array([0, 0, 1, Number.NaN, 2, 2]),
        offsets: [],
        length: 3,
      }),
    );
    await expect(nan.voronoiRaster({ width: 4, height: 4 })).rejects.toThrow(/row 1: point \(1, NaN\)/);
    const ok = GeoSeries.fromWKT(['POINT (0 0)', 'POINT (1 1)']);
    await expect(ok.voronoiRaster({ width: 0, height: 4 })).rejects.toThrow(
      /width must be a positive integer/,
    );
    await expect(ok.voronoiRaster({ width: 3, height: 2.5 })).rejects.toThrow(
      /height must be a positive integer/,
    );
    await expect(ok.voronoiRaster({ width: 3, height: 3, bounds: [0, 0, 0, 1] })).rejects.toThrow(
      /max > min/,
    );
    await expect(ok.voronoiRaster({ width: 3, height: 3, mode: 'fast' as 'jfa' })).rejects.toThrow(/mode/);
    await expect(ok.voronoiVolume({ dims: [2, 2, 0] })).rejects.toThrow(/depth must be a positive integer/);
    await expect(ok.voronoiVolume({ dims: [2, 2, 2] })).rejects.toThrow(/row 0: point has no z/);
  });
});

describe('GeoSeries.voronoiVolume', () => {
  it('points with z equal the 3D brute force; xy points sit at the plane z', async () => {
    const xy = generatePoints('uniform', 40, 8);
    const z = generatePoints('uniform', 40, 9);
    const wkt = Array.from({ length: 40 }, (_, i) => `POINT Z (${xy[2 * i]} ${xy[2 * i + 1]} ${z[2 * i]})`);
    const series = GeoSeries.fromWKT(wkt);
    const bounds = [0, 0, 0, 1000, 1000, 1000] as const;
    const volume = await series.voronoiVolume({ dims: [12, 9, 7], bounds, device: 'cpu' });
    const sites = new Float64Array(120);
    for (let i = 0; i < 40; i++) sites.set([xy[2 * i], xy[2 * i + 1], z[2 * i]], 3 * i);
    expect([...volume.labels]).toEqual([
      ...bruteForceRaster(sites, 3, { width: 12, height: 9, depth: 7, bounds }),
    ]);
    expect(volume.transform.length).toBe(8);
    expect(volume.transform.slice(6)).toEqual([0, 1000 / 7]);
    const flat = await pointsOf(xy).voronoiVolume({ dims: [12, 9, 7], bounds, z: 500, device: 'cpu' });
    const planar = new Float64Array(120);
    for (let i = 0; i < 40; i++) planar.set([xy[2 * i], xy[2 * i + 1], 500], 3 * i);
    expect([...flat.labels]).toEqual([
      ...bruteForceRaster(planar, 3, { width: 12, height: 9, depth: 7, bounds }),
    ]);
    expect(() => flat.toPolygons()).toThrow(/2D raster/);
  });
});

describe('VoronoiRaster.boundaries', () => {
  it('marks pixels with a differently labelled 4-neighbour (6 in 3D)', async () => {
    const series = pointsOf(generatePoints('uniform', 12, 4));
    const r = await series.voronoiRaster({ width: 40, height: 30, device: 'cpu' });
    const mask = r.boundaries();
    for (let p = 0; p < mask.length; p++) {
      const c = p % 40;
      const row = Math.floor(p / 40);
      const around = [
        [c - 1, row],
        [c + 1, row],
        [c, row - 1],
        [c, row + 1],
      ].filter(([x, y]) => x >= 0 && x < 40 && y >= 0 && y < 30);
      const expected = around.some(([x, y]) => r.labels[y * 40 + x] !== r.labels[p]) ? 1 : 0;
      expect(mask[p]).toBe(expected);
    }
    // 3D: two sites stacked in z; only the voxels next to the plane between them are boundary
    const stacked = GeoSeries.fromWKT(['POINT Z (0.5 0.5 0.25)', 'POINT Z (0.5 0.5 0.75)']);
    const v = await stacked.voronoiVolume({ dims: [3, 3, 4], bounds: [0, 0, 0, 1, 1, 1], device: 'cpu' });
    const m3 = v.boundaries();
    for (let p = 0; p < m3.length; p++) {
      const slice = Math.floor(p / 9);
      expect(m3[p]).toBe(slice === 1 || slice === 2 ? 1 : 0);
    }
  });
});

describe('VoronoiRaster.errorAgainst', () => {
  it('counts only pixels whose site is farther; equidistant swaps are not errors', async () => {
    // sites at x = 1 and x = 3; with 4 columns over [0, 4] the pixel centres are 0.5, 1.5, 2.5, 3.5
    // and none is equidistant; with 5 columns the centre column (x = 2) is
    const series = GeoSeries.fromWKT(['POINT (1 1)', 'POINT (3 1)']);
    const exact = await series.voronoiRaster({
      width: 5,
      height: 2,
      bounds: [-0.5, 0, 4.5, 2],
      device: 'cpu',
    });
    expect([...exact.labels]).toEqual([0, 0, 0, 1, 1, 0, 0, 0, 1, 1]); // ties to the lower row
    const swapped = withLabels(exact, [0, 0, 1, 1, 1, 0, 0, 1, 1, 1]);
    expect(swapped.errorAgainst(exact)).toEqual({ rate: 0, pixels: 10, misclassified: 0 });
    const wrong = withLabels(exact, [0, 1, 1, 1, 1, -1, 0, 0, 1, 0]);
    expect(wrong.errorAgainst(exact)).toEqual({ rate: 3 / 10, pixels: 10, misclassified: 3 });
    // a −1 on the reference side is never beaten
    expect(exact.errorAgainst(wrong).misclassified).toBe(0);
    const other = await series.voronoiRaster({ width: 5, height: 3, device: 'cpu' });
    expect(() => other.errorAgainst(exact)).toThrow(/same grid/);
  });
});

function withLabels(r: VoronoiRaster, labels: number[]): VoronoiRaster {
  return new VoronoiRaster({ ...r, labels: Int32Array.from(labels), distance: null });
}

/** Decodes an 8-bit RGBA, non-interlaced PNG with any of the five scanline filters. */
function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      expect([...data.subarray(8, 13)]).toEqual([8, 6, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let r = 0; r < height; r++) {
    const filter = raw[r * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[r * (stride + 1) + 1 + i];
      const a = i >= 4 ? rgba[r * stride + i - 4] : 0;
      const b = r > 0 ? rgba[(r - 1) * stride + i] : 0;
      const c = i >= 4 && r > 0 ? rgba[(r - 1) * stride + i - 4] : 0;
      const pa = Math.abs(b - c);
      const pb = Math.abs(a - c);
      const pc = Math.abs(a + b - 2 * c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      rgba[r * stride + i] = (x + predictor) & 255;
    }
  }
  return { width, height, rgba };
}

describe('VoronoiRaster.toPNG', () => {
  it('is a PNG of the grid size; neighbouring cells differ, sites are dots, no-site pixels white', async () => {
    const series = pointsOf(new Float64Array([10, 10, 90, 10, 50, 90, 50, 45]));
    const raster = await series.voronoiRaster({
      width: 50,
      height: 40,
      bounds: [0, 0, 100, 100],
      device: 'cpu',
    });
    const { width, height, rgba } = decodePng(await raster.toPNG({ siteRadius: 1 }));
    expect([width, height]).toEqual([50, 40]);
    const colour = (p: number) => [rgba[4 * p], rgba[4 * p + 1], rgba[4 * p + 2], rgba[4 * p + 3]].join(',');
    const palette = new Set(
      NEIGHBOR_PALETTE.map((hex) => {
        const v = Number.parseInt(hex.slice(1), 16);
        return [(v >> 16) & 255, (v >> 8) & 255, v & 255, 255].join(',');
      }),
    );
    // away from the dots every pixel has a palette colour, one per label, distinct for touching labels
    const nearDot = (p: number) =>
      [
        [5, 36],
        [45, 36],
        [25, 4],
        [25, 22],
      ].some(([dc, dr]) => Math.abs(dc - (p % 50)) <= 1 && Math.abs(dr - Math.floor(p / 50)) <= 1);
    const byLabel = new Map<number, string>();
    let touching = 0;
    for (let p = 0; p < raster.labels.length; p++) {
      if (nearDot(p)) continue;
      expect(palette.has(colour(p))).toBe(true);
      const l = raster.labels[p];
      if (byLabel.has(l)) expect(colour(p)).toBe(byLabel.get(l));
      else byLabel.set(l, colour(p));
      for (const q of [p + 1, p + 50]) {
        if ((q === p + 1 && q % 50 === 0) || q >= raster.labels.length || nearDot(q)) continue;
        if (raster.labels[q] !== l) {
          touching++;
          expect(colour(q)).not.toBe(colour(p));
        }
      }
    }
    expect(byLabel.size).toBe(4);
    expect(touching).toBeGreaterThan(50);
    // site (50, 45) lies in pixel (col 25, row 22): drawn dark
    expect(colour(22 * 50 + 25)).toBe('34,34,34,255');
    // pixels without a site are white: a JFA raster whose bounds hold no site
    const empty = await series.voronoiRaster({
      width: 8,
      height: 8,
      bounds: [200, 200, 300, 300],
      mode: 'jfa',
      device: 'cpu',
    });
    const blank = decodePng(await empty.toPNG());
    expect(blank.rgba.every((v) => v === 255)).toBe(true);
  });

  it('3D: draws the chosen slice with the sites in it', async () => {
    const series = GeoSeries.fromWKT(['POINT Z (1 1 0.5)', 'POINT Z (3 3 2.5)']);
    const v = await series.voronoiVolume({ dims: [4, 4, 3], bounds: [0, 0, 0, 4, 4, 3], device: 'cpu' });
    const bottom = decodePng(await v.toPNG({ slice: 0, siteRadius: 0.5 }));
    const dark = (img: { rgba: Uint8Array }, p: number) => img.rgba[4 * p] === 34;
    expect(dark(bottom, 3 * 4 + 1)).toBe(true); // (1, 1) → col 1, row 3 (row 0 at the top)
    expect(dark(bottom, 1 * 4 + 3)).toBe(false); // (3, 3) is in slice 2
    const top = decodePng(await v.toPNG({ slice: 2, siteRadius: 0.5 }));
    expect(dark(top, 1 * 4 + 3)).toBe(true);
    expect(dark(top, 3 * 4 + 1)).toBe(false);
    await expect(v.toPNG({ slice: 3 })).rejects.toThrow(/slice/);
  });
});
