import {
  type CostConnectivity,
  CostGridError,
  type CostGridProblem,
  type CostMetric,
  type Crs,
  type ExecutionPath,
  type GeometryArray,
  neighbourSteps,
  readWkt,
} from '@geoframe/core';
import { costAllocationCpu } from '@geoframe/cpu';
import {
  imageBundle,
  JUPYTER_DISPLAY,
  type MimeBundle,
  pngDataUrl,
  rasterCaption,
} from '../display/rich-display.js';
import type { GeoSeries } from '../geo-series.js';
import type { CostFrame, CostSources } from '../ops/cost-sources.js';
import { clippedCells, pickRows } from '../voronoi/cell-arrays.js';
import { type CostPngOptions, costPng } from './cost-png.js';
import { polygonizeLabels } from './polygonize-labels.js';

/** What a {@link CostAllocationRaster} is made of. */
export interface CostAllocationParts<Cells> {
  labels: Int32Array;
  cost: Float32Array;
  backlink: Uint8Array | null;
  problem: CostGridProblem;
  frame: CostFrame;
  sources: CostSources;
  path: ExecutionPath;
  rowCount: number;
  crs: Crs | null;
  /** Makes a GeoSeries of a geometry column (handed in: this module must not import geo-series at run time). */
  toSeries: (array: GeometryArray) => GeoSeries;
  /** How `toPolygons` wraps the cells (a frame keeps its attributes). */
  wrapCells?: (cells: GeoSeries) => Cells;
}

/**
 * The result of `costAllocation`: per cell of the cost raster, the input row of the source it
 * reaches most cheaply (−1 unreachable: a barrier, walled off, or beyond maxCost) and that
 * accumulated cost (f32; Infinity unreachable), in the pixel convention of `VoronoiRaster`:
 * `labels[(slice·height + row)·width + col]`, row 0 at the top. See docs/cost-allocation.md.
 */
export class CostAllocationRaster<Cells = GeoSeries> {
  /** Per cell: the input row of its source, −1 when unreachable. */
  readonly labels: Int32Array;
  /** Per cell: the accumulated cost from its source; Infinity when unreachable. */
  readonly cost: Float32Array;
  readonly width: number;
  readonly height: number;
  /** 1 for a 2D raster. */
  readonly depth: number;
  readonly dims: 2 | 3;
  /** [xmin, ymin, xmax, ymax], or [xmin, ymin, zmin, xmax, ymax, zmax] in 3D. */
  readonly bounds: readonly number[];
  /** GDAL geotransform (see `VoronoiRaster.transform`); in 3D two more numbers, zmin and the voxel depth. */
  readonly transform: readonly number[];
  readonly connectivity: CostConnectivity;
  readonly metric: CostMetric;
  /** Where it ran: 'gpu' or 'cpu' (after a fallback, 'cpu'). */
  readonly path: ExecutionPath;
  /** The input rows that are sources, ascending (null and empty rows are not). */
  readonly sourceRows: Int32Array;
  /** Rows of the input. */
  readonly rowCount: number;
  readonly crs: Crs | null;
  private links: Uint8Array | null;
  private readonly problem: CostGridProblem;
  private readonly sourceCells: Int32Array;
  private readonly wrapCells: (cells: GeoSeries) => Cells;
  private readonly toSeries: (array: GeometryArray) => GeoSeries;

  constructor(parts: CostAllocationParts<Cells>) {
    const { frame } = parts;
    this.labels = parts.labels;
    this.cost = parts.cost;
    this.links = parts.backlink;
    this.problem = parts.problem;
    this.width = frame.dims[0];
    this.height = frame.dims[1];
    this.depth = frame.dims[2] ?? 1;
    this.dims = frame.dimensions;
    this.bounds = [...frame.low, ...frame.high];
    const [sx, sy, sz] = frame.spacing;
    const t = [frame.low[0], sx, 0, frame.high[1], 0, -sy];
    if (this.dims === 3) t.push(frame.low[2], sz);
    this.transform = t;
    this.connectivity = parts.problem.connectivity;
    this.metric = parts.problem.metric;
    this.path = parts.path;
    this.sourceRows = parts.sources.rows;
    this.sourceCells = parts.sources.cells;
    this.rowCount = parts.rowCount;
    this.crs = parts.crs;
    this.wrapCells = parts.wrapCells ?? ((cells) => cells as unknown as Cells);
    this.toSeries = parts.toSeries;
  }

  /**
   * Per cell (when computed): the index into `neighbourSteps(connectivity)` of the step from its
   * predecessor, 255 at sources and unreached cells; null unless asked for with `backlink` or
   * computed by {@link leastCostPath}.
   */
  get backlink(): Uint8Array | null {
    return this.links;
  }

  /** The f64 centre of cell `p` (flat index) as [x, y, z] (z 0 in 2D). */
  cellCentre(p: number): [number, number, number] {
    const col = p % this.width;
    const rest = (p - col) / this.width;
    const row = rest % this.height;
    const slice = (rest - row) / this.height;
    const t = this.transform;
    return [
      t[0] + (col + 0.5) * t[1],
      t[3] + (row + 0.5) * t[5],
      this.dims === 3 ? t[6] + (slice + 0.5) * t[7] : 0,
    ];
  }

