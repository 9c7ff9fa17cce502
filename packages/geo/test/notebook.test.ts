import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePng } from './png-decode.js';

/**
 * Executes examples/service-areas.ipynb headless, as a reader would run it: Jupyter's nbconvert
 * with the Deno kernel, the notebook importing the built packages. Deno comes from npm and
 * nbconvert from pip (.ci/run installs both); with CI=true a missing one fails the test.
 */
const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const inCi = process.env.CI === 'true';

/** The first candidate that answers `args`, or null. */
function firstWorking(candidates: (string | undefined)[], args: string[]): string | null {
  for (const c of candidates) {
    if (!c || (c.includes('/') && !existsSync(c))) continue;
    if (spawnSync(c, args, { encoding: 'utf8', timeout: 30_000 }).status === 0) return c;
  }
  return null;
}

const deno = firstWorking(
  [process.env.GEOFRAME_DENO, join(root, '.ci/deno/node_modules/.bin/deno'), 'deno'],
  ['--version'],
);
const jupyter = firstWorking(
  [process.env.GEOFRAME_JUPYTER, join(root, '.ci/venv/bin/jupyter'), 'jupyter'],
  ['nbconvert', '--version'],
);
const ready = deno !== null && jupyter !== null;
const missing =
  'the notebook test needs Deno (.ci/deno, npm) and jupyter nbconvert (.ci/venv, pip): run .ci/run';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-notebook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}
interface Cell {
  cell_type: string;
  execution_count?: number | null;
  outputs?: Output[];
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join('') : (v ?? ''));

/** Runs nbconvert on the notebook with a Deno kernelspec of our own (no install into the user's home). */
function execute(
  notebook: string,
  timeoutMs: number,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const kernel = join(dir, 'jupyter/kernels/deno');
  mkdirSync(kernel, { recursive: true });
  writeFileSync(
    join(kernel, 'kernel.json'),
    JSON.stringify({
      argv: [deno, 'jupyter', '--kernel', '--conn', '{connection_file}'],
      display_name: 'Deno',
      language: 'typescript',
    }),
  );
  const env = {
    ...process.env,
    JUPYTER_PATH: join(dir, 'jupyter'),
    JUPYTER_RUNTIME_DIR: join(dir, 'runtime'),
    DENO_DIR: join(dir, 'deno-cache'),
    DENO_NO_UPDATE_CHECK: '1',
  };
  const args = [
    'nbconvert',
    '--to',
    'notebook',
    '--execute',
    notebook,
    '--output-dir',
    dir,
    '--output',
    'executed',
  ];
  args.push('--ExecutePreprocessor.timeout=120', '--ExecutePreprocessor.kernel_name=deno');
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(jupyter as string, args, { cwd: join(root, 'examples'), env, timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => done({ code, stderr, ms: performance.now() - started }));
  });
}

/** Whether the kernel dropped an output: a cell with none, or the console table's cell without its stream. */
function outputsDropped(cells: Cell[]): boolean {
  return cells.some((c) => (c.outputs?.length ?? 0) === 0) || (cells[2]?.outputs?.length ?? 0) < 2;
}

describe('examples/service-areas.ipynb', () => {
  it.skipIf(!ready && !inCi)(
    `executes headless in the Deno kernel with outputs and no errors${ready ? '' : ` (${missing})`}`,
    async () => {
      if (!ready) throw new Error(missing);
      // Deno's kernel (2.x) now and then reports a cell idle before its last output reaches
      // nbclient (a display or a console line goes missing, about one run in four on 2 cores, and
      // three runs in a row once on a machine loaded by other test runs): a run with such a cell is
      // executed again, at most five times in all
      let run: Awaited<ReturnType<typeof execute>> | undefined;
      let cells: Cell[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        run = await execute(join(root, 'examples/service-areas.ipynb'), 150_000);
        if (run.code !== 0) break;
        cells = (JSON.parse(readFileSync(join(dir, 'executed.ipynb'), 'utf8')).cells as Cell[]).filter(
          (c) => c.cell_type === 'code',
        );
        if (!outputsDropped(cells)) break;
      }
      expect(run?.code, run?.stderr).toBe(0);
      expect(cells.length).toBe(5);
      for (const cell of cells) {
        expect(cell.execution_count).toBeGreaterThan(0);
        expect(cell.outputs?.length).toBeGreaterThan(0);
        const errors = cell.outputs?.filter((o) => o.output_type === 'error') ?? [];
        expect(errors.map((e) => `${e.ename}: ${e.evalue}`)).toEqual([]);
      }
      const [zips, areas, counts, map, raster] = cells.map((c) => c.outputs ?? []);
      // frames display as an HTML table with a map
      const zipsHtml = joined(zips[0].data?.['text/html']);
      expect(zipsHtml).toContain('<table');
      expect(zipsHtml).toContain('33300 rows');
      expect(zipsHtml).toContain('<svg');
      expect(joined(areas[0].data?.['text/html'])).toContain('60 rows');
      // the join counts and their check ran
      expect(joined(counts.find((o) => o.output_type === 'stream')?.text)).toContain('zipCodesServed');
      expect(joined(counts.find((o) => o.output_type === 'execute_result')?.data?.['text/plain'])).toMatch(
        /\d+ of 33300 ZIP codes lie in a service area/,
      );
      // the plot: an SVG with its colourbar legend and axes
      const svg = joined(map[0].data?.['image/svg+xml']);
      expect(svg).toContain('url(#geoframe-colorbar)');
      expect(svg).toContain('>ZIP codes served</text>');
      expect(svg).toContain('>-100</text>');
      // the raster: a PNG of the asked size
      const png = Uint8Array.from(atob(joined(raster[0].data?.['image/png'])), (c) => c.charCodeAt(0));
      const image = decodePng(png);
      expect([image.width, image.height]).toEqual([600, 260]);
      expect(run.ms).toBeLessThan(120_000);
    },
    180_000,
  );
});
