import { readBytes } from '#platform/files';
import { readFlatGeobuf } from './flatgeobuf.js';
import type { GeoTable } from './geo-table.js';
import { readGeoPackage } from './geopackage.js';
import { readShapefile, readShapefileZip } from './shapefile.js';

/** The file beside `shpPath` with extension `ext` (either case), or undefined when there is none. */
async function sibling(shpPath: string, ext: string): Promise<Uint8Array | undefined> {
  const base = shpPath.slice(0, -4);
  for (const e of [ext, ext.toUpperCase()]) {
    try {
      return await readBytes(base + e);
    } catch {
      // not there in this case
    }
  }
  return undefined;
}

/** Shapefile (.shp and its siblings, or .zip), FlatGeobuf or GeoPackage bytes as a GeoTable. */
export async function readVectorFormat(
  format: 'shapefile' | 'flatgeobuf' | 'geopackage',
  path: string,
  bytes: Uint8Array,
  options: { layer?: string },
): Promise<GeoTable> {
  if (format === 'flatgeobuf') return readFlatGeobuf(bytes);
  if (format === 'geopackage') return readGeoPackage(bytes, options.layer);
  if (path.toLowerCase().endsWith('.zip')) return readShapefileZip(bytes);
  const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
  return readShapefile({
    shp: bytes,
    dbf: await sibling(path, '.dbf'),
    prj: text(await sibling(path, '.prj')),
    cpg: text(await sibling(path, '.cpg')),
  });
}
