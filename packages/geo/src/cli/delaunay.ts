import { resolve } from 'node:path';
import { writeFile } from '../file-io.js';
import { type Command, UsageError } from './command.js';
import { REPORT_OPTIONS, REPORT_USAGE, RunReport } from './run-report.js';
import {
  checkOutputs,
  describeRun,
  deviceOf,
  readSites,
  toleranceOf,
  withDispatchLog,
  writePlot,
} from './voronoi.js';

export const delaunayCommand: Command = {
  name: 'delaunay',
  summary: 'Delaunay triangles (or edges) of the points (or vertices) of a file or demo',
  usage: `Usage: geoframe delaunay <in | demo> [-o <out>] [options]

Triangulates every unique site (point, or vertex of other geometries) of <in> and writes one
triangle Polygon per row (or one LineString per unique edge) to <out>.

Options:
  -o, --output <file>        where to write (default: <in>-delaunay.parquet)
  --only-edges               LineStrings of the unique edges instead of triangles
  --tolerance <t>            snap sites closer than t together (GEOS rule; default 0)
  --device auto|gpu|cpu      where to run (default auto)
  --plot <file.svg|file.png> draw the triangles and sites
${REPORT_USAGE}
  -h, --help                 this text`,
  options: {
    output: { type: 'string', short: 'o' },
    'only-edges': { type: 'boolean' },
    tolerance: { type: 'string' },
    device: { type: 'string' },
    plot: { type: 'string' },
    ...REPORT_OPTIONS,
  },
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('delaunay needs one <in> (a file or a demo name)');
    checkOutputs(values.output as string | undefined, values.plot as string | undefined);
    const tolerance = toleranceOf(values.tolerance);
    const device = deviceOf(values.device);
    const report = new RunReport(io, values);
    try {
      const input = await readSites(positionals[0], report.onProgress);
      const output = (values.output as string | undefined) ?? `${input.stem}-delaunay.parquet`;
      checkOutputs(output, undefined);
      report.step('read');
      const { value: triangles, events } = await withDispatchLog((onDispatch) =>
        input.frame.delaunayTriangles({
          onDispatch,
          onProgress: report.onProgress,
          tolerance,
          onlyEdges: values['only-edges'] === true,
          device,
        }),
      );
      report.step('delaunay');
      await writeFile(triangles.rename('geometry'), output, { onProgress: report.onProgress });
      report.step('write');
      const plot = values.plot as string | undefined;
      if (plot) {
        await writePlot(plot, triangles, input.frame.geometry);
        report.step('plot');
      }
      const kind = values['only-edges'] ? 'edges' : 'triangles';
      report.finish(
        {
          command: 'delaunay',
          input: positionals[0],
          rows: input.frame.length,
          sites: events[0]?.rows ?? 0,
          outputRows: triangles.length,
          outputs: plot ? [output, plot] : [output],
        },
        events,
        [
          `ran ${describeRun(events)}`,
          `${triangles.length} ${kind} in ${report.timings.delaunay} ms (read ${report.timings.read} ms, write ${report.timings.write} ms)`,
          `wrote ${resolve(output)}${plot ? ` and ${resolve(plot)}` : ''}`,
        ],
      );
      return 0;
    } finally {
      report.progress.close();
    }
  },
};
