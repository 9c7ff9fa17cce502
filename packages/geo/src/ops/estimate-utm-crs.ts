import { type GeometryArray, totalBounds } from '@geoframe/core';
import proj4 from 'proj4';
import { CrsError, resolveCrs } from './crs-resolve.js';

/**
 * The WGS 84 / UTM zone for the centre of the data's bounds (GeoPandas' `estimate_utm_crs`), as
 * "EPSG:326zz" (north) or "EPSG:327zz" (south). The bounds are taken in the data's CRS and their
 * edges transformed to longitude/latitude when it is projected. Like pyproj's query, a centre
 * on a zone boundary takes the lower code (the western zone; on the equator, north), and a
 * centre beyond 84°N or 80°S has no UTM zone: an error.
 */
export function estimateUtmCrs(array: GeometryArray): string {
  const from = resolveCrs(array.crs, 'the CRS');
  let [minx, miny, maxx, maxy] = totalBounds(array);
  if (![minx, miny, maxx, maxy].every(Number.isFinite)) {
    throw new CrsError('estimateUtmCrs: the series has no coordinates (all rows null or empty)');
  }
  if (!from.geographic) {
    const wgs84 = resolveCrs('EPSG:4326').projection;
    const converter = proj4(from.projection, wgs84);
    // the bounds' edges densified (21 points each, as pyproj's transform_bounds) to lon/lat
    const xs: number[] = [];
    const ys: number[] = [];
    for (let k = 0; k <= 20; k++) {
      const fx = minx + ((maxx - minx) * k) / 20;
      const fy = miny + ((maxy - miny) * k) / 20;
      for (const [x, y] of [
        [fx, miny],
        [fx, maxy],
        [minx, fy],
        [maxx, fy],
      ]) {
        const p = converter.forward({ x, y });
        xs.push(p.x);
        ys.push(p.y);
      }
    }
    minx = Math.min(...xs);
    maxx = Math.max(...xs);
    miny = Math.min(...ys);
    maxy = Math.max(...ys);
  }
  const lon = (minx + maxx) / 2;
  const lat = (miny + maxy) / 2;
  if (!(lat >= -80 && lat <= 84) || !(lon >= -180 && lon <= 180)) {
    throw new CrsError(`estimateUtmCrs: no UTM zone covers the centre (${lon}, ${lat})`);
  }
  const zone = Math.min(60, Math.max(1, Math.ceil((lon + 180) / 6)));
  return `EPSG:${lat >= 0 ? 326 : 327}${String(zone).padStart(2, '0')}`;
}
