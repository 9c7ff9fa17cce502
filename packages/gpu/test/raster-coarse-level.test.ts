import { SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { chooseCoarseLevel, maxCoarseLevel } from '../src/raster/coarse-level.js';
import { NO_SITE, prepareRaster } from '../src/raster/raster-setup.js';

/** The definition, pair by pair: the largest level at which no two distinct seeded pixels share a cell. */
function bruteForceLevel(setup: ReturnType<typeof prepareRaster>): number {
  const { width, height } = setup;
  const pixels = [...new Set([...setup.seedPixel].filter((p) => p !== NO_SITE))];
  const at = (p: number) => [p % width, Math.floor(p / width) % height, Math.floor(p / (width * height))];
  let level = maxCoarseLevel(setup);
  for (let a = 0; a < pixels.length; a++) {
    for (let b = a + 1; b < pixels.length; b++) {
      const [pa, pb] = [at(pixels[a]), at(pixels[b])];
      // the first level at which the two share a cell
      let p = 0;
      while (pa.some((v, k) => v >> p !== pb[k] >> p)) p++;
      level = Math.min(level, p - 1);
    }
  }
  return level;
}

describe("Facet-JFA's coarse level (Morton codes of the seed pixels)", () => {
  test('equals the pairwise definition on random, lattice and duplicate sites, 2D and 3D', () => {
    const rng = new SeededRandom(34);
    for (let t = 0; t < 300; t++) {
      const dims = t % 2 === 0 ? 2 : 3;
      const side = [1, 2, 3, 5, 17, 64, 100, 257][t % 8];
      const count = Math.floor(rng.next() * 50);
      const lattice = t % 3 === 0;
      const sites = Float64Array.from({ length: count * dims }, () =>
        lattice ? Math.floor(rng.next() * 8) / 8 : rng.next() * 1.2 - 0.1,
      );
      const grid =
        dims === 2
          ? { width: side, height: Math.max(1, side - 1), depth: 1, bounds: [0, 0, 1, 1] }
          : { width: side, height: side + 1, depth: Math.max(1, side >> 1), bounds: [0, 0, 0, 1, 1, 1] };
      const setup = prepareRaster(sites, dims, grid);
      expect(chooseCoarseLevel(setup), `case ${t}`).toBe(bruteForceLevel(setup));
    }
  });
});
