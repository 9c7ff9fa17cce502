import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressEvent } from '@geoframe/core';
import { afterAll, describe, expect, it } from 'vitest';
import { ProgressView } from '../src/cli/progress-view.js';
import { runCli } from '../src/cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-cli-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[], tty = false) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t), errIsTTY: tty });
  return { code, out, err };
}

function event(partial: Partial<ProgressEvent>): ProgressEvent {
  return {
    operation: 'voronoiPolygons',
    stage: 'diagram',
    done: 0,
    total: 0,
    unit: 'sites',
    fraction: 0,
    elapsedMs: 1000,
    finished: false,
    ...partial,
  };
}

/** A stream of events as a 4 s run would send them. */
const RUN: ProgressEvent[] = [
  event({ stage: 'sites', total: 1_000_000, unit: 'rows', elapsedMs: 1000, fraction: 0 }),
  event({ stage: 'diagram', total: 1_000_000, elapsedMs: 1200, fraction: 0.1 }),
  event({ stage: 'diagram', done: 500_000, total: 1_000_000, elapsedMs: 2200, fraction: 0.4 }),
  event({ stage: 'cells', total: 1_000_000, unit: 'cells', elapsedMs: 3600, fraction: 0.9 }),
  event({
    stage: 'cells',
    done: 1_000_000,
    total: 1_000_000,
    unit: 'cells',
    elapsedMs: 4000,
    fraction: 1,
    finished: true,
  }),
];

function show(mode: 'bar' | 'lines' | 'off'): string {
  let err = '';
  const view = new ProgressView({ out: () => {}, err: (t) => (err += t), errColumns: 100 }, mode);
  for (const e of RUN) view.listener?.callback(e);
  view.close();
  return err;
}

describe('CLI progress', () => {
  it('on a terminal: one bar redrawn in place, with stage, counts, rate and ETA, cleared at the end', () => {
    const err = show('bar');
    expect(err).not.toContain('\n');
    const frames = err.split('\r').filter((f) => f.trim() !== '');
    expect(frames.length).toBe(RUN.length - 1); // the last event clears the bar
    expect(frames[2]).toMatch(/^\[#{6}-{10}\] 40% voronoiPolygons {2}diagram {2}500k\/1\.0M sites/);
    expect(frames[2]).toContain('500k sites/s'); // 500k sites in the diagram stage's 1 s
    expect(frames[2]).toContain('ETA 3.3 s'); // 2.2 s for 40 %
    expect(err.endsWith('\r')).toBe(true);
    expect(err.slice(err.lastIndexOf('\r', err.length - 2))).toMatch(/^\r *\r$/);
  });

  it('elsewhere: plain lines, one per stage and the end; nothing when quiet', () => {
    const lines = show('lines').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => l.split('  ')[1] ?? l)).toEqual([
      'sites',
      'diagram',
      'cells',
      'voronoiPolygons: done in 4.0 s',
    ]);
    expect(show('lines')).not.toContain('\r');
    expect(show('off')).toBe('');
    expect(new ProgressView({ out: () => {}, err: () => {} }, 'off').listener).toBeUndefined();
  });

  it('--json prints what ran where, the sizes, the times and the outputs; --quiet prints nothing', async () => {
    const sites = join(dir, 'sites.geojson');
    const features = Array.from({ length: 30 }, (_, i) => ({
      type: 'Feature',
      properties: { id: i },
      geometry: { type: 'Point', coordinates: [(i * 37) % 101, (i * 61) % 89] },
    }));
    writeFileSync(sites, JSON.stringify({ type: 'FeatureCollection', features }));
    const output = join(dir, 'cells.arrow');
    const run = await cli(['voronoi', sites, '-o', output, '--device', 'cpu', '--json']);
    expect(run.code, run.err).toBe(0);
    const summary = JSON.parse(run.out);
    expect(summary).toMatchObject({
      command: 'voronoi',
      input: sites,
      rows: 30,
      sites: 30,
      outputRows: 30,
      device: 'cpu',
      outputs: [output],
    });
    expect(summary.dispatch).toEqual([
      expect.objectContaining({ kernel: 'voronoiPolygons', path: 'cpu', rows: 30 }),
    ]);
    for (const step of ['read', 'voronoi', 'write', 'total'])
      expect(summary.timings[step]).toBeGreaterThanOrEqual(0);
    const quiet = await cli(['delaunay', sites, '-o', join(dir, 'tri.arrow'), '--quiet'], true);
    expect(quiet).toEqual({ code: 0, out: '', err: '' });
    const loud = await cli(['delaunay', sites, '-o', join(dir, 'tri.arrow')]);
    expect(loud.out).toMatch(/ran delaunayTriangles on CPU for 30 sites/);
  });
});
