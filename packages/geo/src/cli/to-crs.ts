import { type Command, UsageError } from './command.js';
import { OUTPUT_OPTION, requireOutput, runFrameVerb } from './frame-verbs.js';

export const toCrsCommand: Command = {
  name: 'to-crs',
  summary: 'reproject a file to another CRS (GeoPandas to_crs)',
  usage: `Usage: geoframe to-crs <in> --crs <crs> -o <out>

Transforms the active geometry of <in> to <crs> (EPSG:xxxx, a PROJ string, or "utm" for the
UTM zone of the data's centre, as estimate_utm_crs). <in> must have a CRS.

Options:
  --crs <crs>           the target CRS (required)
  -o, --output <file>   where to write the result (required)
  -h, --help            this text`,
  options: { ...OUTPUT_OPTION, crs: { type: 'string' } },
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('to-crs needs one <in>');
    const output = requireOutput(values, 'to-crs');
    const crs = values.crs as string | undefined;
    if (crs === undefined || crs.trim() === '') throw new UsageError('to-crs needs --crs (e.g. EPSG:3857)');
    return runFrameVerb(positionals, output, io, ([frame]) =>
      frame.toCrs(crs.toLowerCase() === 'utm' ? frame.estimateUtmCrs() : crs),
    );
  },
};
