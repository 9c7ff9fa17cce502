/**
 * Range kernels of the parallel Delaunay triangulation by per-site stars (ADR 0014), run by the
 * pooled worker threads from their own source text (see `workers/worker-pool.ts`): each must stay
 * self-contained — no reference to anything outside its body, not even a constant.
 *
 * A star is the cyclic counter-clockwise list of a site's Delaunay neighbours, stored in `SLOT`
 * words a site, or, when longer, in a shared spill buffer at the offset its first word holds
 * (bump-allocated with an atomic add on `abort[1]`); the entry -1 is the vertex at infinity (a hull site's open wedge, from its
 * previous to its next hull neighbour). Consecutive entries (a, b) are the star's triangles
 * (i, a, b). `info[i]` holds the star's length | status << 8.
 *
 * The predicates are floating-point with Shewchuk's static error bounds: a decision the filter
 * cannot certify (a tie, a near-tie) fails the star, and the caller then triangulates with
 * delaunator instead. So every decision taken is exact, and a run either gives the Delaunay
 * triangulation or gives up.
 */

/** Entries (neighbours and the infinity marker) a star may hold; more fails the star. */
export const STAR_CAPACITY = 64;

/** Words of a star's own slot (one cache line); longer stars spill (see above). */
export const STAR_SLOT = 16;

/** Status of a star in `info >> 8`: final. */
export const STAR_FINAL = 1;
/** Status: a predicate the float filter could not decide (a tie or near-tie). */
export const STAR_UNCERTAIN = 2;
/** Status: more than {@link STAR_CAPACITY} entries. */
export const STAR_OVERFLOW = 3;
/** Status: the predicates gave an impossible star (not expected; the run gives up). */
export const STAR_INCONSISTENT = 4;
/** Status: not built (another range gave up first). */
export const STAR_ABANDONED = 5;

/**
 * Builds the stars of the sites `lo .. hi` (local coordinates `xy`). The bucket grid: `grid` =
 * [min x, min y, cell size, cells across, cells down], `cellStart` (cells + 1 scanned counts) and
 * `cellSites`; the convex hull: `hullPrev`/`hullNext` (-1 off the hull) and `hullList` (its
 * vertices counter-clockwise); `hullSeedLimit`: the largest hull whose vertices an open star takes
 * as candidates after two rings. Writes `stars` (`SLOT` words a site), `spill` and `info`; sets
 * `abort[0]` when a star fails and stops early when another range did. Returns [failed stars, rings beyond
 * the first searched, candidates collected, candidates tested, incircle tests, circumdisks].
 */
