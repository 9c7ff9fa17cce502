import {
  type Box,
  type DeviceOption,
  type DispatchEvent,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
} from '@geoframe/core';
import { clipCellsToRegion, uniqueCvtSites } from '@geoframe/cpu';
import { cvtCellSource } from '../ops/engines.js';
import { clippedCells, pickRows, singleRingPolygons } from '../voronoi/cell-arrays.js';
import type { CvtRegion } from './cvt-region.js';
import type { CvtSites } from './cvt-sites.js';

/** The final sites and their cells as columns of one row per input row (null where the input was). */
export interface CvtColumns {
  sites: GeometryArray;
  cells: GeometryArray;
}

/**
 * Builds the output columns from the final sites (in `start.rows` order): the sites as Points,
 * and the exact Voronoi cells of the sites clipped to the region (cells dispatched as
 * 'voronoiPolygons'; coinciding sites share their cell).
 */
export async function cvtColumns(
  final: Float64Array,
  start: CvtSites,
  region: CvtRegion,
  rowCount: number,
  input: GeometryArray,
  device: DeviceOption,
  listener?: (event: DispatchEvent) => void,
): Promise<CvtColumns> {
  const siteOfRow = new Int32Array(rowCount).fill(-1);
  for (let i = 0; i < start.rows.length; i++) siteOfRow[start.rows[i]] = i;
  const points = new GeometryBuilder(GeometryType.Point);
  for (let r = 0; r < rowCount; r++) {
    const i = siteOfRow[r];
    if (i < 0) points.appendNull();
    else points.appendPoint(final[2 * i], final[2 * i + 1]);
  }
  const { xy, keptOf } = uniqueCvtSites(final);
  // a box region holding every site: the cells built in it are the clipped cells (as the
  // iterations' are); otherwise cells in a larger box, clipped, the common crossing cells
  // without polyclip-ts (adr/0027)
  const inBox = region.isBox && within(xy, region.box);
  const raw = await cvtCellSource(device, listener)(xy, inBox ? region.box : boxAround(xy, region.box));
  const cells = inBox
    ? singleRingPolygons(raw.coords, raw.ringOffsets, input.crs)
    : clippedCells(clipCellsToRegion(raw, region.clip, undefined, undefined, true), input.crs);
  const pick = new Int32Array(rowCount).fill(-1);
  for (let r = 0; r < rowCount; r++) if (siteOfRow[r] >= 0) pick[r] = keptOf[siteOfRow[r]];
  return { sites: points.finish(input.crs), cells: pickRows(cells, pick) };
}

function within(xy: Float64Array, b: Box): boolean {
  for (let i = 0; i < xy.length; i += 2) {
    if (!(xy[i] >= b.minX && xy[i] <= b.maxX && xy[i + 1] >= b.minY && xy[i + 1] <= b.maxY)) return false;
  }
  return true;
}

/** A box holding the region and the sites, grown by a tenth of its larger side. */
function boxAround(xy: Float64Array, b: Box): Box {
  let { minX, minY, maxX, maxY } = b;
  for (let i = 0; i < xy.length; i += 2) {
    minX = Math.min(minX, xy[i]);
    maxX = Math.max(maxX, xy[i]);
    minY = Math.min(minY, xy[i + 1]);
    maxY = Math.max(maxY, xy[i + 1]);
  }
  const grow = 0.1 * Math.max(maxX - minX, maxY - minY);
  return { minX: minX - grow, minY: minY - grow, maxX: maxX + grow, maxY: maxY + grow };
}
