import type { Crs } from '@geoframe/core';
import { checkSameCrs, isGeographicCrs } from './crs-resolve.js';

/**
 * Warns (as GeoPandas does for `area` and friends) when a planar operation runs on longitude/
 * latitude: Voronoi cells of degrees are not the service areas of a map in metres. Node's
 * `process.emitWarning` (name 'GeographicCrsWarning'), else `console.warn` in a browser.
 */
export function warnIfGeographic(crs: Crs | null, operation: string): void {
  if (!isGeographicCrs(crs)) return;
  const message =
    `Geometry is in a geographic CRS. Results from '${operation}' are likely incorrect: it is planar. ` +
    "Use 'toCrs(series.estimateUtmCrs())' (or another projected CRS) before this operation.";
  const node = (globalThis as { process?: { emitWarning?: (m: string, name: string) => void } }).process;
  if (node?.emitWarning) node.emitWarning(message, 'GeographicCrsWarning');
  else console.warn(message);
}

/**
 * The checks `voronoiPolygons` makes on its inputs' CRS: a `clipTo` or `extendTo` geometry in
 * another CRS than the sites is a `CrsError` (without it, cells and region would not meet and
 * every cell would come out empty); geographic sites warn (see {@link warnIfGeographic}).
 */
export function checkVoronoiCrs(
  crs: Crs | null,
  options: { clipTo?: { crs: Crs | null }; extendTo?: { crs: Crs | null } | readonly number[] },
): void {
  if (options.clipTo) checkSameCrs(crs, options.clipTo.crs, 'voronoiPolygons clipTo');
  if (options.extendTo && 'crs' in options.extendTo)
    checkSameCrs(crs, options.extendTo.crs, 'voronoiPolygons extendTo');
  warnIfGeographic(crs, 'voronoiPolygons');
}
