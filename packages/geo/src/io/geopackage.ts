import { type BinaryColumn, readWkb, UnsupportedInputError } from '@geoframe/core';
import initSqlJs, { type Database } from 'sql.js';
import { type AttributeColumn, type AttributeKind, attributeTable } from './attribute-columns.js';
import type { GeoTable } from './geo-table.js';

/**
 * Reads one feature table of a GeoPackage with sql.js (SQLite compiled to WebAssembly): the layer
 * named, or the only one (several without a name is an error listing them). Attribute columns are
 * typed from their declared SQLite types as GDAL types them (INTEGER → Int64, SMALLINT/TINYINT/
 * MEDIUMINT → Int32, REAL/FLOAT/DOUBLE → Float64, BOOLEAN → Bool, DATE/DATETIME → Timestamp, TEXT
 * → Utf8, BLOB → Binary); the integer primary key is the feature id, not a column (as GeoPandas).
 * Geometry blobs lose their GeoPackage header and are read as WKB; the CRS is "EPSG:n" for an
 * EPSG srs, the srs' WKT otherwise, none for the undefined srs (-1, 0). The geometry column is
 * named "geometry" whatever its name in the file, as GeoPandas (pyogrio) reads it.
 */
export async function readGeoPackage(bytes: Uint8Array, layer?: string): Promise<GeoTable> {
  if (new TextDecoder().decode(bytes.subarray(0, 15)) !== 'SQLite format 3') {
    throw new UnsupportedInputError('not a GeoPackage (no SQLite header)');
  }
  const SQL = await initSqlJs();
  const db = new SQL.Database(bytes);
  try {
    return readLayer(db, layer);
  } finally {
    db.close();
  }
}

function query(db: Database, sql: string, params: unknown[] = []): unknown[][] {
  try {
    return db.exec(sql, params)[0]?.values ?? [];
  } catch (error) {
    throw new UnsupportedInputError(`not a readable GeoPackage: ${(error as Error).message}`);
  }
}

function readLayer(db: Database, layer: string | undefined): GeoTable {
  const layers = query(db, "SELECT table_name FROM gpkg_contents WHERE data_type = 'features'").map((r) =>
    String(r[0]),
  );
  if (layer === undefined && layers.length !== 1) {
    throw new UnsupportedInputError(
      layers.length === 0
        ? 'the GeoPackage has no feature table'
        : `the GeoPackage has ${layers.length} feature tables (${layers.join(', ')}); name one with {layer}`,
    );
  }
  const name = layer ?? layers[0];
  if (!layers.includes(name))
    throw new UnsupportedInputError(
      `the GeoPackage has no feature table "${name}" (tables: ${layers.join(', ')})`,
    );
  const [geometryColumn, srsId] =
    query(db, 'SELECT column_name, srs_id FROM gpkg_geometry_columns WHERE table_name = ?', [name])[0] ?? [];
  if (geometryColumn === undefined)
    throw new UnsupportedInputError(`the feature table "${name}" has no geometry column`);
  const crs = crsOf(db, Number(srsId));
  const info = query(db, `PRAGMA table_info("${name.replaceAll('"', '""')}")`); // cid, name, type, notnull, default, pk
  const attributes = info.filter(
    (c) => c[1] !== geometryColumn && !(Number(c[5]) > 0 && /INT/i.test(String(c[2]))),
  );
  const quoted = (n: unknown) => `"${String(n).replaceAll('"', '""')}"`;
  const select = [geometryColumn, ...attributes.map((c) => c[1])].map(quoted).join(', ');
  const rows = query(db, `SELECT ${select} FROM ${quoted(name)}`);
  const columns: AttributeColumn[] = attributes.map((c, k) => {
    const kind = kindOf(String(c[2]));
    return { name: String(c[1]), kind, values: rows.map((r) => cellValue(r[k + 1], kind)) };
  });
  const geometry = readWkb(wkbOfBlobs(rows.map((r) => r[0] as Uint8Array | null)), { crs });
  return attributeTable(columns, geometry.withCrs(crs)); // named "geometry", as GeoPandas names it
}

function crsOf(db: Database, srsId: number): string | null {
  if (srsId === 0 || srsId === -1) return null;
  const [org, code, definition] =
    query(
      db,
      'SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?',
      [srsId],
    )[0] ?? [];
  if (String(org).toUpperCase() === 'EPSG') return `EPSG:${code}`;
  return typeof definition === 'string' && definition !== 'undefined' ? definition : null;
}

function kindOf(declared: string): AttributeKind {
  const t = declared.toUpperCase();
  if (/^(SMALLINT|TINYINT|MEDIUMINT)/.test(t)) return 'int32';
  if (/INT/.test(t)) return 'int64';
  if (/REAL|FLOA|DOUB/.test(t)) return 'float64';
  if (/BOOL/.test(t)) return 'bool';
  if (/DATE/.test(t)) return 'timestamp';
  if (/BLOB/.test(t)) return 'binary';
  return 'utf8';
}

function cellValue(v: unknown, kind: AttributeKind): unknown {
  if (v === null || v === undefined) return null;
  if (kind === 'bool') return Boolean(v);
  if (kind === 'timestamp') return new Date(String(v).length === 10 ? `${v}T00:00:00Z` : String(v));
  if (kind === 'utf8') return String(v);
  return v;
}

/** The WKB inside GeoPackage geometry blobs (magic "GP", flags, srs id, envelope, then WKB). */
function wkbOfBlobs(blobs: (Uint8Array | null)[]): BinaryColumn {
  const n = blobs.length;
  const offsets = new Int32Array(n + 1);
  const validity = new Uint8Array((n + 7) >> 3);
  const parts: Uint8Array[] = [];
  let total = 0;
  let nulls = 0;
  blobs.forEach((blob, i) => {
    if (blob === null) {
      nulls++;
    } else {
      if (blob[0] !== 0x47 || blob[1] !== 0x50)
        throw new UnsupportedInputError(`row ${i}: a geometry blob without the GeoPackage "GP" header`);
      const envelope = (blob[3] >> 1) & 7;
      const skip = 8 + [0, 32, 48, 48, 64][envelope];
      const wkb = blob.subarray(skip);
      parts.push(wkb);
      total += wkb.length;
      validity[i >> 3] |= 1 << (i & 7);
    }
    offsets[i + 1] = total;
  });
  const values = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    values.set(p, at);
    at += p.length;
  }
  return { length: n, values, offsets, validity: nulls > 0 ? validity : null, validityOffset: 0 };
}
