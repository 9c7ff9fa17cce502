import { boxOfXY, defaultClipBox, uniqueSites } from '@geoframe/core';
import { triangulate } from '@geoframe/cpu';
import { generatePoints, pointSets } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { EDGE_COCIRCULAR } from '../../cpu/src/delaunay/lawson-repair.js';
import { circumcenters } from '../../cpu/src/voronoi/circumcenters.js';
import { fixedGrid, fixedToNumber } from '../src/exact/fixed-grid.js';
import { CC_FAR, CC_INSIDE } from '../src/voronoi/circumcenters/circumcenter-kernel.js';
import { circumcentersGpu } from '../src/voronoi/circumcenters/circumcenters.js';
import { circumcenterFixedReference, getPoint } from './fixed-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/** Triangles joined by cocircular edges, as a root per triangle (union–find). */
function cocircularRoots(halfedges: Int32Array, edgeState: Uint8Array): Int32Array {
  const nt = halfedges.length / 3;
  const parent = new Int32Array(nt).map((_, t) => t);
  const find = (t: number): number => {
    while (parent[t] !== t) t = parent[t] = parent[parent[t]];
    return t;
  };
  for (let e = 0; e < halfedges.length; e++) {
    const f = halfedges[e];
    if (f < 0 || edgeState[e] !== EDGE_COCIRCULAR) continue;
    const a = find(Math.floor(e / 3));
    const b = find(Math.floor(f / 3));
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  for (let t = 0; t < nt; t++) parent[t] = find(t);
  return parent;
}

/**
 * GPU circumcenters against the CPU's f64 ones and the exact BigInt floor; returns how many
 * triangles were far, inside, and in cocircular groups of more than one.
 */
async function checkSet(name: string, xy: Float64Array, maxWorkgroupsPerDimension?: number) {
  const ctx = await requireGpu();
  const sites = uniqueSites(xy).xy;
  const tri = triangulate(sites);
  if (tri === null) return { far: 0, inside: 0, grouped: 0, triangles: 0 };
  const envelope = boxOfXY(sites);
  const box = defaultClipBox(envelope);
  const grid = fixedGrid(sites, box);
  const { triangles, halfedges } = tri;
  const nt = triangles.length / 3;
  const gpu = await circumcentersGpu(ctx, grid, triangles, { maxWorkgroupsPerDimension });
  const cpu = circumcenters(sites, tri.frame, triangles, halfedges, tri.edgeState, tri.cocircularEdges);
  const diagonal = Math.hypot(envelope.maxX - envelope.minX, envelope.maxY - envelope.minY);
  const tolerance = 1e-9 * diagonal;
  const e = grid.exponent;
  const site = (i: number) => getPoint(grid.sites, 4 * i);
  let far = 0;
  let inside = 0;
  for (let t = 0; t < nt; t++) {
    const p = getPoint(gpu.cc, 4 * t);
    const flags = gpu.flags[t];
    const exact = circumcenterFixedReference(
      site(triangles[3 * t]),
      site(triangles[3 * t + 1]),
      site(triangles[3 * t + 2]),
    );
    expect(exact, `${name}: triangle ${t} degenerate on the grid`).not.toBeNull();
    expect(p, `${name}: triangle ${t}`).toEqual(exact?.p);
    const [cx, cy] = [cpu[2 * t], cpu[2 * t + 1]];
    if ((flags & CC_FAR) !== 0) {
      far++;
      // the f64 circumcenter is beyond 2^61 units too
      expect(Math.max(Math.abs(cx), Math.abs(cy)), `${name}: far ${t}`).toBeGreaterThan(2 ** (e + 61));
      expect(flags & CC_INSIDE).toBe(0);
      continue;
    }
    const x = fixedToNumber(e, p[0]);
    const y = fixedToNumber(e, p[1]);
    // far outside the box only the clip's exact parameters matter; there the f64 value's own
    // rounding (relative to its size) dominates
    const slack = tolerance + 1e-13 * Math.max(Math.abs(cx - envelope.minX), Math.abs(cy - envelope.minY));
    expect(Math.abs(x - cx), `${name}: x of ${t}`).toBeLessThanOrEqual(slack);
    expect(Math.abs(y - cy), `${name}: y of ${t}`).toBeLessThanOrEqual(slack);
    const inBox = cx >= box.minX && cx <= box.maxX && cy >= box.minY && cy <= box.maxY;
    const onEdge =
      Math.min(
        Math.abs(cx - box.minX),
        Math.abs(cx - box.maxX),
        Math.abs(cy - box.minY),
        Math.abs(cy - box.maxY),
      ) <= slack;
    if (!onEdge) expect((flags & CC_INSIDE) !== 0, `${name}: inside ${t}`).toBe(inBox);
    if ((flags & CC_INSIDE) !== 0) inside++;
  }
  // cocircular groups share their circumcenter bit for bit
  const roots = cocircularRoots(halfedges, tri.edgeState);
  let grouped = 0;
  for (let t = 0; t < nt; t++) {
    const r = roots[t];
    if (r === t) continue;
    grouped++;
    expect([...gpu.cc.subarray(4 * t, 4 * t + 4)], `${name}: cocircular ${t} ~ ${r}`).toEqual([
      ...gpu.cc.subarray(4 * r, 4 * r + 4),
    ]);
  }
  return { far, inside, grouped, triangles: nt };
}

describe('circumcenters stage on the GPU', () => {
  test.each(pointSets(1500, 4).map((s) => [s.name, s.xy] as const))(
    '%s: exact floor, within 1e-9 of the diagonal of the CPU, cocircular groups bitwise equal',
    async (name, xy) => {
      const r = await checkSet(name, xy);
      if (name.startsWith('lattice')) expect(r.grouped, name).toBeGreaterThan(1000);
      if (name.startsWith('uniform')) expect(r.inside, name).toBeGreaterThan(r.triangles * 0.9);
    },
  );

  test('30000 uniform sites with a 2D dispatch', async () => {
    const r = await checkSet('uniform 30000', generatePoints('uniform', 30000, 9), 32);
    expect(r.triangles).toBeGreaterThan(59000);
  });

  test('1e7-offset lattice of 10000 sites: one circumcenter per square, shared bit for bit', async () => {
    const r = await checkSet('lattice-offset 10000', generatePoints('lattice-offset', 10000, 1));
    expect(r.grouped).toBeGreaterThan(9000);
    expect(r.far).toBe(0);
  });

  test('no triangles: nothing to do', async () => {
    const ctx = await requireGpu();
    const grid = fixedGrid(new Float64Array([1, 2]), { minX: 0, minY: 0, maxX: 3, maxY: 3 });
    const r = await circumcentersGpu(ctx, grid, new Uint32Array(0));
    expect(r.cc.length).toBe(0);
  });
});