export function buildStars(
  lo: number,
  hi: number,
  xy: Float64Array,
  grid: Float64Array,
  cellStart: Int32Array,
  cellSites: Int32Array,
  hullPrev: Int32Array,
  hullNext: Int32Array,
  hullList: Int32Array,
  hullSeedLimit: number,
  stars: Int32Array,
  spill: Int32Array,
  info: Int32Array,
  abort: Int32Array,
): number[] {
  const CAP = 64;
  const SLOT = 16;
  const NONE = -1;
  const FINAL = 1;
  const UNCERTAIN = 2;
  const OVERFLOW = 3;
  const INCONSISTENT = 4;
  const ABANDONED = 5;
  const EPS = 2 ** -53;
  const ORIENT_BOUND = (3 + 16 * EPS) * EPS; // Shewchuk's ccwerrboundA
  const INCIRCLE_BOUND = (10 + 96 * EPS) * EPS; // iccerrboundA
  // relative slack on a circumdisk computed in floating point (it only decides which candidates
  // are tested and when to stop searching; the verdicts come from the filtered predicates)
  const DISK_SLACK = 1e-9;
  const [minX, minY, size, gw, gh] = grid;
  const star = new Int32Array(CAP);
  // per pair (star[t], star[t + 1]): circumdisk centre and squared radius, or NaN when unknown
  // (an infinite triangle, or not computed yet)
  const dx = new Float64Array(CAP);
  const dy = new Float64Array(CAP);
  const dr = new Float64Array(CAP);
  const pendX = new Float64Array(CAP);
  const pendY = new Float64Array(CAP);
  const pendR = new Float64Array(CAP);
  let npend = 0;
  let pendLoX = 0;
  let pendLoY = 0;
  let pendHiX = 0;
  let pendHiY = 0;
  const hits = new Uint8Array(CAP);
  const keptStar = new Int32Array(CAP);
  const keptX = new Float64Array(CAP);
  const keptY = new Float64Array(CAP);
  const keptR = new Float64Array(CAP);
  let candidates = new Int32Array(256);
  let keys = new Float64Array(256);
  let len = 0;
  let status = 0;
  let reach2 = -1; // see reachOf; -1: unknown
  let px = 0;
  let py = 0;
  let failed = 0;
  // work counters: rings searched, candidates collected, inserted (tested), incircle tests, disks
  let rings = 0;
  let collected = 0;
  let tested = 0;
  let incircles = 0;
  let disks = 0;

  /** Sign of orient(p, a, b) for sites p, a, b: 1 counter-clockwise, -1 clockwise, 0 undecided. */
  function orient(p: number, a: number, b: number): number {
    const ox = xy[2 * p];
    const oy = xy[2 * p + 1];
    const l = (xy[2 * a] - ox) * (xy[2 * b + 1] - oy);
    const r = (xy[2 * a + 1] - oy) * (xy[2 * b] - ox);
    const det = l - r;
    const bound = ORIENT_BOUND * (Math.abs(l) + Math.abs(r));
    return det > bound ? 1 : det < -bound ? -1 : 0;
  }

  /**
   * Sign of incircle(a, b, c, d) (positive: d inside the circle of counter-clockwise a, b, c), 0
   * undecided: Shewchuk's first filter stage, the same arithmetic as `certifyEdges` and
   * `repairDelaunay`'s inlined filter (a worker kernel cannot share a helper).
   */
  function incircle(a: number, b: number, c: number, d: number): number {
    const ex = xy[2 * d];
    const ey = xy[2 * d + 1];
    const adx = xy[2 * a] - ex;
    const ady = xy[2 * a + 1] - ey;
    const bdx = xy[2 * b] - ex;
    const bdy = xy[2 * b + 1] - ey;
    const cdx = xy[2 * c] - ex;
    const cdy = xy[2 * c + 1] - ey;
    const bdxcdy = bdx * cdy;
    const cdxbdy = cdx * bdy;
    const alift = adx * adx + ady * ady;
    const cdxady = cdx * ady;
    const adxcdy = adx * cdy;
    const blift = bdx * bdx + bdy * bdy;
    const adxbdy = adx * bdy;
    const bdxady = bdx * ady;
    const clift = cdx * cdx + cdy * cdy;
    const det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
    const permanent =
      (Math.abs(bdxcdy) + Math.abs(cdxbdy)) * alift +
      (Math.abs(cdxady) + Math.abs(adxcdy)) * blift +
      (Math.abs(adxbdy) + Math.abs(bdxady)) * clift;
    const bound = INCIRCLE_BOUND * permanent;
    return det > bound ? 1 : det < -bound ? -1 : 0;
  }

  /** Computes the circumdisk of pair t (a finite triangle (i, a, b)), enlarged by the slack. */
  function diskOf(t: number): void {
    disks++;
    const a = star[t];
    const b = star[t + 1 === len ? 0 : t + 1];
    const ax = xy[2 * a] - px;
    const ay = xy[2 * a + 1] - py;
    const bx = xy[2 * b] - px;
    const by = xy[2 * b + 1] - py;
    const l = ax * by;
    const r = ay * bx;
    const d = 2 * (l - r);
    const la = ax * ax + ay * ay;
    const lb = bx * bx + by * by;
    const ux = (by * la - ay * lb) / d;
    const uy = (ax * lb - bx * la) / d;
    // relative error of the centre grows with the cancellation in d
    const cond = (Math.abs(l) + Math.abs(r)) / Math.abs(l - r);
    const radius = Math.sqrt(ux * ux + uy * uy);
    const rho =
      radius * (1 + DISK_SLACK * (1 + cond)) +
      DISK_SLACK * (Math.abs(ax) + Math.abs(bx) + Math.abs(ay) + Math.abs(by));
    if (!(cond < 1e6) || !Number.isFinite(rho)) {
      dx[t] = px;
      dy[t] = py;
      dr[t] = Number.POSITIVE_INFINITY; // unbounded: every candidate is tested
      return;
    }
    dx[t] = px + ux;
    dy[t] = py + uy;
    dr[t] = rho * rho;
  }

  /** Candidate l conflicts with pair t of the star; sets `status` when undecided. */
  function conflicts(i: number, t: number, l: number): boolean {
    const a = star[t];
    const b = star[t + 1 === len ? 0 : t + 1];
    if (a === NONE) {
      const o = orient(i, l, b);
      if (o === 0) status = UNCERTAIN;
      return o > 0;
    }
    if (b === NONE) {
      const o = orient(i, a, l);
      if (o === 0) status = UNCERTAIN;
      return o > 0;
    }
    if (Number.isNaN(dr[t])) diskOf(t);
    const ex = xy[2 * l] - dx[t];
    const ey = xy[2 * l + 1] - dy[t];
    if (ex * ex + ey * ey > dr[t]) return false;
    incircles++;
    const s = incircle(i, a, b, l);
    if (s === 0) status = UNCERTAIN;
    return s > 0;
  }

  /** Inserts candidate l into the star of i (a Bowyer–Watson step restricted to the star). */
  function insert(i: number, l: number): void {
    const unchanged = reach2;
    reach2 = -1;
    if (len === 0) {
      star[0] = l;
      star[1] = NONE;
      len = 2;
      dr[0] = Number.NaN;
      dr[1] = Number.NaN;
      return;
    }
    if (len === 2) {
      // the half-plane [a, NONE]
      const o = orient(i, star[0], l);
      if (o === 0) {
        status = UNCERTAIN;
        return;
      }
      if (o > 0) {
        star[1] = l;
        star[2] = NONE;
      } else star[2] = l;
      len = 3;
      dr[0] = dr[1] = dr[2] = Number.NaN;
      return;
    }
    // the conflicting pairs must form one contiguous run s .. s + k - 1
    let k = 0;
    for (let t = 0; t < len; t++) {
      hits[t] = conflicts(i, t, l) ? 1 : 0;
      if (status !== 0) return;
      k += hits[t];
    }
    if (k === 0) {
      reach2 = unchanged;
      return;
    }
    if (k === len) {
      status = INCONSISTENT;
      return;
    }
    let s = 0;
    while (!(hits[s] === 1 && hits[s === 0 ? len - 1 : s - 1] === 0)) s++;
    for (let j = 1; j < k; j++) {
      if (hits[(s + j) % len] === 0) {
        status = INCONSISTENT;
        return;
      }
    }
    // the new triangles (i, p, l) and (i, l, q) must be counter-clockwise
    const p = star[s];
    const q = star[(s + k) % len];
    if ((p !== NONE && orient(i, p, l) <= 0) || (q !== NONE && orient(i, l, q) <= 0)) {
      status = status || INCONSISTENT;
      return;
    }
    // entries s + 1 .. s + k - 1 leave and l goes between s and s + k: the kept entries from
    // s + k round to s first (the pairs between kept entries keep their disks), then l
    const keep = len - k + 1;
    if (keep + 1 > CAP) {
      status = OVERFLOW;
      return;
    }
    const from = (s + k) % len;
    for (let j = 0; j < keep; j++) {
      const src = (from + j) % len;
      keptStar[j] = star[src];
      keptX[j] = dx[src];
      keptY[j] = dy[src];
      keptR[j] = dr[src];
    }
    for (let j = 0; j < keep; j++) {
      star[j] = keptStar[j];
      dx[j] = keptX[j];
      dy[j] = keptY[j];
      dr[j] = keptR[j];
    }
    star[keep] = l;
    len = keep + 1;
    dr[keep - 1] = Number.NaN; // (p, l)
    dr[keep] = Number.NaN; // (l, q)
  }

  /**
   * The star of i is closed: no open wedge, or for a hull site exactly one, from its previous to
   * its next hull neighbour (that wedge, outside the hull, holds no site).
   */
  function closed(i: number): boolean {
    if (len < 3) return false;
    let infinite = 0;
    let at = 0;
    for (let t = 0; t < len; t++) {
      if (star[t] === NONE) {
        infinite++;
        at = t;
      }
    }
    if (hullPrev[i] < 0) return infinite === 0;
    return (
      infinite === 1 &&
      star[at === 0 ? len - 1 : at - 1] === hullPrev[i] &&
      star[at + 1 === len ? 0 : at + 1] === hullNext[i]
    );
  }

  /**
   * Whether the star is final after the block of rings 0 .. r around cell (cx, cy) was searched:
   * closed (no open wedge, or a hull site's single one) and no circumdisk reaching a cell outside
   * the block. Otherwise collects the pending disks (only for a closed star; `npend` = -1 for an
   * open one: every cell must be visited).
   */
  function isFinal(i: number, r: number, cx: number, cy: number): boolean {
    npend = -1;
    if (!closed(i)) return false;
    // the searched block, unbounded on the sides where it reaches the grid's border
    const x0 = cx - r <= 0 ? Number.NEGATIVE_INFINITY : minX + (cx - r) * size;
    const x1 = cx + r + 1 >= gw ? Number.POSITIVE_INFINITY : minX + (cx + r + 1) * size;
    const y0 = cy - r <= 0 ? Number.NEGATIVE_INFINITY : minY + (cy - r) * size;
    const y1 = cy + r + 1 >= gh ? Number.POSITIVE_INFINITY : minY + (cy + r + 1) * size;
    npend = 0;
    pendLoX = pendLoY = Number.POSITIVE_INFINITY;
    pendHiX = pendHiY = Number.NEGATIVE_INFINITY;
    for (let t = 0; t < len; t++) {
      const a = star[t];
      const b = star[t + 1 === len ? 0 : t + 1];
      if (a === NONE || b === NONE) continue;
      if (Number.isNaN(dr[t])) diskOf(t);
      const rho = Math.sqrt(dr[t]);
      const cxd = dx[t];
      const cyd = dy[t];
      if (cxd - rho >= x0 && cxd + rho <= x1 && cyd - rho >= y0 && cyd + rho <= y1) continue;
      pendX[npend] = cxd;
      pendY[npend] = cyd;
      pendR[npend] = dr[t];
      npend++;
      pendLoX = Math.min(pendLoX, cxd - rho);
      pendLoY = Math.min(pendLoY, cyd - rho);
      pendHiX = Math.max(pendHiX, cxd + rho);
      pendHiY = Math.max(pendHiY, cyd + rho);
    }
    return npend === 0;
  }

  /** Cell (x, y) meets a pending disk (always true for an open star). */
  function cellNeeded(x: number, y: number): boolean {
    if (npend < 0) return true;
    const lx = minX + x * size;
    const ly = minY + y * size;
    for (let k = 0; k < npend; k++) {
      const ex = Math.max(lx - pendX[k], 0, pendX[k] - (lx + size));
      const ey = Math.max(ly - pendY[k], 0, pendY[k] - (ly + size));
      if (ex * ex + ey * ey <= pendR[k]) return true;
    }
    return false;
  }

  /** Site l lies in a pending disk (always true for an open star). */
  function inPending(l: number): boolean {
    if (npend < 0) return true;
    const x = xy[2 * l];
    const y = xy[2 * l + 1];
    for (let k = 0; k < npend; k++) {
      const ex = x - pendX[k];
      const ey = y - pendY[k];
      if (ex * ex + ey * ey <= pendR[k]) return true;
    }
    return false;
  }

  /**
   * The squared distance from site i beyond which no site conflicts with its star: the farthest
   * point of its circumdisks when the star is closed (a hull site's open wedge between its hull
   * neighbours holds no site), else infinity.
   */
  function reachOf(i: number): number {
    if (!closed(i)) return Number.POSITIVE_INFINITY;
    let reach = 0;
    for (let t = 0; t < len; t++) {
      const a = star[t];
      const b = star[t + 1 === len ? 0 : t + 1];
      if (a === NONE || b === NONE) continue;
      if (Number.isNaN(dr[t])) diskOf(t);
      const ex = dx[t] - px;
      const ey = dy[t] - py;
      reach = Math.max(reach, Math.sqrt(ex * ex + ey * ey) + Math.sqrt(dr[t]));
    }
    return reach * reach * (1 + 1e-12);
  }

  function inStar(l: number): boolean {
    for (let t = 0; t < len; t++) if (star[t] === l) return true;
    return false;
  }

  let found = 0;
  /** Adds the sites of cell (x, y) that may conflict (not i, not in the star) to the candidates. */
  function collect(i: number, x: number, y: number, skipHull: boolean): void {
    if (!cellNeeded(x, y)) return;
    const c = y * gw + x;
    for (let k = cellStart[c]; k < cellStart[c + 1]; k++) {
      const l = cellSites[k];
      if (l === i || (skipHull && hullPrev[l] >= 0) || !inPending(l) || inStar(l)) continue;
      if (found === candidates.length) {
        const grownC = new Int32Array(2 * found);
        grownC.set(candidates);
        candidates = grownC;
        const grownK = new Float64Array(2 * found);
        grownK.set(keys);
        keys = grownK;
      }
      const ex = xy[2 * l] - px;
      const ey = xy[2 * l + 1] - py;
      candidates[found] = l;
      keys[found] = ex * ex + ey * ey;
      found++;
    }
  }

  /** Inserts the collected candidates nearest first (the star then settles with few changes). */
  function insertCollected(i: number): void {
    for (let a = 1; a < found; a++) {
      const c = candidates[a];
      const key = keys[a];
      let b = a - 1;
      while (b >= 0 && keys[b] > key) {
        candidates[b + 1] = candidates[b];
        keys[b + 1] = keys[b];
        b--;
      }
      candidates[b + 1] = c;
      keys[b + 1] = key;
    }
    for (let k = 0; k < found && status === 0; k++) {
      // a closed star's disks only shrink: once the candidates (nearest first) are beyond every
      // disk, so are the rest
      if (reach2 < 0) reach2 = reachOf(i);
      if (keys[k] > reach2) break;
      // a candidate outside every pending disk of a closed star cannot conflict
      if (npend >= 0 && !inPending(candidates[k])) continue;
      tested++;
      insert(i, candidates[k]);
    }
    collected += found;
    found = 0;
  }

  for (let i = lo; i < hi; i++) {
    if ((i & 255) === 0 && Atomics.load(abort, 0) !== 0) {
      for (let j = i; j < hi; j++) info[j] = ABANDONED << 8;
      return [failed + (hi - i), rings, collected, tested, incircles, disks];
    }
    px = xy[2 * i];
    py = xy[2 * i + 1];
    const cx = Math.min(gw - 1, Math.max(0, Math.floor((px - minX) / size)));
    const cy = Math.min(gh - 1, Math.max(0, Math.floor((py - minY) / size)));
    len = 0;
    status = 0;
    npend = -1;
    found = 0;
    reach2 = -1;
    let seeded = false;
    const onHull = hullPrev[i] >= 0;
    if (onHull) {
      // a hull site starts from its two hull edges (always Delaunay)
      insert(i, hullPrev[i]);
      insert(i, hullNext[i]);
    }
    // rings 0 and 1 at once, then ring by ring
    for (let y = Math.max(0, cy - 1); y <= Math.min(gh - 1, cy + 1); y++) {
      for (let x = Math.max(0, cx - 1); x <= Math.min(gw - 1, cx + 1); x++) collect(i, x, y, false);
    }
    insertCollected(i);
    let r = 1;
    const rMax = Math.max(cx, cy, gw - 1 - cx, gh - 1 - cy);
    while (status === 0) {
      if (isFinal(i, r, cx, cy)) {
        status = FINAL;
        break;
      }
      if (r >= rMax) {
        status = INCONSISTENT; // every cell searched, still open
        break;
      }
      if (npend < 0 && r >= 2 && !seeded && hullList.length <= hullSeedLimit) {
        // still open: a site near a long hull edge; the hull's vertices close it at once
        seeded = true;
        for (let k = 0; k < hullList.length && status === 0; k++) {
          const l = hullList[k];
          if (l !== i && !inStar(l)) insert(i, l);
        }
        continue;
      }
      r++;
      rings++;
      // the cells of ring r, inside the pending disks' box once the star is closed
      let xlo = cx - r;
      let xhi = cx + r;
      let ylo = cy - r;
      let yhi = cy + r;
      if (npend >= 0) {
        xlo = Math.max(xlo, Math.floor((pendLoX - minX) / size) - 1);
        xhi = Math.min(xhi, Math.floor((pendHiX - minX) / size) + 1);
        ylo = Math.max(ylo, Math.floor((pendLoY - minY) / size) - 1);
        yhi = Math.min(yhi, Math.floor((pendHiY - minY) / size) + 1);
      }
      const ax = Math.max(xlo, 0);
      const bx = Math.min(xhi, gw - 1);
      if (cy - r >= Math.max(ylo, 0)) for (let x = ax; x <= bx; x++) collect(i, x, cy - r, seeded);
      if (cy + r <= Math.min(yhi, gh - 1)) for (let x = ax; x <= bx; x++) collect(i, x, cy + r, seeded);
      const ay = Math.max(ylo, cy - r + 1, 0);
      const by = Math.min(yhi, cy + r - 1, gh - 1);
      if (cx - r >= Math.max(xlo, 0)) for (let y = ay; y <= by; y++) collect(i, cx - r, y, seeded);
      if (cx + r <= Math.min(xhi, gw - 1)) for (let y = ay; y <= by; y++) collect(i, cx + r, y, seeded);
      insertCollected(i);
    }
    if (len <= SLOT) {
      const base = i * SLOT;
      for (let t = 0; t < len; t++) stars[base + t] = star[t];
    } else {
      const at = Atomics.add(abort, 1, len);
      if (at + len > spill.length) status = OVERFLOW;
      else {
        stars[i * SLOT] = at;
        for (let t = 0; t < len; t++) spill[at + t] = star[t];
      }
    }
    info[i] = len | (status << 8);
    if (status !== FINAL) {
      failed++;
      Atomics.store(abort, 0, 1);
    }
  }
  return [failed, rings, collected, tested, incircles, disks];
}

