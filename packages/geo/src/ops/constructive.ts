// Per-row constructive operations through jsts (JTS): each row is converted to one jsts object,
// operated on and appended back to GeoArrow buffers. Null rows stay null.
import { bounds, type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import ConvexHull from 'jsts/org/locationtech/jts/algorithm/ConvexHull.js';
import BufferOp from 'jsts/org/locationtech/jts/operation/buffer/BufferOp.js';
import BufferParameters from 'jsts/org/locationtech/jts/operation/buffer/BufferParameters.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import DouglasPeuckerSimplifier from 'jsts/org/locationtech/jts/simplify/DouglasPeuckerSimplifier.js';
import TopologyPreservingSimplifier from 'jsts/org/locationtech/jts/simplify/TopologyPreservingSimplifier.js';
import { fromJsts, type JstsGeometry, toJsts } from './jsts-geometry.js';

/** Applies `fn` to every non-null row as a jsts geometry; null rows stay null. */
export function mapJsts(
  array: GeometryArray,
  fn: (g: JstsGeometry, row: number) => JstsGeometry,
): GeometryArray {
  const out: (JstsGeometry | null)[] = new Array(array.length);
  for (let i = 0; i < array.length; i++) {
    const g = toJsts(array, i);
    out[i] = g === null ? null : fn(g, i);
  }
  return fromJsts(out, array.crs);
}

/** Options of {@link buffer}: GeoPandas' defaults. */
export interface BufferOptions {
  /** Segments per quarter circle (GeoPandas' `resolution`/`quad_segs`, default 16). */
  quadSegs?: number;
  /** 'round' (default), 'flat' or 'square'. */
  capStyle?: 'round' | 'flat' | 'square';
  /** 'round' (default), 'mitre' or 'bevel'. */
  joinStyle?: 'round' | 'mitre' | 'bevel';
  /** Mitre ratio limit (default 5). */
  mitreLimit?: number;
}

const CAPS = { round: 1, flat: 2, square: 3 } as const;
const JOINS = { round: 1, mitre: 2, bevel: 3 } as const;

/** Each row grown (or, for negative `distance` on areas, shrunk) by `distance` (GeoPandas' `buffer`). */
export function buffer(array: GeometryArray, distance: number, options: BufferOptions = {}): GeometryArray {
  if (!Number.isFinite(distance)) throw new RangeError(`buffer: distance must be finite, got ${distance}`);
  const params = new BufferParameters();
  params.setQuadrantSegments(options.quadSegs ?? 16);
  params.setEndCapStyle(CAPS[options.capStyle ?? 'round']);
  params.setJoinStyle(JOINS[options.joinStyle ?? 'round']);
  params.setMitreLimit(options.mitreLimit ?? 5);
  return mapJsts(array, (g) => BufferOp.bufferOp(g, distance, params));
}

/**
 * Each row simplified within `tolerance` (GeoPandas' `simplify`): topology preserved by default
 * (JTS' TopologyPreservingSimplifier, what GEOS runs), plain Douglas–Peucker otherwise.
 */
export function simplify(array: GeometryArray, tolerance: number, preserveTopology = true): GeometryArray {
  if (!(tolerance >= 0)) throw new RangeError(`simplify: tolerance must be >= 0, got ${tolerance}`);
  const simplifier = preserveTopology ? TopologyPreservingSimplifier : DouglasPeuckerSimplifier;
  return mapJsts(array, (g) => simplifier.simplify(g, tolerance));
}

/** The convex hull of each row (a Point or LineString where the row is degenerate, as GEOS). */
export function convexHull(array: GeometryArray): GeometryArray {
  return mapJsts(array, (g) => new ConvexHull(g).getConvexHull());
}

/**
 * The bounding rectangle of each row, straight from the bounds (GEOS semantics: a Point where the
 * bounds are a point, else a Polygon — degenerate for a horizontal or vertical line — and POINT
 * EMPTY for an empty row).
 */
export function envelope(array: GeometryArray): GeometryArray {
  const box = bounds(array);
  let points = 0;
  let polygons = 0;
  const kind = new Uint8Array(array.length); // 0 null, 1 point, 2 polygon
  for (let i = 0; i < array.length; i++) {
    if (array.isNull(i)) continue;
    const [x0, y0, x1, y1] = [box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]];
    kind[i] = Number.isNaN(x0) || (x0 === x1 && y0 === y1) ? 1 : 2;
    if (kind[i] === 1) points++;
    else polygons++;
  }
  const type = points > 0 && polygons > 0 ? 'mixed' : points > 0 ? GeometryType.Point : GeometryType.Polygon;
  const b = new GeometryBuilder(type);
  for (let i = 0; i < array.length; i++) {
    const [x0, y0, x1, y1] = [box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]];
    if (kind[i] === 0) b.appendNull();
    else if (Number.isNaN(x0)) b.appendEmpty(GeometryType.Point);
    else if (kind[i] === 1) b.appendPoint(x0, y0);
    else {
      b.beginGeometry(GeometryType.Polygon);
      b.beginPart();
      b.beginRing();
      b.pushXY(x0, y0);
      b.pushXY(x1, y0);
      b.pushXY(x1, y1);
      b.pushXY(x0, y1);
      b.pushXY(x0, y0);
      b.endGeometry();
    }
  }
  return b.finish(array.crs);
}

/** 1 where the row is valid (OGC rules, JTS' IsValidOp); 0 for null rows, as GeoPandas' `is_valid`. */
export function isValid(array: GeometryArray): Uint8Array {
  const out = new Uint8Array(array.length);
  for (let i = 0; i < array.length; i++) {
    const g = toJsts(array, i);
    out[i] = g !== null && IsValidOp.isValid(g) ? 1 : 0;
  }
  return out;
}
