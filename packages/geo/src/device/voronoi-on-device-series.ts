import type { GeometryArray } from '@geoframe/core';
import type { GeoSeries } from '../geo-series.js';
import { computeVoronoiOnDevice } from '../voronoi/voronoi-on-device.js';
import type { VoronoiOptions } from '../voronoi/voronoi-polygons.js';
import { DeviceGeoSeries } from './device-geo-series.js';

export { DeviceGeoSeries } from './device-geo-series.js';

/** `series.voronoiPolygons({keep: 'device'})`: the cells as a {@link DeviceGeoSeries}. */
export async function voronoiOnDevice(
  series: Pick<GeoSeries, 'array' | 'name' | 'crs'>,
  options: VoronoiOptions,
  wrap: (array: GeometryArray, name: string | null) => GeoSeries,
): Promise<DeviceGeoSeries> {
  const { cells } = await computeVoronoiOnDevice(series.array, options);
  return new DeviceGeoSeries(cells, { name: series.name, crs: series.crs, series: wrap });
}
