// The exact-mode CVT with the cells kept on the GPU (uniform ρ: moments integrated on the device,
// cells the region's boundary may reach clipped on the host) against the CPU exact mode through
// the public API: the same sites after N Lloyd iterations, energies that never increase, in a
// square and in a holed polygon, from uniform, clustered and lattice starts.
import { type DispatchEvent, GeometryBuilder, GeometryType } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { requireGpu, gpuTest as test } from '../../gpu/test/gpu-test-context.js';

function pointsOf(xy: Float64Array): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

/** A 24-point star around (5, 5) (radii 2.5 and 4) with a square hole. */
function holedStar() {
  const b = new GeometryBuilder(GeometryType.Polygon);
  b.beginGeometry(GeometryType.Polygon);
  b.beginRing();
  for (let k = 0; k <= 24; k++) {
    const t = (2 * Math.PI * (k % 24)) / 24;
    const r = k % 2 ? 2.5 : 4;
    b.pushXY(5 + r * Math.cos(t), 5 + r * Math.sin(t));
  }
  b.beginRing();
  for (const [x, y] of [
    [4.5, 4.5],
    [4.5, 5.5],
    [5.5, 5.5],
    [5.5, 4.5],
    [4.5, 4.5],
  ])
    b.pushXY(x, y);
  b.endGeometry();
  return b.finish();
}

/** `n` seeded points of the star (inside its inner circle, off the hole). */
function inStar(n: number, seed: number): Float64Array {
  const random = new SeededRandom(seed);
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; ) {
    const x = 5 + 4.8 * (random.next() - 0.5) * 2;
    const y = 5 + 4.8 * (random.next() - 0.5) * 2;
    const r = Math.hypot(x - 5, y - 5);
    if (r > 2.4 || (Math.abs(x - 5) < 0.6 && Math.abs(y - 5) < 0.6)) continue;
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
    i++;
  }
  return xy;
}

// the first GPU Voronoi call of a process compiles the pipeline: minutes on a loaded lavapipe
describe('exact-mode CVT, cells kept on the GPU', { timeout: 600_000 }, () => {
  const cases = [
    { name: 'square, uniform', xy: generatePoints('uniform', 200, 41), region: [0, 0, 1000, 1000] as const },
    {
      name: 'square, clusters',
      xy: generatePoints('clusters', 200, 42),
      region: [0, 0, 1000, 1000] as const,
    },
    { name: 'square, lattice', xy: generatePoints('lattice', 196, 43), region: undefined },
    { name: 'holed star', xy: inStar(200, 44), region: holedStar() },
  ];
  for (const { name, xy, region } of cases) {
    test(`${name}: the CPU exact mode's sites after 6 Lloyd iterations, energy never increasing`, async () => {
      await requireGpu();
      const points = pointsOf(xy);
      const options = { mode: 'exact', iterations: 6, tolerance: 0, ...(region ? { region } : {}) } as const;
      const events: DispatchEvent[] = [];
      const gpu = await points.centroidalVoronoi({
        ...options,
        device: 'gpu',
        onDispatch: (e) => events.push(e),
      });
      const cpu = await points.centroidalVoronoi({ ...options, device: 'cpu' });
      // the whole run stayed on the GPU; a stage may fall back (cocircular lattices: the CPU's
      // Delaunay triangulation), the cells and their moments staying on the device
      const whole = events.filter((e) => e.type === 'fallback' && e.stage === undefined);
      expect(
        whole.map((e) => e.reason),
        name,
      ).toEqual([]);
      expect(gpu.path === 'gpu' || events.some((e) => e.stage === 'delaunay'), name).toBe(true);
      const a = gpu.sites.array.coords;
      const b = cpu.sites.array.coords;
      const [x0, y0, x1, y1] = points.totalBounds;
      const diagonal = Math.hypot(x1 - x0, y1 - y0);
      let worst = 0;
      for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
      expect(worst, name).toBeLessThanOrEqual(1e-9 * diagonal);
      for (let k = 0; k < gpu.energy.length; k++) {
        expect(Math.abs(gpu.energy[k] - cpu.energy[k]), `${name} F at ${k}`).toBeLessThanOrEqual(
          1e-11 * cpu.energy[k],
        );
        if (k > 0) expect(gpu.energy[k], `${name} F at ${k}`).toBeLessThanOrEqual(gpu.energy[k - 1]);
      }
      expect(gpu.energy[gpu.energy.length - 1]).toBeLessThan(gpu.energy[0]);
    });
  }
});
