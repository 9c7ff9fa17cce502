/**
 * GeoArrow-ready output buffers of the Voronoi/Delaunay engine. Coordinates are interleaved xy;
 * offsets are coordinate indices (not array positions), as in GeoArrow.
 */

/** One polygon (a single ring) per cell or triangle. */
export interface PolygonBuffers {
  /** Interleaved xy of every ring, rings back to back. */
  coords: Float64Array;
  /** `polygons + 1` entries: ring `i` is coordinates `[ringOffsets[i], ringOffsets[i + 1])`. */
  ringOffsets: Int32Array;
}

/** Two-point line parts (edges), ready for a MultiLineString. */
export interface LineBuffers {
  /** Interleaved xy of every part. */
  coords: Float64Array;
  /** `parts + 1` entries: part `i` is coordinates `[partOffsets[i], partOffsets[i + 1])`. */
  partOffsets: Int32Array;
}

/** A Delaunay triangulation in delaunator's half-edge form (the interface a GPU Delaunay also implements). */
export interface Triangulation {
  /**
   * Site indices, three per triangle. Triangles are clockwise in a y-up frame (delaunator's
   * convention: counter-clockwise with y pointing down).
   */
  triangles: Uint32Array;
  /** For each half-edge, its twin in the adjacent triangle, or -1 on the convex hull. */
  halfedges: Int32Array;
  /** Sites on the convex hull, in the same rotational order as the triangles. */
  hull: Uint32Array;
}

/** Buffers of zero polygons. */
export function emptyPolygons(): PolygonBuffers {
  return { coords: new Float64Array(0), ringOffsets: new Int32Array(1) };
}

/** Buffers of zero lines. */
export function emptyLines(): LineBuffers {
  return { coords: new Float64Array(0), partOffsets: new Int32Array(1) };
}

/** Half-edge arithmetic: the next half-edge in the same triangle. */
export function nextHalfedge(e: number): number {
  return e % 3 === 2 ? e - 2 : e + 1;
}

/** Half-edge arithmetic: the previous half-edge in the same triangle. */
export function prevHalfedge(e: number): number {
  return e % 3 === 0 ? e + 2 : e - 1;
}
