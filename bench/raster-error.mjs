// Raster Voronoi error table (CPU): the misclassification rate of the JFA family against 'exact'
// on seeded uniform sites in [0, 1000]², square grids over the same box. A pixel is misclassified
// when its label differs from exact's and its site is farther from the pixel centre by more than
// 1e-9 relative (equidistant pixels are not errors; the same rule as VoronoiRaster.errorAgainst).
// "seeded" counts the sites that seed a pixel (sites sharing a pixel seed once); Facet-JFA's
// "visits" is its pixel visits relative to plain JFA's, with the coarse level p it chose.
//
// Run after building (the workspace packages are imported by path from their dist folders):
//   npx tsc -b && node bench/raster-error.mjs [sides…] [--sites 10,100,1000,10000]
// Default sides: 512 1024. Prints a markdown table.

import {
  facetCoarseLevel,
  rasterFrame,
  sitePixelIndices,
  voronoiRasterCpu,
} from '../packages/cpu/dist/index.js';
import { generatePoints } from '../packages/testing/dist/index.js';

const args = process.argv.slice(2);
const sitesAt = args.indexOf('--sites');
const counts = sitesAt >= 0 ? args[sitesAt + 1].split(',').map(Number) : [10, 100, 1000, 10000];
const sides = (sitesAt >= 0 ? args.slice(0, sitesAt) : args).map(Number);
if (sides.length === 0) sides.push(512, 1024);
const MODES = ['jfa', 'jfa+1', '1+jfa', 'facet-jfa'];

function misclassified(sites, side, labels, exact) {
  const pixel = 1000 / side;
  let bad = 0;
  for (let p = 0; p < labels.length; p++) {
    const a = labels[p];
    const b = exact[p];
    if (a === b) continue;
    if (a < 0) {
      bad++;
      continue;
    }
    const col = p % side;
    const row = (p - col) / side;
    const x = (col + 0.5) * pixel;
    const y = 1000 - (row + 0.5) * pixel;
    const da = Math.hypot(x - sites[2 * a], y - sites[2 * a + 1]);
    const db = Math.hypot(x - sites[2 * b], y - sites[2 * b + 1]);
    if (da > db * (1 + 1e-9)) bad++;
  }
  return bad;
}

const pct = (v) => `${(100 * v).toFixed(4)} %`;
console.log(
  `| grid | sites | seeded | ${MODES.join(' | ')} | Facet-JFA visits / JFA (p) | CPU ms exact / jfa / facet |`,
);
console.log(`|---|---|---|${MODES.map(() => '---').join('|')}|---|---|`);
for (const side of sides) {
  for (const n of counts) {
    const sites = generatePoints('uniform', n, 7);
    const grid = { width: side, height: side, depth: 1, bounds: [0, 0, 1000, 1000] };
    const frame = rasterFrame(2, grid);
    const pixels = sitePixelIndices(sites, frame);
    const seeded = new Set(pixels).size - (pixels.includes(-1) ? 1 : 0);
    let t = performance.now();
    const exact = voronoiRasterCpu(sites, 2, grid, { mode: 'exact' }).labels;
    const ms = { exact: performance.now() - t };
    const rates = [];
    const stats = {};
    for (const mode of MODES) {
      t = performance.now();
      const run = voronoiRasterCpu(sites, 2, grid, { mode });
      ms[mode] = performance.now() - t;
      stats[mode] = run.stats;
      rates.push(pct(misclassified(sites, side, run.labels, exact) / exact.length));
    }
    const visits = stats['facet-jfa'].processed / stats.jfa.processed;
    const p = facetCoarseLevel(pixels, frame);
    console.log(
      `| ${side}² | ${n} | ${seeded} | ${rates.join(' | ')} | ${visits.toFixed(3)} (${p}) | ${ms.exact.toFixed(0)} / ${ms.jfa.toFixed(0)} / ${ms['facet-jfa'].toFixed(0)} |`,
    );
  }
}
