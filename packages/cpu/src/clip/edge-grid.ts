/**
 * A uniform grid over a set of rings' edges: each bucket lists the edges whose bounding box
 * overlaps it (an edge is named by the coordinate index of its first point). Built once per clip
 * region; queries visit only the buckets a box overlaps.
 */
export interface EdgeGrid {
  minX: number;
  minY: number;
  /** Buckets per row and per column. */
  nx: number;
  ny: number;
  /** Buckets per unit of x and of y. */
  invDx: number;
  invDy: number;
  /** Bucket (row-major, `iy * nx + ix`) → first entry in `edges`; `nx * ny + 1` entries. */
  bucketOffsets: Int32Array;
  /** Edge ids, bucket by bucket. */
  edges: Int32Array;
}

/** Most buckets per axis: keeps the grid's memory bounded for regions with millions of edges. */
const MAX_SIDE = 2048;

/**
 * Builds the grid over the edges of `rings` (ring `r` is closed coordinates
 * `[ringOffsets[r], ringOffsets[r + 1])` of `coords`), inside the box `[minX, maxX] × [minY, maxY]`
 * that holds them all. About one bucket per edge, shaped like the box.
 */
export function buildEdgeGrid(
  coords: Float64Array,
  ringOffsets: Int32Array,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): EdgeGrid {
  const nRings = ringOffsets.length - 1;
  const nEdges = ringOffsets[nRings] - nRings;
  const w = maxX - minX;
  const h = maxY - minY;
  let nx = 1;
  let ny = 1;
  if (nEdges > 0 && w > 0 && h > 0) {
    const side = Math.sqrt((w * h) / nEdges);
    nx = Math.min(MAX_SIDE, Math.max(1, Math.ceil(w / side)));
    ny = Math.min(MAX_SIDE, Math.max(1, Math.ceil(h / side)));
  }
  const invDx = w > 0 ? nx / w : 0;
  const invDy = h > 0 ? ny / h : 0;
  const grid: EdgeGrid = {
    minX,
    minY,
    nx,
    ny,
    invDx,
    invDy,
    bucketOffsets: new Int32Array(nx * ny + 1),
    edges: new Int32Array(0),
  };
  const counts = grid.bucketOffsets;
  // two passes over the same bucket ranges: count, then fill
  for (let pass = 0; pass < 2; pass++) {
    for (let r = 0; r < nRings; r++) {
      for (let k = ringOffsets[r]; k + 1 < ringOffsets[r + 1]; k++) {
        const x1 = coords[2 * k];
        const y1 = coords[2 * k + 1];
        const x2 = coords[2 * k + 2];
        const y2 = coords[2 * k + 3];
        const ix0 = column(grid, Math.min(x1, x2));
        const ix1 = column(grid, Math.max(x1, x2));
        const iy0 = row(grid, Math.min(y1, y2));
        const iy1 = row(grid, Math.max(y1, y2));
        for (let iy = iy0; iy <= iy1; iy++) {
          for (let ix = ix0; ix <= ix1; ix++) {
            const b = iy * nx + ix;
            if (pass === 0) counts[b + 1]++;
            else grid.edges[counts[b]++] = k;
          }
        }
      }
    }
    if (pass === 0) {
      for (let b = 0; b < nx * ny; b++) counts[b + 1] += counts[b];
      grid.edges = new Int32Array(counts[nx * ny]);
    } else {
      // the fill advanced each bucket's start to the next bucket's: shift back by one
      for (let b = nx * ny; b > 0; b--) counts[b] = counts[b - 1];
      counts[0] = 0;
    }
  }
  return grid;
}

/** The grid column of `x`, clamped to the grid. */
export function column(grid: EdgeGrid, x: number): number {
  const i = Math.floor((x - grid.minX) * grid.invDx);
  return i < 0 ? 0 : i >= grid.nx ? grid.nx - 1 : i;
}

/** The grid row of `y`, clamped to the grid. */
export function row(grid: EdgeGrid, y: number): number {
  const i = Math.floor((y - grid.minY) * grid.invDy);
  return i < 0 ? 0 : i >= grid.ny ? grid.ny - 1 : i;
}

/**
 * The edges (of the rings over `coords` the grid was built on) whose box meets `[x0, x1] × [y0,
 * y1]`, each once, in bucket order: `into` is emptied and filled.
 */
export function edgesMeetingBox(
  grid: EdgeGrid,
  coords: Float64Array,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  into: number[],
): number[] {
  into.length = 0;
  const ix0 = column(grid, x0);
  const ix1 = column(grid, x1);
  const iy0 = row(grid, y0);
  const iy1 = row(grid, y1);
  for (let iy = iy0; iy <= iy1; iy++) {
    for (let ix = ix0; ix <= ix1; ix++) {
      const b = iy * grid.nx + ix;
      for (let j = grid.bucketOffsets[b]; j < grid.bucketOffsets[b + 1]; j++) {
        const k = grid.edges[j];
        const ax = coords[2 * k];
        const ay = coords[2 * k + 1];
        const bx = coords[2 * k + 2];
        const by = coords[2 * k + 3];
        if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1)
          continue;
        // an edge sits in every bucket its box overlaps: take it in the first one visited
        if (ix !== Math.max(ix0, column(grid, Math.min(ax, bx)))) continue;
        if (iy !== Math.max(iy0, row(grid, Math.min(ay, by)))) continue;
        into.push(k);
      }
    }
  }
  return into;
}
