import {
  type Crs,
  checkOptions,
  type DispatchEvent,
  type ExecutionPath,
  type GeometryArray,
  type RasterMode,
} from '@geoframe/core';
import type { RasterStats } from '@geoframe/cpu';
import {
  imageBundle,
  JUPYTER_DISPLAY,
  type MimeBundle,
  pngDataUrl,
  rasterCaption,
} from '../display/rich-display.js';
import type { GeoSeries } from '../geo-series.js';
import { clippedCells, pickRows } from '../voronoi/cell-arrays.js';
import { polygonizeLabels } from './polygonize-labels.js';
import { type RasterPngOptions, rasterPng } from './raster-png.js';
import type { RasterSites } from './raster-sites.js';

/** What a {@link VoronoiRaster} is made of (see its fields). */
export interface VoronoiRasterParts {
  labels: Int32Array;
  distance: Float32Array | null;
  width: number;
  height: number;
  depth: number;
  dims: 2 | 3;
  bounds: readonly number[];
  mode: RasterMode;
  stats: RasterStats;
  path: ExecutionPath;
  /** The dispatch decision that ran (absent for a raster made by hand). */
  dispatch?: DispatchEvent;
  sites: RasterSites;
  rowCount: number;
  crs: Crs | null;
  /** Wraps traced cells as a series (GeoSeries hands in its constructor: no import cycle). */
  toSeries: (cells: GeometryArray) => GeoSeries;
}

/** The answer of {@link VoronoiRaster.errorAgainst}. */
export interface RasterError {
  /** misclassified / pixels (0 for an empty grid). */
  rate: number;
  pixels: number;
  misclassified: number;
}

/**
 * A raster (discrete) Voronoi diagram of a point series: per pixel (voxel), the row of the input
 * series whose point is nearest to the pixel centre, or −1 where there is none.
 *
 * Layout (GDAL's convention): `labels[(slice·height + row)·width + col]`, row 0 at the top (largest
 * y), slice 0 at the lowest z; pixel centres at half-pixel offsets inside `bounds`. Equal distances
 * go to the lower row. How the labels were found (`mode`) decides how exact they are: see
 * `voronoiRaster` and docs/raster.md.
 */
export class VoronoiRaster {
  /** Per pixel: the input row of its site, −1 where none. */
  readonly labels: Int32Array;
  /** Per pixel: the distance from its centre to its site in coordinate units (+∞ where none), when asked for. */
  readonly distance: Float32Array | null;
  readonly width: number;
  readonly height: number;
  /** 1 for a 2D raster. */
  readonly depth: number;
  readonly dims: 2 | 3;
  /** [xmin, ymin, xmax, ymax], or [xmin, ymin, zmin, xmax, ymax, zmax] in 3D. */
  readonly bounds: readonly number[];
  /**
   * GDAL geotransform from pixel corner indices to coordinates,
   * x = t[0] + col·t[1] + row·t[2], y = t[3] + col·t[4] + row·t[5] (north up: t[2] = t[4] = 0,
   * t[5] = −pixel height); in 3D two more numbers, z = t[6] + slice·t[7].
   */
  readonly transform: readonly number[];
  readonly mode: RasterMode;
  /** Passes run and pixel visits summed over them. */
  readonly stats: RasterStats;
  /** Where it ran: 'gpu' or 'cpu' (after a fallback, 'cpu'). */
  readonly path: ExecutionPath;
  /**
   * The dispatch decision that ran (the `fallback` event after a fallback), this call's own even
   * when other calls run at the same time; null for a raster made by hand.
   */
  readonly dispatch: DispatchEvent | null;
  /** The sites used: coordinates (`dims` each) and their input rows. */
  readonly sites: RasterSites;
  /** Rows of the input series. */
  readonly rowCount: number;
  readonly crs: Crs | null;
  private readonly toSeries: (cells: GeometryArray) => GeoSeries;

  constructor(parts: VoronoiRasterParts) {
    this.labels = parts.labels;
    this.distance = parts.distance;
    this.width = parts.width;
    this.height = parts.height;
    this.depth = parts.depth;
    this.dims = parts.dims;
    this.bounds = parts.bounds;
    this.mode = parts.mode;
    this.stats = parts.stats;
    this.path = parts.path;
    this.dispatch = parts.dispatch ?? null;
    this.sites = parts.sites;
    this.rowCount = parts.rowCount;
    this.crs = parts.crs;
    this.toSeries = parts.toSeries;
    const b = this.box();
    const t = [b.xmin, (b.xmax - b.xmin) / this.width, 0, b.ymax, 0, -(b.ymax - b.ymin) / this.height];
    if (this.dims === 3) t.push(b.zmin, (b.zmax - b.zmin) / this.depth);
    this.transform = t;
  }

