// Progress that moves inside the long CPU stages: the Voronoi diagram, the Delaunay
// triangulation and the clip to a region count their units as they go (passes, delaunator's
// insertion loop, worker ranges), so `onProgress` and the CLI see more than each stage's start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressEvent } from '@geoframe/core';
import { GeoDataFrame, GeoSeries, writeFile } from '@geoframe/geo';
import { generatePoints, type PointSetKind } from '@geoframe/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'geoframe-progress-inside-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function pointsOf(kind: PointSetKind, n: number, seed: number): GeoSeries {
  const xy = generatePoints(kind, n, seed);
  return GeoSeries.fromXY(
    xy.filter((_, i) => i % 2 === 0),
    xy.filter((_, i) => i % 2 === 1),
  );
}

/** Every event, unpaced. */
function recorder() {
  const events: ProgressEvent[] = [];
  return {
    events,
    onProgress: { callback: (e: ProgressEvent) => events.push(e), delayMs: 0, intervalMs: 0 },
  };
}

/** The events of one stage: counts strictly increasing within it, fractions never decreasing overall. */
function counted(events: ProgressEvent[], stage: string): number[] {
  for (let k = 1; k < events.length; k++)
    expect(events[k].fraction).toBeGreaterThanOrEqual(events[k - 1].fraction);
  const mine = events.filter((e) => e.stage === stage && !e.finished);
  const done = mine.map((e) => e.done);
  for (let k = 1; k < done.length; k++) expect(done[k]).toBeGreaterThan(done[k - 1]);
  for (const e of mine) {
    expect(Number.isInteger(e.done)).toBe(true);
    expect(e.done).toBeLessThanOrEqual(e.total);
  }
  // the counts strictly inside the stage: what a bar shows while it runs
  return done.filter((d) => d > 0 && d < mine[0].total);
}

describe('progress inside the CPU stages', () => {
  it('a 300k-site Voronoi diagram on the CPU counts its sites as it goes', async () => {
    // 300k sites: above the worker threads' threshold (200k), under a second on two cores
    for (const [kind, seed] of [
      ['uniform', 3],
      ['lattice', 4],
    ] as const) {
      const r = recorder();
      const cells = await pointsOf(kind, 300_000, seed).voronoiPolygons({
        device: 'cpu',
        onProgress: r.onProgress,
      });
      expect(cells.length).toBe(300_000);
      const inside = counted(r.events, 'diagram');
      expect(new Set(inside).size, kind).toBeGreaterThanOrEqual(10);
      expect(r.events.at(-1)).toMatchObject({ finished: true, fraction: 1 });
    }
  });

  it('with the default 100 ms interval a run over a second shows several diagram counts', async () => {
    const events: ProgressEvent[] = [];
    await pointsOf('clusters', 400_000, 9).voronoiPolygons({
      device: 'cpu',
      onProgress: { callback: (e) => events.push(e), delayMs: 0 },
    });
    const diagram = events.filter((e) => e.stage === 'diagram' && e.done > 0 && e.done < e.total);
    // the stage takes a few hundred ms at the least: at least two counts reach the listener
    expect(diagram.length).toBeGreaterThanOrEqual(2);
  });

  it('Delaunay triangles and the clip of cells to a region count too', async () => {
    const points = pointsOf('uniform', 100_000, 12);
    let r = recorder();
    await points.delaunayTriangles({ device: 'cpu', onProgress: r.onProgress });
    expect(new Set(counted(r.events, 'triangulation')).size).toBeGreaterThanOrEqual(10);
    const [x0, y0, x1, y1] = points.totalBounds;
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    const region = GeoSeries.fromWKT([
      `POLYGON ((${mx} ${y0}, ${x1} ${my}, ${mx} ${y1}, ${x0} ${my}, ${mx} ${y0}))`,
    ]);
    r = recorder();
    await pointsOf('uniform', 50_000, 13).voronoiPolygons({
      device: 'cpu',
      clipTo: region,
      onProgress: r.onProgress,
    });
    expect(new Set(counted(r.events, 'clip')).size).toBeGreaterThanOrEqual(10);
  });

  it('the CLI prints counted plain lines when stderr is not a terminal, and nothing with --quiet', async () => {
    const sites = join(folder, 'sites.arrow');
    await writeFile(GeoDataFrame.fromSeries(pointsOf('uniform', 250_000, 15)), sites);
    const run = async (argv: string[]) => {
      let err = '';
      const code = await runCli(argv, {
        out: () => {},
        err: (t) => (err += t),
        errIsTTY: false,
        progressTiming: { delayMs: 0, lineEveryMs: 0 },
      });
      return { code, err };
    };
    const loud = await run(['voronoi', sites, '-o', join(folder, 'cells.arrow'), '--device', 'cpu']);
    expect(loud.code, loud.err).toBe(0);
    expect(loud.err).not.toContain('\r');
    const lines = loud.err.trimEnd().split('\n');
    const diagram = lines.filter((l) => /voronoiPolygons {2}diagram {2}\d+k\/250k sites {2}/.test(l));
    expect(new Set(diagram.map((l) => l.split('  ')[2])).size).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => /^voronoiPolygons: done in /.test(l))).toBe(true);
    const quiet = await run([
      'voronoi',
      sites,
      '-o',
      join(folder, 'quiet.arrow'),
      '--device',
      'cpu',
      '--quiet',
    ]);
    expect(quiet).toEqual({ code: 0, err: '' });
  });
});
