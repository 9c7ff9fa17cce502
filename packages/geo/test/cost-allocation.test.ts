import { inflateSync } from 'node:zlib';
import { type DispatchEvent, neighbourSteps, onDispatch } from '@geoframe/core';
import { costAllocationCpu } from '@geoframe/cpu';
import { type CostRaster2D, GeoDataFrame, GeoSeries, probeGpu } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { afterAll, describe, expect, it } from 'vitest';

const events: DispatchEvent[] = [];
const stop = onDispatch((e) => events.push(e));
afterAll(stop);

/** A seeded w × h raster over [x0, x0 + w·px] × [y0, y0 + h·py], random values, some barriers. */
function raster(w: number, h: number, seed: number, px = 1, py = 1, x0 = 0, y0 = 0): CostRaster2D {
  const rand = mulberry32(seed);
  const values = new Float32Array(w * h);
  for (let i = 0; i < values.length; i++) values[i] = rand() < 0.1 ? Number.NaN : 0.5 + 4 * rand();
  return { values, width: w, height: h, bounds: [x0, y0, x0 + w * px, y0 + h * py] };
}

/** The cell of (x, y) by the pixel convention, written out here: floor, the max edge in the last cell. */
function cellOf(r: CostRaster2D, x: number, y: number): number {
  const [x0, y0, x1, y1] = r.bounds;
  const col = Math.min(r.width - 1, Math.floor((x - x0) / ((x1 - x0) / r.width)));
  const row = Math.min(r.height - 1, Math.floor((y1 - y) / ((y1 - y0) / r.height)));
  return row * r.width + col;
}

/** Points in open cells, with null and empty rows among them. */
function points(r: CostRaster2D, count: number, seed: number): { series: GeoSeries; cells: number[] } {
  const rand = mulberry32(seed);
  const [x0, y0, x1, y1] = r.bounds;
  const wkt: (string | null)[] = [];
  const cells: number[] = [];
  while (cells.length < count) {
    const x = x0 + rand() * (x1 - x0);
    const y = y0 + rand() * (y1 - y0);
    if (Number.isNaN(r.values[cellOf(r, x, y)])) continue;
    wkt.push(`POINT (${x} ${y})`);
    cells.push(cellOf(r, x, y));
    if (cells.length % 4 === 1) wkt.push(cells.length % 8 === 1 ? null : 'POINT EMPTY');
  }
  return { series: GeoSeries.fromWKT(wkt), cells };
}

