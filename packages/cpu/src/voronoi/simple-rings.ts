/**
 * Writes the rings of simple cells (not on the hull, every circumcentre inside the box) of the
 * sites `k0 .. k1` (triangulation numbering) straight to their places in `coords`.
 *
 * This function must stay self-contained — no reference to anything outside its body, not even
 * a helper or a constant — because worker threads run it from its own source text
 * (`Function.prototype.toString`), which is the one form that works from the TypeScript sources,
 * the built files and a bundle alike.
 *
 * For each site k with `start[k] >= 0`: walks the triangles around it from half-edge `start[k]`,
 * one circumcentre (`cc`) per triangle with consecutive duplicates written once, then finishes the
 * ring exactly as `closeRing` does (drops a last point equal to the first, removes vertices that
 * lie exactly on the line of their neighbours, rotates it to start at its vertex of least x then y, closes it) and
 * copies it to `coords` from point `place[k]`. `start[k] < 0` marks a cell written elsewhere.
 *
 * The convexity test uses only the floating-point orientation filter of `closeRing`; where that
 * filter cannot decide (the exact predicate would be needed), nothing is written and
 * `length[k]` becomes -1, for the caller to redo the ring with `closeRing`. A ring whose finished
 * length differs from its planned `length[k]` stores its actual length there. Returns the number
 * of sites whose `length` entry was changed.
 *
 * @param longest the largest planned ring length among the sites (sizes the scratch ring)
 */
export function writeSimpleRings(
  k0: number,
  k1: number,
  start: Int32Array,
  place: Int32Array,
  length: Int32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  coords: Float64Array,
  longest: number,
): number {
  // Shewchuk's ccwerrboundA, as in cell-ring-writer.ts
  const errbound = (3 + 16 * 2 ** -53) * 2 ** -53;
  const ring = new Float64Array(2 * (longest + 2));
  let uncertain = false;
  // the sign of the orientation of ring points i, j, k; NaN when the float filter cannot decide
  const turn = (i: number, j: number, k: number): number => {
    const ax = ring[2 * i];
    const ay = ring[2 * i + 1];
    const bx = ring[2 * j];
    const by = ring[2 * j + 1];
    const cx = ring[2 * k];
    const cy = ring[2 * k + 1];
    const detleft = (ay - cy) * (bx - cx);
    const detright = (ax - cx) * (by - cy);
    const det = detleft - detright;
    if (Math.abs(det) >= errbound * Math.abs(detleft + detright)) return det;
    uncertain = true;
    return 0;
  };
  // reverses the order of ring points lo .. hi - 1
  const reverse = (lo: number, hi: number): void => {
    for (let a = lo, b = hi - 1; a < b; a++, b--) {
      const x = ring[2 * a];
      const y = ring[2 * a + 1];
      ring[2 * a] = ring[2 * b];
      ring[2 * a + 1] = ring[2 * b + 1];
      ring[2 * b] = x;
      ring[2 * b + 1] = y;
    }
  };
  let changed = 0;
  for (let k = k0; k < k1; k++) {
    const e0 = start[k];
    if (e0 < 0) continue;
    let e = e0;
    let m = 0;
    do {
      const t = (e / 3) | 0;
      const x = cc[2 * t];
      const y = cc[2 * t + 1];
      if (m === 0 || ring[2 * m - 2] !== x || ring[2 * m - 1] !== y) {
        ring[2 * m] = x;
        ring[2 * m + 1] = y;
        m++;
      }
      const twin = halfedges[e];
      e = twin % 3 === 2 ? twin - 2 : twin + 1;
    } while (e !== e0);
    let n = m; // closeRing on ring[0 .. m)
    if (n > 1 && ring[2 * n - 2] === ring[0] && ring[2 * n - 1] === ring[1]) n--;
    uncertain = false;
    if (n >= 3) {
      // convexify: drop vertices exactly on their neighbours' line (a stack), then close the loop
      let top = 0;
      for (let r = 1; r < n && !uncertain; r++) {
        while (top > 0 && turn(top - 1, top, r) === 0 && !uncertain) top--;
        top++;
        ring[2 * top] = ring[2 * r];
        ring[2 * top + 1] = ring[2 * r + 1];
      }
      let first = 0;
      let again = true;
      while (again && !uncertain && top - first >= 2) {
        again = false;
        if (turn(top - 1, top, first) === 0) {
          if (uncertain) break;
          top--;
          again = true;
        } else if (turn(top, first, first + 1) === 0) {
          if (uncertain) break;
          first++;
          again = true;
        }
      }
      if (uncertain) {
        length[k] = -1;
        changed++;
        continue;
      }
      if (first !== 0) ring.copyWithin(0, 2 * first, 2 * top + 2);
      n = top - first + 1;
    }
    if (n >= 2) {
      // rotate to start at the vertex of least x, then least y
      let low = 0;
      for (let p = 1; p < n; p++) {
        const x = ring[2 * p];
        if (x < ring[2 * low] || (x === ring[2 * low] && ring[2 * p + 1] < ring[2 * low + 1])) low = p;
      }
      if (low !== 0) {
        reverse(0, low);
        reverse(low, n);
        reverse(0, n);
      }
    }
    if (n > 0) {
      ring[2 * n] = ring[0];
      ring[2 * n + 1] = ring[1];
    }
    const got = n > 0 ? n + 1 : 0;
    for (let c = 0, o = 2 * place[k]; c < 2 * got; c++) coords[o + c] = ring[c];
    if (got !== length[k]) {
      length[k] = got;
      changed++;
    }
  }
  return changed;
}
