import {
  type ColumnType,
  type Dimension,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
} from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';

/** The shared seeded generator (mulberry32), under this file's old name. */
export const seededRandom = mulberry32;

/** Values chosen to break anything that is not an exact f64 comparison. */
const SPECIAL = [
  0,
  -0,
  1e300,
  -1e300,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE, // smallest subnormal
  -Number.MIN_VALUE,
  2.2250738585072014e-308 / 3, // subnormal
  1,
  1 + Number.EPSILON, // differs from 1 in the last bit only (f32 would merge them)
  1 - Number.EPSILON / 2,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.NaN,
];

/** A coordinate value: mostly ordinary (either sign, wide magnitudes), sometimes one of {@link SPECIAL}. */
export function randomValue(rand: () => number): number {
  const r = rand();
  if (r < 0.12) return SPECIAL[Math.floor(rand() * SPECIAL.length)];
  if (r < 0.5) return (rand() - 0.5) * 360;
  const magnitude = 10 ** Math.floor(rand() * 40 - 20);
  return (rand() < 0.5 ? -1 : 1) * rand() * magnitude;
}

export interface RandomArrayOptions {
  /** Probability of a null row (default 0.1). */
  nulls?: number;
  /** Probability of an empty row (default 0.1). */
  empties?: number;
  /** Most coordinates per ring / linestring (default 6). */
  maxCoords?: number;
}

const SINGLE_TYPES = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
];

/** A seeded random column of `rows` rows of `type` with nulls, empties and special values. */
export function randomGeometryArray(
  type: ColumnType,
  dimension: Dimension,
  rows: number,
  seed: number,
  options: RandomArrayOptions = {},
): GeometryArray {
  const rand = seededRandom(seed);
  const nulls = options.nulls ?? 0.1;
  const empties = options.empties ?? 0.1;
  const maxCoords = options.maxCoords ?? 6;
  const b = new GeometryBuilder(type, dimension);
  const count = (max: number, min = 1) => min + Math.floor(rand() * (max - min + 1));
  const coord = () => b.pushCoord(randomValue(rand), randomValue(rand), rand(), rand());
  for (let i = 0; i < rows; i++) {
    const rowType = type === 'mixed' ? SINGLE_TYPES[Math.floor(rand() * SINGLE_TYPES.length)] : type;
    const r = rand();
    if (r < nulls) {
      b.appendNull();
      continue;
    }
    if (r < nulls + empties) {
      b.appendEmpty(rowType);
      continue;
    }
    b.beginGeometry(rowType);
    switch (rowType) {
      case GeometryType.Point:
        b.beginPart();
        coord();
        break;
      case GeometryType.MultiPoint:
        for (let p = count(4); p > 0; p--) {
          b.beginPart();
          coord();
        }
        break;
      case GeometryType.LineString:
        b.beginPart();
        b.beginRing();
        for (let k = count(maxCoords); k > 0; k--) coord();
        break;
      case GeometryType.Polygon:
      case GeometryType.MultiLineString:
      case GeometryType.MultiPolygon: {
        const parts = rowType === GeometryType.Polygon ? 1 : count(3);
        for (let p = 0; p < parts; p++) {
          b.beginPart();
          const rings = rowType === GeometryType.MultiLineString ? 1 : count(3);
          // rings (and lines) may be empty: a row can hold parts without coordinates
          for (let g = 0; g < rings; g++) {
            b.beginRing();
            for (let k = count(maxCoords, 0); k > 0; k--) coord();
          }
        }
        break;
      }
    }
    b.endGeometry();
  }
  return b.finish();
}
