// The picture of docs/cost-allocation.md: a synthetic terrain (travel cost rising with height
// and roughness), a river of barrier cells crossed by three bridges, a lake, and eight towns;
// each cell allocated to the town it reaches most cheaply (16-connected), shaded by the cost.
// Run after building:  npx tsc -b && node bench/cost-example.mjs [out.png]

import { writeFileSync } from 'node:fs';
import { GeoSeries } from '../packages/geo/dist/index.js';

const width = 600;
const height = 400;
const values = new Float32Array(width * height);
const riverX = (y) => 300 + 60 * Math.sin(y / 55) + 25 * Math.sin(y / 17);
const bridges = [70, 215, 340];
for (let row = 0; row < height; row++) {
  const y = height - row - 0.5; // cell centre, y up
  for (let col = 0; col < width; col++) {
    const x = col + 0.5;
    // rolling hills: height in [0, 1], travel cost 1 (flat valley) to about 9 (ridges)
    const h =
      0.5 +
      0.25 * Math.sin(x / 47) * Math.cos(y / 39) +
      0.15 * Math.sin((x + 2 * y) / 23) +
      0.1 * Math.cos((3 * x - y) / 31);
    let cost = 1 + 8 * h * h;
    const inRiver = Math.abs(x - riverX(y)) < 6;
    const onBridge = bridges.some((b) => Math.abs(y - b) < 3);
    if (inRiver && !onBridge) cost = Number.NaN;
    if ((x - 480) ** 2 / 3600 + (y - 300) ** 2 / 900 < 1) cost = Number.NaN; // a lake
    values[row * width + col] = cost;
  }
}
const towns = [
  [80, 320],
  [150, 90],
  [250, 230],
  [420, 120],
  [540, 60],
  [560, 350],
  [360, 370],
  [40, 180],
];
const series = GeoSeries.fromWKT(towns.map(([x, y]) => `POINT (${x} ${y})`));
const result = await series.costAllocation({
  cost: { values, width, height, bounds: [0, 0, width, height] },
  connectivity: 16,
  device: 'cpu',
});
const out = process.argv[2] ?? 'docs/cost-allocation.png';
writeFileSync(out, await result.toPNG({ contours: 14, siteRadius: 4 }));
const path = result.leastCostPath([590, 5]);
console.log(`wrote ${out}; the path from (590, 5) to its town: ${path.array.coords.length / 2} cells`);