/**
 * For the final stars of sites `lo .. hi`: checks every finite triangle (i, a, b) of i's star is
 * (a, b, i) in a's (run over every star, that chains round each triangle: (b, i, a) is in b's), and writes `counts[i + 1]` = the triangles i owns (its
 * two other vertices have larger indices). Returns the number of disagreeing sites.
 */
export function countStarTriangles(
  lo: number,
  hi: number,
  stars: Int32Array,
  spill: Int32Array,
  info: Int32Array,
  counts: Int32Array,
): number {
  const SLOT = 16;
  const NONE = -1;
  function hasPair(s: number, x: number, y: number): boolean {
    const n = info[s] & 255;
    if (info[s] >> 8 !== 1) return false;
    const list = n <= SLOT ? stars : spill;
    const base = n <= SLOT ? s * SLOT : stars[s * SLOT];
    for (let t = 0; t < n; t++) {
      if (list[base + t] === x) return list[base + (t + 1 === n ? 0 : t + 1)] === y;
    }
    return false;
  }
  let disagreeing = 0;
  for (let i = lo; i < hi; i++) {
    const n = info[i] & 255;
    const list = n <= SLOT ? stars : spill;
    const base = n <= SLOT ? i * SLOT : stars[i * SLOT];
    let owned = 0;
    let agree = info[i] >> 8 === 1;
    for (let t = 0; t < n && agree; t++) {
      const a = list[base + t];
      const b = list[base + (t + 1 === n ? 0 : t + 1)];
      if (a === NONE || b === NONE) continue;
      // (i, a, b) in a's star as (a, b, i); checked at every star, this also puts it in b's
      agree = hasPair(a, b, i);
      if (a > i && b > i) owned++;
    }
    if (!agree) disagreeing++;
    counts[i + 1] = owned;
  }
  return disagreeing;
}