  /**
   * The allocations as polygons (2D only): one row per input row, in order — the union of the
   * squares of the cells its source was allocated, traced along cell edges (a MultiPolygon where
   * they form several 4-connected pieces; holes kept). A source row that won no cell (another
   * source with a lower row in its cell) is empty; null and empty input rows are null. On a
   * GeoDataFrame the result is a frame with every column kept.
   */
  toPolygons(): Cells {
    if (this.dims !== 2) throw new RangeError('toPolygons needs a 2D cost allocation, not a volume');
    const [xmin, ymin, xmax, ymax] = this.bounds;
    const parts = polygonizeLabels(this.labels, this.rowCount, {
      width: this.width,
      height: this.height,
      xmin,
      xmax,
      ymin,
      ymax,
    });
    const pick = new Int32Array(this.rowCount).fill(-1);
    for (const row of this.sourceRows) pick[row] = row;
    return this.wrapCells(this.toSeries(pickRows(clippedCells(parts, this.crs), pick)));
  }

  /** A PNG picture of (one slice of) the allocation; see {@link CostPngOptions}. */
  /** The picture of {@link toPNG} (default options) as a `data:` URL, for `<img src>` and Observable's `html`. */
  async toDataURL(): Promise<string> {
    return pngDataUrl(await this.toPNG());
  }

  /** What the Deno Jupyter kernel shows for the raster: its picture (PNG) with a caption. */
  async [JUPYTER_DISPLAY](): Promise<MimeBundle> {
    return imageBundle(await this.toPNG(), rasterCaption('CostAllocationRaster', this));
  }

  async toPNG(options: CostPngOptions = {}): Promise<Uint8Array> {
    const slice = options.slice ?? Math.floor(this.depth / 2);
    if (!Number.isInteger(slice) || slice < 0 || slice >= this.depth) {
      throw new RangeError(`slice must be an integer in [0, ${this.depth - 1}], got ${options.slice}`);
    }
    const plane = this.width * this.height;
    const from = slice * plane;
    const values = this.problem.values.subarray(from, from + plane);
    const barrier = new Uint8Array(plane);
    for (let p = 0; p < plane; p++) barrier[p] = Number.isNaN(values[p]) ? 1 : 0;
    const dots = Int32Array.from(this.sourceCells.filter((c) => c >= from && c < from + plane)).map(
      (c) => c - from,
    );
    return costPng(
      {
        width: this.width,
        height: this.height,
        labels: this.labels.subarray(from, from + plane),
        cost: this.cost.subarray(from, from + plane),
        barrier,
        labelCount: this.rowCount,
        dots,
      },
      options,
    );
  }

  /**
   * The least-cost path from `target` ([x, y], or [x, y, z] in 3D) to its source: a one-row
   * LineString series through the centres of the cells on the path, from the target's cell to
   * the source's cell (a path inside one cell repeats its centre). Uses `backlink`, computing it
   * on the CPU when the allocation was run without it.
   *
   * @throws RangeError for a target outside the raster; CostGridError for an unreached target cell.
   */
  leastCostPath(target: readonly number[]): GeoSeries {
    const cell = this.cellOf(target);
    if (this.labels[cell] < 0) {
      throw new CostGridError(`leastCostPath: the target (${target.join(', ')}) lies in an unreached cell`);
    }
    if (this.links === null) this.links = costAllocationCpu(this.problem, { backlink: true }).backlink!;
    const steps = neighbourSteps(this.connectivity);
    const coords: string[] = [];
    const at = (p: number) => this.cellCentre(p).slice(0, this.dims).join(' ');
    let p = cell;
    coords.push(at(p));
    for (let k = 0; this.links[p] !== 255; k++) {
      if (k > this.labels.length) throw new CostGridError('leastCostPath: the backlinks form a cycle');
      const [dx, dy, dz] = steps[this.links[p]];
      p -= (dz * this.height + dy) * this.width + dx;
      coords.push(at(p));
    }
    if (coords.length === 1) coords.push(coords[0]);
    const wkt = `LINESTRING ${this.dims === 3 ? 'Z ' : ''}(${coords.join(', ')})`;
    return this.toSeries(readWkt([wkt], { crs: this.crs }));
  }

  /** The cell containing `point` (a point on a max edge belongs to the last cell). */
  private cellOf(point: readonly number[]): number {
    if (!Array.isArray(point) || point.length !== this.dims || !point.every(Number.isFinite)) {
      throw new RangeError(
        `leastCostPath: target must be ${this.dims} finite numbers, got ${JSON.stringify(point)}`,
      );
    }
    const sizes = [this.width, this.height, this.depth];
    const index = [0, 0, 0];
    for (let a = 0; a < this.dims; a++) {
      const low = this.bounds[a];
      const high = this.bounds[a + this.dims];
      if (!(point[a] >= low && point[a] <= high)) {
        throw new RangeError(`leastCostPath: target (${point.join(', ')}) lies outside the raster bounds`);
      }
      const offset = a === 1 ? high - point[1] : point[a] - low;
      index[a] = Math.min(sizes[a] - 1, Math.floor(offset / ((high - low) / sizes[a])));
    }
    return (index[2] * this.height + index[1]) * this.width + index[0];
  }
}
