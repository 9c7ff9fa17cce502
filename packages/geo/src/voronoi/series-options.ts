import { GeometryArray } from '@geoframe/core';
import type { VoronoiOptions } from './voronoi-polygons.js';

/** Anything that holds a geometry column, as a GeoSeries does (its `array`). */
export interface HoldsGeometry {
  readonly array: GeometryArray;
}

/** {@link VoronoiOptions} where `extendTo` and `clipTo` may also be GeoSeries. */
export interface VoronoiSeriesOptions extends Omit<VoronoiOptions, 'extendTo' | 'clipTo'> {
  extendTo?: HoldsGeometry | GeometryArray | [number, number, number, number];
  clipTo?: HoldsGeometry | GeometryArray;
}

/** Unwraps GeoSeries options to the arrays the computation takes. */
export function voronoiOptionsOf(options: VoronoiSeriesOptions): VoronoiOptions {
  const unwrap = <T>(v: T) => {
    const held = (v as Partial<HoldsGeometry> | null | undefined)?.array;
    return held instanceof GeometryArray && !(v instanceof GeometryArray) ? held : v;
  };
  return {
    ...options,
    extendTo: unwrap(options.extendTo) as VoronoiOptions['extendTo'],
    clipTo: unwrap(options.clipTo) as VoronoiOptions['clipTo'],
  };
}
