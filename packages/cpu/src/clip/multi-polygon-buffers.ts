/**
 * Output buffers of one MultiPolygon per input cell, GeoArrow-ready (interleaved xy; offsets are
 * coordinate, ring and polygon indices, as in GeoArrow's multipolygon layout).
 */
export interface MultiPolygonBuffers {
  /** Interleaved xy of every ring, rings back to back. */
  coords: Float64Array;
  /** Ring → first coordinate; `rings + 1` entries. Rings are closed (first = last coordinate). */
  ringOffsets: Int32Array;
  /** Polygon → first ring; `polygons + 1` entries. A polygon's first ring is its exterior. */
  polygonOffsets: Int32Array;
  /**
   * Geometry (cell) → first polygon; `cells + 1` entries. Cell `i` is polygons
   * `[geometryOffsets[i], geometryOffsets[i + 1])`; none means an empty result.
   */
  geometryOffsets: Int32Array;
}

/** Appends rings, polygons and geometries to growable typed arrays. */
export class MultiPolygonWriter {
  private coords: Float64Array;
  private ringOffsets: Int32Array;
  private polygonOffsets: Int32Array;
  private readonly geometryOffsets: Int32Array;
  private nCoords = 0;
  private nRings = 0;
  private nPolygons = 0;
  private nGeometries = 0;

  constructor(geometries: number, coordCapacity: number) {
    this.coords = new Float64Array(Math.max(16, 2 * coordCapacity));
    this.ringOffsets = new Int32Array(Math.max(8, geometries + 1));
    this.polygonOffsets = new Int32Array(Math.max(8, geometries + 1));
    this.geometryOffsets = new Int32Array(geometries + 1);
  }

  /** Ends the current geometry (cell): it holds the polygons added since the last call. */
  endGeometry(): void {
    this.geometryOffsets[++this.nGeometries] = this.nPolygons;
  }

  /** Ends the current polygon: it holds the rings added since the last call (exterior first). */
  endPolygon(): void {
    if (this.nPolygons + 2 > this.polygonOffsets.length) this.polygonOffsets = grow(this.polygonOffsets);
    this.polygonOffsets[++this.nPolygons] = this.nRings;
  }

  /** Appends one coordinate to the current ring. */
  push(x: number, y: number): void {
    if (2 * this.nCoords + 2 > this.coords.length) {
      const bigger = new Float64Array(2 * this.coords.length);
      bigger.set(this.coords);
      this.coords = bigger;
    }
    this.coords[2 * this.nCoords] = x;
    this.coords[2 * this.nCoords + 1] = y;
    this.nCoords++;
  }

  /** Copies coordinates `[lo, hi)` of `src` (interleaved xy) into the current ring. */
  pushRange(src: Float64Array, lo: number, hi: number): void {
    const need = 2 * (this.nCoords + hi - lo);
    if (need > this.coords.length) {
      const bigger = new Float64Array(Math.max(need, 2 * this.coords.length));
      bigger.set(this.coords);
      this.coords = bigger;
    }
    this.coords.set(src.subarray(2 * lo, 2 * hi), 2 * this.nCoords);
    this.nCoords += hi - lo;
  }

  /** Ends the current ring: it holds the coordinates pushed since the last call. */
  endRing(): void {
    if (this.nRings + 2 > this.ringOffsets.length) this.ringOffsets = grow(this.ringOffsets);
    this.ringOffsets[++this.nRings] = this.nCoords;
  }

  /** The buffers, trimmed to size. */
  finish(): MultiPolygonBuffers {
    return {
      coords: this.coords.slice(0, 2 * this.nCoords),
      ringOffsets: this.ringOffsets.slice(0, this.nRings + 1),
      polygonOffsets: this.polygonOffsets.slice(0, this.nPolygons + 1),
      geometryOffsets: this.geometryOffsets.slice(0, this.nGeometries + 1),
    };
  }
}

function grow(a: Int32Array): Int32Array {
  const bigger = new Int32Array(2 * a.length);
  bigger.set(a);
  return bigger;
}
