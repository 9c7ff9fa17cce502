import { type GeometryArray, GeometryType } from '@geoframe/core';

/** Formats one coordinate value as a JSON number token. */
export type NumberFormat = (value: number) => string;

/**
 * The number format of GeoJSON output: by default the shortest text that reads back as the same
 * double (`-0` kept); with `precision`, rounded to that many digits after the decimal point.
 * Non-finite values become `null`.
 */
export function numberFormat(precision?: number): NumberFormat {
  if (precision === undefined) {
    return (v) => (Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : 'null');
  }
  if (!Number.isInteger(precision) || precision < 0 || precision > 100) {
    throw new RangeError(`precision must be an integer from 0 to 100, got ${precision}`);
  }
  return (v) => (Number.isFinite(v) ? String(Number(v.toFixed(precision))) : 'null');
}

const NAMES: Record<GeometryType, string> = {
  [GeometryType.Point]: 'Point',
  [GeometryType.LineString]: 'LineString',
  [GeometryType.Polygon]: 'Polygon',
  [GeometryType.MultiPoint]: 'MultiPoint',
  [GeometryType.MultiLineString]: 'MultiLineString',
  [GeometryType.MultiPolygon]: 'MultiPolygon',
};

/**
 * Writes GeoJSON geometry objects of one array's rows. Z is written as a third number when the
 * array has z and the value is not NaN; M is dropped (GeoJSON has no M).
 */
export class GeoJsonGeometryWriter {
  private readonly array: GeometryArray;
  private readonly num: NumberFormat;
  private readonly hasZ: boolean;
  private readonly geometryOffsets: Int32Array;
  private readonly partOffsets: Int32Array;
  private readonly ringOffsets: Int32Array;

  constructor(array: GeometryArray, num: NumberFormat) {
    this.array = array;
    this.num = num;
    this.hasZ = array.dimension === 'xyz' || array.dimension === 'xyzm';
    const nested = array.nestedOffsets();
    this.geometryOffsets = nested.geometryOffsets;
    this.partOffsets = nested.partOffsets;
    this.ringOffsets = nested.ringOffsets;
  }

  /** The geometry object of row `i` as JSON text, or `null` for a null row. */
  geometry(i: number): string {
    const a = this.array;
    const type = a.typeOf(i);
    if (type === null) return 'null';
    return `{"type":"${NAMES[type]}","coordinates":${this.coordinates(i, type)}}`;
  }

  private coordinates(i: number, type: GeometryType): string {
    if (this.array.isEmpty(i)) return '[]';
    const p0 = this.geometryOffsets[i];
    const p1 = this.geometryOffsets[i + 1];
    switch (type) {
      case GeometryType.Point:
        return this.position(this.ringOffsets[this.partOffsets[p0]]);
      case GeometryType.LineString:
        return this.run(this.partOffsets[p0]);
      case GeometryType.Polygon:
        return this.polygon(p0);
      case GeometryType.MultiPoint: {
        const out: string[] = [];
        for (let p = p0; p < p1; p++) out.push(this.position(this.ringOffsets[this.partOffsets[p]]));
        return `[${out.join(',')}]`;
      }
      case GeometryType.MultiLineString: {
        const out: string[] = [];
        for (let p = p0; p < p1; p++) out.push(this.run(this.partOffsets[p]));
        return `[${out.join(',')}]`;
      }
      case GeometryType.MultiPolygon: {
        const out: string[] = [];
        for (let p = p0; p < p1; p++) out.push(this.polygon(p));
        return `[${out.join(',')}]`;
      }
    }
  }

  private polygon(part: number): string {
    const out: string[] = [];
    for (let r = this.partOffsets[part]; r < this.partOffsets[part + 1]; r++) out.push(this.run(r));
    return `[${out.join(',')}]`;
  }

  private run(ring: number): string {
    const out: string[] = [];
    for (let k = this.ringOffsets[ring]; k < this.ringOffsets[ring + 1]; k++) out.push(this.position(k));
    return `[${out.join(',')}]`;
  }

  private position(k: number): string {
    const c = this.array.coords;
    const at = k * this.array.stride;
    const xy = `${this.num(c[at])},${this.num(c[at + 1])}`;
    if (this.hasZ && !Number.isNaN(c[at + 2])) return `[${xy},${this.num(c[at + 2])}]`;
    return `[${xy}]`;
  }
}