  private box() {
    const b = this.bounds;
    return this.dims === 3
      ? { xmin: b[0], ymin: b[1], zmin: b[2], xmax: b[3], ymax: b[4], zmax: b[5] }
      : { xmin: b[0], ymin: b[1], zmin: 0, xmax: b[2], ymax: b[3], zmax: 1 };
  }

  /** The f64 centre of pixel `p` (flat index) as [x, y, z] (z 0 in 2D). */
  pixelCentre(p: number): [number, number, number] {
    const b = this.box();
    const col = p % this.width;
    const rest = (p - col) / this.width;
    const row = rest % this.height;
    const slice = (rest - row) / this.height;
    return [
      b.xmin + (col + 0.5) * ((b.xmax - b.xmin) / this.width),
      b.ymax - (row + 0.5) * ((b.ymax - b.ymin) / this.height),
      this.dims === 3 ? b.zmin + (slice + 0.5) * ((b.zmax - b.zmin) / this.depth) : 0,
    ];
  }

  /** Per input row: the index of its site in `sites`, −1 for rows without one. */
  private siteOfRow(): Int32Array {
    const out = new Int32Array(this.rowCount).fill(-1);
    const rows = this.sites.rows;
    for (let s = 0; s < rows.length; s++) out[rows[s]] = s;
    return out;
  }

