import type { RasterGrid } from '@geoframe/core';

const f32 = Math.fround;

/**
 * A {@link RasterGrid} checked and measured: pixel sizes in coordinate units and the scales of
 * the f32 "pixel units" the JFA family compares distances in.
 *
 * Pixel units: one unit is one pixel *width* on every axis, so distances stay Euclidean when
 * pixels are not square. A site (x, y[, z]) sits at
 * u = f32((x − xmin)/pixelWidth), v = f32((ymax − y)/pixelWidth), w = f32((z − zmin)/pixelWidth)
 * (quotients in f64, rounded once to f32); the centre of pixel (col, row, slice) at
 * cu = col + 0.5, cv = f32(f32(row + 0.5)·scaleY), cw = f32(f32(slice + 0.5)·scaleZ), with
 * scaleY = f32(pixelHeight/pixelWidth) and scaleZ = f32(pixelDepth/pixelWidth). A block of B×B
 * pixels (Facet-JFA's coarse levels) has its centre at f32((i + 0.5)·B) times the same scale.
 */
export interface RasterFrame {
  width: number;
  height: number;
  depth: number;
  /** Coordinates per site: 2 (x, y) or 3 (x, y, z). */
  dims: 2 | 3;
  xmin: number;
  xmax: number;
  ymin: number;
  ymax: number;
  /** 0 and 1 in 2D (unused there). */
  zmin: number;
  zmax: number;
  /** (xmax − xmin)/width, in f64. */
  pixelWidth: number;
  /** (ymax − ymin)/height, in f64. */
  pixelHeight: number;
  /** (zmax − zmin)/depth, in f64; 1 in 2D. */
  pixelDepth: number;
  /** f32(pixelHeight/pixelWidth). */
  scaleY: number;
  /** f32(pixelDepth/pixelWidth); 0 in 2D, so a 2D distance has a zero z term. */
  scaleZ: number;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`raster ${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/**
 * Checks `grid` against `dims` and measures it. 2D: depth 1 and bounds [xmin, ymin, xmax, ymax];
 * 3D: bounds [xmin, ymin, zmin, xmax, ymax, zmax]. Bounds must be finite with max > min on
 * every axis; width, height and depth positive integers (RangeError otherwise).
 */
export function rasterFrame(dims: 2 | 3, grid: RasterGrid): RasterFrame {
  if (dims !== 2 && dims !== 3) throw new RangeError(`raster sites have 2 or 3 coordinates, got ${dims}`);
  const width = positiveInteger('width', grid.width);
  const height = positiveInteger('height', grid.height);
  const depth = positiveInteger('depth', grid.depth);
  const b = grid.bounds;
  if (b.length !== 2 * dims) {
    throw new RangeError(`a ${dims}D raster needs ${2 * dims} bounds, got ${b.length}`);
  }
  if (dims === 2 && depth !== 1) throw new RangeError(`a 2D raster has depth 1, got ${depth}`);
  if (!b.every(Number.isFinite)) throw new RangeError(`raster bounds must be finite, got [${b.join(', ')}]`);
  const [xmin, ymin, zmin, xmax, ymax, zmax] = dims === 3 ? b : [b[0], b[1], 0, b[2], b[3], 1];
  if (!(xmax > xmin && ymax > ymin && zmax > zmin)) {
    throw new RangeError(`raster bounds [${b.join(', ')}] must have max > min on every axis`);
  }
  const pixelWidth = (xmax - xmin) / width;
  const pixelHeight = (ymax - ymin) / height;
  const pixelDepth = (zmax - zmin) / depth;
  return {
    width,
    height,
    depth,
    dims,
    xmin,
    xmax,
    ymin,
    ymax,
    zmin,
    zmax,
    pixelWidth,
    pixelHeight,
    pixelDepth,
    scaleY: f32(pixelHeight / pixelWidth),
    scaleZ: dims === 3 ? f32(pixelDepth / pixelWidth) : 0,
  };
}

/** The x of the centre of column `col` in coordinate units (f64): xmin + (col + 0.5)·pixelWidth. */
export function centreX(frame: RasterFrame, col: number): number {
  return frame.xmin + (col + 0.5) * frame.pixelWidth;
}

/** The y of the centre of row `row` (row 0 at the top): ymax − (row + 0.5)·pixelHeight. */
export function centreY(frame: RasterFrame, row: number): number {
  return frame.ymax - (row + 0.5) * frame.pixelHeight;
}

/** The z of the centre of slice `slice`: zmin + (slice + 0.5)·pixelDepth (0 in 2D). */
export function centreZ(frame: RasterFrame, slice: number): number {
  return frame.dims === 3 ? frame.zmin + (slice + 0.5) * frame.pixelDepth : 0;
}

/** Site positions in f32 pixel units (see {@link RasterFrame}), one array per axis (w is 0 in 2D). */
export interface SitePixels {
  u: Float32Array;
  v: Float32Array;
  w: Float32Array;
}

/** Every site in f32 pixel units (see {@link RasterFrame}); non-finite sites give NaN. */
export function sitePixels(sites: Float64Array, frame: RasterFrame): SitePixels {
  const d = frame.dims;
  const n = Math.floor(sites.length / d);
  const u = new Float32Array(n);
  const v = new Float32Array(n);
  const w = new Float32Array(n);
  const pw = frame.pixelWidth;
  for (let i = 0; i < n; i++) {
    u[i] = (sites[i * d] - frame.xmin) / pw;
    v[i] = (frame.ymax - sites[i * d + 1]) / pw;
    if (d === 3) w[i] = (sites[i * d + 2] - frame.zmin) / pw;
  }
  return { u, v, w };
}

/**
 * Pixel-centre positions in f32 pixel units for a level of B×B(×B) blocks (B = 1: the pixels):
 * cu[i] = f32((i + 0.5)·B), cv[j] = f32(f32((j + 0.5)·B)·scaleY), cw[k] likewise with scaleZ.
 */
export interface CentrePixels {
  cu: Float32Array;
  cv: Float32Array;
  cw: Float32Array;
}

/** The {@link CentrePixels} of a level of `nx × ny × nz` blocks of side `block` pixels. */
export function centrePixels(
  frame: RasterFrame,
  nx: number,
  ny: number,
  nz: number,
  block: number,
): CentrePixels {
  const cu = new Float32Array(nx);
  const cv = new Float32Array(ny);
  const cw = new Float32Array(nz);
  for (let i = 0; i < nx; i++) cu[i] = (i + 0.5) * block;
  for (let j = 0; j < ny; j++) cv[j] = f32(f32((j + 0.5) * block) * frame.scaleY);
  for (let k = 0; k < nz; k++) cw[k] = f32(f32((k + 0.5) * block) * frame.scaleZ);
  return { cu, cv, cw };
}

/**
 * The squared distance between a centre and a site in f32, every step rounded as WGSL f32 would
 * (without fused multiply-add): dx = f32(cu − u), …, d = f32(f32(f32(dx²) + f32(dy²)) + f32(dz²)).
 */
export function squaredDistanceF32(
  cu: number,
  cv: number,
  cw: number,
  u: number,
  v: number,
  w: number,
): number {
  const dx = f32(cu - u);
  const dy = f32(cv - v);
  const dz = f32(cw - w);
  return f32(f32(f32(dx * dx) + f32(dy * dy)) + f32(dz * dz));
}

/** The smallest power of two ≥ n (1 for n ≤ 1). */
export function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
