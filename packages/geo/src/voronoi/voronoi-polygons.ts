import {
  type Box,
  checkOptions,
  type DeviceOption,
  type DispatchEvent,
  GeometryArray,
  GeometryType,
  geometryTypeName,
  InvalidGeometryError,
  type ProgressOption,
} from '@geoframe/core';
import { clipCellsToRegion, clipLinesToRegion, prepareClipRegion } from '@geoframe/cpu';
import { dispatchOperation } from '../ops/dispatch-operation.js';
import { voronoiCellEngines, voronoiEdgeEngines } from '../ops/engines.js';
import { clippedCells, pickRows, singleRingPolygons } from './cell-arrays.js';
import type { HostLaps } from './host-laps.js';
import { checkedClipBox, gatherSitesMayRepeat, type InputSites, inputSites } from './input-sites.js';
import { checkLines, checkRings, checkRingsParallel, ownerOf } from './output-check.js';
import { voronoiProgress } from './voronoi-progress.js';

/** Options of `voronoiPolygons`, with GEOS/GeoPandas meaning where they share a name. */
export interface VoronoiOptions {
  /**
   * Snapping distance, as GEOS 3.13 applies it: sites sorted by (x, y) are inserted into a
   * triangulation, and one closer than `tolerance` to either end of the edge GEOS' walk stops at
   * is dropped and shares that site's cell (adr/0023; docs/api.md). Default 0: only exact
   * duplicates merge.
   */
  tolerance?: number;
  /**
   * Enlarges the clip box: only its envelope counts, united with the default box (the sites'
   * box grown on every side by max(width, height)). It never shrinks it — use `clipTo` for that.
   */
  extendTo?: GeometryArray | [number, number, number, number];
  /** One row: a MultiLineString of every Voronoi edge once, clipped to the box (and to `clipTo`). */
  onlyEdges?: boolean;
  /**
   * One row per input row, holding the cell of that row's point: duplicates share the identical
   * cell; null and empty rows give null; a non-point row is an error naming it.
   */
  ordered?: boolean;
  /**
   * Intersects the cells with this polygonal region (all rows unioned), as `geopandas.clip(cells,
   * region, keep_geom_type=True)`: a cell left in one part is a Polygon, in several a MultiPolygon
   * (the column is mixed when both occur); a cell clipped away entirely is dropped, and in
   * `ordered` mode its row is null (clip's result aligned to the input rows).
   */
  clipTo?: GeometryArray;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
  /**
   * Where the cells stay: `'host'` (default) a GeoSeries of host buffers; `'device'` a
   * `DeviceGeoSeries` whose buffers stay on the GPU (adr/0032: measures and take/filter run
   * there, `await toHost()` copies once). `'device'` runs on the GPU whatever `device` says
   * ('cpu' is an error) and takes neither `onlyEdges` nor `clipTo`. GeoSeries only.
   */
  keep?: 'host' | 'device';
  /**
   * Hears this call's dispatch events only (its decision, then a `fallback` if one happens),
   * whatever other calls run at the same time; `onDispatch` of @geoframe/core hears every call's.
   */
  onDispatch?: (event: DispatchEvent) => void;
  /**
   * Hears progress on long runs (stages 'sites', 'diagram', 'clip', 'cells'; nothing for work
   * under a second by default): a callback or `{callback, delayMs, intervalMs}`.
   */
  onProgress?: ProgressOption;
}

/** What the Voronoi computation produced, before it becomes a series or a frame. */
export interface VoronoiResult {
  /** The cells: one row per unique site (first appearance order), or per input row when `ordered`. */
  geometry: GeometryArray;
  /**
   * For each output row, the input row it belongs to: the row of the site's first appearance
   * (unordered), or the identity (ordered). −1 for the single row of `onlyEdges`.
   */
  rows: Int32Array;
  /**
   * The dispatch decision that ran: the planned one, or the `fallback` event when the run (or a
   * stage of it, see `DispatchEvent.stage`) went to the CPU. This call's own, even when other
   * calls run at the same time.
   */
  dispatch: DispatchEvent;
  /** Number of unique sites. */
  sites: number;
}

/** The keys of {@link VoronoiOptions}: anything else is refused (`checkOptions`). */
export const VORONOI_OPTION_KEYS = [
  'tolerance',
  'extendTo',
  'onlyEdges',
  'ordered',
  'clipTo',
  'device',
  'onDispatch',
  'onProgress',
  'keep',
] as const;

