import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProgressEvent, ProgressReporter } from '@geoframe/core';
import { GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { afterAll, describe, expect, it } from 'vitest';

function pointsOf(kind: Parameters<typeof generatePoints>[0], n: number, seed: number): GeoSeries {
  const xy = generatePoints(kind, n, seed);
  const x = Float64Array.from({ length: n }, (_, i) => xy[2 * i]);
  const y = Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]);
  return GeoSeries.fromXY(x, y);
}

/** Every event, unpaced (delay and interval 0), and the list they went into. */
function recorder(): {
  events: ProgressEvent[];
  onProgress: { callback: (e: ProgressEvent) => void; delayMs: number; intervalMs: number };
} {
  const events: ProgressEvent[] = [];
  return { events, onProgress: { callback: (e) => events.push(e), delayMs: 0, intervalMs: 0 } };
}

/** The checks every operation's events pass: one operation, ordered stages, sane numbers, one final event. */
function checkEvents(events: ProgressEvent[], operation: string, stages: string[]): void {
  expect(events.length).toBeGreaterThan(0);
  expect(new Set(events.map((e) => e.operation))).toEqual(new Set([operation]));
  const seen = [...new Set(events.map((e) => e.stage))];
  expect(seen).toEqual(stages);
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    expect(e.done).toBeGreaterThanOrEqual(0);
    if (e.total > 0) expect(e.done).toBeLessThanOrEqual(e.total);
    expect(e.fraction).toBeGreaterThanOrEqual(0);
    expect(e.fraction).toBeLessThanOrEqual(1);
    if (k > 0) {
      expect(e.fraction).toBeGreaterThanOrEqual(events[k - 1].fraction);
      expect(e.elapsedMs).toBeGreaterThanOrEqual(events[k - 1].elapsedMs);
    }
  }
  expect(events.filter((e) => e.finished)).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ finished: true, fraction: 1 });
}

const folder = mkdtempSync(join(tmpdir(), 'geoframe-progress-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('onProgress', () => {
  it('voronoiPolygons reports sites, diagram, clip and cells in order, ending at 1', async () => {
    for (const [kind, seed] of [
      ['uniform', 3],
      ['lattice', 5],
      ['clusters', 8],
    ] as const) {
      const { events, onProgress } = recorder();
      const points = pointsOf(kind, 500, seed);
      const [x0, y0, x1, y1] = points.totalBounds;
      const region = GeoSeries.fromWKT([`POLYGON ((${x0} ${y0}, ${x1} ${y0}, ${x1} ${y1}, ${x0} ${y0}))`]);
      const cells = await points.voronoiPolygons({ clipTo: region, onProgress });
      checkEvents(events, 'voronoiPolygons', ['sites', 'diagram', 'clip', 'cells']);
      expect(events.find((e) => e.stage === 'diagram')).toMatchObject({ total: 500, unit: 'sites' });
      // the cells stage counts the clipped cells, before those clipped away are dropped
      expect(events.find((e) => e.stage === 'cells')?.total).toBe(500);
      expect(cells.length).toBeLessThan(500);
    }
  });

  it('delaunayTriangles, voronoiRaster and file reads/writes report their stages', async () => {
    const points = pointsOf('uniform', 300, 11);
    let r = recorder();
    await points.delaunayTriangles({ onProgress: r.onProgress });
    checkEvents(r.events, 'delaunayTriangles', ['sites', 'triangulation', 'triangles']);
    r = recorder();
    await points.voronoiRaster({ width: 40, height: 30, device: 'cpu', onProgress: r.onProgress });
    checkEvents(r.events, 'voronoiRaster', ['raster', 'labels']);
    expect(r.events[0]).toMatchObject({ total: 1200, unit: 'pixels' });
    const path = join(folder, 'points.parquet');
    r = recorder();
    await writeFile(points, path, { onProgress: r.onProgress });
    checkEvents(r.events, 'writeFile', ['encode', 'write']);
    r = recorder();
    const back = await readFile(path, { onProgress: r.onProgress });
    checkEvents(r.events, 'readFile', ['read', 'decode', 'frame']);
    expect(back.length).toBe(300);
  });

  it('a plain callback hears nothing from work under a second (the default delay)', async () => {
    const events: ProgressEvent[] = [];
    await pointsOf('uniform', 200, 2).voronoiPolygons({ onProgress: (e) => events.push(e) });
    expect(events).toEqual([]);
  });

  it('paces events: none before delayMs, then at most one per intervalMs besides stage changes', () => {
    let now = 0;
    const clock = performance.now;
    performance.now = () => now;
    try {
      const events: ProgressEvent[] = [];
      const reporter = new ProgressReporter(
        'work',
        { callback: (e) => events.push(e), delayMs: 1000, intervalMs: 100 },
        [
          { name: 'a', weight: 1 },
          { name: 'b', weight: 3 },
        ],
      );
      reporter.stage('a', 1000);
      for (let i = 1; i <= 1000; i++) {
        now += 2; // 2 s in all
        reporter.advance(i);
      }
      expect(events.length).toBeGreaterThan(5);
      expect(events.length).toBeLessThanOrEqual(11 + 1);
      expect(events[0].elapsedMs).toBeGreaterThanOrEqual(1000);
      reporter.stage('b', 10);
      expect(events.at(-1)).toMatchObject({ stage: 'b', done: 0, fraction: 0.25 });
      reporter.advance(5);
      now += 100;
      reporter.advance(6);
      expect(events.at(-1)).toMatchObject({ stage: 'b', done: 6, fraction: 0.25 + 0.75 * 0.6 });
      reporter.finish();
      expect(events.at(-1)).toMatchObject({ finished: true, fraction: 1 });
    } finally {
      performance.now = clock;
    }
  });

  it('a callback that throws cancels the operation with its error', async () => {
    const points = pointsOf('uniform', 300, 6);
    const cancel = {
      callback: (e: ProgressEvent) => {
        if (e.stage === 'diagram') throw new Error('cancelled by the user');
      },
      delayMs: 0,
      intervalMs: 0,
    };
    await expect(points.voronoiPolygons({ onProgress: cancel })).rejects.toThrow('cancelled by the user');
    const path = join(folder, 'never.parquet');
    const stopWrite = {
      callback: () => {
        throw new Error('stop');
      },
      delayMs: 0,
      intervalMs: 0,
    };
    await expect(writeFile(points, path, { onProgress: stopWrite })).rejects.toThrow('stop');
    await expect(readFile(path)).rejects.toThrow(/no such file/);
  });

  it('refuses an onProgress that is not a function or listener, and bad pacing', async () => {
    const points = pointsOf('uniform', 10, 1);
    await expect(points.voronoiPolygons({ onProgress: 5 as never })).rejects.toThrow(
      /onProgress must be a function/,
    );
    await expect(points.voronoiPolygons({ onProgress: { callback: () => {}, delayMs: -1 } })).rejects.toThrow(
      /delayMs must be/,
    );
    await expect(readFile(join(folder, 'x.parquet'), { on_progress: () => {} } as never)).rejects.toThrow(
      /did you mean onProgress/,
    );
  });
});
