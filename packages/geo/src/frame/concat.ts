import {
  concatBinaryColumns,
  concatGeometryArrays,
  type GeometryArray,
  GeometryBuilder,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  isGeoArrowField,
  readWkb,
  writeWkb,
} from '@geoframe/core';
import {
  type Data,
  type DataType,
  Field,
  Float64,
  makeData,
  type Table,
  Type,
  util,
  Vector,
  vectorFromArray,
} from 'apache-arrow';
import { singleData } from './column-data.js';
import { makeTable } from './make-table.js';

/**
 * pandas' `concat(frames)` along rows (join='outer', ignore_index=True): the columns are the union
 * of the frames' columns in order of first appearance, a frame without a column gives nulls there.
 * A column must have one type in every frame (integers meeting floats become Float64, as pandas
 * does); geometry columns are concatenated as geometry, in the first frame's CRS (the caller checks
 * the CRS agree).
 */
export function concatTables(tables: Table[]): Table {
  if (tables.length === 0) throw new RangeError('concat: no frames to concatenate');
  const order: Field[] = [];
  for (const t of tables) {
    for (const f of t.schema.fields) if (!order.some((o) => o.name === f.name)) order.push(f);
  }
  const fields: Field[] = [];
  const datas: Data[] = [];
  for (const first of order) {
    const present = tables.map((t) => t.schema.fields.find((f) => f.name === first.name) ?? null);
    const geometry = present.filter((f) => f !== null).map((f) => isGeoArrowField(f!));
    if (geometry.some((g) => g !== geometry[0])) {
      throw new TypeError(`concat: column "${first.name}" is geometry in one frame and not in another`);
    }
    const column = geometry[0]
      ? concatGeometryColumn(tables, present, first)
      : concatPlainColumn(tables, present, first);
    fields.push(column.field);
    datas.push(column.data);
  }
  return makeTable(fields, datas, tables[0].schema.metadata);
}

function concatGeometryColumn(tables: Table[], present: (Field | null)[], first: Field) {
  const arrays: GeometryArray[] = [];
  const known = present.findIndex((f) => f !== null);
  const template = geometryArrayFromArrow(tables[known].getChild(first.name)!, { field: present[known]! });
  tables.forEach((t, i) => {
    const field = present[i];
    if (field) arrays.push(geometryArrayFromArrow(t.getChild(field.name)!, { field }));
    else {
      const nulls = new GeometryBuilder(template.type, template.dimension);
      for (let r = 0; r < t.numRows; r++) nulls.appendNull();
      arrays.push(nulls.finish(template.crs));
    }
  });
  const crs = arrays.find((a) => a.crs != null)?.crs ?? null;
  const uniform = arrays.every(
    (a) => a.type === arrays[0].type && a.dimension === arrays[0].dimension && a.type !== 'mixed',
  );
  // one native layout: buffer to buffer; else through WKB, which holds any mix of types
  const joined = uniform
    ? concatGeometryArrays(arrays)
    : readWkb(concatBinaryColumns(arrays.map((a) => writeWkb(a))));
  const name = first.metadata.get('ARROW:extension:name');
  const encoding = name === 'geoarrow.wkb' ? 'wkb' : name === 'geoarrow.wkt' ? 'wkt' : 'native';
  return geometryArrayToArrow(joined.withCrs(crs), { name: first.name, encoding });
}

function isNumeric(type: DataType): boolean {
  return type.typeId === Type.Int || type.typeId === Type.Float;
}

function concatPlainColumn(
  tables: Table[],
  present: (Field | null)[],
  first: Field,
): { field: Field; data: Data } {
  const types = present.filter((f) => f !== null).map((f) => f!.type);
  let type: DataType = types[0];
  if (!types.every((t) => util.compareTypes(t, type))) {
    if (!types.every(isNumeric)) {
      throw new TypeError(
        `concat: column "${first.name}" has different types in the frames (${[...new Set(types.map(String))].join(', ')})`,
      );
    }
    type = new Float64();
  }
  const parts: Data[] = tables.map((t, i) => {
    const field = present[i];
    if (!field) return vectorFromArray(new Array(t.numRows).fill(null), type).data[0];
    const vector = t.getChild(field.name)!;
    return util.compareTypes(field.type, type) ? singleData(vector) : toFloat64(vector);
  });
  const nullable = parts.some((d) => d.nullCount > 0) || present.some((f) => f === null || f.nullable);
  return { field: new Field(first.name, type, nullable, first.metadata), data: joinData(parts) };
}

function toFloat64(vector: { length: number; get(i: number): unknown; isValid(i: number): boolean }): Data {
  const n = vector.length;
  const values = new Float64Array(n);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (vector.isValid(i)) {
      values[i] = Number(vector.get(i));
      validity[i >> 3] |= 1 << (i & 7);
    } else nulls++;
  }
  return makeData({
    type: new Float64(),
    length: n,
    nullCount: nulls,
    nullBitmap: nulls > 0 ? validity : undefined,
    data: values,
  });
}

/** Data of one type, end to end: Arrow's Vector over the parts, gathered into one Data. */
function joinData(parts: Data[]): Data {
  return parts.length === 1 ? parts[0] : singleData(new Vector(parts));
}
