import { PREDICATES } from '../ops/predicates.js';
import { type Command, UsageError } from './command.js';
import { choice, OUTPUT_OPTION, requireOutput, runFrameVerb } from './frame-verbs.js';

const HOWS = ['inner', 'left', 'right'] as const;

export const sjoinCommand: Command = {
  name: 'sjoin',
  summary: 'spatial join of two files (GeoPandas sjoin / sjoin_nearest)',
  usage: `Usage: geoframe sjoin <left> <right> -o <out> [options]

Rows of <left> paired with rows of <right> where the predicate holds, in GeoPandas' shape: left
columns, index_right, right columns (clashing names get _left/_right). Both files must be in the
same CRS (convert one with geoframe to-crs). Formats by extension, as geoframe convert.

Options:
  -o, --output <file>      where to write the result (required)
  --how inner|left|right   which rows to keep (default inner)
  --predicate <name>       ${PREDICATES.join(', ')} (default intersects)
  --nearest                nearest join instead: each row with its nearest right rows (all ties)
  --max-distance <d>       with --nearest: only pairs this close
  --distance-col <name>    with --nearest: a column holding the distance
  -h, --help               this text`,
  options: {
    ...OUTPUT_OPTION,
    how: { type: 'string' },
    predicate: { type: 'string' },
    nearest: { type: 'boolean' },
    'max-distance': { type: 'string' },
    'distance-col': { type: 'string' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 2) throw new UsageError('sjoin needs <left> and <right>');
    const output = requireOutput(values, 'sjoin');
    const how = choice(values.how, HOWS, '--how');
    const nearest = values.nearest === true;
    if (!nearest && (values['max-distance'] !== undefined || values['distance-col'] !== undefined)) {
      throw new UsageError('--max-distance and --distance-col go with --nearest');
    }
    if (nearest && values.predicate !== undefined)
      throw new UsageError('--predicate does not go with --nearest');
    const predicate = choice(values.predicate, [...PREDICATES, 'covered_by'] as const, '--predicate');
    let maxDistance: number | undefined;
    if (values['max-distance'] !== undefined) {
      maxDistance = Number(values['max-distance']);
      if (!Number.isFinite(maxDistance) || maxDistance < 0) {
        throw new UsageError(`--max-distance must be a number ≥ 0, got "${values['max-distance']}"`);
      }
    }
    const distanceCol = values['distance-col'] as string | undefined;
    return runFrameVerb(positionals, output, io, ([left, right]) =>
      nearest
        ? left.sjoinNearest(right, { how, maxDistance, distanceCol })
        : left.sjoin(right, { how, predicate }),
    );
  },
};
