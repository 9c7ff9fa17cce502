// Checks shared by the Voronoi/Delaunay tests: ring measures, validity, and jsts references.
import type { Box } from '@geoframe/core';
import type { LineBuffers, PolygonBuffers } from '@geoframe/cpu';
import 'jsts/org/locationtech/jts/monkey.js';
import ArrayList from 'jsts/java/util/ArrayList.js';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import Envelope from 'jsts/org/locationtech/jts/geom/Envelope.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import DelaunayTriangulationBuilder from 'jsts/org/locationtech/jts/triangulate/DelaunayTriangulationBuilder.js';
import VoronoiDiagramBuilder from 'jsts/org/locationtech/jts/triangulate/VoronoiDiagramBuilder.js';
import { orient2d } from 'robust-predicates';

/** Signed shoelace area of ring `r` (positive when counter-clockwise). */
export function ringArea(p: PolygonBuffers, r: number): number {
  const c = p.coords;
  const lo = p.ringOffsets[r];
  const hi = p.ringOffsets[r + 1];
  let s = 0;
  for (let k = lo; k + 1 < hi; k++) s += c[2 * k] * c[2 * k + 3] - c[2 * k + 2] * c[2 * k + 1];
  return s / 2;
}

/** Signed area computed around the ring's first vertex (accurate far from the origin). */
export function ringAreaLocal(p: PolygonBuffers, r: number): number {
  const c = p.coords;
  const lo = p.ringOffsets[r];
  const hi = p.ringOffsets[r + 1];
  const ox = c[2 * lo];
  const oy = c[2 * lo + 1];
  let s = 0;
  for (let k = lo; k + 1 < hi; k++) {
    s += (c[2 * k] - ox) * (c[2 * k + 3] - oy) - (c[2 * k + 2] - ox) * (c[2 * k + 1] - oy);
  }
  return s / 2;
}

/** Strict point-in-ring test by crossing count (points on the boundary may go either way). */
export function ringContains(p: PolygonBuffers, r: number, x: number, y: number): boolean {
  const c = p.coords;
  const lo = p.ringOffsets[r];
  const hi = p.ringOffsets[r + 1];
  let inside = false;
  for (let k = lo; k + 1 < hi; k++) {
    const x1 = c[2 * k];
    const y1 = c[2 * k + 1];
    const x2 = c[2 * k + 2];
    const y2 = c[2 * k + 3];
    if (y1 > y !== y2 > y && x < ((x2 - x1) * (y - y1)) / (y2 - y1) + x1) inside = !inside;
  }
  return inside;
}

/** Exact orientation (positive = counter-clockwise in y-up; robust-predicates' sign is the opposite). */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return -orient2d(ax, ay, bx, by, cx, cy);
}

function segmentsIntersect(c: Float64Array, i: number, j: number): boolean {
  const [ax, ay, bx, by] = [c[2 * i], c[2 * i + 1], c[2 * i + 2], c[2 * i + 3]];
  const [px, py, qx, qy] = [c[2 * j], c[2 * j + 1], c[2 * j + 2], c[2 * j + 3]];
  const d1 = orient(ax, ay, bx, by, px, py);
  const d2 = orient(ax, ay, bx, by, qx, qy);
  const d3 = orient(px, py, qx, qy, ax, ay);
  const d4 = orient(px, py, qx, qy, bx, by);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (x: number, y: number, sx: number, sy: number, tx: number, ty: number, d: number) =>
    d === 0 &&
    Math.min(sx, tx) <= x &&
    x <= Math.max(sx, tx) &&
    Math.min(sy, ty) <= y &&
    y <= Math.max(sy, ty);
  return (
    on(px, py, ax, ay, bx, by, d1) ||
    on(qx, qy, ax, ay, bx, by, d2) ||
    on(ax, ay, px, py, qx, qy, d3) ||
    on(bx, by, px, py, qx, qy, d4)
  );
}

/**
 * Why ring `r` is not a valid simple polygon ring, or null: fewer than 4 points, not closed,
 * a zero-length edge, two non-adjacent edges touching (O(k²)), or not counter-clockwise.
 */
