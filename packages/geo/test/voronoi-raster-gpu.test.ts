import { RASTER_MODES } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';

function pointsOf(xy: Float64Array): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

describe("voronoiRaster / voronoiVolume with device 'gpu'", () => {
  gpuTest(
    'runs on the GPU and labels pixels with input rows like the CPU (every mode, 2D and 3D)',
    async () => {
      await requireGpu();
      const xy = generatePoints('clusters', 120, 13);
      const series = GeoSeries.fromWKT([null, ...pointsOf(xy).toWKT()]); // a null first row shifts the rows
      for (const mode of RASTER_MODES) {
        const gpu = await series.voronoiRaster({
          width: 70,
          height: 45,
          mode,
          device: 'gpu',
          distance: true,
        });
        const cpu = await series.voronoiRaster({
          width: 70,
          height: 45,
          mode,
          device: 'cpu',
          distance: true,
        });
        expect(gpu.path).toBe('gpu');
        expect(gpu.labels.every((l) => l >= 1 && l <= 120)).toBe(true);
        if (mode === 'exact') expect([...gpu.labels]).toEqual([...cpu.labels]);
        // the JFA family compares f32 distances; the GPU may round differently, so allow a few pixels
        else expect(gpu.errorAgainst(cpu).misclassified).toBeLessThanOrEqual(3);
        for (let p = 0; p < gpu.labels.length; p += 97) {
          if (gpu.labels[p] === cpu.labels[p]) expect(gpu.distance![p]).toBeCloseTo(cpu.distance![p], 2);
        }
      }
      const volume = pointsOf(generatePoints('uniform', 40, 2));
      const g3 = await volume.voronoiVolume({
        dims: [12, 10, 8],
        z: 0,
        bounds: [0, 0, -500, 1000, 1000, 500],
        device: 'gpu',
      });
      const c3 = await volume.voronoiVolume({
        dims: [12, 10, 8],
        z: 0,
        bounds: [0, 0, -500, 1000, 1000, 500],
        device: 'cpu',
      });
      expect([...g3.labels]).toEqual([...c3.labels]);
    },
  );
});
