import type { Box } from '@geoframe/core';
import { incircle, orient2d } from 'robust-predicates';
import { toGrid } from '../voronoi/fixed/fixed-grid.js';
import { GUARD_RECORD_WORDS } from './guard-kernel.js';

/** Vertex error allowed to the GPU's cells against the input, as a fraction of the box diagonal. */
export const GUARD_TOLERANCE = 1e-10;

const NONE = 0xffffffff;
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

/**
 * Whether `v` is an integer multiple of 2^e, i.e. the grid of exponent e holds it exactly (given
 * |v| < 2^(e+58), which the grid's exponent guarantees). The WGSL guard's `f64_on_grid`.
 */
export function onGrid(v: number, e: number): boolean {
  bits[0] = v;
  const lo = words[0];
  const hi = words[1];
  const biased = (hi >>> 20) & 0x7ff;
  // the significand with its implicit bit (none for zero and subnormals)
  const mhi = (hi & 0xfffff) | (biased !== 0 ? 0x100000 : 0);
  if (lo === 0 && mhi === 0) return true; // ±0
  const zeros = lo !== 0 ? 31 - Math.clz32(lo & -lo) : 32 + 31 - Math.clz32(mhi & -mhi);
  return Math.max(biased, 1) - 1075 + zeros >= e;
}

/** Whether site `i` of interleaved `xy` is exactly on the grid of exponent e. */
export function siteOnGrid(xy: Float64Array, i: number, e: number): boolean {
  return onGrid(xy[2 * i], e) && onGrid(xy[2 * i + 1], e);
}

/** What the host checks: the input's sites, the grid exponent, and for cells the clip box. */
export interface CertificateInput {
  /** Interleaved xy in the numbering the records use. */
  sites: Float64Array;
  exponent: number;
  /** The clip box when the cells' geometry is checked too (Voronoi), else null (Delaunay). */
  box: Box | null;
}

/**
 * Decides the guard's uncertain records exactly on the input (robust-predicates on the f64
 * coordinates, and on the grid values, which are doubles too): a triangle's orientation must be
 * the grid's and not flat, each neighbour outside or on its circumcircle, a hull turn the grid's;
 * with a box, the triangle's circumcentre and clipped edges must move by less than
 * {@link GUARD_TOLERANCE} of the box diagonal under the snap. Returns null when all hold, else
 * the reason (the first failure, naming its sites).
 */
export function certifyRecords(records: Uint32Array, count: number, input: CertificateInput): string | null {
  const { sites, exponent } = input;
  const g = (i: number, axis: number) => toGrid(sites[2 * i + axis], exponent);
  const orientF64 = (a: number, b: number, c: number) =>
    Math.sign(
      -orient2d(
        sites[2 * a],
        sites[2 * a + 1],
        sites[2 * b],
        sites[2 * b + 1],
        sites[2 * c],
        sites[2 * c + 1],
      ),
    );
  const orientGrid = (a: number, b: number, c: number) =>
    Math.sign(-orient2d(g(a, 0), g(a, 1), g(b, 0), g(b, 1), g(c, 0), g(c, 1)));
  for (let r = 0; r < count; r++) {
    const at = r * GUARD_RECORD_WORDS;
    const kind = records[at];
    const [a, b, c] = [records[at + 1], records[at + 2], records[at + 3]];
    const s = orientF64(a, b, c);
    if (s !== orientGrid(a, b, c)) {
      const what = kind === 0 ? 'triangle' : 'hull turn';
      return `${what} of sites ${a}, ${b}, ${c} turns ${s} on the input and ${orientGrid(a, b, c)} on the grid`;
    }
    if (kind !== 0) continue;
    if (s === 0) return `triangle of sites ${a}, ${b}, ${c} is flat on the input`;
    for (let j = 0; j < 3; j++) {
      const d = records[at + 4 + j];
      if (d === NONE) continue;
      const inside = incircle(
        ...([a, b, c, d].flatMap((i) => [sites[2 * i], sites[2 * i + 1]]) as [
          number,
          number,
          number,
          number,
          number,
          number,
          number,
          number,
        ]),
      );
      if (s * inside > 0) return `site ${d} is inside the circle of sites ${a}, ${b}, ${c} on the input`;
    }
    if (input.box !== null) {
      const opposite = [records[at + 4], records[at + 5], records[at + 6]];
      const why = geometryMoves(sites, exponent, input.box, [a, b, c], opposite);
      if (why !== null) return why;
    }
  }
  return null;
}

/**
 * Why the snap could move the cell vertices of triangle `t` (caller indices) by more than the
 * tolerance, or null: its circumcentre (first-order motion under a snap of √2·2^e per difference,
 * doubled, and far from the box sides), or where it is not well inside the box, each edge's
 * bisector where it meets the box (lateral motion over the sine of its angle with the side).
 * `opposite[j]` is NONE for a hull edge (its bisector always meets the box).
 */
