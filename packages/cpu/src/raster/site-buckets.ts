/**
 * A uniform grid of site buckets for exact nearest-site queries in f64 (2D or 3D): about one
 * bucket per site over the sites' bounding box, sites sorted into buckets by a counting sort
 * (ascending index within a bucket). Non-finite sites are left out.
 */
export class SiteBuckets {
  readonly dims: 2 | 3;
  readonly sites: Float64Array;
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  readonly x0: number;
  readonly y0: number;
  readonly z0: number;
  readonly cw: number;
  readonly ch: number;
  readonly cd: number;
  /** Bucket b holds `members[start[b] .. start[b + 1])`. */
  readonly start: Int32Array;
  readonly members: Int32Array;
  /** Margin subtracted from every stopping bound, covering f64 rounding in bucket placement. */
  private readonly slack: number;

  constructor(sites: Float64Array, dims: 2 | 3) {
    this.dims = dims;
    this.sites = sites;
    const n = Math.floor(sites.length / dims);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    let finite = 0;
    for (let i = 0; i < n; i++) {
      if (!isFiniteSite(sites, dims, i)) continue;
      finite++;
      for (let a = 0; a < dims; a++) {
        const v = sites[i * dims + a];
        if (v < lo[a]) lo[a] = v;
        if (v > hi[a]) hi[a] = v;
      }
    }
    for (let a = 0; a < 3; a++) {
      if (finite === 0 || a >= dims) {
        lo[a] = 0;
        hi[a] = 0;
      }
    }
    const spans = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
    // cell side: the k-th root of (volume of the positive axes / sites), so about one site per bucket
    let volume = 1;
    let positive = 0;
    for (const s of spans) {
      if (s > 0) {
        volume *= s;
        positive++;
      }
    }
    const side = positive > 0 ? (volume / Math.max(1, finite)) ** (1 / positive) : 1;
    const counts = spans.map((s) => (s > 0 ? Math.max(1, Math.min(1 << 16, Math.ceil(s / side))) : 1));
    [this.nx, this.ny, this.nz] = counts;
    [this.x0, this.y0, this.z0] = lo;
    [this.cw, this.ch, this.cd] = spans.map((s, a) => (s > 0 ? s / counts[a] : 1));
    let magnitude = 0;
    for (let a = 0; a < 3; a++) magnitude += Math.abs(lo[a]) + Math.abs(hi[a]);
    this.slack = 1e-9 * Math.max(this.cw, this.ch, this.cd) + 1e-14 * magnitude;

    const cells = this.nx * this.ny * this.nz;
    const bucket = new Int32Array(n).fill(-1);
    const start = new Int32Array(cells + 1);
    for (let i = 0; i < n; i++) {
      if (!isFiniteSite(sites, dims, i)) continue;
      const b = this.bucketOf(sites[i * dims], sites[i * dims + 1], dims === 3 ? sites[i * dims + 2] : 0);
      bucket[i] = b;
      start[b + 1]++;
    }
    for (let b = 0; b < cells; b++) start[b + 1] += start[b];
    const fill = start.slice(0, cells);
    const members = new Int32Array(finite);
    for (let i = 0; i < n; i++) if (bucket[i] >= 0) members[fill[bucket[i]]++] = i;
    this.start = start;
    this.members = members;
  }

  /** Number of sites held (the finite ones). */
  get size(): number {
    return this.members.length;
  }

  private bucketOf(x: number, y: number, z: number): number {
    const i = clampIndex((x - this.x0) / this.cw, this.nx);
    const j = clampIndex((y - this.y0) / this.ch, this.ny);
    const k = clampIndex((z - this.z0) / this.cd, this.nz);
    return (k * this.ny + j) * this.nx + i;
  }

  /**
   * The index of the site nearest to (x, y[, z]) by the f64 squared distance
   * dx·dx + dy·dy (+ dz·dz), ties to the lower index; −1 when there is no site. Buckets are
   * searched in growing square (cube) rings around the query's bucket; after ring r every
   * unexamined site lies outside the ring's box, at least `bound` away (the distance from the
   * query to the nearest box face with buckets beyond it, less a rounding margin), so the search
   * stops once the best squared distance is strictly below bound² — or when no bucket is left.
   */
  nearest(x: number, y: number, z: number): number {
    if (this.members.length === 0) return -1;
    const { nx, ny, nz, x0, y0, z0, cw, ch, cd, start, members, sites, dims } = this;
    const i0 = clampIndex((x - x0) / cw, nx);
    const j0 = clampIndex((y - y0) / ch, ny);
    const k0 = clampIndex((z - z0) / cd, nz);
    let best = -1;
    let bestDist = Infinity;
    for (let r = 0; ; r++) {
      const kLo = Math.max(0, k0 - r);
      const kHi = Math.min(nz - 1, k0 + r);
      const jLo = Math.max(0, j0 - r);
      const jHi = Math.min(ny - 1, j0 + r);
      const iLo = Math.max(0, i0 - r);
      const iHi = Math.min(nx - 1, i0 + r);
      for (let k = kLo; k <= kHi; k++) {
        const kFace = k === k0 - r || k === k0 + r;
        for (let j = jLo; j <= jHi; j++) {
          const full = kFace || j === j0 - r || j === j0 + r;
          const row = (k * ny + j) * nx;
          // off the ring's faces only its two end buckets are new
          const iStep = full || r === 0 ? 1 : 2 * r;
          for (let i = full ? iLo : i0 - r; i <= (full ? iHi : i0 + r); i += iStep) {
            if (i < 0 || i >= nx) continue;
            const b = row + i;
            for (let m = start[b]; m < start[b + 1]; m++) {
              const s = members[m];
              const dx = x - sites[s * dims];
              const dy = y - sites[s * dims + 1];
              let d = dx * dx + dy * dy;
              if (dims === 3) {
                const dz = z - sites[s * dims + 2];
                d += dz * dz;
              }
              if (d < bestDist || (d === bestDist && s < best)) {
                best = s;
                bestDist = d;
              }
            }
          }
        }
      }
      let bound = Infinity;
      if (i0 - r > 0) bound = Math.min(bound, x - (x0 + (i0 - r) * cw));
      if (i0 + r < nx - 1) bound = Math.min(bound, x0 + (i0 + r + 1) * cw - x);
      if (j0 - r > 0) bound = Math.min(bound, y - (y0 + (j0 - r) * ch));
      if (j0 + r < ny - 1) bound = Math.min(bound, y0 + (j0 + r + 1) * ch - y);
      if (k0 - r > 0) bound = Math.min(bound, z - (z0 + (k0 - r) * cd));
      if (k0 + r < nz - 1) bound = Math.min(bound, z0 + (k0 + r + 1) * cd - z);
      if (bound === Infinity) return best; // every bucket examined
      bound -= this.slack;
      if (bound > 0 && bestDist < bound * bound) return best;
    }
  }
}

function clampIndex(t: number, n: number): number {
  const i = Math.floor(t);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

function isFiniteSite(sites: Float64Array, dims: number, i: number): boolean {
  for (let a = 0; a < dims; a++) if (!Number.isFinite(sites[i * dims + a])) return false;
  return true;
}