/**
 * Writes the triangles the sites `lo .. hi` own at their scanned `offsets` (triangles), three
 * site indices each, clockwise in y-up like delaunator (the star's counter-clockwise (i, a, b)
 * becomes (i, b, a)), and their half-edges (delaunator's `halfedges`: the opposite half-edge, or -1
 * on the hull).
 */
export function emitStarTriangles(
  lo: number,
  hi: number,
  stars: Int32Array,
  spill: Int32Array,
  info: Int32Array,
  offsets: Int32Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
): void {
  const SLOT = 16;
  const NONE = -1;
  function lengthOf(s: number): number {
    return info[s] & 255;
  }
  function entry(s: number, t: number): number {
    return (info[s] & 255) <= SLOT ? stars[s * SLOT + t] : spill[stars[s * SLOT] + t];
  }
  /** The triangle owner o emits from its pair starting with u. */
  function triangleOf(o: number, u: number): number {
    const n = lengthOf(o);
    let index = offsets[o];
    for (let t = 0; t < n; t++) {
      const a = entry(o, t);
      if (a === u) return index;
      const b = entry(o, t + 1 === n ? 0 : t + 1);
      if (a !== NONE && b !== NONE && a > o && b > o) index++;
    }
    return -1;
  }
  /**
   * The half-edge that runs q → p (clockwise emission) of the counter-clockwise triangle (p, q, w),
   * i.e. its counter-clockwise edge p → q reversed: with the owner o first, (o, u, v) is emitted
   * (o, v, u), whose half-edges are o → v, v → u, u → o.
   */
  function halfedgeOf(p: number, q: number, w: number): number {
    if (w === NONE) return -1;
    if (p < q && p < w) return 3 * triangleOf(p, q) + 2;
    if (q < w) return 3 * triangleOf(q, w);
    return 3 * triangleOf(w, p) + 1;
  }
  /** The entry after x in s's star. */
  function after(s: number, x: number): number {
    const n = lengthOf(s);
    for (let t = 0; t < n; t++) if (entry(s, t) === x) return entry(s, t + 1 === n ? 0 : t + 1);
    return NONE;
  }
  for (let i = lo; i < hi; i++) {
    const n = lengthOf(i);
    let at = offsets[i];
    for (let t = 0; t < n; t++) {
      const a = entry(i, t);
      const b = entry(i, t + 1 === n ? 0 : t + 1);
      if (a === NONE || b === NONE || a < i || b < i) continue;
      const e = 3 * at;
      triangles[e] = i;
      triangles[e + 1] = b;
      triangles[e + 2] = a;
      // i → b: twin b → i in (i, b, c), c after b in i's star
      halfedges[e] = halfedgeOf(i, b, entry(i, (t + 2) % n));
      // b → a: twin a → b in (b, a, y), y after a in b's star
      halfedges[e + 1] = halfedgeOf(b, a, after(b, a));
      // a → i: twin i → a in (a, i, z), z before a in i's star
      halfedges[e + 2] = halfedgeOf(a, i, entry(i, t === 0 ? n - 1 : t - 1));
      at++;
    }
  }
}
