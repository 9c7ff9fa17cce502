import { type CentrePixels, type RasterFrame, type SitePixels, squaredDistanceF32 } from './raster-frame.js';

/**
 * The pixels each site falls in (the JFA family's seeding rule): col = floor((x − xmin)/pixelWidth),
 * row = floor((ymax − y)/pixelHeight), slice = floor((z − zmin)/pixelDepth), computed in f64 and
 * clamped into the grid (a site on the max edge belongs to the last pixel). A site outside the
 * bounds (or not finite) gets −1. Returns flat pixel indices `(slice·height + row)·width + col`.
 */
export function sitePixelIndices(sites: Float64Array, frame: RasterFrame): Int32Array {
  const d = frame.dims;
  const n = Math.floor(sites.length / d);
  const { width, height, depth } = frame;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = sites[i * d];
    const y = sites[i * d + 1];
    const z = d === 3 ? sites[i * d + 2] : frame.zmin;
    // the negated tests also reject NaN
    if (!(x >= frame.xmin && x <= frame.xmax && y >= frame.ymin && y <= frame.ymax)) {
      out[i] = -1;
      continue;
    }
    if (!(z >= frame.zmin && z <= frame.zmax)) {
      out[i] = -1;
      continue;
    }
    const col = Math.min(width - 1, Math.floor((x - frame.xmin) / frame.pixelWidth));
    const row = Math.min(height - 1, Math.floor((frame.ymax - y) / frame.pixelHeight));
    const slice = d === 3 ? Math.min(depth - 1, Math.floor((z - frame.zmin) / frame.pixelDepth)) : 0;
    out[i] = (slice * height + row) * width + col;
  }
  return out;
}

/**
 * Seeds a level of `nx × ny × nz` blocks of `block` pixels per side (1: the pixels themselves):
 * each block takes, among the sites whose pixel lies in it, the one nearest to the block centre in
 * the f32 pixel-unit metric, ties to the lower index; other blocks get −1.
 */
export function seedLevel(
  pixelOfSite: Int32Array,
  frame: RasterFrame,
  px: SitePixels,
  centres: CentrePixels,
  block: number,
  nx: number,
  ny: number,
  nz: number,
): Int32Array {
  const labels = new Int32Array(nx * ny * nz).fill(-1);
  const best = new Float32Array(labels.length);
  const { width, height } = frame;
  for (let i = 0; i < pixelOfSite.length; i++) {
    const p = pixelOfSite[i];
    if (p < 0) continue;
    const col = p % width;
    const rest = (p - col) / width;
    const row = rest % height;
    const slice = (rest - row) / height;
    const bx = Math.floor(col / block);
    const by = Math.floor(row / block);
    const bz = Math.floor(slice / block);
    const b = (bz * ny + by) * nx + bx;
    const dist = squaredDistanceF32(
      centres.cu[bx],
      centres.cv[by],
      centres.cw[bz],
      px.u[i],
      px.v[i],
      px.w[i],
    );
    // sites come in index order, so a strict comparison keeps the lower index on ties
    if (labels[b] < 0 || dist < best[b]) {
      labels[b] = i;
      best[b] = dist;
    }
  }
  return labels;
}
