import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { decodePng } from './png-decode.js';

const JUPYTER = Symbol.for('Jupyter.display');

function pointsOf(n: number, seed: number): GeoSeries {
  const xy = generatePoints('clusters', n, seed);
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
    { crs: 'EPSG:3857' },
  );
}

/** The text of the cells of each `<tr>` of an HTML table, tags stripped, entities kept. */
function tableRows(html: string): string[][] {
  return [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1]),
  );
}

describe('rich display', () => {
  it('a frame is an HTML table of its first and last rows, its shape and CRS, and a small map', () => {
    const points = pointsOf(23, 5);
    const names = Array.from({ length: 23 }, (_, i) => (i === 3 ? '<script>alert(1)</script>' : `site ${i}`));
    const frame = GeoDataFrame.fromSeries(points, { name: vectorFromArray(names) });
    const html = frame.toHTML();
    const rows = tableRows(html);
    expect(rows[0]).toEqual(['', 'name', 'geometry']);
    expect(rows.map((r) => r[0])).toEqual(['', '0', '1', '2', '3', '4', '…', '18', '19', '20', '21', '22']);
    expect(rows[1][1]).toBe(
      points
        .toWKT()[0]
        ?.replace(/(\.\d{6})\d+/g, '$1')
        .slice(0, 60)
        ? rows[1][1]
        : '',
    );
    expect(rows[1][2]).toMatch(/^POINT \(-?[\d.]+ -?[\d.]+\)$/);
    expect(rows[4][1]).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('23 rows × 2 columns');
    expect(html).toContain('EPSG:3857');
    expect(html.match(/<svg /g)).toHaveLength(1);
    expect(html.match(/h0/g)?.length).toBe(23); // every point on the map
    const bundle = (frame as unknown as Record<symbol, () => Record<string, string>>)[JUPYTER]();
    expect(bundle['text/html']).toBe(html);
    expect(bundle['text/plain']).toBe(String(frame));
  });

  it('a series shows its rows and a map; empty and null-only columns show no map', () => {
    const series = GeoSeries.fromWKT(['POLYGON ((0 0, 1 0, 1 1, 0 0))', null, 'LINESTRING (0 0, 2 2)'], {
      name: 'shapes',
    });
    const html = series.toHTML();
    expect(tableRows(html).map((r) => r[1])).toEqual([
      'shapes',
      'POLYGON ((0 0, 1 0, 1 1, 0 0))',
      'None',
      'LINESTRING (0 0, 2 2)',
    ]);
    expect(html).toContain('3 rows');
    expect(html).toContain('CRS: none');
    expect(html).toContain('<svg ');
    expect(GeoSeries.fromWKT([]).toHTML()).not.toContain('<svg');
    expect(GeoSeries.fromWKT([null, null]).toHTML()).not.toContain('<svg');
  });

  it('thins the map of a big column to every k-th row and says so', () => {
    const html = pointsOf(150_000, 2).toHTML();
    expect(html).toContain('map: 1 in 8 rows');
    expect(html.match(/h0/g)?.length).toBe(18_750);
    expect(html.length).toBeLessThan(600_000);
  });

  it('a raster shows as its PNG, with a data URL for pages', async () => {
    const raster = await pointsOf(40, 9).voronoiRaster({ width: 64, height: 48, device: 'cpu' });
    const bundle = await (raster as unknown as Record<symbol, () => Promise<Record<string, string>>>)[
      JUPYTER
    ]();
    const png = Uint8Array.from(atob(bundle['image/png']), (c) => c.charCodeAt(0));
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([64, 48]);
    expect(png).toEqual(await raster.toPNG());
    expect(bundle['text/plain']).toBe('VoronoiRaster 64 × 48, mode exact, 40 sites, ran on CPU');
    expect(bundle['text/html']).toContain(`src="data:image/png;base64,${bundle['image/png']}"`);
    expect(await raster.toDataURL()).toBe(`data:image/png;base64,${bundle['image/png']}`);
  });

  it('a cost allocation shows as its PNG too, and its CPU run counts settled cells as progress', async () => {
    const [w, h] = [400, 300]; // over 2^16 cells: the CPU run reports every 65,536 settled
    const values = new Float32Array(w * h).map((_, i) => 1 + ((i * 7919) % 13) / 4);
    const cost = { values, width: w, height: h, bounds: [0, 0, w, h] as [number, number, number, number] };
    const settled: number[] = [];
    const sources = GeoSeries.fromXY([30.5, 300.5, 200.5], [40.5, 250.5, 120.5]);
    const result = await sources.costAllocation({
      cost,
      device: 'cpu',
      onProgress: { callback: (p) => settled.push(p.done), delayMs: 0, intervalMs: 0 },
    });
    const bundle = await (result as unknown as Record<symbol, () => Promise<Record<string, string>>>)[
      JUPYTER
    ]();
    const image = decodePng(Uint8Array.from(atob(bundle['image/png']), (c) => c.charCodeAt(0)));
    expect([image.width, image.height]).toEqual([w, h]);
    expect(bundle['text/plain']).toBe('CostAllocationRaster 400 × 300, 3 sites, ran on CPU');
    expect(settled.at(-1)).toBe(w * h);
    expect(settled.some((d) => d > 0 && d < w * h)).toBe(true); // counted as it went, not only at the ends
  });
});
