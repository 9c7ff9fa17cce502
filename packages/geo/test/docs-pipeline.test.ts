// docs/pipeline.md runs: its ```ts blocks, joined into one module, run against the built packages
// in a scratch folder; then what they wrote is checked: the GeoParquet file reads back with one
// row per Colorado ZIP code site, counts that add up to the customers joined, the CRS the UTM zone,
// and an SVG picture.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crsLabel } from '@geoframe/core';
import { readFile } from '@geoframe/geo';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const page = readFileSync(new URL('docs/pipeline.md', root), 'utf8');
const source = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
const scratch = fileURLToPath(new URL('packages/geo/test/.pipeline/', root));
mkdirSync(scratch, { recursive: true });
const cwd = process.cwd();
afterAll(() => {
  process.chdir(cwd);
  rmSync(scratch, { recursive: true, force: true });
});

it('docs/pipeline.md runs end to end and writes what it says', { timeout: 120_000 }, async () => {
  const js = ts
    .transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    })
    .outputText.replace(/from '@geoframe\/([a-z-]+)'/g, (_, name) => {
      const dist = new URL(`packages/${name}/dist/index.js`, root);
      return `from '${pathToFileURL(fileURLToPath(dist)).href}'`;
    });
  const file = `${scratch}pipeline.mjs`;
  writeFileSync(file, js);
  process.chdir(scratch);
  const logs: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => logs.push(args.join(' '));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = log;
  }
  const served = await readFile(`${scratch}service-areas.parquet`);
  expect(crsLabel(served.crs)).toMatch(/32613|UTM zone 13N/);
  expect(served.columns).toEqual(['zip', 'geometry', 'count', 'km2']);
  expect(served.length).toBeGreaterThan(400); // Colorado has about 500 ZIP codes
  const counts = [...(served.get('count') as Iterable<number | null>)].map((c) => c ?? 0);
  const placed = Number(/(\d+) customers placed/.exec(logs.join('\n'))![1]);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(placed);
  // sorted busiest first, as the page says; every area has a positive size and no NaN
  for (let k = 1; k < counts.length; k++) expect(counts[k]).toBeLessThanOrEqual(counts[k - 1]);
  const km2 = [...(served.get('km2') as Iterable<number>)];
  expect(km2.every((a) => a > 0 && Number.isFinite(a))).toBe(true);
  // Colorado is about 269,600 km²: the clipped areas tile it
  expect(km2.reduce((a, b) => a + b, 0) / 269_600).toBeCloseTo(1, 1);
  expect(existsSync(`${scratch}service-areas.svg`)).toBe(true);
  expect(readFileSync(`${scratch}service-areas.svg`, 'utf8')).toMatch(/^<svg/);
});
