import { existsSync } from 'node:fs';
import { writeFile as writeBytes } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { type DeviceOption, type DispatchEvent, FileError, type ProgressOption } from '@geoframe/core';
import { DEMO_NAMES, loadDemo } from '../demo/demo-data.js';
import { formatOfPath, readFile, writeFile } from '../file-io.js';
import type { GeoDataFrame } from '../geo-data-frame.js';
import type { GeoSeries } from '../geo-series.js';
import { plotPng, plotSvg } from '../plot/index.js';
import { type CliIo, type Command, parseBox, UsageError } from './command.js';
import { REPORT_OPTIONS, REPORT_USAGE, RunReport } from './run-report.js';

/** What the voronoi and delaunay verbs share: the input (a file or a demo name) and its clip region. */
export interface SitesInput {
  frame: GeoDataFrame;
  /** The demo's own region, used when --clip-to is not given. */
  clipTo: GeoSeries | null;
  /** Stem for default output names. */
  stem: string;
}

/** A file path, or a demo name when no such file exists. */
export async function readSites(input: string, onProgress?: ProgressOption): Promise<SitesInput> {
  if (!existsSync(input) && (DEMO_NAMES as readonly string[]).includes(input)) {
    const demo = await loadDemo(input);
    return { frame: demo.sites, clipTo: demo.clipTo, stem: demo.name };
  }
  const stem = input.replace(/\.[^./]+$/, '');
  return { frame: await readFile(input, { onProgress }), clipTo: null, stem };
}

export function deviceOf(value: string | boolean | undefined): DeviceOption {
  const device = (value ?? 'auto') as string;
  if (device !== 'auto' && device !== 'gpu' && device !== 'cpu') {
    throw new UsageError(`--device must be auto, gpu or cpu, got "${device}"`);
  }
  return device;
}

export function toleranceOf(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = Number(value);
  if (!Number.isFinite(t) || t < 0) throw new UsageError(`--tolerance needs a number ≥ 0, got "${value}"`);
  return t;
}

/**
 * Checks where the results will go before any work starts: the output's format by its extension,
 * the picture's extension, and that both folders exist.
 */
export function checkOutputs(output: string | undefined, plot: string | undefined): void {
  if (output !== undefined) formatOfPath(output);
  if (plot !== undefined && !['.svg', '.png'].includes(extname(plot).toLowerCase())) {
    throw new UsageError(`--plot must end in .svg or .png, got "${plot}"`);
  }
  for (const path of [output, plot]) {
    if (path !== undefined && !existsSync(dirname(resolve(path)))) {
      throw new FileError('FILE_WRITE_FAILED', path, 'its folder does not exist');
    }
  }
}

/** Writes the picture: SVG or PNG by the extension. */
export async function writePlot(
  path: string,
  cells: GeoSeries,
  sites: GeoSeries | null,
  title?: string,
): Promise<void> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.svg' && ext !== '.png')
    throw new UsageError(`--plot must end in .svg or .png, got "${path}"`);
  // dense diagrams get a bigger canvas so cells stay visible; the height follows the data's aspect
  // (plus the bands the axes and the title take)
  const width = cells.length > 10_000 ? 2400 : 1200;
  const [x0, y0, x1, y1] = cells.totalBounds;
  const aspect = x1 > x0 && y1 > y0 ? (y1 - y0) / (x1 - x0) : 1;
  const bands = title ? 110 : 50;
  const height = Math.min(4 * width, Math.max(100, Math.round((width - 90) * aspect) + bands));
  const options = {
    width,
    height,
    points: sites?.array,
    // dense diagrams: thin white outlines keep small cells' colours clear where grey ones muddy them
    linewidth: cells.length > 10_000 ? 0.3 : undefined,
    edgecolor: cells.length > 10_000 ? '#ffffff' : undefined,
    axes: true,
    title,
  };
  if (ext === '.svg') await writeBytes(path, plotSvg(cells.array, options));
  else await writeBytes(path, await plotPng(cells.array, options));
}

/** Runs `work`, handing it a per-call listener that records that call's dispatch events. */
export async function withDispatchLog<T>(
  work: (onDispatch: (event: DispatchEvent) => void) => Promise<T>,
): Promise<{ value: T; events: DispatchEvent[] }> {
  const events: DispatchEvent[] = [];
  return { value: await work((event) => events.push(event)), events };
}

export function describeRun(events: DispatchEvent[]): string {
  return events
    .map((e) => `${e.kernel} on ${e.path.toUpperCase()} for ${e.rows} sites (${e.reason})`)
    .join('; ');
}

