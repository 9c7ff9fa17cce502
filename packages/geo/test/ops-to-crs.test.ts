import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { beforeAll, expect, it } from 'vitest';
import {
  type Answer,
  describeWithGeoPandas,
  flatCoords,
  fromHex,
  hexWkb,
  reference,
} from './ops/reference.js';

/** `n` seeded lon/lat points in a box. */
function points(seed: number, n: number, [x0, y0, x1, y1]: number[], crs: string | object): GeoSeries {
  const rand = mulberry32(seed);
  const xs = Array.from({ length: n }, () => x0 + (x1 - x0) * rand());
  const ys = Array.from({ length: n }, () => y0 + (y1 - y0) * rand());
  return GeoSeries.fromXY(xs, ys, { crs: crs as string });
}

/** Polygons with holes, multipolygons, lines, null and empty rows around (lon, lat). */
function shapes(lon: number, lat: number): GeoSeries {
  const r = (dx: number, dy: number) => `${lon + dx} ${lat + dy}`;
  return GeoSeries.fromWKT(
    [
      `POLYGON ((${r(0, 0)}, ${r(1, 0)}, ${r(1, 1)}, ${r(0, 1)}, ${r(0, 0)}), (${r(0.2, 0.2)}, ${r(0.2, 0.4)}, ${r(0.4, 0.4)}, ${r(0.4, 0.2)}, ${r(0.2, 0.2)}))`,
      null,
      'POLYGON EMPTY',
      `MULTIPOLYGON (((${r(-1, -1)}, ${r(-0.5, -1)}, ${r(-0.5, -0.5)}, ${r(-1, -1)})), ((${r(2, 2)}, ${r(3, 2)}, ${r(3, 3)}, ${r(2, 2)})))`,
      `LINESTRING (${r(0, 0)}, ${r(0.5, 2)}, ${r(-2, 1)})`,
      `POINT (${r(0.1, 0.1)})`,
      'POINT EMPTY',
    ],
    { crs: 'EPSG:4326' },
  );
}

interface Case {
  name: string;
  input: GeoSeries;
  target: string | object;
  tolerance: number;
}

const laea = '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +units=m +no_defs';
const lcc =
  '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m +no_defs';
const cases: Case[] = [
  {
    name: 'world to web mercator',
    input: points(1, 400, [-180, -85, 180, 85], 'EPSG:4326'),
    target: 'EPSG:3857',
    tolerance: 1e-6,
  },
  { name: 'shapes to UTM 33N', input: shapes(15, 52), target: 'EPSG:32633', tolerance: 1e-6 },
  {
    name: 'south to UTM 18S',
    input: points(2, 300, [-78, -40, -72, -0.5], 'EPSG:4326'),
    target: 'EPSG:32718',
    tolerance: 1e-6,
  },
  {
    name: 'antimeridian to UTM 60N',
    input: points(3, 200, [177, 10, 180, 60], 'EPSG:4326'),
    target: 'EPSG:32660',
    tolerance: 1e-6,
  },
  {
    name: 'Europe to LAEA (proj string)',
    input: points(4, 300, [-10, 35, 30, 70], 'EPSG:4326'),
    target: laea,
    tolerance: 1e-6,
  },
  {
    name: 'France to Lambert (proj string)',
    input: points(5, 300, [-5, 42, 8, 51], 'OGC:CRS84'),
    target: lcc,
    tolerance: 1e-6,
  },
];
// projected sources: the inverse direction, and projected to projected
const mercator = points(6, 300, [-2e7, -1.9e7, 2e7, 1.9e7], 'EPSG:3857');
const utm33 = points(7, 300, [300000, 5.5e6, 700000, 6.5e6], 'EPSG:32633');
cases.push(
  { name: 'web mercator to lon/lat', input: mercator, target: 'EPSG:4326', tolerance: 1e-9 },
  { name: 'UTM 33N to UTM 34N', input: utm33, target: 'EPSG:32634', tolerance: 1e-6 },
  { name: 'UTM 33N to lon/lat', input: utm33, target: 'EPSG:4326', tolerance: 1e-11 },
);

let answers: Answer[];
let projjson: Answer[];
const projjsonCodes = ['EPSG:3035', 'EPSG:2154', 'EPSG:32633', 'EPSG:4326'];
const projjsonInput = points(8, 300, [-5, 42, 25, 60], 'EPSG:4326');

