import type { Box } from '@geoframe/core';
import { incircle, orient2d } from 'robust-predicates';
import { toGrid } from '../exact/fixed-grid.js';
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

const EPS = 2 ** -53;

/** `v` as the grid holds it: round(v / 2^e) · 2^e (a double: the rounded value has few bits). */
function snapped(v: number, e: number): number {
  if (onGrid(v, e)) return v;
  const half = Math.trunc(e / 2);
  return toGrid(v, e) * 2 ** half * 2 ** (e - half);
}

/** The triangle's coordinates rotated to start at the vertex opposite its longest edge (same turn). */
function fromShortSides(p: number[]): number[] {
  const side = (i: number, j: number) => Math.hypot(p[2 * j] - p[2 * i], p[2 * j + 1] - p[2 * i + 1]);
  const opposite = [side(1, 2), side(2, 0), side(0, 1)];
  const first = opposite.indexOf(Math.max(...opposite));
  return [0, 1, 2].flatMap((k) => {
    const i = (first + k) % 3;
    return [p[2 * i], p[2 * i + 1]];
  });
}

/** The circumcentre of a, b, c evaluated in f64, and a bound on that evaluation's error. */
function centreOf(p: number[]): { x: number; y: number; err: number } {
  const [ax, ay, bx, by, cx, cy] = p;
  const ux = bx - ax;
  const uy = by - ay;
  const vx = cx - ax;
  const vy = cy - ay;
  const d = 2 * (ux * vy - uy * vx);
  const ul = ux * ux + uy * uy;
  const vl = vx * vx + vy * vy;
  const nx = vy * ul - uy * vl;
  const ny = ux * vl - vx * ul;
  const x = ax + nx / d;
  const y = ay + ny / d;
  // each term carries at most a few roundings of EPS relative (the differences, squares, products,
  // the subtraction): 8 EPS of each term's magnitude bounds its numerator's and denominator's error
  const errN = 8 * EPS * (Math.abs(vy) * ul + Math.abs(uy) * vl + Math.abs(ux) * vl + Math.abs(vx) * ul);
  const errD = 8 * EPS * (Math.abs(ux * vy) + Math.abs(uy * vx));
  const r = Math.hypot(nx / d, ny / d);
  const err = (errN + r * errD) / Math.abs(d) + 4 * EPS * (Math.abs(x) + Math.abs(y));
  return { x, y, err };
}

/**
 * Why the grid's rounding could move the cell vertices of triangle `t` (indices into `sites`) by
 * more than the tolerance, or null. The circumcentre of the input and of the snapped sites are both
 * evaluated (with bounds on their f64 evaluation) and compared, plus a grid unit for the GPU's
 * floor; where the centre is not well inside the box, and for hull edges (`opposite[j]` NONE),
 * each edge's bisector is compared where it leaves the box. The snapped triangle must turn as the
 * input's does.
 */
export function geometryMoves(
  sites: Float64Array,
  exponent: number,
  box: Box,
  t: number[],
  opposite: number[],
): string | null {
  const unit = Math.SQRT2 * 2 ** exponent;
  const diag = Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
  const tol = GUARD_TOLERANCE * diag;
  // evaluated from the vertex opposite the longest edge: the differences from it are the two
  // shorter edges, so a short edge (a near-duplicate pair) is formed exactly and d keeps its bits
  const input = fromShortSides(t.flatMap((i) => [sites[2 * i], sites[2 * i + 1]]));
  const grid = input.map((v) => snapped(v, exponent));
  const turn = (q: number[]) => Math.sign(orient2d(q[0], q[1], q[2], q[3], q[4], q[5]));
  if (turn(input) === 0 || turn(input) !== turn(grid)) {
    return `the triangle of sites ${t.join(', ')} turns differently on the grid (unit ${(2 ** exponent).toExponential(2)})`;
  }
  const a = centreOf(input);
  const g = centreOf(grid);
  const moved = Math.hypot(a.x - g.x, a.y - g.y) + a.err + g.err + unit;
  // a centre that may end up inside the box must move by less than the tolerance
  if (!(moved <= tol) && !(Number.isFinite(a.x) && !inBox(a.x, a.y, box, -moved))) {
    return `the circumcentre of sites ${t.join(', ')} moves ${moved.toExponential(2)} under the grid's rounding (tolerance ${tol.toExponential(2)})`;
  }
  if (
    Number.isFinite(a.x) &&
    inBox(a.x, a.y, box, 2 * moved + 1e-6 * diag) &&
    opposite.every((o) => o !== NONE)
  )
    return null;
  for (let j = 0; j < 3; j++) {
    const k = (j + 1) % 3;
    const why = clipMoves(
      [input[2 * j], input[2 * j + 1], input[2 * k], input[2 * k + 1]],
      [grid[2 * j], grid[2 * j + 1], grid[2 * k], grid[2 * k + 1]],
      box,
      unit,
      tol,
    );
    if (why !== null) return `an edge of the triangle of sites ${t.join(', ')}: ${why}`;
  }
  return null;
}

