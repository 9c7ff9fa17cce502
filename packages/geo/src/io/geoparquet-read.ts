import {
  type Crs,
  type GeometryArray,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  UnsupportedInputError,
} from '@geoframe/core';
import { type Data, Field, Table, tableFromIPC } from 'apache-arrow';
import { defaultPrimary, type GeoTable, geometryColumnNames, mapColumns } from './geo-table.js';
import { unifyArrays } from './geometry-rebuild.js';
import { crsFromGeoParquet } from './geoparquet-crs.js';
import { type GeoParquetColumn, NATIVE_ENCODINGS, parseGeoMetadata } from './geoparquet-metadata.js';
import { loadParquetWasm } from './parquet-wasm.js';

const PAR1 = [0x50, 0x41, 0x52, 0x31];

/** Whether `bytes` start and end with the Parquet magic "PAR1". */
export function isParquet(bytes: Uint8Array): boolean {
  const n = bytes.length;
  return n >= 12 && PAR1.every((b, i) => bytes[i] === b && bytes[n - 4 + i] === b);
}

/** Decodes a whole Parquet file into an Arrow JS table (through an Arrow IPC stream). */
export async function readParquetTable(bytes: Uint8Array): Promise<Table> {
  if (!isParquet(bytes)) throw new UnsupportedInputError('not a Parquet file (no "PAR1" magic)');
  const parquet = await loadParquetWasm();
  let ipc: Uint8Array;
  try {
    ipc = parquet.readParquet(bytes).intoIPCStream();
  } catch (error) {
    throw new UnsupportedInputError(
      `cannot read the Parquet file: ${String((error as Error)?.message ?? error)}`,
    );
  }
  const table = tableFromIPC(ipc);
  // zero-row batches (an empty file, an empty row group) can come with empty offset buffers,
  // which decoders refuse; they hold nothing, so they are dropped
  if (table.batches.every((b) => b.numRows > 0)) return table;
  return new Table(
    table.schema,
    table.batches.filter((b) => b.numRows > 0),
  );
}

/** Adds `edges` to a GeoArrow field's extension metadata (GeoParquet carries it per column). */
function withEdges(field: Field, edges: string): Field {
  const key = 'ARROW:extension:metadata';
  const text = field.metadata.get(key);
  const object = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  object.edges = edges;
  return new Field(
    field.name,
    field.type,
    field.nullable,
    new Map(field.metadata).set(key, JSON.stringify(object)),
  );
}

/**
 * Reads GeoParquet (1.0 and 1.1) into a {@link GeoTable}, with parquet-wasm.
 *
 * The `geo` file metadata drives it: every column it lists becomes a native interleaved GeoArrow
 * column (WKB decoded; a WKB column holding several types stays geoarrow.wkb; the native
 * encodings, whose coordinates GeoParquet 1.1 stores separated, read by core and re-laid out
 * interleaved). Its CRS goes on the field's `ARROW:extension:metadata`: the PROJJSON given, no
 * `crs` key → "OGC:CRS84" (the specification's default), `"crs": null` → no CRS. `edges:
 * "spherical"` is kept in the extension metadata; `orientation`, `epoch`, `bbox` and `covering`
 * are not (bbox/covering columns pass through as ordinary struct columns). The primary column is
 * `primary_column`. Other columns pass through untouched, the schema metadata too.
 *
 * A Parquet file without `geo` metadata is opened, not refused: columns that carry a GeoArrow
 * `ARROW:extension:name` (kept in Parquet's embedded Arrow schema) are geometry columns as in
 * {@link readArrowIpc}, and without any the table comes back with `primary: null`. A binary
 * column named "geometry" with no metadata is not guessed to be WKB.
 *
 * Throws UnsupportedInputError for bytes that are not Parquet, a `geo` metadata that is not
 * JSON, lists a column the file lacks, or uses an encoding other than WKB and the six native ones.
 */
export async function readGeoParquet(bytes: Uint8Array): Promise<GeoTable> {
  return geoTableOf(await readParquetTable(bytes));
}

/**
 * The geometry columns of an Arrow table read from a GeoParquet or GeoPandas Feather file, as
 * its `geo` schema metadata describes them (see {@link readGeoParquet}); without that metadata,
 * the GeoArrow columns as they are.
 */
export function geoTableOf(table: Table): GeoTable {
  const text = table.schema.metadata.get('geo');
  if (text === undefined) return { table, primary: defaultPrimary(geometryColumnNames(table)) };
  const geo = parseGeoMetadata(text);
  const names = table.schema.fields.map((f) => f.name);
  for (const name of Object.keys(geo.columns)) {
    if (!names.includes(name)) {
      throw new UnsupportedInputError(
        `GeoParquet: the geo metadata lists column "${name}", which the file lacks`,
      );
    }
  }
  if (!(geo.primary_column in geo.columns)) {
    throw new UnsupportedInputError(
      `GeoParquet: primary_column "${geo.primary_column}" is not in the geo columns`,
    );
  }
  // decode every batch first, so the batches of a column can be made to agree in type
  const decode = (data: Data, column: GeoParquetColumn): GeometryArray => {
    const crs: Crs | null = crsFromGeoParquet(column as unknown as Record<string, unknown>);
    const encoding = column.encoding.toUpperCase() === 'WKB' ? 'wkb' : NATIVE_ENCODINGS[column.encoding];
    return geometryArrayFromArrow(data, { encoding, crs }).withCrs(crs);
  };
  const decoded = new Map<number, GeometryArray[]>();
  table.schema.fields.forEach((field, c) => {
    const column = geo.columns[field.name];
    if (column)
      decoded.set(c, unifyArrays(table.batches.map((batch) => decode(batch.data.children[c], column))));
  });
  const result = mapColumns(table, (c, field, data, batch) => {
    const arrays = decoded.get(c);
    if (!arrays) return null;
    const array = arrays[batch] ?? decode(data, geo.columns[field.name]);
    const out = geometryArrayToArrow(array, { name: field.name, encoding: 'native' });
    const edges = geo.columns[field.name].edges;
    return edges && edges !== 'planar' ? { field: withEdges(out.field, edges), data: out.data } : out;
  });
  return { table: result, primary: geo.primary_column };
}
