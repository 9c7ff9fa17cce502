import {
  type Box,
  clipBox,
  type DeviceOption,
  type DispatchEvent,
  GeometryArray,
  GeometryType,
  geometryTypeName,
  InvalidGeometryError,
  onDispatch,
  planDispatch,
  runDispatched,
} from '@geoframe/core';
import {
  clipCellsToRegion,
  clipLinesToRegion,
  prepareClipRegion,
  voronoiCellsParallel,
  voronoiEdges,
} from '@geoframe/cpu';
import { getGpuContext, voronoiCellsGpu, voronoiEdgesGpu } from '@geoframe/gpu';
import { clippedCells, pickRows, singleRingPolygons } from './cell-arrays.js';
import { gatherInputSites, type InputSites, inputSites } from './input-sites.js';
import { checkLines, checkRings, ownerOf } from './output-check.js';

/** Options of `voronoiPolygons`, with GEOS/GeoPandas meaning where they share a name. */
export interface VoronoiOptions {
  /**
   * Snapping distance (GEOS rule): a site within `tolerance` of an earlier kept site is dropped
   * and shares that site's cell. Default 0: only exact duplicates merge.
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
   * Intersects the cells with this polygonal region (all rows unioned): a cell may become a
   * MultiPolygon or empty (empty stays empty; null in `ordered` mode).
   */
  clipTo?: GeometryArray;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
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
  /** The dispatch decision that ran. */
  dispatch: DispatchEvent;
  /** Number of unique sites. */
  sites: number;
}

function boxOf(extendTo: VoronoiOptions['extendTo']): Box | GeometryArray | null {
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
  const extendTo = boxOf(options.extendTo);
  return { ...inputSites(input, options.tolerance), extendTo };
}

/** For `ordered`: the unique site of each input row (−1 for null and empty rows). */
function siteOfRows(input: GeometryArray, row: Int32Array, siteOfInput: Int32Array): Int32Array {
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
): Promise<VoronoiResult> {
  const extendTo = boxOf(options.extendTo);
  const { sites, unique, count: n, box: siteBox } = await gatherInputSites(input, options.tolerance);
  const device = options.device ?? 'auto';
  const planned = planDispatch('voronoiPolygons', n, { device });
  const box = clipBox(unique.xy, extendTo, siteBox);
  const crs = input.crs;
  // a fallback replaces the decision that is reported with the result
  let dispatch = planned;
  const stopWatching = onDispatch((event) => {
    if (event.type === 'fallback' && event.kernel === 'voronoiPolygons') dispatch = event;
  });
  const run = <T>(gpu: () => Promise<T>, cpu: () => T | Promise<T>) =>
    runDispatched(planned, device, { gpu, cpu }).finally(stopWatching);

  if (options.onlyEdges) {
    let edges = await run(
      async () => (await voronoiEdgesGpu(await getGpuContext(), unique.xy, box)).edges,
      () => voronoiEdges(unique.xy, box),
    );
    // the parts of the edges inside the region, its boundary included
    checkLines(edges.coords, edges.partOffsets, 'the Voronoi edges');
    if (options.clipTo !== undefined) edges = clipLinesToRegion(edges, prepareClipRegion(options.clipTo));
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

  // on the CPU, worker threads write the rings of large diagrams (output identical to voronoiCells')
  const raw = await run(
    async () => (await voronoiCellsGpu(await getGpuContext(), unique.xy, box)).cells,
    () => voronoiCellsParallel(unique.xy, box),
  );
  // the output check (both paths): finite, closed rings of ≥ 4 points, or an error naming the site
  const cellOf = (s: number) => `the cell of site ${s} (row ${sites.row[unique.inputOfSite[s]]})`;
  checkRings(raw.coords, raw.ringOffsets, cellOf);
  let cells = singleRingPolygons(raw.coords, raw.ringOffsets, crs);
  if (options.clipTo !== undefined) {
    const parts = clipCellsToRegion(raw, prepareClipRegion(options.clipTo));
    checkRings(parts.coords, parts.ringOffsets, (r) =>
      cellOf(ownerOf(parts.geometryOffsets, ownerOf(parts.polygonOffsets, r))),
    );
    cells = clippedCells(parts, crs);
  }
  const cellCount = cells.length; // 0 when there is no diagram (0 sites, or 1 site and no extendTo)

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
  const rows = new Int32Array(cellCount);
  for (let s = 0; s < cellCount; s++) rows[s] = sites.row[unique.inputOfSite[s]];
  return { geometry: cells, rows, dispatch, sites: n };
}
