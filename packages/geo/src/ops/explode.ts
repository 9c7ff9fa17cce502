import { type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';

/** The parts of multi-part rows as rows of their own, and the source row of each output row. */
export interface Exploded {
  geometry: GeometryArray;
  /** Output row → input row. */
  rows: Int32Array;
}

const SINGLE: Partial<Record<GeometryType, GeometryType>> = {
  [GeometryType.MultiPoint]: GeometryType.Point,
  [GeometryType.MultiLineString]: GeometryType.LineString,
  [GeometryType.MultiPolygon]: GeometryType.Polygon,
};

/**
 * GeoPandas' `explode(index_parts=False)`: every part of a Multi* row becomes a row of the single
 * type; single-part rows (empty ones too) stay as they are; null rows and empty Multi rows are
 * dropped, as GeoPandas 1.x does.
 * Copies coordinates straight from buffer to buffer (no per-geometry objects).
 */
export function explode(array: GeometryArray): Exploded {
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const types = new Set<GeometryType>();
  for (let i = 0; i < array.length; i++) {
    const t = array.typeOf(i);
    if (t !== null && !(array.isEmpty(i) && SINGLE[t] !== undefined)) types.add(SINGLE[t] ?? t);
  }
  const builder = new GeometryBuilder(types.size === 1 ? [...types][0] : 'mixed', array.dimension);
  const rows: number[] = [];
  const c = array.coords;
  const s = array.stride;
  const push = (k: number) =>
    builder.pushCoord(
      c[k * s],
      c[k * s + 1],
      s > 2 ? c[k * s + 2] : undefined,
      s > 3 ? c[k * s + 3] : undefined,
    );
  for (let i = 0; i < array.length; i++) {
    const type = array.typeOf(i);
    if (type === null) continue;
    const single = SINGLE[type] ?? type;
    if (array.isEmpty(i)) {
      // an empty single geometry stays a row; an empty Multi has no parts to explode into
      if (single === type) {
        builder.appendEmpty(type);
        rows.push(i);
      }
      continue;
    }
    if (type === GeometryType.Point) {
      builder.beginGeometry(type);
      builder.beginPart();
      builder.beginRing();
      push(array.coordRange(i)[0]);
      builder.endGeometry();
      rows.push(i);
      continue;
    }
    const writePart = (part: number) => {
      builder.beginPart();
      for (let ring = partOffsets[part]; ring < partOffsets[part + 1]; ring++) {
        builder.beginRing();
        for (let k = ringOffsets[ring]; k < ringOffsets[ring + 1]; k++) push(k);
      }
    };
    if (single === type) {
      builder.beginGeometry(type);
      for (let part = geometryOffsets[i]; part < geometryOffsets[i + 1]; part++) writePart(part);
      builder.endGeometry();
      rows.push(i);
      continue;
    }
    for (let part = geometryOffsets[i]; part < geometryOffsets[i + 1]; part++) {
      builder.beginGeometry(single);
      writePart(part);
      builder.endGeometry();
      rows.push(i);
    }
  }
  return { geometry: builder.finish(array.crs), rows: Int32Array.from(rows) };
}
