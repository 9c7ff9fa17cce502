import { prepareClipRegion } from '@geoframe/cpu';
import { GeoSeries } from '@geoframe/geo';
import { SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';

describe('voronoiPolygons({ onlyEdges: true, clipTo })', () => {
  const rng = new SeededRandom(6);
  const x = Float64Array.from({ length: 500 }, () => 100 * rng.next());
  const y = Float64Array.from({ length: 500 }, () => 100 * rng.next());
  const series = GeoSeries.fromXY(x, y);
  const sum = (a: Float64Array) => a.reduce((s, v) => s + v, 0);

  test('edges inside a region inside the box: (clipped cell perimeters − region perimeter) / 2', async () => {
    const region = GeoSeries.fromWKT([
      'POLYGON ((10 10, 90 15, 80 90, 50 40, 15 85, 10 10), (20 20, 40 25, 30 35, 20 20))',
      'MULTIPOLYGON (((60 70, 95 70, 95 95, 60 95, 60 70)), ((2 50, 8 50, 8 60, 2 60, 2 50)))',
    ]);
    const edges = await series.voronoiPolygons({ onlyEdges: true, clipTo: region });
    expect(edges.length).toBe(1);
    const cells = await series.voronoiPolygons({ clipTo: region });
    // the union's perimeter: the rows overlap, so the region is prepared and measured once
    const union = prepareClipRegion(region.array);
    let perimeter = 0;
    for (let k = 0; k + 1 < union.coords.length / 2; k++) {
      if (union.coordRing[k] !== union.coordRing[k + 1]) continue;
      const c = union.coords;
      perimeter += Math.hypot(c[2 * k + 2] - c[2 * k], c[2 * k + 3] - c[2 * k + 1]);
    }
    const expected = (sum(cells.lengthOf()) - perimeter) / 2;
    expect(expected).toBeGreaterThan(100);
    expect(edges.lengthOf()[0] / expected).toBeCloseTo(1, 9);
    const all = await series.voronoiPolygons({ onlyEdges: true });
    expect(edges.lengthOf()[0]).toBeLessThan(all.lengthOf()[0]);
  });

  test('a region covering the box keeps every edge; a disjoint one leaves an empty row', async () => {
    const all = await series.voronoiPolygons({ onlyEdges: true });
    const covering = await series.voronoiPolygons({
      onlyEdges: true,
      clipTo: GeoSeries.fromWKT(['POLYGON ((-1000 -1000, 1000 -1000, 1000 1000, -1000 1000, -1000 -1000))']),
    });
    expect(covering.array.coords).toEqual(all.array.coords);
    const disjoint = await series.voronoiPolygons({
      onlyEdges: true,
      clipTo: GeoSeries.fromWKT(['POLYGON ((5000 5000, 5001 5000, 5001 5001, 5000 5001, 5000 5000))']),
    });
    expect(disjoint.length).toBe(1);
    expect(disjoint.lengthOf()[0]).toBe(0);
  });
});