export function boxOf(extendTo: VoronoiOptions['extendTo']): Box | GeometryArray | null {
  if (extendTo === undefined) return null;
  if (extendTo instanceof GeometryArray) return extendTo;
  if (!Array.isArray(extendTo) || extendTo.length !== 4 || extendTo.some((v) => !Number.isFinite(v))) {
    throw new TypeError('extendTo must be a geometry column or four finite numbers [xmin, ymin, xmax, ymax]');
  }
  const [minX, minY, maxX, maxY] = extendTo;
  if (minX > maxX || minY > maxY) throw new RangeError(`extendTo [${extendTo.join(', ')}] has min above max`);
  return { minX, minY, maxX, maxY };
}

/**
 * The checks and the sites of `voronoiPolygons`, before anything is planned or run: `extendTo`
 * and `tolerance` validated, and the unique sites (their count decides the dispatch). `explain`
 * calls it too, so it answers for exactly the sites the operation would use.
 */
export function prepareVoronoi(
  input: GeometryArray,
  options: VoronoiOptions,
): InputSites & { extendTo: Box | GeometryArray | null } {
  checkOptions(options, VORONOI_OPTION_KEYS, 'voronoiPolygons');
  const extendTo = boxOf(options.extendTo);
  const gathered = inputSites(input, options.tolerance, { op: 'voronoi', extendTo });
  checkedClipBox(gathered, extendTo);
  return { ...gathered, extendTo };
}

/**
 * The cells `clipTo` left something of, and their rows: a cell clipped away entirely is dropped,
 * as `geopandas.clip` drops the rows that do not intersect the mask (adr/0023).
 */
function withoutEmptyCells(
  cells: GeometryArray,
  rows: Int32Array,
): { geometry: GeometryArray; rows: Int32Array } {
  const keep: number[] = [];
  for (let s = 0; s < cells.length; s++) if (!cells.isEmpty(s)) keep.push(s);
  if (keep.length === cells.length) return { geometry: cells, rows };
  const picked = Int32Array.from(keep);
  return { geometry: cells.take(picked), rows: picked.map((s) => rows[s]) };
}

/** For `ordered`: the unique site of each input row (−1 for null and empty rows). */
export function siteOfRows(input: GeometryArray, row: Int32Array, siteOfInput: Int32Array): Int32Array {
  const out = new Int32Array(input.length).fill(-1);
  for (let i = 0; i < input.length; i++) {
    const type = input.typeOf(i);
    if (type !== null && type !== GeometryType.Point) {
      throw new InvalidGeometryError(
        i,
        `ordered Voronoi needs Point rows, this row is a ${geometryTypeName(type)}`,
      );
    }
  }
  // a point row has exactly one site, so the vertex → row map inverts directly
  for (let k = 0; k < row.length; k++) out[row[k]] = siteOfInput[k];
  return out;
}

/**
 * The Voronoi diagram of a geometry column's vertices (see {@link VoronoiOptions}). Runs where
 * the dispatcher decides — the GPU pipeline at or above the measured crossover, the CPU below it
 * or when asked — and emits the decision as a dispatch event; under 'auto' a GPU failure (no
 * adapter, device lost, out of memory) reruns on the CPU with a `fallback` event. Both paths give
 * the same cells (within 1e-9 of the diagonal; see the GPU pipeline's tests). `clipTo` runs on
 * the CPU after either (only cells crossing the region's boundary are clipped exactly).
 */
