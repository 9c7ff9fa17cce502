import { clipBox, uniqueSites } from '@geoframe/core';
import { residentArea, residentTotalBounds, voronoiCellsGpu, voronoiCellsGpuOnDevice } from '@geoframe/gpu';
import { adversarialSet, generatePoints } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { CPU_STAGES } from './cpu-stages.js';
import { exactRingArea } from './exact-ring-area.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/** Sites (unique) and their default clip box. */
function sitesOf(xy: Float64Array) {
  const sites = uniqueSites(xy).xy;
  return { sites, box: clipBox(sites, null) };
}

describe('voronoiCellsGpuOnDevice: the cells kept on the device', () => {
  const cases = [
    { name: 'uniform-400', xy: generatePoints('uniform', 400, 61) },
    { name: 'lattice-offset-300', xy: generatePoints('lattice-offset', 300, 62) },
    { name: 'cocircular', xy: adversarialSet('cocircular', 200, 63).xy },
    {
      name: 'collinear (no triangle: the CPU answers, put on the device)',
      xy: generatePoints('collinear', 50, 64),
    },
    { name: 'two sites', xy: Float64Array.of(0, 0, 1, 3) },
    { name: 'no site', xy: new Float64Array(0) },
  ];
  for (const { name, xy } of cases) {
    test(`${name}: the host path's cells bit for bit once copied, exact areas on the device`, async () => {
      const ctx = await requireGpu();
      const { sites, box } = sitesOf(xy);
      const host = (await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, delaunay: 'cpu' })).cells;
      const { cells } = await voronoiCellsGpuOnDevice(ctx, sites, box, { cpu: CPU_STAGES, delaunay: 'cpu' });
      try {
        const back = await cells.toHost();
        expect(back.ringOffsets).toEqual(host.ringOffsets);
        expect(back.coords).toEqual(host.coords);
        const areas = await residentArea(cells);
        const rows = host.ringOffsets.length - 1;
        const exact = Array.from({ length: rows }, (_, r) =>
          exactRingArea(host.coords, host.ringOffsets[r], host.ringOffsets[r + 1]),
        );
        expect(Array.from(areas!)).toEqual(exact);
        if (rows > 0) {
          // the cells tile the clip box
          const [minx, miny, maxx, maxy] = await residentTotalBounds(cells);
          expect([minx, miny, maxx, maxy]).toEqual([box.minX, box.minY, box.maxX, box.maxY]);
        }
      } finally {
        cells.destroy();
      }
    }, 600_000);
  }

  test('an output guess too small: the rings are emitted again at the exact size', async () => {
    const ctx = await requireGpu();
    const { sites, box } = sitesOf(generatePoints('clusters', 300, 71));
    const host = (await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, delaunay: 'cpu' })).cells;
    const { cells } = await voronoiCellsGpuOnDevice(ctx, sites, box, {
      cpu: CPU_STAGES,
      delaunay: 'cpu',
      outputGuess: 10,
    });
    const back = await cells.toHost();
    cells.destroy();
    expect(back.coords).toEqual(host.coords);
    expect(back.ringOffsets).toEqual(host.ringOffsets);
  }, 600_000);
});
