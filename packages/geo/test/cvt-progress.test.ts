import type { ProgressEvent } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';

function sites(n: number, seed: number): GeoSeries {
  const xy = generatePoints('uniform', n, seed);
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i] as number),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1] as number),
  );
}

describe('centroidalVoronoi reports progress', () => {
  it.each(['lloyd', 'lbfgs'] as const)(
    '%s, exact mode on the CPU: iterations counted as they run, then the cells',
    async (method) => {
      const events: ProgressEvent[] = [];
      const heard: number[] = [];
      const result = await sites(150, 3).centroidalVoronoi({
        method,
        iterations: 12,
        tolerance: 0,
        device: 'cpu',
        onIteration: (s) => heard.push(s.iteration),
        onProgress: { callback: (e) => events.push(e), delayMs: 0, intervalMs: 0 },
      });
      const counted = events.filter((e) => e.stage === 'iterations' && e.done > 0);
      // each iterate onIteration hears is counted, in order, out of the iterations asked for
      expect(counted.map((e) => e.done)).toEqual(heard);
      expect(counted.every((e) => e.total === 12 && e.operation === 'centroidalVoronoi')).toBe(true);
      expect(heard.length).toBeGreaterThan(3);
      expect(heard.at(-1)).toBeLessThanOrEqual(result.evaluations);
      const fractions = events.map((e) => e.fraction);
      for (let i = 1; i < fractions.length; i++)
        expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1] as number);
      expect(events.some((e) => e.stage === 'cells')).toBe(true);
      expect(events.at(-1)).toMatchObject({ finished: true, fraction: 1 });
    },
  );

  it('a bad onProgress is refused as the other options are', async () => {
    await expect(sites(10, 1).centroidalVoronoi({ onProgress: 5 as never, device: 'cpu' })).rejects.toThrow();
  });
});