export async function computeVoronoi(
  input: GeometryArray,
  options: VoronoiOptions = {},
  laps?: HostLaps,
): Promise<VoronoiResult> {
  checkOptions(options, VORONOI_OPTION_KEYS, 'voronoiPolygons');
  if (options.keep !== undefined && options.keep !== 'host') {
    throw new TypeError(
      "keep: 'device' is an option of GeoSeries.voronoiPolygons (it returns a DeviceGeoSeries)",
    );
  }
  const extendTo = boxOf(options.extendTo);
  const progress = voronoiProgress(options.onProgress, options.clipTo !== undefined);
  progress.stage('sites', input.length);
  laps?.lap('options');
  // the GPU's cells take the sites before their duplicates are removed (it checks them distinct)
  const speculate = !options.onlyEdges && options.device !== 'cpu';
  const rule = { op: 'voronoi', extendTo } as const;
  const { gathered, distinct } = await gatherSitesMayRepeat(input, options.tolerance, rule, speculate, laps);
  const { sites, unique } = gathered;
  const n = gathered.count;
  laps?.lap(distinct ? 'box (duplicates left to the GPU check)' : 'duplicates removed (workers), box');
  progress.stage('diagram', n);
  const device = options.device ?? 'auto';
  const box = checkedClipBox(gathered, extendTo);
  const crs = input.crs;
  laps?.lap('clip box');

  if (options.onlyEdges) {
    const ran = await dispatchOperation(
      'voronoiPolygons',
      n,
      device,
      voronoiEdgeEngines(unique.xy, box, progress.stageFraction()),
      options.onDispatch,
    );
    const dispatch = ran.decision;
    let edges = ran.value;
    // the parts of the edges inside the region, its boundary included
    checkLines(edges.coords, edges.partOffsets, 'the Voronoi edges');
    if (options.clipTo !== undefined) {
      progress.stage('clip', n);
      edges = clipLinesToRegion(edges, prepareClipRegion(options.clipTo));
    }
    progress.finish();
    const parts = edges.partOffsets.length - 1;
    const geometry = new GeometryArray({
      type: GeometryType.MultiLineString,
      dimension: 'xy',
      coords: edges.coords,
      offsets: [Int32Array.of(0, parts), edges.partOffsets],
      length: 1,
      crs,
    });
    return { geometry, rows: Int32Array.of(-1), dispatch, sites: n };
  }

  const { value: raw, decision: dispatch } = await dispatchOperation(
    'voronoiPolygons',
    n,
    device,
    voronoiCellEngines(unique.xy, box, laps, progress.stageFraction(), distinct),
    options.onDispatch,
  );
  laps?.lap('dispatch done');
  // the output check (both paths): finite, closed rings of ≥ 4 points, or an error naming the site
  // (`distinct()` may have replaced the maps)
  const cellOf = (s: number) => `the cell of site ${s} (row ${sites.row[gathered.unique.inputOfSite[s]]})`;
  await checkRingsParallel(raw.coords, raw.ringOffsets, cellOf);
  laps?.lap('output check (workers)');
  let cells = singleRingPolygons(raw.coords, raw.ringOffsets, crs);
  if (options.clipTo !== undefined) {
    progress.stage('clip', n);
    const parts = clipCellsToRegion(
      raw,
      prepareClipRegion(options.clipTo),
      undefined,
      progress.stageFraction(),
    );
    checkRings(parts.coords, parts.ringOffsets, (r) =>
      cellOf(ownerOf(parts.geometryOffsets, ownerOf(parts.polygonOffsets, r))),
    );
    cells = clippedCells(parts, crs);
  }
  const cellCount = cells.length; // 0 when there is no diagram (0 sites, or 1 site and no extendTo)
  progress.stage('cells', cellCount);
  try {
    return assemble(input, options, cells, gathered, dispatch);
  } finally {
    progress.finish();
    laps?.lap('GeoArrow column and rows');
  }
}

/** The result rows: ordered (one per input row) or one per unique site left by the clip. */
function assemble(
  input: GeometryArray,
  options: VoronoiOptions,
  cells: GeometryArray,
  { sites, unique, count: n }: InputSites,
  dispatch: DispatchEvent,
): VoronoiResult {
  const cellCount = cells.length;

  if (options.ordered) {
    const site = siteOfRows(input, sites.row, unique.siteOfInput);
    if (cellCount === 0) site.fill(-1);
    if (options.clipTo !== undefined) {
      // a cell clipped away entirely is a null row in ordered mode
      for (let i = 0; i < site.length; i++) if (site[i] >= 0 && cells.isEmpty(site[i])) site[i] = -1;
    }
    const rows = Int32Array.from({ length: input.length }, (_, i) => i);
    return { geometry: pickRows(cells, site), rows, dispatch, sites: n };
  }
  // without merges (no tolerance, every site unique) the kept sites are the input's in order
  const identity =
    !(options.tolerance !== undefined && options.tolerance > 0) &&
    unique.inputOfSite.length === sites.row.length;
  // the sites' rows are this call's own (extractSites makes them): taken, not copied, when whole
  const rows = !identity
    ? new Int32Array(cellCount)
    : cellCount === sites.row.length
      ? sites.row
      : sites.row.slice(0, cellCount);
  if (!identity) for (let s = 0; s < cellCount; s++) rows[s] = sites.row[unique.inputOfSite[s]];
  if (options.clipTo !== undefined) return { ...withoutEmptyCells(cells, rows), dispatch, sites: n };
  return { geometry: cells, rows, dispatch, sites: n };
}
