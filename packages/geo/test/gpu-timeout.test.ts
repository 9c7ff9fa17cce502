import { GeoSeries } from '@geoframe/geo';
import { abandonedDeviceCount, GPU_TIMEOUT_ENV, GpuTimeoutError } from '@geoframe/gpu';
import { generatePoints } from '@geoframe/testing';
import { expect } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';

gpuTest(
  "voronoiPolygons, delaunayTriangles and voronoiRaster with device 'gpu' past their deadline: GPU_TIMEOUT, the device abandoned",
  async () => {
    await requireGpu();
    const xy = generatePoints('uniform', 200, 5);
    const series = GeoSeries.fromXY(
      Float64Array.from({ length: 200 }, (_, i) => xy[2 * i]),
      Float64Array.from({ length: 200 }, (_, i) => xy[2 * i + 1]),
    );
    const saved = process.env[GPU_TIMEOUT_ENV];
    process.env[GPU_TIMEOUT_ENV] = '1';
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ['voronoiPolygons', () => series.voronoiPolygons({ device: 'gpu' })],
        ['delaunayTriangles', () => series.delaunayTriangles({ device: 'gpu' })],
        ['voronoiRaster', () => series.voronoiRaster({ width: 64, height: 64, device: 'gpu' })],
      ];
      for (const [work, call] of calls) {
        const before = abandonedDeviceCount();
        const started = performance.now();
        const error = await call().catch((e: unknown) => e);
        expect(error, work).toBeInstanceOf(GpuTimeoutError);
        expect((error as GpuTimeoutError).code).toBe('GPU_TIMEOUT');
        expect((error as GpuTimeoutError).work).toBe(work);
        expect(abandonedDeviceCount(), work).toBe(before + 1);
        // the call returned at its deadline, not when the abandoned work ended
        expect(performance.now() - started, work).toBeLessThan(10_000);
      }
    } finally {
      if (saved === undefined) delete process.env[GPU_TIMEOUT_ENV];
      else process.env[GPU_TIMEOUT_ENV] = saved;
    }
  },
);
