import {
  GeometryArray,
  GeometryBuilder,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  isGeoArrowField,
} from '@geoframe/core';
import { type Data, Field, Int32, makeData, type Table, vectorFromArray } from 'apache-arrow';
import { takeColumn } from '../frame/take-column.js';

/** One output column of a join: its field and data. */
export interface Column {
  field: Field;
  data: Data;
}

/**
 * Row `indices[j]` of a column for every j, a null where the index is -1 (the unmatched side of a
 * left or right join). Geometry columns are gathered as geometry (null rows stay null).
 */
export function gatherColumn(table: Table, field: Field, indices: Int32Array, name = field.name): Column {
  const vector = table.getChild(field.name)!;
  const missing = indices.some((i) => i < 0);
  if (isGeoArrowField(field)) {
    const array = geometryArrayFromArrow(vector, { field });
    if (array.length === 0 && missing) {
      const nulls = new GeometryBuilder(array.type, array.dimension);
      for (let j = 0; j < indices.length; j++) nulls.appendNull();
      return geometryArrayToArrow(nulls.finish(array.crs), { name, encoding: encodingOf(field) });
    }
    const taken = missing
      ? withNulls(array.take(indices.map((i) => Math.max(i, 0))), indices)
      : array.take(indices);
    const { field: f, data } = geometryArrayToArrow(taken, { name, encoding: encodingOf(field) });
    return { field: f, data };
  }
  const out = field.name === name ? field : field.clone({ name, nullable: field.nullable || missing });
  if (!missing) return { field: out, data: takeColumn(vector, indices) };
  if (vector.length === 0) {
    return { field: out, data: vectorFromArray(new Array(indices.length).fill(null), field.type).data[0] };
  }
  const data = takeColumn(
    vector,
    indices.map((i) => Math.max(i, 0)),
  );
  return { field: out.clone({ nullable: true }), data: maskNulls(data, indices) };
}

/** The indices as a nullable Int32 column (-1 → null): `index_right` / `index_left`. */
export function indexColumn(name: string, indices: Int32Array): Column {
  const n = indices.length;
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let j = 0; j < n; j++) {
    if (indices[j] >= 0) validity[j >> 3] |= 1 << (j & 7);
    else nulls++;
  }
  const data = makeData({
    type: new Int32(),
    length: n,
    nullCount: nulls,
    nullBitmap: nulls > 0 ? validity : undefined,
    data: indices.map((i) => Math.max(i, 0)),
  });
  return { field: new Field(name, new Int32(), nulls > 0), data };
}

/** The data with rows where `indices` is -1 set to null (its own validity kept elsewhere). */
function maskNulls(data: Data, indices: Int32Array): Data {
  const n = data.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let j = 0; j < n; j++) {
    if (indices[j] >= 0 && data.getValid(j)) bitmap[j >> 3] |= 1 << (j & 7);
    else nulls++;
  }
  return data.clone(data.type, data.offset, data.length, nulls, [
    data.valueOffsets,
    data.values,
    bitmap,
    data.typeIds,
  ] as never);
}

function withNulls(array: GeometryArray, indices: Int32Array): GeometryArray {
  const n = array.length;
  const validity = new Uint8Array((n + 7) >> 3);
  for (let j = 0; j < n; j++) if (indices[j] >= 0 && array.isValid(j)) validity[j >> 3] |= 1 << (j & 7);
  return new GeometryArray({ ...array.parts(), validity, validityOffset: 0 });
}

/** The encoding a geometry column is written back in: WKB and WKT stay so, native stays native. */
function encodingOf(field: Field): 'native' | 'wkb' | 'wkt' {
  const name = field.metadata.get('ARROW:extension:name');
  if (name === 'geoarrow.wkb' || name === 'ogc.wkb') return 'wkb';
  if (name === 'geoarrow.wkt' || name === 'ogc.wkt') return 'wkt';
  return 'native';
}
