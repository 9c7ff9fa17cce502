import type { RasterGrid } from '@geoframe/core';

/** Label of a pixel with no site (reads as −1 through an `Int32Array`). */
export const NO_SITE = 0xffffffff;

/**
 * What every raster kernel needs from the CPU, computed once in f64: the grid's shape, the sites
 * in scaled pixel units (uploaded as f32) and the pixel each site seeds.
 *
 * Scaled pixel units: x is measured in pixel widths from `xmin`, y in pixel widths down from
 * `ymax`, z in pixel widths up from `zmin`. A pixel centre (col, row, slice) then sits at
 * `((col + 0.5)·scale[0], (row + 0.5)·scale[1], (slice + 0.5)·scale[2])` with
 * `scale = [1, pixelHeight / pixelWidth, voxelDepth / pixelWidth]`, so squared distances in these
 * units are the Euclidean ones divided by pixelWidth² — the nearest site is the same as in
 * coordinate units, also for non-square pixels. On square pixels these are plain pixel units.
 */
export interface RasterSetup {
  dims: 2 | 3;
  width: number;
  height: number;
  /** 1 for a 2D grid. */
  depth: number;
  pixels: number;
  /** Number of sites (`sites.length / dims`). */
  count: number;
  /** The bounds as given: [xmin, ymin, xmax, ymax] or [xmin, ymin, zmin, xmax, ymax, zmax]. */
  bounds: readonly number[];
  /** Pixel width, height and voxel depth in coordinate units (depth 1 in 2D). */
  pixelSize: [number, number, number];
  /** Per-axis factor from pixel index + 0.5 to scaled units (z factor 0 in 2D). */
  scale: [number, number, number];
  /**
   * Site positions in scaled pixel units, f32: 2 per site in 2D (x, y), 4 per site in 3D
   * (x, y, z, 0) to match WGSL's `vec2f` / `vec4f` arrays.
   */
  positions: Float32Array;
  /** Per site: the full-resolution pixel it seeds (linear index), or {@link NO_SITE} outside the bounds. */
  seedPixel: Uint32Array;
  /** Number of sites with a seed pixel. */
  seeded: number;
  /** Largest magnitude of a scaled coordinate of any site or grid corner (for f32 error bounds). */
  magnitude: number;
}

/**
 * Validates a grid and sites and converts them for the kernels (see {@link RasterSetup}).
 * Seeding rule (shared with the CPU implementation): a site inside the bounds (edges included)
 * seeds the pixel containing it, `col = floor((x − xmin) / pixelWidth)`,
 * `row = floor((ymax − y) / pixelHeight)`, `slice = floor((z − zmin) / voxelDepth)`, clamped into
 * the grid; a site outside the bounds seeds nothing.
 *
 * @throws RangeError for a bad grid (non-integer or non-positive sizes, bounds of the wrong length,
 *   empty or non-finite extents, a 2D grid with depth ≠ 1), sites whose length is not a multiple
 *   of `dims`, non-finite site coordinates, or a grid of 2^32 pixels or more.
 */
export function prepareRaster(sites: Float64Array, dims: 2 | 3, grid: RasterGrid): RasterSetup {
  if (dims !== 2 && dims !== 3) throw new RangeError(`raster: dims must be 2 or 3, got ${dims}`);
  const { width, height, depth, bounds } = grid;
  for (const [name, value] of [
    ['width', width],
    ['height', height],
    ['depth', depth],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`raster: ${name} ${value} is not a positive integer`);
  }
  if (bounds.length !== 2 * dims) {
    throw new RangeError(`raster: ${dims}D bounds need ${2 * dims} numbers, got ${bounds.length}`);
  }
  if (dims === 2 && depth !== 1) throw new RangeError(`raster: a 2D grid has depth 1, got ${depth}`);
  for (let a = 0; a < dims; a++) {
    const lo = bounds[a];
    const hi = bounds[a + dims];
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) {
      throw new RangeError(`raster: bounds axis ${a} [${lo}, ${hi}] is not a finite, non-empty interval`);
    }
  }
  const pixels = width * height * depth;
  if (pixels >= 2 ** 32) throw new RangeError(`raster: ${pixels} pixels exceed 32-bit pixel indices`);
  if (sites.length % dims !== 0) {
    throw new RangeError(`raster: ${sites.length} site coordinates are not a multiple of ${dims}`);
  }
  const count = sites.length / dims;
  const [xmin, ymin] = [bounds[0], bounds[1]];
  const [xmax, ymax] = [bounds[dims], bounds[dims + 1]];
  const zmin = dims === 3 ? bounds[2] : 0;
  const zmax = dims === 3 ? bounds[5] : 1;
  const pw = (xmax - xmin) / width;
  const ph = (ymax - ymin) / height;
  const pd = (zmax - zmin) / depth;
  const scale: [number, number, number] = [1, ph / pw, dims === 3 ? pd / pw : 0];
  const stride = dims === 2 ? 2 : 4;
  const positions = new Float32Array(count * stride);
  const seedPixel = new Uint32Array(count).fill(NO_SITE);
  let seeded = 0;
  let magnitude = Math.max(width * scale[0], height * scale[1], depth * scale[2]);
  for (let i = 0; i < count; i++) {
    const x = sites[i * dims];
    const y = sites[i * dims + 1];
    const z = dims === 3 ? sites[i * dims + 2] : 0;
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      throw new RangeError(`raster: site ${i} has a non-finite coordinate`);
    }
    const u = (x - xmin) / pw;
    const v = (ymax - y) / pw;
    const w = dims === 3 ? (z - zmin) / pw : 0;
    positions[i * stride] = u;
    positions[i * stride + 1] = v;
    if (dims === 3) positions[i * stride + 2] = w;
    magnitude = Math.max(magnitude, Math.abs(u), Math.abs(v), Math.abs(w));
    const inside =
      x >= xmin && x <= xmax && y >= ymin && y <= ymax && (dims === 2 || (z >= zmin && z <= zmax));
    if (!inside) continue;
    const col = Math.min(width - 1, Math.floor((x - xmin) / pw));
    const row = Math.min(height - 1, Math.floor((ymax - y) / ph));
    const slice = dims === 3 ? Math.min(depth - 1, Math.floor((z - zmin) / pd)) : 0;
    seedPixel[i] = (slice * height + row) * width + col;
    seeded++;
  }
  return {
    dims,
    width,
    height,
    depth,
    pixels,
    count,
    bounds,
    pixelSize: [pw, ph, pd],
    scale,
    positions,
    seedPixel,
    seeded,
    magnitude,
  };
}

/** The smallest power of two ≥ `n` (1 for n ≤ 1). */
export function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/**
 * @throws RangeError naming `what` when `bytes` exceed one storage binding or one buffer of the
 *   device (a grid too large for this GPU).
 */
export function assertBindable(limits: GPUSupportedLimits, bytes: number, what: string): void {
  const max = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  if (bytes > max) {
    throw new RangeError(
      `raster: ${what} needs ${bytes} bytes, over this device's ${max}-byte storage binding`,
    );
  }
}
