import { GeometryArray, GeometryType, readWkt } from '@geoframe/core';
import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { plotFrame, plotPng, plotSvg } from '../src/plot/index.js';
import { squareGrid } from './plot-fixtures.js';
import { decodePng, rgbAt, rgbOf } from './png-decode.js';

/** The pixel centre of square `i` of a one-row grid drawn without margins. */
function squareCentre(grid: GeometryArray, i: number, width: number): [number, number] {
  const f = plotFrame(grid, { width });
  return [(i + 0.5 - f.x0) * f.scale + f.left, (f.y1 - 0.5) * f.scale + f.top];
}

/** Relative luminance (sRGB weights on 0–255 values). */
const luminance = ([r, g, b]: number[]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** The attributes of every `<rect …/>` of an SVG document. */
function rects(svg: string): Record<string, string>[] {
  return [...svg.matchAll(/<rect ([^>]*?)\/?>/g)].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

const near = (a: number[], b: number[], tolerance: number) =>
  a.every((v, k) => Math.abs(v - b[k]) <= tolerance);

describe('plot options (GeoPandas names)', () => {
  it('colours a numeric column through the colormap, in order of value, missing values unfilled', async () => {
    const grid = squareGrid(6, 1);
    const values = [3, 0, Number.NaN, 1.5, 0.75, 2.25];
    const image = decodePng(await plotPng(grid, { width: 600, column: values }));
    const colours = values.map((_, i) => rgbAt(image, ...squareCentre(grid, i, 600)));
    // matplotlib's viridis: 0 → #440154, 1 → #fde725, 0.5 → (33, 145, 140)
    expect(colours[1]).toEqual(rgbOf('#440154'));
    expect(colours[0]).toEqual(rgbOf('#fde725'));
    expect(near(colours[3], [33, 145, 140], 6)).toBe(true);
    expect(colours[2]).toEqual([255, 255, 255]); // NaN: outlined only
    // viridis brightens monotonically: pixel luminance sorts as the values do
    const order = [1, 4, 3, 5, 0];
    for (let k = 1; k < order.length; k++) {
      expect(luminance(colours[order[k]])).toBeGreaterThan(luminance(colours[order[k - 1]]));
    }
    // vmin/vmax clamp, a reversed map flips the ends
    const clamped = decodePng(
      await plotPng(grid, { width: 600, column: values, vmin: 1, vmax: 2, cmap: 'viridis_r' }),
    );
    expect(rgbAt(clamped, ...squareCentre(grid, 1, 600))).toEqual(rgbOf('#fde725'));
    expect(rgbAt(clamped, ...squareCentre(grid, 0, 600))).toEqual(rgbOf('#440154'));
  });

  it('gives categories distinct colours in sorted order, and a frame colours by a column name', async () => {
    const grid = squareGrid(5, 1);
    const kinds = ['shop', 'farm', null, 'shop', 'home'];
    const image = decodePng(await plotPng(grid, { width: 500, column: kinds }));
    const at = (i: number) => rgbAt(image, ...squareCentre(grid, i, 500));
    // matplotlib's tab10, categories sorted: farm, home, shop
    expect(at(1)).toEqual(rgbOf('#1f77b4'));
    expect(at(4)).toEqual(rgbOf('#ff7f0e'));
    expect(at(0)).toEqual(rgbOf('#2ca02c'));
    expect(at(3)).toEqual(at(0));
    expect(at(2)).toEqual([255, 255, 255]);
    // numbers are categories when asked
    const numbers = decodePng(
      await plotPng(grid, { width: 500, column: [5, 1, 5, 1, 9], categorical: true }),
    );
    expect(rgbAt(numbers, ...squareCentre(grid, 1, 500))).toEqual(rgbOf('#1f77b4'));
    expect(rgbAt(numbers, ...squareCentre(grid, 4, 500))).toEqual(rgbOf('#2ca02c'));
    const frame = GeoDataFrame.fromGeoJSON({
      type: 'FeatureCollection',
      features: kinds.map((kind, i) => ({
        type: 'Feature',
        properties: { kind, size: i * 10 },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [i, 0],
              [i + 1, 0],
              [i + 1, 1],
              [i, 1],
              [i, 0],
            ],
          ],
        },
      })),
    });
    expect(frame.plot({ column: 'kind', width: 500 })).toBe(plotSvg(grid, { column: kinds, width: 500 }));
    expect(frame.plot({ column: 'size', legend: true })).toContain('>size</text>');
  });

  it('draws a legend: category swatches and a colourbar whose ends are the colormap ends', async () => {
    const grid = squareGrid(3, 1);
    const options = { width: 600, column: ['b', 'a', 'c'], legend: true, legendLabel: 'kind' };
    const svg = plotSvg(grid, options);
    const image = decodePng(await plotPng(grid, options));
    const swatches = rects(svg).filter((r) => r.width === '12');
    expect(swatches.map((r) => r.fill)).toEqual(['#1f77b4', '#ff7f0e', '#2ca02c']);
    for (const r of swatches) {
      expect(rgbAt(image, Number(r.x) + 6, Number(r.y) + 6)).toEqual(rgbOf(r.fill));
    }
    expect(svg).toMatch(/>a<\/text>[\s\S]*>b<\/text>[\s\S]*>c<\/text>/);
    // without legend: no swatches, and the map takes the whole width
    expect(
      rects(plotSvg(grid, { width: 600, column: ['b', 'a', 'c'] })).filter((r) => r.width === '12'),
    ).toEqual([]);

    const numeric = { width: 600, height: 300, column: [0, 5, 10], legend: true };
    const barSvg = plotSvg(grid, numeric);
    const bar = rects(barSvg).find((r) => r.fill === 'url(#geoframe-colorbar)');
    expect(bar).toBeDefined();
    const barImage = decodePng(await plotPng(grid, numeric));
    const [x, y, h] = [Number(bar?.x) + 7, Number(bar?.y), Number(bar?.height)];
    expect(near(rgbAt(barImage, x, y + 1.5), rgbOf('#fde725'), 16)).toBe(true); // top: vmax
    expect(near(rgbAt(barImage, x, y + h - 1.5), rgbOf('#440154'), 16)).toBe(true); // bottom: vmin
    for (const tick of ['0', '2', '4', '6', '8', '10']) expect(barSvg).toContain(`>${tick}</text>`);
  });

  it('draws axes with nice coordinate ticks around the data window', () => {
    const cells = readWkt(['POLYGON ((-124.5 25.2, -67 25.2, -67 49.3, -124.5 49.3, -124.5 25.2))']);
    const svg = plotSvg(cells, { width: 1200, axes: true, title: 'US' });
    const labels = [...svg.matchAll(/>(-?[\d.]+)<\/text>/g)].map((m) => Number(m[1]));
    const xs = labels.filter((v) => v < -60);
    const ys = labels.filter((v) => v > 20);
    expect(xs.length).toBeGreaterThanOrEqual(4);
    expect(ys.length).toBeGreaterThanOrEqual(3);
    for (const v of [...xs, ...ys]) expect(Math.abs(v % 5)).toBe(0);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-126);
    expect(Math.max(...ys)).toBeLessThanOrEqual(50);
    expect(svg).toContain('clip-path="url(#geoframe-map)"');
    expect(plotSvg(cells, { width: 1200 })).not.toContain('<text');
  });

  it('sizes dots by local density: a dense cluster gets finer dots than scattered sites', () => {
    const dense = generatePoints('uniform', 3000, 4).map((v) => v / 50); // 3000 points in a 20 × 20 corner
    const sparse = generatePoints('uniform', 30, 9);
    const xy = new Float64Array([...dense, ...sparse]);
    const points = new GeometryArray({
      type: GeometryType.Point,
      dimension: 'xy',
      coords: xy,
      offsets: [],
      length: xy.length / 2,
    });
    const svg = plotSvg(points, { width: 800 });
    const groups = [
      ...svg.matchAll(/<g fill="none" stroke="#1a1a1a" stroke-width="([\d.]+)"[^>]*>([\s\S]*?)<\/g>/g),
    ];
    const widthOfDots = groups.map((g) => ({ width: Number(g[1]), dots: (g[2].match(/h0/g) ?? []).length }));
    expect(widthOfDots.reduce((s, g) => s + g.dots, 0)).toBe(3030);
    const finest = Math.min(...widthOfDots.map((g) => g.width));
    const boldest = Math.max(...widthOfDots.map((g) => g.width));
    expect(boldest).toBeGreaterThanOrEqual(3 * finest);
    expect(widthOfDots.find((g) => g.width === finest)?.dots).toBeGreaterThan(1000);
    // markersize fixes the diameter for every dot
    const fixed = plotSvg(points, { width: 800, markersize: 4 });
    expect([...fixed.matchAll(/stroke-width="([\d.]+)"/g)].map((m) => m[1])).toEqual(['4']);
  });

  it('takes edgecolor, facecolor, linewidth and color', () => {
    const grid = squareGrid(2, 1);
    const svg = plotSvg(grid, { edgecolor: 'navy', facecolor: '#123456', linewidth: 2 });
    expect(svg).toContain('fill="#123456" stroke="navy" stroke-width="2"');
    const lines = readWkt(['LINESTRING (0 0, 1 1)', 'POINT (0 1)']);
    const colored = plotSvg(lines, { color: 'red' });
    expect(colored).toMatch(/<g fill="none" stroke="red" stroke-width="1"/);
    expect(colored).toMatch(/stroke="red" stroke-width="[\d.]+" stroke-linecap="round"/);
  });

  it('refuses unknown options, unknown columns and contradictions, naming them', () => {
    const grid = squareGrid(2, 1);
    const series = new GeoSeries(grid);
    expect(() => series.plot({ figsize: [4, 4] } as never)).toThrow(/unknown option "figsize"/);
    expect(() => series.plot({ legend: true })).toThrow(/legend applies to the colours of a column/);
    expect(() => series.plot({ cmap: 'viridis' })).toThrow(/cmap applies/);
    expect(() => series.plot({ column: [1, 2, 3] })).toThrow(/column has 3 values for 2 geometry rows/);
    expect(() => series.plot({ column: 'n' as never })).toThrow(
      /column "n" is a name: a frame's plot takes names/,
    );
    expect(() => series.plot({ column: [1, 2], cmap: 'jet' })).toThrow(/unknown cmap "jet"; known: viridis/);
    expect(() => series.plot({ column: [1, 2], vmin: 3, vmax: 1 })).toThrow(/vmin 3 is above vmax 1/);
    expect(() => series.plot({ facecolor: 'red', fill: 'blue' })).toThrow(/facecolor and fill/);
    expect(() => series.plot({ markersize: -1 })).toThrow(/markersize must be/);
    const frame = GeoDataFrame.fromSeries(series, { n: vectorFromArray([1, 2]) });
    expect(() => frame.plot({ column: 'population' })).toThrow(/no column named "population" to colour by/);
    expect(() => frame.plot({ column: 'geometry' })).toThrow(/no column named "geometry"/);
  });
});