function inBox(x: number, y: number, box: Box, margin: number): boolean {
  return x - box.minX > margin && box.maxX - x > margin && y - box.minY > margin && box.maxY - y > margin;
}

/**
 * Signed distance from (x, y) to the bisector of p, q (p = [px, py, qx, qy]), and a bound on its
 * f64 evaluation error.
 */
function bisectorOffset(p: number[], x: number, y: number): [number, number] {
  const ex = p[2] - p[0];
  const ey = p[3] - p[1];
  const sx = 2 * x - p[0] - p[2];
  const sy = 2 * y - p[1] - p[3];
  const length = Math.hypot(ex, ey);
  const value = (ex * sx + ey * sy) / (2 * length);
  const terms = Math.abs(ex) * (2 * Math.abs(x) + Math.abs(p[0]) + Math.abs(p[2]));
  const more = Math.abs(ey) * (2 * Math.abs(y) + Math.abs(p[1]) + Math.abs(p[3]));
  return [value, (16 * EPS * (terms + more)) / length];
}

/**
 * How far the snapped bisector of an edge (input `p`, snapped `q`, each [px, py, qx, qy]) meets the
 * box from where the input's does, both ways: the snapped line's offset at the input's exit point,
 * over the sine of the line's angle with the side it leaves by (the smaller one near a corner),
 * doubled, plus a grid unit.
 */
function clipMoves(p: number[], q: number[], box: Box, unit: number, tol: number): string | null {
  const ex = p[2] - p[0];
  const ey = p[3] - p[1];
  const length = Math.hypot(ex, ey);
  const mx = p[0] + ex / 2;
  const my = p[1] + ey / 2;
  const dx = -ey / length;
  const dy = ex / length;
  const diag = Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
  for (const sign of [1, -1]) {
    const tx = dx === 0 ? Infinity : Math.max((box.minX - mx) / (sign * dx), (box.maxX - mx) / (sign * dx));
    const ty = dy === 0 ? Infinity : Math.max((box.minY - my) / (sign * dy), (box.maxY - my) / (sign * dy));
    const t = Math.min(tx, ty);
    const [x, y] = [mx + sign * t * dx, my + sign * t * dy];
    const [onInput, errInput] = bisectorOffset(p, x, y);
    const [onGridLine, errGrid] = bisectorOffset(q, x, y);
    const lateral = Math.abs(onGridLine - onInput) + errInput + errGrid;
    const nearCorner = Math.abs(tx - ty) <= 1e-6 * diag;
    const sine = nearCorner ? Math.min(Math.abs(dx), Math.abs(dy)) : tx < ty ? Math.abs(dx) : Math.abs(dy);
    const moved = (2 * lateral) / sine + unit;
    if (!(moved <= tol)) {
      return `their bisector meets the box ${moved.toExponential(2)} away under the grid's rounding (tolerance ${tol.toExponential(2)})`;
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
