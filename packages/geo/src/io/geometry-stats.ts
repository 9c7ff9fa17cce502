import { type Dimension, type GeometryArray, type GeometryType, geometryTypeName } from '@geoframe/core';

const SUFFIX: Record<Dimension, string> = { xy: '', xyz: ' Z', xym: ' M', xyzm: ' ZM' };
const DIMENSION_ORDER: Record<Dimension, number> = { xy: 0, xyz: 1, xym: 2, xyzm: 3 };

/**
 * Accumulates, over the batches of one geometry column, what GeoParquet's `geometry_types` and
 * `bbox` say: the type of every non-null row (empty rows count, as GeoPandas counts them) with
 * " Z"/" M"/" ZM" for the dimension, and the 2D extent of all coordinates of non-null rows
 * (NaN coordinates of empty points skipped).
 */
export class GeometryStats {
  /** Type name by sort key (type code, then dimension). */
  private readonly types = new Map<number, string>();
  private xmin = Number.POSITIVE_INFINITY;
  private ymin = Number.POSITIVE_INFINITY;
  private xmax = Number.NEGATIVE_INFINITY;
  private ymax = Number.NEGATIVE_INFINITY;

  add(array: GeometryArray): void {
    const suffix = SUFFIX[array.dimension];
    const seen = new Set<GeometryType>();
    const c = array.coords;
    const s = array.stride;
    for (let i = 0; i < array.length; i++) {
      const type = array.typeOf(i);
      if (type === null) continue;
      seen.add(type);
      const [lo, hi] = array.coordRange(i);
      for (let k = lo; k < hi; k++) {
        const x = c[k * s];
        const y = c[k * s + 1];
        // comparisons with NaN are false, so empty points change nothing
        if (x < this.xmin) this.xmin = x;
        if (x > this.xmax) this.xmax = x;
        if (y < this.ymin) this.ymin = y;
        if (y > this.ymax) this.ymax = y;
      }
    }
    for (const t of seen)
      this.types.set(t * 4 + DIMENSION_ORDER[array.dimension], geometryTypeName(t) + suffix);
  }

  /** The distinct type names, in order of type code then dimension. */
  geometryTypes(): string[] {
    return [...this.types.keys()].sort((a, b) => a - b).map((k) => this.types.get(k)!);
  }

  /** [xmin, ymin, xmax, ymax], or null when no row has a coordinate. */
  bbox(): [number, number, number, number] | null {
    if (this.xmin > this.xmax) return null;
    return [this.xmin, this.ymin, this.xmax, this.ymax];
  }
}
