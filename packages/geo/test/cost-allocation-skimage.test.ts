import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeoSeries } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * costAllocation against scikit-image's MCP_Geometric (2D, 8-connected). MCP_Geometric's step
 * cost is `offset_length * 0.5 * (old_cost + new_cost)` (skimage/graph/_mcp.pyx) with the start
 * at 0 and offset lengths sqrt(Σ (offset·sampling)²): in f64 that is exactly our
 * `len · (v[a] + v[b]) / 2` (halving commutes with rounding), so accumulated costs must agree
 * exactly (ours is the f64 value rounded to f32). It has no allocation output: per source we run
 * it alone and take, per cell, the sources whose own cost equals the minimum — our label must be
 * the lowest of them (our tie rule), and the source MCP's multi-start traceback reaches must be
 * one of them. Needs a Python with scikit-image (CI installs it through .ci/run and sets CI=true,
 * and then a missing scikit-image fails the test).
 */
function findPython(): string | null {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const candidates = [process.env.GEOFRAME_PYTHON, join(root, '.ci/venv/bin/python'), 'python3'];
  for (const python of candidates) {
    if (!python || (python.includes('/') && !existsSync(python))) continue;
    const probe = spawnSync(python, ['-c', 'import skimage.graph'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

const python = findPython();
const script = fileURLToPath(new URL('./interop/cost_with_skimage.py', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'geoframe-skimage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function f64File(path: string): Float64Array {
  const bytes = readFileSync(path);
  return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

describe.runIf(python !== null || process.env.CI === 'true')('costAllocation equals MCP_Geometric', () => {
  it('scikit-image is available (required in CI)', () => {
    expect(python, 'CI needs python with scikit-image (.ci/run installs it)').not.toBeNull();
  });

  const cases = [
    { name: 'random costs with barriers, square pixels', w: 53, h: 37, spacing: [1, 1], sources: 9, seed: 3 },
    {
      name: 'plateaus (many exact ties), non-square pixels',
      w: 41,
      h: 29,
      spacing: [2, 0.5],
      sources: 12,
      seed: 8,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const rand = mulberry32(c.seed);
      const values = new Float32Array(c.w * c.h);
      for (let i = 0; i < values.length; i++) {
        const col = i % c.w;
        const plateau = c.seed === 8 ? 2 + (Math.floor(col / 10) % 3) : 0.2 + 5 * rand();
        values[i] = rand() < 0.12 || (col === 20 && rand() < 0.8) ? Number.NaN : plateau;
      }
      const rows: number[][] = [];
      while (rows.length < c.sources) {
        const cell = Math.floor(rand() * values.length);
        if (!Number.isNaN(values[cell])) rows.push([Math.floor(cell / c.w), cell % c.w]);
      }
      const [sx, sy] = c.spacing;
      const top = c.h * sy;
      const wkt = rows.map(([r, col]) => `POINT (${(col + 0.5) * sx} ${top - (r + 0.5) * sy})`);
      const result = await GeoSeries.fromWKT(wkt).costAllocation({
        cost: { values, width: c.w, height: c.h, bounds: [0, 0, c.w * sx, top] },
        connectivity: 8,
        device: 'cpu',
      });

      writeFileSync(
        join(dir, 'problem.json'),
        JSON.stringify({ width: c.w, height: c.h, spacing: c.spacing, sources: rows }),
      );
      writeFileSync(join(dir, 'values.f32'), values);
      const out = execFileSync(python!, [script, dir], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const mcpLabels: number[] = JSON.parse(out).labels;
      const all = f64File(join(dir, 'all.f64'));
      const perSource = f64File(join(dir, 'per_source.f64'));
      const n = values.length;
      let ties = 0;
      let reached = 0;
      for (let p = 0; p < n; p++) {
        expect(result.cost[p], `cell ${p}`).toBe(Math.fround(all[p]));
        if (!Number.isFinite(all[p])) {
          expect(result.labels[p]).toBe(-1);
          continue;
        }
        reached++;
        const best: number[] = [];
        for (let s = 0; s < c.sources; s++) if (perSource[s * n + p] === all[p]) best.push(s);
        if (best.length > 1) ties++;
        expect(result.labels[p], `cell ${p}`).toBe(best[0]);
        expect(best).toContain(mcpLabels[p]);
      }
      expect(reached).toBeGreaterThan(n / 2);
      if (c.seed === 8) expect(ties).toBeGreaterThan(0);
    });
  }
});