  /** Per site: its pixel by the seeding rule (floor, clamped; −1 outside the bounds). */
  private sitePixels(): Int32Array {
    const { coords, dims } = this.sites;
    const b = this.box();
    const n = coords.length / dims;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const x = coords[i * dims];
      const y = coords[i * dims + 1];
      const z = dims === 3 ? coords[i * dims + 2] : b.zmin;
      if (!(x >= b.xmin && x <= b.xmax && y >= b.ymin && y <= b.ymax && z >= b.zmin && z <= b.zmax)) {
        out[i] = -1;
        continue;
      }
      const col = Math.min(this.width - 1, Math.floor((x - b.xmin) / ((b.xmax - b.xmin) / this.width)));
      const row = Math.min(this.height - 1, Math.floor((b.ymax - y) / ((b.ymax - b.ymin) / this.height)));
      const slice = Math.min(this.depth - 1, Math.floor((z - b.zmin) / ((b.zmax - b.zmin) / this.depth)));
      out[i] = (slice * this.height + row) * this.width + col;
    }
    return out;
  }

  /**
   * A PNG picture (bytes) of the raster: each cell filled so that cells with 4-adjacent pixels
   * differ in colour, pixels without a site white, sites as dark dots at their pixels (sites
   * outside the bounds are not drawn). 3D: one slice (`slice`, default the middle one), with the
   * sites whose voxel lies in it. See {@link RasterPngOptions}.
   */
  /** The picture of {@link toPNG} (default options) as a `data:` URL, for `<img src>` and Observable's `html`. */
  async toDataURL(): Promise<string> {
    return pngDataUrl(await this.toPNG());
  }

  /** What the Deno Jupyter kernel shows for the raster: its picture (PNG) with a caption. */
  async [JUPYTER_DISPLAY](): Promise<MimeBundle> {
    return imageBundle(await this.toPNG(), rasterCaption('VoronoiRaster', this));
  }

  async toPNG(options: RasterPngOptions = {}): Promise<Uint8Array> {
    checkOptions(options, ['slice', 'siteRadius', 'boundaries'], 'toPNG');
    const slice = options.slice ?? Math.floor(this.depth / 2);
    if (!Number.isInteger(slice) || slice < 0 || slice >= this.depth) {
      throw new RangeError(`slice must be an integer in [0, ${this.depth - 1}], got ${options.slice}`);
    }
    const plane = this.width * this.height;
    const labels = this.labels.subarray(slice * plane, (slice + 1) * plane);
    const pixels = this.sitePixels();
    let count = 0;
    for (const p of pixels) if (p >= slice * plane && p < (slice + 1) * plane) count++;
    const dots = new Int32Array(count);
    count = 0;
    for (const p of pixels)
      if (p >= slice * plane && p < (slice + 1) * plane) dots[count++] = p - slice * plane;
    return rasterPng(
      { width: this.width, height: this.height, labels, labelCount: this.rowCount, dots },
      options,
    );
  }

  /**
   * The raster 1-skeleton: 1 for every pixel with a differently labelled 4-neighbour (left,
   * right, up, down; in 3D the 6 face neighbours, also above and below), 0 elsewhere. Neighbours
   * outside the grid do not count, so the grid's outline is not a boundary.
   */
  boundaries(): Uint8Array {
    const { width: w, height: h, depth: d, labels } = this;
    const plane = w * h;
    const mask = new Uint8Array(labels.length);
    for (let s = 0, p = 0; s < d; s++) {
      for (let r = 0; r < h; r++) {
        for (let c = 0; c < w; c++, p++) {
          const l = labels[p];
          const edge =
            (c > 0 && labels[p - 1] !== l) ||
            (c + 1 < w && labels[p + 1] !== l) ||
            (r > 0 && labels[p - w] !== l) ||
            (r + 1 < h && labels[p + w] !== l) ||
            (s > 0 && labels[p - plane] !== l) ||
            (s + 1 < d && labels[p + plane] !== l);
          mask[p] = edge ? 1 : 0;
        }
      }
    }
    return mask;
  }

  /**
   * The cells as polygons (2D only): one row per input row, in order. A row's cell is the union of
   * its pixels' squares, traced along pixel edges: a Polygon, or a MultiPolygon where its pixels
   * form several 4-connected pieces (each row its own type: the column is mixed when both occur);
   * holes are kept; outer rings counter-clockwise, holes clockwise. Rows whose point duplicates an
   * earlier row's get that row's cell (the earlier row wins every pixel); rows with a point but no
   * pixel are empty; null and empty input rows are null.
   */
  toPolygons(): GeoSeries {
    if (this.dims !== 2) throw new RangeError('toPolygons needs a 2D raster (voronoiRaster), not a volume');
    const b = this.box();
    const parts = polygonizeLabels(this.labels, this.rowCount, {
      width: this.width,
      height: this.height,
      xmin: b.xmin,
      xmax: b.xmax,
      ymin: b.ymin,
      ymax: b.ymax,
    });
    const cells = clippedCells(parts, this.crs);
    const pick = this.representativeRows();
    let identity = true;
    for (let i = 0; i < pick.length && identity; i++) identity = pick[i] === i;
    return this.toSeries(identity ? cells : pickRows(cells, pick));
  }

  /** Per input row: the lowest row with the same point (itself if none), −1 for rows without a site. */
  private representativeRows(): Int32Array {
    const { coords, dims, rows } = this.sites;
    const n = rows.length;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const key = (i: number, a: number) => coords[i * dims + a];
    order.sort(
      (i, j) =>
        key(i, 0) - key(j, 0) || key(i, 1) - key(j, 1) || (dims === 3 ? key(i, 2) - key(j, 2) : 0) || i - j,
    );
    const pick = new Int32Array(this.rowCount).fill(-1);
    for (let k = 0, first = 0; k < n; k++) {
      const s = order[k];
      if (k > 0) {
        const t = order[k - 1];
        let equal = true;
        for (let a = 0; a < dims; a++) equal &&= key(s, a) === key(t, a);
        if (!equal) first = s;
      } else {
        first = s;
      }
      pick[rows[s]] = rows[first];
    }
    return pick;
  }

  /**
   * How far this raster is from `other` (typically an 'exact' one of the same series and grid):
   * a pixel is misclassified when its label differs from `other`'s AND its site is farther from
   * the pixel centre than `other`'s site by more than 1e-9 relative — pixels equidistant from
   * both sites are not errors. A −1 label counts as infinitely far. Distances are Euclidean in
   * f64 from the pixel centre (3D: with z).
   *
   * @throws RangeError when the grids (size, bounds, dimensions) or row counts differ.
   */
  errorAgainst(other: VoronoiRaster): RasterError {
    if (
      other.width !== this.width ||
      other.height !== this.height ||
      other.depth !== this.depth ||
      other.dims !== this.dims ||
      other.bounds.length !== this.bounds.length ||
      other.bounds.some((v, i) => v !== this.bounds[i])
    ) {
      throw new RangeError('errorAgainst needs a raster of the same grid (width, height, depth and bounds)');
    }
    if (other.rowCount !== this.rowCount) {
      throw new RangeError(`errorAgainst: rasters of ${this.rowCount} and ${other.rowCount} rows`);
    }
    const mine = this.siteOfRow();
    const theirs = other.siteOfRow();
    const distance = (raster: VoronoiRaster, siteOf: Int32Array, row: number, c: number[]) => {
      if (row < 0) return Infinity;
      const { coords, dims } = raster.sites;
      const s = siteOf[row];
      const dx = c[0] - coords[s * dims];
      const dy = c[1] - coords[s * dims + 1];
      const dz = dims === 3 ? c[2] - coords[s * dims + 2] : 0;
      return Math.sqrt(dx * dx + dy * dy + dz * dz);
    };
    let misclassified = 0;
    for (let p = 0; p < this.labels.length; p++) {
      const a = this.labels[p];
      const b = other.labels[p];
      if (a === b) continue;
      const c = this.pixelCentre(p);
      const da = distance(this, mine, a, c);
      const db = distance(other, theirs, b, c);
      if (da > db * (1 + 1e-9)) misclassified++;
    }
    const pixels = this.labels.length;
    return { rate: pixels === 0 ? 0 : misclassified / pixels, pixels, misclassified };
  }
}
