// Writes docs/raster-<mode>.png: the raster Voronoi diagram of the same 64 seeded uniform
// sites on a 480×480 grid over the sites' bounding box, one picture per mode, computed on the
// CPU, boundaries darkened. Pixels where a JFA-family picture differs from 'exact' (and the site
// is farther) are counted in the printed line.
//
//   npx tsc -b && node bench/raster-pngs.mjs [outDir]   (default docs/)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RASTER_MODES } from '../packages/core/dist/index.js';
import { GeoSeries } from '../packages/geo/dist/index.js';
import { generatePoints } from '../packages/testing/dist/index.js';

const out = process.argv[2] ?? 'docs';
const xy = generatePoints('uniform', 64, 21);
const n = xy.length / 2;
const series = GeoSeries.fromXY(
  Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
  Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
);
const options = { width: 480, height: 480, device: 'cpu' }; // bounds: the sites' box
const exact = await series.voronoiRaster({ ...options, mode: 'exact' });
for (const mode of RASTER_MODES) {
  const raster = mode === 'exact' ? exact : await series.voronoiRaster({ ...options, mode });
  const png = await raster.toPNG({ boundaries: true, siteRadius: 2 });
  const file = join(out, `raster-${mode}.png`);
  writeFileSync(file, png);
  const error = raster.errorAgainst(exact);
  const { passes, processed } = raster.stats;
  console.log(
    `${file}: ${png.length} bytes, ${error.misclassified} misclassified, ${passes} passes, ${processed} visits`,
  );
}
