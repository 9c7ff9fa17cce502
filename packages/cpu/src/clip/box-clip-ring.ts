/**
 * Sutherland–Hodgman clipping of one ring against an axis-aligned box. The result is a single
 * ring, possibly with zero-width spikes along the box's sides, whose winding number at every
 * point strictly inside the box equals the input ring's: it stands in for the ring inside the
 * box, with only the vertices near the box.
 */

/** Reusable scratch buffers, grown as needed. */
export class BoxRingClipper {
  private a = new Float64Array(64);
  private b = new Float64Array(64);

  /**
   * Clips closed ring coordinates `[lo, hi)` of `coords` (interleaved xy; last = first) to the
   * box. Returns the clipped ring as `[x, y]` pairs, not closed, with consecutive duplicates and
   * redundant points along a side of the box removed; fewer than 3 points means nothing is left.
   */
  clip(
    coords: Float64Array,
    lo: number,
    hi: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
  ): [number, number][] {
    let n = hi - lo - 1;
    this.reserve(2 * n);
    this.a.set(coords.subarray(2 * lo, 2 * (hi - 1)));
    n = this.pass(n, 0, minX, 1);
    n = this.pass(n, 0, maxX, -1);
    n = this.pass(n, 1, minY, 1);
    n = this.pass(n, 1, maxY, -1);
    return tidy(this.a, n, minX, minY, maxX, maxY);
  }

  /**
   * One half-plane: keeps points with `sign * (p[axis] - at) >= 0`, cutting edges that cross
   * the line. Reads `a`, writes `b`, then swaps them; returns the new point count.
   */
  private pass(n: number, axis: number, at: number, sign: number): number {
    if (n === 0) return 0;
    this.reserve(2 * n);
    const a = this.a;
    const b = this.b;
    let m = 0;
    let px = a[2 * (n - 1)];
    let py = a[2 * (n - 1) + 1];
    let pIn = sign * ((axis === 0 ? px : py) - at) >= 0;
    for (let i = 0; i < n; i++) {
      const qx = a[2 * i];
      const qy = a[2 * i + 1];
      const qIn = sign * ((axis === 0 ? qx : qy) - at) >= 0;
      if (qIn !== pIn) {
        // the crossing point, computed from the same end whatever the direction
        const [sx, sy, ex, ey] = px < qx || (px === qx && py < qy) ? [px, py, qx, qy] : [qx, qy, px, py];
        if (axis === 0) {
          b[2 * m] = at;
          b[2 * m + 1] = sy + ((ey - sy) * (at - sx)) / (ex - sx);
        } else {
          b[2 * m] = sx + ((ex - sx) * (at - sy)) / (ey - sy);
          b[2 * m + 1] = at;
        }
        m++;
      }
      if (qIn) {
        b[2 * m] = qx;
        b[2 * m + 1] = qy;
        m++;
      }
      px = qx;
      py = qy;
      pIn = qIn;
    }
    this.a = b;
    this.b = a;
    return m;
  }

  private reserve(values: number): void {
    // a pass emits at most two points per input point
    const need = 2 * values + 8;
    if (this.a.length < need) {
      const bigger = new Float64Array(2 * need);
      bigger.set(this.a);
      this.a = bigger;
    }
    if (this.b.length < need) this.b = new Float64Array(2 * need);
  }
}

/** Drops consecutive duplicates and middle points of runs along one side of the box. */
function tidy(
  a: Float64Array,
  n: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): [number, number][] {
  const out: [number, number][] = [];
  const sameSide = (p: [number, number], q: [number, number], r: [number, number]) =>
    (p[0] === q[0] && q[0] === r[0] && (q[0] === minX || q[0] === maxX)) ||
    (p[1] === q[1] && q[1] === r[1] && (q[1] === minY || q[1] === maxY));
  for (let i = 0; i < n; i++) {
    const p: [number, number] = [a[2 * i], a[2 * i + 1]];
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === p[0] && last[1] === p[1]) continue;
    while (out.length >= 2 && sameSide(out[out.length - 2], out[out.length - 1], p)) out.pop();
    out.push(p);
  }
  // the seam between the last point and the first
  while (out.length >= 2 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) {
    out.pop();
  }
  while (out.length >= 3 && sameSide(out[out.length - 2], out[out.length - 1], out[0])) out.pop();
  while (out.length >= 3 && sameSide(out[out.length - 1], out[0], out[1])) out.shift();
  return out;
}
