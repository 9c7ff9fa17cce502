import { UnsupportedInputError } from '@geoframe/core';
import { iter } from 'but-unzip';
import { parseShp } from 'shpjs';
import { attributeTable, geometriesFromGeoJson } from './attribute-columns.js';
import { readDbf } from './dbf.js';
import type { GeoTable } from './geo-table.js';

/** The parts of one Shapefile: the .shp bytes, and the .dbf, .prj, .cpg when there are. */
export interface ShapefileParts {
  shp: Uint8Array;
  dbf?: Uint8Array;
  prj?: string;
  cpg?: string;
}

/**
 * Reads a Shapefile: geometry from the .shp with shpjs (rings grouped into polygons by
 * orientation, as the format says; null shapes null), attributes typed from the .dbf (see
 * readDbf), the CRS the .prj's WKT as written (no reprojection: shpjs' own projecting to
 * WGS 84 is not used), none without a .prj.
 */
export function readShapefile(parts: ShapefileParts): GeoTable {
  let geometries: unknown[];
  try {
    geometries = parseShp(parts.shp);
  } catch (error) {
    throw new UnsupportedInputError(`cannot read the .shp: ${(error as Error).message}`);
  }
  const columns = parts.dbf ? readDbf(parts.dbf, parts.cpg) : [];
  for (const c of columns) {
    if (c.values.length !== geometries.length) {
      throw new UnsupportedInputError(
        `the .dbf has ${c.values.length} records, the .shp ${geometries.length} shapes`,
      );
    }
  }
  const crs = parts.prj?.trim() ? parts.prj.trim() : null;
  return attributeTable(columns, geometriesFromGeoJson(geometries, crs));
}

/** Reads the one Shapefile in a .zip (a zip with none, or with several, is an error naming them). */
export async function readShapefileZip(bytes: Uint8Array): Promise<GeoTable> {
  const files = new Map<string, Uint8Array>();
  try {
    for (const entry of iter(bytes)) {
      if (entry.filename.includes('__MACOSX')) continue;
      files.set(entry.filename, await entry.read());
    }
  } catch (error) {
    throw new UnsupportedInputError(`not a readable zip file: ${(error as Error).message}`);
  }
  const shps = [...files.keys()].filter((n) => n.toLowerCase().endsWith('.shp'));
  if (shps.length !== 1) {
    throw new UnsupportedInputError(
      shps.length === 0
        ? `the zip holds no .shp (files: ${[...files.keys()].join(', ') || 'none'})`
        : `the zip holds several Shapefiles (${shps.join(', ')}); unzip it and read one`,
    );
  }
  const base = shps[0].slice(0, -4);
  const part = (ext: string) => {
    for (const [name, data] of files)
      if (name.slice(0, -4) === base && name.slice(-4).toLowerCase() === ext) return data;
    return undefined;
  };
  const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
  return readShapefile({
    shp: files.get(shps[0])!,
    dbf: part('.dbf'),
    prj: text(part('.prj')),
    cpg: text(part('.cpg')),
  });
}
