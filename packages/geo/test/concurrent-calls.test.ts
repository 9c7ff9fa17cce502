import { createHash } from 'node:crypto';
import type { DeviceOption, DispatchEvent } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { generatePoints, type PointSetKind } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';

// Calls awaited together must each get the result and the dispatch events they get alone: the
// GPU pipelines share device temporaries per context (queued, one run at a time) and the outcome
// of a call is its own (no process-wide listener decides it).

function seriesOf(kind: PointSetKind, n: number, seed: number): GeoSeries {
  const xy = generatePoints(kind, n, seed);
  const m = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: m }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: m }, (_, i) => xy[2 * i + 1]),
  );
}

/** One call: its operation on its input, as text to compare, with the events it heard. */
type Call = (onDispatch: (e: DispatchEvent) => void) => Promise<string[]>;

/** The column's buffers, digested (bit-exact comparison without holding big strings). */
function digest(series: GeoSeries): string[] {
  const { coords, offsets, validity, length } = series.array;
  const hash = createHash('sha256');
  for (const part of [coords, ...offsets, ...(validity ? [validity] : [])]) {
    hash.update(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
  }
  return [String(length), String(coords.length), hash.digest('hex')];
}

function voronoi(series: GeoSeries, device: DeviceOption, onlyEdges = false): Call {
  return async (onDispatch) => digest(await series.voronoiPolygons({ device, onlyEdges, onDispatch }));
}

function delaunay(series: GeoSeries, device: DeviceOption): Call {
  return async (onDispatch) => digest(await series.delaunayTriangles({ device, onDispatch }));
}

function raster(series: GeoSeries, device: DeviceOption, width: number, height: number): Call {
  return async (onDispatch) => {
    const r = await series.voronoiRaster({ width, height, device, onDispatch });
    // the raster carries its own decision too
    if (r.dispatch === null) throw new Error('a computed raster has its decision');
    return [Array.from(r.labels).join(','), r.dispatch.path, String(r.dispatch.rows)];
  };
}

/** Runs `calls` one at a time, then all at once, and expects the same outputs and events. */
async function expectIndependent(calls: Call[]): Promise<void> {
  const alone: { out: string[]; events: DispatchEvent[] }[] = [];
  for (const call of calls) {
    const events: DispatchEvent[] = [];
    alone.push({ out: await call((e) => events.push(e)), events });
  }
  const together = await Promise.all(
    calls.map(async (call) => {
      const events: DispatchEvent[] = [];
      return { out: await call((e) => events.push(e)), events };
    }),
  );
  together.forEach((t, k) => {
    expect(t.events, `call ${k}: events`).toEqual(alone[k].events);
    expect(t.events.length, `call ${k}`).toBeGreaterThan(0);
    expect(t.out.length, `call ${k}: rows`).toBe(alone[k].out.length);
    expect(t.out, `call ${k}: output`).toEqual(alone[k].out);
  });
}

describe('concurrent calls are independent', () => {
  it('CPU and auto calls of mixed sizes and operations, awaited together', async () => {
    const kinds: PointSetKind[] = ['uniform', 'clusters', 'lattice', 'near-duplicates', 'circle'];
    const calls: Call[] = [];
    kinds.forEach((kind, k) => {
      const series = seriesOf(kind, [40, 700, 2500, 150, 90][k], 100 + k);
      calls.push(voronoi(series, k % 2 ? 'cpu' : 'auto'));
      calls.push(delaunay(series, 'cpu'));
      if (k < 2) calls.push(voronoi(series, 'auto', true));
      if (k < 3) calls.push(raster(series, 'cpu', 23 + k, 17));
    });
    // large enough for the CPU's worker threads (duplicates removed there from 65,536 sites)
    const large = seriesOf('uniform', 70_000, 120);
    calls.push(voronoi(large, 'cpu'), delaunay(large, 'cpu'));
    await expectIndependent(calls);
  }, 120_000);

  gpuTest(
    "GPU ('gpu' on lavapipe, small) and CPU calls awaited together",
    async () => {
      await requireGpu();
      const a = seriesOf('uniform', 300, 7);
      const b = seriesOf('clusters', 1200, 8);
      const c = seriesOf('lattice', 400, 9);
      await expectIndependent([
        voronoi(a, 'gpu'),
        voronoi(b, 'gpu'),
        delaunay(c, 'gpu'),
        voronoi(c, 'cpu'),
        raster(a, 'gpu', 48, 40),
        voronoi(b, 'gpu', true),
        delaunay(a, 'gpu'),
        raster(b, 'cpu', 31, 29),
      ]);
    },
    600_000,
  );
});
