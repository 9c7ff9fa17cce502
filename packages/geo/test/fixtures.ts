import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Path of a file in test/fixtures. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** Per geometry type: the WKT, area and length GeoPandas computed for the fixture rows. */
export interface ExpectedType {
  wkt: (string | null)[];
  area: (number | null)[];
  length: (number | null)[];
  crs: string;
}

export const expected: Record<string, ExpectedType> = JSON.parse(
  readFileSync(fixturePath('geopandas/expected.json'), 'utf8'),
);

export const TYPES = Object.keys(expected);

/** The four files GeoPandas wrote per type. */
export const FILE_KINDS = [
  'wkb.parquet',
  'geoarrow.parquet',
  'interleaved.arrow',
  'separated.arrow',
] as const;
