import type { Box } from '@geoframe/core';
import { emptyLines, type LineBuffers, nextHalfedge } from '../delaunay/buffers.js';
import { lineOrder } from '../delaunay/site-order.js';
import { SORT_FROM, triangulateOrdered } from '../delaunay/triangulate.js';
import { WorkMeter, type WorkProgress } from '../workers/work-meter.js';
import { circumcenters } from './circumcenters.js';
import { bisector, CLIP_VISIBLE, clipEdge, inBox } from './clip-edge.js';
import { VORONOI_EDGE_PASSES } from './pass-weights.js';
import { safeFrame, unscale } from './safe-frame.js';

/**
 * Every Voronoi edge once, clipped to `box`, as two-point line parts (GEOS `onlyEdges`: the
 * edges only, not the box outline). Edges that shrink to a point (merged cocircular vertices)
 * or miss the box are left out. Points are bitwise the same as the vertices of
 * `voronoiCells` for the same input. Edges come in no particular order; an edge between two
 * cells runs with the cell of the lower site index on its left, a clipped ray of a hull site
 * with that site's cell on its left. 0 or 1 site: no edge; collinear sites: one clipped
 * bisector between each pair of neighbours along the line. Same input rules as `voronoiCells`,
 * any finite magnitude included. `onProgress` hears how far the run is (0 to 1, never decreasing).
 */
export function voronoiEdges(sites: Float64Array, box: Box, onProgress?: WorkProgress): LineBuffers {
  const meter = WorkMeter.of(onProgress, VORONOI_EDGE_PASSES);
  return voronoiEdgesOrdered(sites, box, sites.length >> 1 >= SORT_FROM, meter);
}

/**
 * {@link voronoiEdges}, choosing whether the sites are renumbered along a Hilbert curve first
 * (`sort`, faster on large input). The same edges either way, in another order. Exported for tests.
 */
export function voronoiEdgesOrdered(
  sites: Float64Array,
  box: Box,
  sort: boolean,
  meter = WorkMeter.SILENT,
): LineBuffers {
  if (sites.length < 4) return emptyLines();
  // in the power-of-two frame of voronoiCells (exact), scaled back at the end
  const frame = safeFrame(sites, box);
  const out = edgesInFrame(frame.sites, frame.box, sort, meter);
  unscale(out.coords, frame.scale);
  return out;
}

function edgesInFrame(sites: Float64Array, box: Box, sort: boolean, meter: WorkMeter): LineBuffers {
  const n = sites.length >> 1;
  const out = new LineWriter(3 * n + 8);
  const seg = new Float64Array(4);
  const ordered = triangulateOrdered(sites, sort, meter);
  if (ordered === null) {
    const order = lineOrder(sites);
    for (let k = 0; k + 1 < n; k++) {
      const i = order[k];
      const j = order[k + 1];
      if (clipBisector(box, sites, i, j, false, 0, 0, false, false, 0, 0, false, seg)) out.push(seg);
    }
    return out.finish();
  }
  // the edges are found in the triangulation's (curve) order, local in memory; each is written
  // from its cell with the caller's lower site index on the left, so the direction of an edge
  // does not depend on the numbering either
  const { tri, order } = ordered;
  sites = ordered.sites;
  const { triangles, halfedges } = tri;
  meter.pass('circumcentres');
  const cc = circumcenters(sites, tri.frame, triangles, halfedges, tri.edgeState, tri.cocircularEdges);
  const nt = triangles.length / 3;
  const inside = new Uint8Array(nt);
  for (let t = 0; t < nt; t++) inside[t] = inBox(box, cc[2 * t], cc[2 * t + 1]) ? 1 : 0;
  meter.pass('edges');
  // in chunks when someone listens, reporting after each
  const chunks = meter.active ? 32 : 1;
  for (let c = 0, e = 0; c < chunks; c++) {
    const end = Math.round((triangles.length * (c + 1)) / chunks);
    for (; e < end; e++) {
      const twin = halfedges[e];
      if (twin !== -1 && twin < e) continue;
      const i = triangles[e];
      const j = triangles[nextHalfedge(e)];
      const t = (e / 3) | 0;
      const ax = cc[2 * t];
      const ay = cc[2 * t + 1];
      let visible: boolean;
      if (twin === -1) {
        visible = clipBisector(box, sites, i, j, true, ax, ay, inside[t] === 1, false, 0, 0, false, seg);
      } else {
        const u = (twin / 3) | 0;
        const bx = cc[2 * u];
        const by = cc[2 * u + 1];
        if (ax === bx && ay === by) continue;
        const flip = order === null ? i > j : order[i] > order[j];
        visible = flip
          ? clipBisector(box, sites, j, i, true, bx, by, inside[u] === 1, true, ax, ay, inside[t] === 1, seg)
          : clipBisector(box, sites, i, j, true, ax, ay, inside[t] === 1, true, bx, by, inside[u] === 1, seg);
      }
      if (visible) out.push(seg);
    }
    meter.units(end, triangles.length);
  }
  return out.finish();
}

/** Scratch for the bisector line (mx, my, dx, dy) of {@link clipBisector}. */
const line = new Float64Array(4);

function clipBisector(
  box: Box,
  sites: Float64Array,
  i: number,
  j: number,
  hasA: boolean,
  ax: number,
  ay: number,
  aInside: boolean,
  hasB: boolean,
  bx: number,
  by: number,
  bInside: boolean,
  seg: Float64Array,
): boolean {
  bisector(sites, i, j, line);
  const r = clipEdge(
    box,
    line[0],
    line[1],
    line[2],
    line[3],
    hasA,
    ax,
    ay,
    aInside,
    hasB,
    bx,
    by,
    bInside,
    seg,
  );
  return (r & CLIP_VISIBLE) !== 0 && (seg[0] !== seg[2] || seg[1] !== seg[3]);
}

/** Appends two-point parts to growing buffers. */
class LineWriter {
  private coords: Float64Array;
  private parts = 0;
  constructor(expectedParts: number) {
    this.coords = new Float64Array(4 * Math.max(4, expectedParts));
  }

  push(seg: Float64Array): void {
    if (4 * this.parts + 4 > this.coords.length) {
      const next = new Float64Array(this.coords.length * 2);
      next.set(this.coords);
      this.coords = next;
    }
    this.coords.set(seg, 4 * this.parts++);
  }

  finish(): LineBuffers {
    const partOffsets = new Int32Array(this.parts + 1);
    for (let k = 0; k <= this.parts; k++) partOffsets[k] = 2 * k;
    return { coords: this.coords.subarray(0, 4 * this.parts), partOffsets };
  }
}