describeWithGeoPandas('toCrs and estimateUtmCrs against pyproj', () => {
  beforeAll(() => {
    projjson = reference(projjsonCodes.map((crs) => ({ op: 'projjson', crs })));
    answers = reference(
      cases.map((c) => ({
        op: 'to_crs',
        wkb: hexWkb(c.input),
        crs: c.input.crs,
        target: c.target,
      })),
    );
  });

  it.each(cases.map((c, i) => [c.name, i] as const))('%s: every coordinate as pyproj', (_, i) => {
    const c = cases[i];
    const ours = c.input.toCrs(c.target as string);
    expect(ours.crs).toEqual(c.target);
    expect(ours.isNull).toEqual(c.input.isNull);
    expect(ours.isEmpty).toEqual(c.input.isEmpty);
    expect(ours.geomType).toEqual(c.input.geomType);
    const theirs: number[] = answers[i].coords;
    const mine = flatCoords(ours);
    expect(mine.length).toBe(theirs.length);
    let worst = 0;
    for (let k = 0; k < mine.length; k++) worst = Math.max(worst, Math.abs(mine[k] - theirs[k]));
    expect(worst, c.name).toBeLessThan(c.tolerance);
  });

  it('PROJJSON targets and sources as pyproj writes them (codes proj4 does not know)', () => {
    const tasks = projjson.map((p) => ({
      op: 'to_crs',
      wkb: hexWkb(projjsonInput),
      crs: 'EPSG:4326',
      target: p.projjson,
    }));
    const theirs = reference(tasks);
    // and back from pyproj's projected coordinates: a PROJJSON source
    const inverse = reference(
      projjson.map((p, i) => ({ op: 'to_crs', wkb: theirs[i].wkb, crs: p.projjson, target: 'EPSG:4326' })),
    );
    projjson.forEach((p, i) => {
      const code = projjsonCodes[i];
      const ours = projjsonInput.toCrs(p.projjson);
      const mine = flatCoords(ours);
      const worst = Math.max(...mine.map((v, k) => Math.abs(v - theirs[i].coords[k])));
      expect(worst, code).toBeLessThan(code === 'EPSG:4326' ? 1e-12 : 1e-6);
      const back = flatCoords(fromHex(theirs[i].wkb, null).setCrs(p.projjson).toCrs('EPSG:4326'));
      const worstBack = Math.max(...back.map((v, k) => Math.abs(v - inverse[i].coords[k])));
      // proj4's inverse of LAEA's authalic latitude is a series, PROJ's another: up to 6e-9° (0.7 mm) apart
      expect(worstBack, code).toBeLessThan(code === 'EPSG:3035' ? 1e-8 : 1e-10);
    });
  });

  it('estimateUtmCrs as GeoPandas: seeded centres, zone boundaries, poles, projected input', () => {
    const rand = mulberry32(9);
    const inputs: GeoSeries[] = [];
    for (let i = 0; i < 6; i++) {
      const lon = -180 + 360 * rand();
      const lat = -88 + 176 * rand();
      inputs.push(
        points(100 + i, 5, [Math.max(-180, lon - 1), lat - 1, Math.min(180, lon + 1), lat + 1], 'EPSG:4326'),
      );
    }
    for (const [lon, lat] of [
      [0, 0],
      [6, 10],
      [-180, 10],
      [180, 10],
      [3, 84],
      [3, 84.5],
      [3, -80],
      [3, -80.5],
      [-3, -5],
      [179.99, -1],
    ]) {
      inputs.push(GeoSeries.fromXY([lon], [lat], { crs: 'EPSG:4326' }));
    }
    inputs.push(mercator, utm33);
    const theirs = reference(inputs.map((s) => ({ op: 'estimate_utm', wkb: hexWkb(s), crs: s.crs })));
    inputs.forEach((s, i) => {
      if (theirs[i].error) {
        expect(() => s.estimateUtmCrs(), theirs[i].error).toThrow(/no UTM zone/);
      } else {
        expect(s.estimateUtmCrs(), `input ${i}`).toBe(theirs[i].crs);
      }
    });
  });
});

