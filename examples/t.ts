import { GeoSeries } from '../packages/geo/dist/index.js';
const s = GeoSeries.fromWKT(['POINT (1 2)', 'POINT (3 4)']);
console.log(String(s));
const v = await s.voronoiPolygons();
console.log(String(v));
