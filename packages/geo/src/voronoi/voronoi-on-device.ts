import { checkOptions, type DispatchEvent, type GeometryArray, InvalidGeometryError } from '@geoframe/core';
import { type DevicePolygons, residentTake } from '@geoframe/gpu';
import { dispatchOperation } from '../ops/dispatch-operation.js';
import { voronoiCellDeviceEngines } from '../ops/engines.js';
import type { HostLaps } from './host-laps.js';
import { checkedClipBox, gatherSitesMayRepeat } from './input-sites.js';
import { boxOf, siteOfRows, VORONOI_OPTION_KEYS, type VoronoiOptions } from './voronoi-polygons.js';

/** The cells of `voronoiPolygons({keep: 'device'})`, before they become a DeviceGeoSeries. */
export interface DeviceVoronoiResult {
  cells: DevicePolygons;
  dispatch: DispatchEvent;
  /** Number of unique sites. */
  sites: number;
}

/**
 * `voronoiPolygons` with the cells left on the GPU (adr/0032): the same sites, clip box and rows
 * as {@link computeVoronoi}, the cells computed by the GPU pipeline (or, where the GPU declines,
 * by the CPU and put on the device, with a `fallback` event) and never copied to the host here.
 * `ordered` gathers the rows on the device and needs a point in every input row.
 *
 * @throws TypeError for `device: 'cpu'`, `onlyEdges` or `clipTo` (they produce host data)
 * @throws InvalidGeometryError naming a row that `ordered` cannot place (null, empty, duplicate-free
 *   checks as in computeVoronoi)
 */
export async function computeVoronoiOnDevice(
  input: GeometryArray,
  options: VoronoiOptions,
  laps?: HostLaps,
): Promise<DeviceVoronoiResult> {
  checkOptions(options, VORONOI_OPTION_KEYS, 'voronoiPolygons');
  if (options.device === 'cpu') throw new TypeError("keep: 'device' needs the GPU; device: 'cpu' was asked");
  if (options.onlyEdges) throw new TypeError("keep: 'device' keeps cells; onlyEdges gives lines on the host");
  if (options.clipTo !== undefined) {
    throw new TypeError("keep: 'device' cannot take clipTo: clipping runs on the CPU (clip the host copy)");
  }
  const extendTo = boxOf(options.extendTo);
  laps?.lap('options');
  // the sites go to the GPU before their duplicates are removed (it checks them distinct)
  const rule = { op: 'voronoi', extendTo } as const;
  const { gathered, distinct } = await gatherSitesMayRepeat(input, options.tolerance, rule, true, laps);
  const box = checkedClipBox(gathered, extendTo);
  laps?.lap(distinct ? 'box (duplicates left to the GPU check)' : 'duplicates removed (workers), box');
  const { value: cells, decision } = await dispatchOperation(
    'voronoiPolygons',
    gathered.count,
    'gpu',
    voronoiCellDeviceEngines(gathered.unique.xy, box, distinct),
    options.onDispatch,
  );
  laps?.lap('planned, GPU pipeline (cells kept)');
  // `distinct()` may have replaced the maps and the count
  const { sites, unique, count } = gathered;
  if (!options.ordered) return { cells, dispatch: decision, sites: count };
  try {
    const site = siteOfRows(input, sites.row, unique.siteOfInput);
    for (let i = 0; i < site.length; i++) {
      if (site[i] < 0 || site[i] >= cells.rows) {
        throw new InvalidGeometryError(
          i,
          "ordered cells kept on the device need a cell for every row; this row has none (null, empty or a lone site): use keep: 'host'",
        );
      }
    }
    return { cells: await residentTake(cells, Uint32Array.from(site)), dispatch: decision, sites: count };
  } finally {
    cells.destroy();
  }
}