export function geometryMoves(
  sites: Float64Array,
  exponent: number,
  box: Box,
  t: number[],
  opposite: number[],
): string | null {
  const eta = Math.SQRT2 * 2 ** exponent;
  const diag = Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
  const tol = GUARD_TOLERANCE * diag;
  const [a, b, c] = t;
  const ax = sites[2 * a];
  const ay = sites[2 * a + 1];
  const ux = sites[2 * b] - ax;
  const uy = sites[2 * b + 1] - ay;
  const vx = sites[2 * c] - ax;
  const vy = sites[2 * c + 1] - ay;
  const d = 2 * (ux * vy - uy * vx);
  const ul = ux * ux + uy * uy;
  const vl = vx * vx + vy * vy;
  const cx = ax + (vy * ul - uy * vl) / d;
  const cy = ay + (ux * vl - vx * ul) / d;
  const big = Math.max(Math.abs(ux) + Math.abs(uy), Math.abs(vx) + Math.abs(vy));
  const radius = Math.hypot(cx - ax, cy - ay);
  // the first-order bound holds while the snap moves the denominator by a small fraction of it:
  // a triangle a few grid units across (sites the grid nearly merges) is not certified at all
  if (!(Math.abs(d) > 64 * eta * big)) {
    return `the triangle of sites ${a}, ${b}, ${c} is too small for the grid (unit ${(2 ** exponent).toExponential(2)})`;
  }
  const moved = (8 * eta * big * (6 * big + 4 * radius)) / Math.abs(d);
  // a centre that may end up inside the box must move by less than the tolerance
  if (!(moved <= tol) && !(Number.isFinite(cx) && !inBox(cx, cy, box, -moved))) {
    return `the circumcentre of sites ${a}, ${b}, ${c} may move ${moved.toExponential(2)} under the grid's rounding (tolerance ${tol.toExponential(2)})`;
  }
  if (Number.isFinite(cx) && inBox(cx, cy, box, 2 * moved + 1e-6 * diag) && opposite.every((o) => o !== NONE))
    return null;
  for (let j = 0; j < 3; j++) {
    const p = t[j];
    const q = t[(j + 1) % 3];
    const why = clipMoves(sites, p, q, box, eta, tol);
    if (why !== null) return why;
  }
  return null;
}

function inBox(x: number, y: number, box: Box, margin: number): boolean {
  return x - box.minX > margin && box.maxX - x > margin && y - box.minY > margin && box.maxY - y > margin;
}

/** The motion bound of where the bisector of sites p, q leaves the box, both ways. */
function clipMoves(
  sites: Float64Array,
  p: number,
  q: number,
  box: Box,
  eta: number,
  tol: number,
): string | null {
  const px = sites[2 * p];
  const py = sites[2 * p + 1];
  const ex = sites[2 * q] - px;
  const ey = sites[2 * q + 1] - py;
  const length = Math.hypot(ex, ey);
  const mx = px + ex / 2;
  const my = py + ey / 2;
  // the bisector's unit direction, perpendicular to the edge
  const dx = -ey / length;
  const dy = ex / length;
  const diag = Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
  for (const sign of [1, -1]) {
    const tx = dx === 0 ? Infinity : Math.max((box.minX - mx) / (sign * dx), (box.maxX - mx) / (sign * dx));
    const ty = dy === 0 ? Infinity : Math.max((box.minY - my) / (sign * dy), (box.maxY - my) / (sign * dy));
    const t = Math.min(tx, ty);
    // lateral motion of the line at the exit: the midpoint's, plus the turn of its direction
    const lateral = eta + (Math.abs(t) * 2 * eta) / length;
    // near a corner either side may be hit: the smaller sine
    const nearCorner = Math.abs(tx - ty) <= 1e-6 * diag;
    const sine = nearCorner ? Math.min(Math.abs(dx), Math.abs(dy)) : tx < ty ? Math.abs(dx) : Math.abs(dy);
    const moved = (4 * lateral) / sine;
    if (!(moved <= tol)) {
      return `the bisector of sites ${p}, ${q} may meet the box ${moved.toExponential(2)} away under the grid's rounding (tolerance ${tol.toExponential(2)})`;
    }
  }
  return null;
}

/**
 * The host's guard for a triangulation that is already exact on the input (the CPU's, in the
 * Voronoi pipeline): only the geometry of triangles touching a site the grid rounds is checked.
 * `triangles`/`halfedges` in delaunator's form over `sites` (the same numbering). Null when the
 * cells are within the tolerance, else the reason.
 */
export function certifyCpuTriangles(
  sites: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  exponent: number,
  box: Box,
): string | null {
  const n = sites.length >> 1;
  const exact = new Uint8Array(n);
  let rounded = 0;
  for (let i = 0; i < n; i++) {
    exact[i] = siteOnGrid(sites, i, exponent) ? 1 : 0;
    if (exact[i] === 0) rounded++;
  }
  if (rounded === 0) return null;
  const opposite = [0, 0, 0];
  for (let t = 0; t < triangles.length / 3; t++) {
    const tri = [triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]];
    if (exact[tri[0]] && exact[tri[1]] && exact[tri[2]]) continue;
    for (let j = 0; j < 3; j++) {
      const twin = halfedges[3 * t + j];
      opposite[j] = twin < 0 ? NONE : triangles[twin % 3 === 0 ? twin + 2 : twin - 1];
    }
    const why = geometryMoves(sites, exponent, box, tri, opposite);
    if (why !== null) return why;
  }
  return null;
}