export const voronoiCommand: Command = {
  name: 'voronoi',
  summary: 'Voronoi cells of the points (or vertices) of a file, or of a demo data set',
  usage: `Usage: geoframe voronoi <in | demo> [-o <out>] [options]

Computes the Voronoi polygon of every unique site (point, or vertex of other geometries) of <in>
and writes them to <out> (GeoJSON, GeoParquet or GeoArrow IPC by extension), keeping the input
row's attributes. <in> may be the name of a demo data set (${DEMO_NAMES.join(', ')}): then the
cells are clipped to its region, kept one per input row, and written with a picture.

Options:
  -o, --output <file>        where to write the cells (default: <in>-voronoi.parquet)
  --ordered                  one cell per input row (null rows stay null; duplicates share a cell)
  --only-edges               one MultiLineString of the unique Voronoi edges
  --tolerance <t>            snap sites closer than t together (GEOS rule; default 0)
  --extend-to=<xmin,ymin,xmax,ymax>  enlarge the clip box (never shrinks it; use = before negatives)
  --clip-to <polygon file>   intersect the cells with the polygons of this file
  --device auto|gpu|cpu      where to run (default auto)
  --plot <file.svg|file.png> draw the cells and sites
${REPORT_USAGE}
  -h, --help                 this text`,
  options: {
    output: { type: 'string', short: 'o' },
    ordered: { type: 'boolean' },
    'only-edges': { type: 'boolean' },
    tolerance: { type: 'string' },
    'extend-to': { type: 'string' },
    'clip-to': { type: 'string' },
    device: { type: 'string' },
    plot: { type: 'string' },
    ...REPORT_OPTIONS,
  },
  async run(values, positionals, io: CliIo) {
    if (positionals.length !== 1) throw new UsageError('voronoi needs one <in> (a file or a demo name)');
    checkOutputs(values.output as string | undefined, values.plot as string | undefined);
    const tolerance = toleranceOf(values.tolerance);
    const device = deviceOf(values.device);
    const extendTo = values['extend-to'] ? parseBox(values['extend-to'] as string, '--extend-to') : undefined;
    const report = new RunReport(io, values);
    try {
      const input = await readSites(positionals[0], report.onProgress);
      const isDemo = input.clipTo !== null;
      const output = (values.output as string | undefined) ?? `${input.stem}-voronoi.parquet`;
      const plot = (values.plot as string | undefined) ?? (isDemo ? `${input.stem}-voronoi.png` : undefined);
      checkOutputs(output, plot);
      const clipPath = values['clip-to'] as string | undefined;
      const clipTo = clipPath ? (await readFile(clipPath)).geometry : (input.clipTo ?? undefined);
      const onlyEdges = values['only-edges'] === true;
      const ordered = values.ordered === true || (isDemo && !onlyEdges);
      report.step('read');

      let sites = 0;
      const { value: cells, events } = await withDispatchLog(async (onDispatch) => {
        const frame = await input.frame.voronoiPolygons({
          onDispatch: (e) => {
            sites = e.rows;
            onDispatch(e);
          },
          onProgress: report.onProgress,
          tolerance,
          extendTo,
          onlyEdges,
          ordered,
          clipTo,
          device,
        });
        return frame;
      });
      report.step('voronoi');
      await writeFile(cells, output, { onProgress: report.onProgress });
      report.step('write');
      if (plot) {
        await writePlot(
          plot,
          cells.geometry,
          input.frame.geometry,
          isDemo ? demoTitle(input.frame.length) : undefined,
        );
        report.step('plot');
      }
      const t = report.timings;
      const outputs = plot ? [output, plot] : [output];
      report.finish(
        {
          command: 'voronoi',
          input: positionals[0],
          rows: input.frame.length,
          sites,
          outputRows: cells.length,
          outputs,
        },
        events,
        [
          `ran ${describeRun(events)}`,
          `${input.frame.length} input rows → ${cells.length} ${onlyEdges ? 'edge row' : 'cells'}${clipTo ? ', clipped' : ''}; read ${t.read} ms, voronoi ${t.voronoi} ms, write ${t.write + (t.plot ?? 0)} ms`,
          `wrote ${resolve(output)}${plot ? ` and ${resolve(plot)}` : ''}`,
        ],
      );
      return 0;
    } finally {
      report.progress.close();
    }
  },
};

/** The demo picture's title: what it shows, for a person who sees only the PNG. */
function demoTitle(rows: number): string {
  return `Service areas of ${rows.toLocaleString('en-US')} US ZIP codes (Voronoi cells clipped to the lower 48)`;
}
