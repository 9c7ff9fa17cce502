import { type Crs, GeometryArray, GeometryType } from '@geoframe/core';

/** 0, 1, …, n as offsets: one child per item. */
export function identityOffsets(n: number): Int32Array {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) offsets[i] = i;
  return offsets;
}

/** A Polygon column of single-ring polygons from engine buffers (no copy). */
export function singleRingPolygons(
  coords: Float64Array,
  ringOffsets: Int32Array,
  crs: Crs | null,
): GeometryArray {
  const n = ringOffsets.length - 1;
  return new GeometryArray({
    type: GeometryType.Polygon,
    dimension: 'xy',
    coords,
    offsets: [identityOffsets(n), ringOffsets],
    length: n,
    crs,
  });
}

/** Multipolygon buffers in GeoArrow nesting: geometry → polygon → ring → coordinate. */
export interface MultiPolygonParts {
  coords: Float64Array;
  ringOffsets: Int32Array;
  polygonOffsets: Int32Array;
  geometryOffsets: Int32Array;
}

/**
 * A column from clipped cells, each row typed as shapely types an intersection: a cell of one
 * part is a Polygon, of several a MultiPolygon, of none an empty Polygon. The column is a Polygon
 * column when no cell has several parts (GeoArrow Polygon offsets are the multipolygon's polygon →
 * ring level), a MultiPolygon column when every non-empty cell has several, else a mixed column
 * with the type of each row (as a GeoPandas column holds both; adr/0023).
 */
export function clippedCells(parts: MultiPolygonParts, crs: Crs | null): GeometryArray {
  const { geometryOffsets: g, polygonOffsets, ringOffsets, coords } = parts;
  const n = g.length - 1;
  let multi = 0;
  let single = 0;
  for (let i = 0; i < n; i++) {
    const count = g[i + 1] - g[i];
    if (count > 1) multi++;
    else if (count === 1) single++;
  }
  if (multi > 0) {
    const mixed = single > 0;
    const typeIds = mixed ? new Uint8Array(n) : null;
    if (typeIds) {
      for (let i = 0; i < n; i++) {
        typeIds[i] = g[i + 1] - g[i] > 1 ? GeometryType.MultiPolygon : GeometryType.Polygon;
      }
    }
    return new GeometryArray({
      type: mixed ? 'mixed' : GeometryType.MultiPolygon,
      dimension: 'xy',
      coords,
      offsets: [g, polygonOffsets, ringOffsets],
      length: n,
      typeIds,
      crs,
    });
  }
  // each row has 0 or 1 polygon: row → rings is the polygon's ring range, or empty
  const rowRings = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    rowRings[i] = polygonOffsets[g[i]];
    rowRings[i + 1] = polygonOffsets[g[i + 1]];
  }
  return new GeometryArray({
    type: GeometryType.Polygon,
    dimension: 'xy',
    coords,
    offsets: [rowRings, ringOffsets],
    length: n,
    crs,
  });
}

/**
 * Rows of `cells` picked by `pick` (−1 → a null row): the `ordered` output, one row per input row.
 */
export function pickRows(cells: GeometryArray, pick: Int32Array): GeometryArray {
  const n = pick.length;
  const safe = new Int32Array(n);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const k = pick[i];
    if (k >= 0 && cells.isValid(k)) {
      safe[i] = k;
      validity[i >> 3] |= 1 << (i & 7);
    } else {
      nulls++;
    }
  }
  if (cells.length === 0) {
    // nothing to gather from: every row is null, with an empty geometry behind the null bit
    return new GeometryArray({
      type: cells.type,
      dimension: cells.dimension,
      coords: new Float64Array(0),
      offsets: cells.offsets.map((_, level) => (level === 0 ? new Int32Array(n + 1) : new Int32Array(1))),
      length: n,
      validity,
      crs: cells.crs,
    });
  }
  const taken = cells.take(safe);
  return new GeometryArray({ ...taken.parts(), validity: nulls > 0 ? validity : null, validityOffset: 0 });
}