export function ringProblem(p: PolygonBuffers, r: number): string | null {
  const c = p.coords;
  const lo = p.ringOffsets[r];
  const hi = p.ringOffsets[r + 1];
  const k = hi - lo;
  if (k < 4) return `ring ${r} has ${k} points`;
  if (c[2 * lo] !== c[2 * hi - 2] || c[2 * lo + 1] !== c[2 * hi - 1]) return `ring ${r} is not closed`;
  for (let a = lo; a + 1 < hi; a++) {
    if (c[2 * a] === c[2 * a + 2] && c[2 * a + 1] === c[2 * a + 3]) return `ring ${r} has a zero-length edge`;
  }
  const edges = k - 1;
  for (let a = 0; a < edges; a++) {
    for (let b = a + 2; b < edges; b++) {
      if (a === 0 && b === edges - 1) continue; // adjacent through the closing point
      if (segmentsIntersect(c, lo + a, lo + b)) return `ring ${r}: edges ${a} and ${b} intersect`;
    }
  }
  if (!(ringAreaLocal(p, r) > 0)) return `ring ${r} is not counter-clockwise (area ${ringAreaLocal(p, r)})`;
  return null;
}

/** Total length of line parts. */
export function totalLength(lines: LineBuffers): number {
  const c = lines.coords;
  const o = lines.partOffsets;
  let s = 0;
  for (let i = 0; i + 1 < o.length; i++) {
    for (let k = o[i]; k + 1 < o[i + 1]; k++)
      s += Math.hypot(c[2 * k + 2] - c[2 * k], c[2 * k + 3] - c[2 * k + 1]);
  }
  return s;
}

const factory = new GeometryFactory();

function coordinateList(xy: Float64Array): ArrayList {
  const list = new ArrayList();
  for (let i = 0; i + 1 < xy.length; i += 2) list.add(new Coordinate(xy[i], xy[i + 1]));
  return list;
}

/** A jsts (JTS) Voronoi cell: its area, perimeter, site, and a containment test. */
export interface JstsCell {
  area: number;
  perimeter: number;
  siteX: number;
  siteY: number;
  contains(x: number, y: number): boolean;
}

/**
 * jsts (JTS — the algorithm GEOS ports) Voronoi cells of the sites, clipped to `box`. jsts 2.12
 * grows the site box by its diagonal by default and a clip envelope replaces the box, so the box
 * is handed over explicitly. JTS tags each cell with its site coordinate.
 */
export function jstsVoronoi(xy: Float64Array, box: Box): JstsCell[] {
  const builder = new VoronoiDiagramBuilder();
  builder.setSites(coordinateList(xy));
  builder.setClipEnvelope(new Envelope(box.minX, box.maxX, box.minY, box.maxY));
  const diagram = builder.getDiagram(factory);
  const cells: JstsCell[] = [];
  for (let i = 0; i < diagram.getNumGeometries(); i++) {
    const g = diagram.getGeometryN(i);
    const site = g.getUserData() as Coordinate;
    cells.push({
      area: g.getArea(),
      perimeter: g.getLength(),
      siteX: site.x,
      siteY: site.y,
      contains: (x: number, y: number) => g.contains(factory.createPoint(new Coordinate(x, y))),
    });
  }
  return cells;
}

/**
 * jsts (JTS) Delaunay triangulation: its triangles as sorted "i,j,k" site-index keys, and the
 * convex hull's area and vertex count. JTS triangulates inside a finite frame triangle, so it
 * can miss thin triangles along the convex hull; compare with {@link jstsDelaunay}'s hull.
 */
export function jstsDelaunay(xy: Float64Array): {
  triangleKeys: string[];
  hullArea: number;
  hullVertices: number;
} {
  const index = new Map<string, number>();
  for (let i = 0; i + 1 < xy.length; i += 2) index.set(`${xy[i]},${xy[i + 1]}`, i / 2);
  const builder = new DelaunayTriangulationBuilder();
  builder.setSites(coordinateList(xy));
  const tris = builder.getTriangles(factory);
  const triangleKeys: string[] = [];
  for (let t = 0; t < tris.getNumGeometries(); t++) {
    const cs = tris.getGeometryN(t).getCoordinates();
    const ids = [0, 1, 2].map((k) => index.get(`${cs[k].x},${cs[k].y}`)!).sort((a, b) => a - b);
    triangleKeys.push(ids.join(','));
  }
  const hull = factory.createMultiPointFromCoords(coordinateList(xy).toArray()).convexHull();
  return { triangleKeys, hullArea: hull.getArea(), hullVertices: hull.getNumPoints() - 1 };
}