describe('GeoSeries.costAllocation', () => {
  it('labels input rows (null and empty rows never), costs as the CPU engine on the same cells', async () => {
    const r = raster(37, 23, 1, 2.5, 1.5, 1000, -400);
    const { series, cells } = points(r, 15, 2);
    const result = await series.costAllocation({ cost: r, device: 'cpu', connectivity: 16 });
    const sourceRows = series.toWKT().flatMap((w, i) => (w?.startsWith('POINT (') ? [i] : []));
    expect([...result.sourceRows]).toEqual(sourceRows);
    const engine = costAllocationCpu({
      values: r.values,
      dims: [37, 23],
      spacing: [2.5, 1.5],
      sources: Int32Array.from(cells),
      connectivity: 16,
      metric: 'cost',
    });
    expect([...result.labels]).toEqual([...engine.labels].map((l) => (l < 0 ? -1 : sourceRows[l])));
    expect(result.cost).toEqual(engine.cost);
    expect(result.transform).toEqual([1000, 2.5, 0, -400 + 23 * 1.5, 0, -1.5]);
    expect(result.path).toBe('cpu');
    expect(events.at(-1)).toMatchObject({ kernel: 'costAllocation', rows: 37 * 23, path: 'cpu' });
  });

  it('bounds far from the origin: sources land in their cells, costs as the engine', async () => {
    const r = raster(25, 19, 31, 0.25, 0.5, 5e6, 1e7);
    const { series, cells } = points(r, 6, 32);
    const result = await series.costAllocation({ cost: r, device: 'cpu' });
    const engine = costAllocationCpu({
      values: r.values,
      dims: [25, 19],
      spacing: [0.25, 0.5],
      sources: Int32Array.from(cells),
      connectivity: 8,
      metric: 'cost',
    });
    expect(result.cost).toEqual(engine.cost);
    expect([...result.labels]).toEqual([...engine.labels].map((l) => (l < 0 ? -1 : result.sourceRows[l])));
  });

  it('3D: points with z, 26-connected by default, compliance', async () => {
    const dims: [number, number, number] = [9, 8, 7];
    const rand = mulberry32(5);
    const values = Float32Array.from({ length: 9 * 8 * 7 }, () => 0.5 + rand());
    const series = GeoSeries.fromWKT(['POINT Z (0.5 0.5 0.5)', 'POINT Z (8.9 7.9 6.9)', 'POINT Z (4 4 3.2)']);
    const result = await series.costAllocation({
      cost: { values, dims, bounds: [0, 0, 0, 9, 8, 7] },
      metric: 'compliance',
    });
    // (0.5, 0.5, 0.5): col 0, row 7 (y runs down), slice 0
    const cells = [(0 * 8 + 7) * 9 + 0, (6 * 8 + 0) * 9 + 8, (3 * 8 + 4) * 9 + 4];
    const engine = costAllocationCpu({
      values,
      dims,
      spacing: [1, 1, 1],
      sources: Int32Array.from(cells),
      connectivity: 26,
      metric: 'compliance',
    });
    expect(result.labels).toEqual(engine.labels);
    expect(result.cost).toEqual(engine.cost);
    expect(result.connectivity).toBe(26);
    for (let s = 0; s < 3; s++) expect(result.labels[cells[s]]).toBe(s);
    expect(() => result.toPolygons()).toThrow(/2D/);
  });

  it('maxCost leaves far cells unreached: −1 and Infinity, never NaN', async () => {
    const r = raster(30, 20, 3);
    const { series } = points(r, 3, 4);
    const result = await series.costAllocation({ cost: r, maxCost: 6, device: 'cpu' });
    let unreached = 0;
    for (let p = 0; p < r.values.length; p++) {
      expect(Number.isNaN(result.cost[p])).toBe(false);
      if (result.labels[p] < 0) {
        unreached++;
        expect(result.cost[p]).toBe(Infinity);
      } else expect(result.cost[p]).toBeLessThanOrEqual(6);
    }
    expect(unreached).toBeGreaterThan(r.values.length / 4);
  });

  it('rejects bad sources and rasters, naming the row or the problem', async () => {
    const r = raster(10, 10, 7);
    r.values[0] = Number.NaN; // the top-left cell, around (0.5, 9.5)
    const run = (wkt: string[], cost: unknown = r, extra = {}) =>
      GeoSeries.fromWKT(wkt).costAllocation({ cost: cost as CostRaster2D, device: 'cpu', ...extra });
    await expect(run(['POINT (5 5)', 'POINT (11 5)'])).rejects.toThrow(
      /row 1: point \(11, 5\) lies outside the cost raster/,
    );
    await expect(run(['POINT (5 5)', 'POINT (0.5 9.5)'])).rejects.toThrow(
      /row 1: point \(0.5, 9.5\) lies in a barrier cell \(col 0, row 0/,
    );
    await expect(run(['LINESTRING (1 1, 2 2)'])).rejects.toThrow(
      /row 0: cost allocation sources must be Points/,
    );
    await expect(run(['POINT (5 5)'], { ...r, width: 11 })).rejects.toThrow(
      /100 values, its sizes \[11 × 10\] need 110/,
    );
    await expect(run(['POINT (5 5)'], { ...r, bounds: [0, 0, 0, 10] })).rejects.toThrow(/need max > min/);
    await expect(run(['POINT (5 5)'], r, { connectivity: 6 })).rejects.toThrow(
      /connectivity 6 is not valid in 2D/,
    );
    const negative = { ...r, values: r.values.map((v, i) => (i === 13 ? -1 : v)) };
    await expect(run(['POINT (5 5)'], negative)).rejects.toThrow(/cell 13 \(col 3, row 1\): value -1/);
    const volume = {
      values: new Float32Array(8).fill(1),
      dims: [2, 2, 2] as [number, number, number],
      bounds: [0, 0, 0, 2, 2, 2],
    };
    await expect(run(['POINT (1 1)'], volume)).rejects.toThrow(/row 0: a 3D cost raster needs points with z/);
  });
});

describe('CostAllocationRaster', () => {
  it('toPolygons: one cell per source row, areas = its cells, attributes kept on a frame', async () => {
    const r = raster(24, 18, 9, 2, 3);
    const { series } = points(r, 6, 10);
    const names = series.toWKT().map((_, i) => `site ${i}`);
    const frame = GeoDataFrame.fromGeoJSON({
      type: 'FeatureCollection',
      features: series.toWKT().map((w, i) => ({
        type: 'Feature',
        properties: { name: names[i] },
        geometry: w?.startsWith('POINT (')
          ? { type: 'Point', coordinates: w.slice(7, -1).split(' ').map(Number) }
          : null,
      })),
    });
    const result = await frame.costAllocation({ cost: r, device: 'cpu' });
    const cells = result.toPolygons();
    expect(cells.length).toBe(frame.length);
    expect(cells.columns).toEqual(frame.columns);
    const area = cells.area();
    const isSource = new Set(result.sourceRows);
    for (let row = 0; row < frame.length; row++) {
      if (!isSource.has(row)) continue;
      const count = result.labels.filter((l) => l === row).length;
      expect(area[row]).toBeCloseTo(count * 6, 9);
    }
    expect(cells.geometry.toWKT().filter((w) => w === null).length).toBe(
      frame.geometry.toWKT().filter((w) => w === null).length,
    );
    expect(JSON.stringify(cells.table.getChild('name')?.toArray())).toBe(JSON.stringify(names));
  });

  it('two sources in one cell: the lower row takes it, the other labels nothing and its polygon is empty', async () => {
    const r = raster(12, 8, 41);
    r.values.fill(2);
    const series = GeoSeries.fromWKT(['POINT (9.5 2.5)', 'POINT (2.2 5.7)', 'POINT (2.8 5.1)']);
    const result = await series.costAllocation({ cost: r, device: 'cpu' });
    expect(result.labels.includes(2)).toBe(false);
    expect(result.labels[2 * 12 + 2]).toBe(1);
    const cells = result.toPolygons();
    expect([...cells.isEmpty]).toEqual([0, 0, 1]);
    expect(cells.area()[0] + cells.area()[1]).toBeCloseTo(96, 9);
  });

  it('3D: toPNG draws one slice', async () => {
    const values = new Float32Array(6 * 5 * 4).fill(1);
    values[2 * 30 + 7] = Number.NaN;
    const series = GeoSeries.fromWKT(['POINT Z (0.5 0.5 2.5)', 'POINT Z (5.5 4.5 0.5)']);
    const result = await series.costAllocation({
      cost: { values, dims: [6, 5, 4], bounds: [0, 0, 0, 6, 5, 4] },
    });
    const png = await result.toPNG({ slice: 2, siteRadius: 0, boundaries: false });
    const raw = inflateSync(png.subarray(41, 41 + new DataView(png.buffer, png.byteOffset).getUint32(33)));
    const k = 1 * (6 * 4 + 1) + 1 + 1 * 4; // cell 7 of the slice: row 1, col 1
    expect([...raw.subarray(k, k + 3)]).toEqual([70, 70, 78]);
    await expect(result.toPNG({ slice: 4 })).rejects.toThrow(/slice must be an integer in \[0, 3\]/);
  });

  it('leastCostPath: from the target cell to its source, step costs summing to the cost', async () => {
    const r = raster(40, 30, 11);
    const { series } = points(r, 5, 12);
    const result = await series.costAllocation({ cost: r, device: 'cpu' });
    expect(result.backlink).toBeNull();
    const steps = neighbourSteps(8);
    let checked = 0;
    for (let p = 0; p < r.values.length; p += 37) {
      if (result.labels[p] < 0) continue;
      const [x, y] = result.cellCentre(p);
      const line = result.leastCostPath([x, y]);
      const coords = line.array.coords;
      const n = coords.length / 2;
      const cellAt = (k: number) => cellOf(r, coords[2 * k], coords[2 * k + 1]);
      expect(cellAt(0)).toBe(p);
      const sourceRow = result.labels[p];
      const src = series.toWKT()[sourceRow]!.slice(7, -1).split(' ').map(Number);
      expect(cellAt(n - 1)).toBe(cellOf(r, src[0], src[1]));
      let sum = 0;
      for (let k = n - 1; k > 0; k--) {
        const a = cellAt(k);
        const b = cellAt(k - 1);
        if (a === b) continue;
        const dx = (b % 40) - (a % 40);
        const dy = Math.floor(b / 40) - Math.floor(a / 40);
        expect(steps.some((s) => s[0] === dx && s[1] === dy)).toBe(true);
        sum += (Math.hypot(dx, dy) * (r.values[a] + r.values[b])) / 2;
        expect(result.labels[a]).toBe(sourceRow);
      }
      expect(Math.fround(sum)).toBeCloseTo(result.cost[p], 4);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    expect(result.backlink).not.toBeNull();
    expect(() => result.leastCostPath([-5, 3])).toThrow(/outside the raster bounds/);
  });

  it('toPNG: barriers grey, unreached white, sources dark, shading darker with cost', async () => {
    const r = raster(33, 21, 13);
    const series = GeoSeries.fromWKT(['POINT (5.5 10.5)', 'POINT (27.5 10.5)']);
    const result = await series.costAllocation({ cost: r, device: 'cpu', maxCost: 12 });
    const png = await result.toPNG({ boundaries: false, siteRadius: 0 });
    // the PNG's own layout, read independently: IHDR size, one IDAT of filter-0 scanlines
    const view = new DataView(png.buffer, png.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([33, 21]);
    const idatLength = view.getUint32(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    const at = (p: number) => {
      const col = p % 33;
      const row = (p - col) / 33;
      const k = row * (33 * 4 + 1) + 1 + col * 4;
      return [...raw.subarray(k, k + 3)];
    };
    const brightness = (p: number) => at(p).reduce((a, b) => a + b, 0);
    let barriers = 0;
    let unreached = 0;
    for (let p = 0; p < 33 * 21; p++) {
      if (Number.isNaN(r.values[p])) {
        barriers++;
        expect(at(p)).toEqual([70, 70, 78]);
      } else if (result.labels[p] < 0) {
        unreached++;
        expect(at(p)).toEqual([255, 255, 255]);
      }
    }
    expect(barriers).toBeGreaterThan(0);
    expect(unreached).toBeGreaterThan(0);
    // within one allocation a costlier cell is never brighter
    const source = 10 * 33 + 5;
    for (let p = 0; p < 33 * 21; p++) {
      if (result.labels[p] === 0 && result.cost[p] > result.cost[source]) {
        expect(brightness(p)).toBeLessThanOrEqual(brightness(source));
      }
    }
    const dots = await result.toPNG({ siteRadius: 1 });
    const rawDots = inflateSync(
      dots.subarray(41, 41 + new DataView(dots.buffer, dots.byteOffset).getUint32(33)),
    );
    const k = 10 * (33 * 4 + 1) + 1 + 5 * 4;
    expect([...rawDots.subarray(k, k + 3)]).toEqual([20, 20, 20]);
  });
});

describe('dispatch and explain', () => {
  it('explain answers for costAllocation on a series and a frame, throwing where the call would', () => {
    const r = raster(20, 10, 15);
    const { series } = points(r, 3, 16);
    const e = series.explain('costAllocation', { cost: r });
    expect(e).toMatchObject({
      kernel: 'costAllocation',
      rows: 200,
      path: 'cpu',
      crossover: 262_144,
      gpuImplemented: true,
    });
    expect(e.measured).toMatch(/provisional/);
    expect(series.explain('costAllocation', { cost: r, device: 'gpu' }).path).toBe('gpu');
    expect(GeoDataFrame.fromSeries(series).explain('costAllocation', { cost: r }).rows).toBe(200);
    expect(() => GeoSeries.fromWKT(['POINT (50 50)']).explain('costAllocation', { cost: r })).toThrow(
      /row 0: .*outside/,
    );
  });

  it("'auto' above the crossover runs the GPU path (never a software adapter) or falls back to the CPU, with the same answer", async () => {
    const adapter = await probeGpu();
    const r = raster(20, 10, 17);
    const { series } = points(r, 3, 18);
    const cpu = await series.costAllocation({ cost: r, device: 'cpu' });
    process.env.GEOFRAME_CROSSOVER_COSTALLOCATION = '100';
    try {
      const before = events.length;
      const auto = await series.costAllocation({ cost: r });
      const mine = events.slice(before);
      // a CPU emulating a GPU (lavapipe, SwiftShader) is never auto's choice, whatever the crossover
      const expected = adapter === null || adapter.class === 'software' ? 'cpu' : 'gpu';
      expect(mine[0]).toMatchObject({ kernel: 'costAllocation', path: expected });
      if (expected === 'gpu' && auto.path === 'cpu')
        expect(mine.at(-1)).toMatchObject({ type: 'fallback', path: 'cpu' });
      expect(auto.labels).toEqual(cpu.labels);
    } finally {
      delete process.env.GEOFRAME_CROSSOVER_COSTALLOCATION;
    }
  });
});
