import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { python, runPython, usePython } from './python-reference.js';

interface ClipAnswer {
  index: number[];
  types: string[];
  areas: number[];
  intersection_types: string[];
}

/** A comb: a base with teeth, so that cells across a gap between teeth fall into two parts. */
function comb(x0: number, y0: number, w: number, h: number, teeth: number): string {
  const ring: string[] = [`${x0} ${y0}`, `${x0 + w} ${y0}`];
  const step = w / teeth;
  for (let t = teeth - 1; t >= 0; t--) {
    const left = x0 + t * step;
    ring.push(`${left + step} ${y0 + h}`, `${left + step / 2} ${y0 + h}`, `${left + step / 2} ${y0 + h / 4}`);
    ring.push(`${left + step / 4} ${y0 + h / 4}`, `${left + step / 4} ${y0 + h}`, `${left} ${y0 + h}`);
  }
  ring.push(`${x0} ${y0}`);
  return `POLYGON ((${ring.join(', ')}))`;
}

function framed(xy: Float64Array): GeoDataFrame {
  const features = [];
  for (let i = 0; i < xy.length / 2; i++) {
    features.push({
      type: 'Feature',
      properties: { id: i },
      geometry: { type: 'Point', coordinates: [xy[2 * i], xy[2 * i + 1]] },
    });
  }
  return GeoDataFrame.fromGeoJSON({ type: 'FeatureCollection', features });
}

describe.runIf(usePython)('clipTo keeps what geopandas.clip keeps, typed as GeoPandas types it', () => {
  it('GeoPandas is available (required in CI)', () => {
    expect(python, 'CI needs python with geopandas (.ci/run installs it)').not.toBeNull();
  });

  for (const seed of [2, 9]) {
    it(`rows, geometry types and areas equal gpd.clip(cells, region, keep_geom_type=True) (seed ${seed})`, async () => {
      const xy = generatePoints(seed === 2 ? 'uniform' : 'clusters', 300, seed);
      const frame = framed(xy);
      const region = comb(150, 200, 700, 500, 9);
      const cells = await frame.voronoiPolygons({ device: 'cpu' });
      const ids = [...(cells.get('id') as Iterable<bigint>)].map(Number);
      const answer = runPython<ClipAnswer>('geopandas_clip.py', { cells: cells.geometry.toWKT(), region });
      const clipped = await frame.voronoiPolygons({ clipTo: GeoSeries.fromWKT([region]), device: 'cpu' });
      // the same rows (by the id each cell keeps), in the same order, each of GeoPandas' type
      const wanted = answer.index.map((i) => ids[i]);
      const got = [...(clipped.get('id') as Iterable<bigint>)].map(Number);
      expect(got.slice().sort((a, b) => a - b)).toEqual(wanted.slice().sort((a, b) => a - b));
      const typeOfId = new Map(wanted.map((id, k) => [id, answer.types[k]]));
      const areaOfId = new Map(wanted.map((id, k) => [id, answer.areas[k]]));
      const types = clipped.geometry.geomType;
      const areas = clipped.area();
      for (let r = 0; r < got.length; r++) {
        expect(types[r], `cell of site ${got[r]}`).toBe(typeOfId.get(got[r]));
        expect(Math.abs(areas[r] - areaOfId.get(got[r])!)).toBeLessThan(1e-9 * 1e6);
      }
      // both kinds occur, so the column is honest per row (mixed), not promoted
      expect(new Set(types)).toEqual(new Set(['Polygon', 'MultiPolygon']));
      expect(clipped.geometry.array.type).toBe('mixed');
      // a one-part intersection is a Polygon in shapely too
      for (let r = 0; r < got.length; r++) {
        const k = ids.indexOf(got[r]);
        expect(types[r]).toBe(answer.intersection_types[k]);
      }
      // ordered: gpd.clip aligned to the input rows — null where clip dropped the row
      const ordered = await frame.voronoiPolygons({ clipTo: GeoSeries.fromWKT([region]), ordered: true });
      const kept = new Set(wanted);
      const orderedTypes = ordered.geometry.geomType;
      for (let i = 0; i < xy.length / 2; i++) {
        expect(orderedTypes[i], `row ${i}`).toBe(kept.has(i) ? typeOfId.get(i) : null);
      }
    });
  }

  it('a column of one-part cells is a Polygon column; of multi-part cells only, MultiPolygon', async () => {
    const sites = GeoSeries.fromXY([0, 10], [0, 0]);
    const inside = await sites.voronoiPolygons({
      clipTo: GeoSeries.fromWKT(['POLYGON ((-1 -1, 11 -1, 11 1, -1 1, -1 -1))']),
    });
    expect(inside.array.type).toBe(3); // GeometryType.Polygon
    expect(inside.geomType).toEqual(['Polygon', 'Polygon']);
    const split = await sites.voronoiPolygons({
      clipTo: GeoSeries.fromWKT([
        'MULTIPOLYGON (((-1 -1, 1 -1, 1 1, -1 1, -1 -1)), ((-1 3, 1 3, 1 4, -1 4, -1 3)), ((9 -1, 11 -1, 11 1, 9 1, 9 -1)), ((9 3, 11 3, 11 4, 9 4, 9 3)))',
      ]),
    });
    expect(split.geomType).toEqual(['MultiPolygon', 'MultiPolygon']);
    expect(split.array.type).toBe(6); // GeometryType.MultiPolygon
  });
});
