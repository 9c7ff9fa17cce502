import type { GeometryArray } from '@geoframe/core';
import InteriorPointArea from 'jsts/org/locationtech/jts/algorithm/InteriorPointArea.js';
import PointLocation from 'jsts/org/locationtech/jts/algorithm/PointLocation.js';
import Polygonizer from 'jsts/org/locationtech/jts/operation/polygonize/Polygonizer.js';
import UnaryUnionOp from 'jsts/org/locationtech/jts/operation/union/UnaryUnionOp.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import { mapJsts } from './constructive.js';
import { factory, type JstsGeometry } from './jsts-geometry.js';

/**
 * Each row made valid (GeoPandas' `make_valid`, GEOS' default 'linework' method for areas):
 * valid rows are returned as they are; an invalid Polygon or MultiPolygon has all its rings
 * noded together and polygonized, and a face is kept where it lies inside an odd number of the
 * original rings (so a bow-tie becomes two triangles, a hole outside its shell a second polygon,
 * overlapping parts their symmetric difference). Where GEOS would also return collapsed lines or
 * points (zero-area spikes), geoframe keeps the areas only: a column cannot hold a collection.
 * Runs on jsts, one object per row.
 */
export function makeValid(array: GeometryArray): GeometryArray {
  return mapJsts(array, (g) => (g.getDimension() < 2 || IsValidOp.isValid(g) ? g : repairAreal(g)));
}

function repairAreal(g: JstsGeometry): JstsGeometry {
  const rings: JstsGeometry[] = [];
  for (let p = 0; p < g.getNumGeometries(); p++) {
    const polygon = g.getGeometryN(p);
    if (polygon.isEmpty()) continue;
    rings.push(polygon.getExteriorRing());
    for (let h = 0; h < polygon.getNumInteriorRing(); h++) rings.push(polygon.getInteriorRingN(h));
  }
  const lines = rings.map((r) => factory.createLineString(r.getCoordinates()));
  // the union of the lines nodes them at every crossing and removes duplicate segments
  const noded = UnaryUnionOp.union(factory.createMultiLineString(lines));
  const polygonizer = new Polygonizer();
  polygonizer.add(noded);
  const kept: JstsGeometry[] = [];
  for (const face of polygonizer.getPolygons().toArray()) {
    const inside = InteriorPointArea.getInteriorPoint(face);
    let parity = 0;
    for (const ring of rings) if (PointLocation.isInRing(inside, ring.getCoordinates())) parity ^= 1;
    if (parity === 1) kept.push(face);
  }
  if (kept.length === 0) return factory.createPolygon();
  return UnaryUnionOp.union(factory.createGeometryCollection(kept));
}
