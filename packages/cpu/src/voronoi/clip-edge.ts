import type { Box } from '@geoframe/core';

/** {@link clipEdge} result bit: some part of the edge lies in the box. */
export const CLIP_VISIBLE = 1;
/** {@link clipEdge} result bit: the visible part starts on the box boundary (an entry). */
export const CLIP_ENTERS = 2;
/** {@link clipEdge} result bit: the visible part ends on the box boundary (an exit). */
export const CLIP_EXITS = 4;

/**
 * Writes the bisector of sites `i` and `j` (of interleaved x, y `sites`) to `out[0..3]` as the
 * line {@link clipEdge} takes: midpoint (mx, my) and direction (dx, dy) = (s_j − s_i) turned 90°
 * counter-clockwise, so site i's cell lies on its left. Swapping i and j gives the same midpoint
 * (bitwise) and the negated direction.
 */
export function bisector(sites: Float64Array, i: number, j: number, out: Float64Array): void {
  const xi = sites[2 * i];
  const yi = sites[2 * i + 1];
  const xj = sites[2 * j];
  const yj = sites[2 * j + 1];
  out[0] = (xi + xj) * 0.5;
  out[1] = (yi + yj) * 0.5;
  out[2] = yi - yj;
  out[3] = xj - xi;
}

/**
 * Clips one Voronoi edge to the box. The edge lies on the bisector of two sites, given as the
 * line `m + t·d` (m the sites' midpoint, d perpendicular to them); it runs from vertex a to
 * vertex b (either may be absent: a ray or a full line). `aInside`/`bInside` say whether the
 * vertices are in the (closed) box — decided once per vertex by the caller, so every cell
 * sharing a vertex agrees.
 *
 * Clip points are computed from the midpoint, never from a far-away vertex, so they are
 * accurate even when a vertex is at 1e20. The cell on the other side of the edge passes the
 * same m and the negated d, and gets bitwise-identical clip points. Clip points are clamped to
 * the box and snapped onto their nearest side.
 *
 * Writes the visible part to `out[0..3]` (x0, y0, x1, y1) and returns a combination of
 * {@link CLIP_VISIBLE}, {@link CLIP_ENTERS}, {@link CLIP_EXITS}; 0 when nothing is visible (a
 * visible part of zero length between two outside vertices counts as nothing).
 */
export function clipEdge(
  box: Box,
  mx: number,
  my: number,
  dx: number,
  dy: number,
  hasA: boolean,
  ax: number,
  ay: number,
  aInside: boolean,
  hasB: boolean,
  bx: number,
  by: number,
  bInside: boolean,
  out: Float64Array,
): number {
  if (aInside && bInside) {
    out[0] = ax;
    out[1] = ay;
    out[2] = bx;
    out[3] = by;
    return CLIP_VISIBLE;
  }
  const dd = dx * dx + dy * dy;
  const ta = hasA ? ((ax - mx) * dx + (ay - my) * dy) / dd : Number.NEGATIVE_INFINITY;
  const tb = hasB ? ((bx - mx) * dx + (by - my) * dy) / dd : Number.POSITIVE_INFINITY;
  let t0 = Number.NEGATIVE_INFINITY;
  let t1 = Number.POSITIVE_INFINITY;
  if (dx > 0) {
    t0 = (box.minX - mx) / dx;
    t1 = (box.maxX - mx) / dx;
  } else if (dx < 0) {
    t0 = (box.maxX - mx) / dx;
    t1 = (box.minX - mx) / dx;
  } else if (mx < box.minX || mx > box.maxX) {
    t0 = Number.POSITIVE_INFINITY;
    t1 = Number.NEGATIVE_INFINITY;
  }
  if (dy > 0) {
    t0 = Math.max(t0, (box.minY - my) / dy);
    t1 = Math.min(t1, (box.maxY - my) / dy);
  } else if (dy < 0) {
    t0 = Math.max(t0, (box.maxY - my) / dy);
    t1 = Math.min(t1, (box.minY - my) / dy);
  } else if (my < box.minY || my > box.maxY) {
    t0 = Number.POSITIVE_INFINITY;
    t1 = Number.NEGATIVE_INFINITY;
  }
  const lo = aInside ? ta : Math.max(ta, t0);
  const hi = bInside ? tb : Math.min(tb, t1);
  if (!aInside && !bInside && !(lo < hi)) return 0;
  let result = CLIP_VISIBLE;
  if (aInside) {
    out[0] = ax;
    out[1] = ay;
  } else {
    snapToBoundary(box, mx + lo * dx, my + lo * dy, out, 0);
    result |= CLIP_ENTERS;
  }
  if (bInside) {
    out[2] = bx;
    out[3] = by;
  } else {
    snapToBoundary(box, mx + hi * dx, my + hi * dy, out, 2);
    result |= CLIP_EXITS;
  }
  return result;
}

/** Clamps (x, y) into the box and moves it onto the nearest side; writes out[at], out[at + 1]. */
function snapToBoundary(box: Box, x: number, y: number, out: Float64Array, at: number): void {
  x = Math.min(Math.max(x, box.minX), box.maxX);
  y = Math.min(Math.max(y, box.minY), box.maxY);
  const bottom = y - box.minY;
  const right = box.maxX - x;
  const top = box.maxY - y;
  const left = x - box.minX;
  const least = Math.min(bottom, right, top, left);
  if (least === bottom) y = box.minY;
  else if (least === right) x = box.maxX;
  else if (least === top) y = box.maxY;
  else x = box.minX;
  out[at] = x;
  out[at + 1] = y;
}

/**
 * Position of a boundary point along the box perimeter, counter-clockwise from (minX, minY):
 * [0, 1) bottom, [1, 2) right, [2, 3) top, [3, 4) left; corner k sits at k.
 */
export function perimeterPosition(box: Box, x: number, y: number): number {
  const w = box.maxX - box.minX;
  const h = box.maxY - box.minY;
  const bottom = y - box.minY;
  const right = box.maxX - x;
  const top = box.maxY - y;
  const left = x - box.minX;
  const least = Math.min(bottom, right, top, left);
  if (least === bottom) return (x - box.minX) / w;
  if (least === right) return 1 + (y - box.minY) / h;
  if (least === top) return 2 + (box.maxX - x) / w;
  return 3 + (box.maxY - y) / h;
}

/** Whether (x, y) lies in the closed box. */
export function inBox(box: Box, x: number, y: number): boolean {
  return x >= box.minX && x <= box.maxX && y >= box.minY && y <= box.maxY;
}
