import { type Command, UsageError } from './command.js';
import { choice, OUTPUT_OPTION, requireOutput, runFrameVerb } from './frame-verbs.js';

const AGGFUNCS = ['first', 'last', 'sum', 'min', 'max', 'mean'] as const;

export const dissolveCommand: Command = {
  name: 'dissolve',
  summary: 'merge geometries per group of a column (GeoPandas dissolve)',
  usage: `Usage: geoframe dissolve <in> -o <out> [--by <column>] [--aggfunc <f>]

One row per distinct value of --by (every row one group without it), sorted, its geometry the
union of the group's; the other columns aggregated by --aggfunc.

Options:
  --by <column>          the grouping column
  --aggfunc <f>          ${AGGFUNCS.join(', ')} (default first)
  -o, --output <file>    where to write the result (required)
  -h, --help             this text`,
  options: { ...OUTPUT_OPTION, by: { type: 'string' }, aggfunc: { type: 'string' } },
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('dissolve needs one <in>');
    const output = requireOutput(values, 'dissolve');
    const aggfunc = choice(values.aggfunc, AGGFUNCS, '--aggfunc');
    const by = values.by as string | undefined;
    return runFrameVerb(positionals, output, io, ([frame]) => {
      if (by !== undefined && !frame.columns.includes(by)) {
        throw new UsageError(
          `--by: ${positionals[0]} has no column "${by}" (columns: ${frame.columns.join(', ')})`,
        );
      }
      return frame.dissolve({ by, aggfunc });
    });
  },
};