it('a frame transforms its active geometry and keeps its columns', () => {
  const frame = GeoDataFrame.fromGeoJSON({
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', properties: { a: 1 }, geometry: { type: 'Point', coordinates: [15, 52] } },
      { type: 'Feature', properties: { a: 2 }, geometry: null },
    ],
  });
  const utm = frame.toCrs(frame.estimateUtmCrs());
  expect(utm.crs).toBe('EPSG:32633');
  expect([...(utm.get('a') as { toArray(): ArrayLike<bigint> }).toArray()].map(Number)).toEqual([1, 2]);
  expect([...utm.geometry.isNull]).toEqual([0, 1]);
  const back = utm.toCrs('EPSG:4326').geometry;
  expect(Math.abs(back.x[0] - 15) + Math.abs(back.y[0] - 52)).toBeLessThan(1e-9);
});

it('errors: no CRS, unknown codes and definitions, coordinates outside the domain', () => {
  const naive = GeoSeries.fromXY([1], [2]);
  expect(() => naive.toCrs('EPSG:3857')).toThrow(/not set.*setCrs/);
  const lonlat = GeoSeries.fromXY([1, 2], [2, 3], { crs: 'EPSG:4326' });
  expect(() => lonlat.toCrs('EPSG:999999')).toThrow(/unknown CRS EPSG:999999/);
  expect(() => lonlat.toCrs('EPSG:2154')).toThrow(/PROJJSON, WKT or a proj string/);
  expect(() => lonlat.toCrs('+proj=nonsense')).toThrow(/CRS/);
  const pole = GeoSeries.fromXY([0, 10], [0, 90], { crs: 'EPSG:4326' });
  expect(() => pole.toCrs('EPSG:3857')).toThrow(/row 1: coordinate \(10, 90\)/);
  expect(() => GeoSeries.fromWKT([null, 'POINT EMPTY'], { crs: 'EPSG:4326' }).estimateUtmCrs()).toThrow(
    /no coordinates/,
  );
});

it('Voronoi on a geographic CRS warns as GeoPandas does for area, and not on a projected one', async () => {
  const warnings: string[] = [];
  const listen = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', listen);
  try {
    const lonlat = points(10, 20, [10, 50, 12, 52], 'EPSG:4326');
    await lonlat.voronoiPolygons();
    await GeoDataFrame.fromSeries(lonlat).voronoiPolygons();
    await lonlat.toCrs(lonlat.estimateUtmCrs()).voronoiPolygons();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', listen);
  }
  const ours = warnings.filter((w) => w.startsWith('GeographicCrsWarning'));
  expect(ours).toHaveLength(2);
  expect(ours[0]).toMatch(/geographic CRS.*'voronoiPolygons'.*toCrs\(series.estimateUtmCrs\(\)\)/);
});

it('Voronoi clipTo/extendTo in another CRS than the sites is an error; CRS84 and EPSG:4326 agree', async () => {
  const sites = points(12, 30, [300000, 5.7e6, 310000, 5.71e6], 'EPSG:32633');
  const region = GeoSeries.fromWKT(
    ['POLYGON ((300000 5700000, 310000 5700000, 310000 5710000, 300000 5700000))'],
    {
      crs: 'EPSG:32633',
    },
  );
  expect((await sites.voronoiPolygons({ clipTo: region })).length).toBeGreaterThan(0);
  await expect(sites.voronoiPolygons({ clipTo: region.toCrs('EPSG:4326') })).rejects.toThrow(
    /clipTo: the inputs are in different CRS \(EPSG:32633 and EPSG:4326\)/,
  );
  await expect(
    GeoDataFrame.fromSeries(sites).voronoiPolygons({
      extendTo: region.setCrs('EPSG:3857', { allowOverride: true }),
    }),
  ).rejects.toThrow(/extendTo/);
  const lonlat = GeoSeries.fromXY([1, 2, 1.5], [1, 1, 2], { crs: 'OGC:CRS84' });
  const box = GeoSeries.fromWKT(['POLYGON ((0 0, 3 0, 3 3, 0 3, 0 0))'], { crs: 'EPSG:4326' });
  expect((await lonlat.voronoiPolygons({ clipTo: box })).length).toBe(3);
  const frame = GeoDataFrame.fromSeries(lonlat).setCrs('EPSG:3857', { allowOverride: true });
  expect(frame.crs).toBe('EPSG:3857');
  expect(frame.geometry.x).toEqual(lonlat.x);
});
