import { type Box, CvtError, type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import { type ClipRegion, prepareClipRegion, regionContains } from '@geoframe/cpu';

/** Anything holding a geometry column (a GeoSeries, a GeoDataFrame's geometry). */
export interface HoldsArray {
  readonly array: GeometryArray;
}

/** `region` as the user gives it: a bounding box, or (multi)polygons. */
export type CvtRegionInput = readonly [number, number, number, number] | Box | HoldsArray | GeometryArray;

/** The region, prepared: its rings (union of the rows), its box, and whether it is that box. */
export interface CvtRegion {
  clip: ClipRegion;
  box: Box;
  /** The region is exactly `box`. */
  isBox: boolean;
  /** Area of the region. */
  area: number;
}

/** How much the default region grows the sites' bounding box on every side (of its larger side). */
export const DEFAULT_REGION_MARGIN = 0.05;

/**
 * The region of a CVT: a box `[xmin, ymin, xmax, ymax]` or `{minX, minY, maxX, maxY}`, or the union
 * of the (multi)polygon rows of a column; absent, the sites' bounding box grown on every side by
 * 5 % of its larger side (a unit box around a single site).
 *
 * @throws CvtError for an empty region (no polygon, or zero area), a box that is not finite with
 *   max > min, or a column that is not polygonal
 */
export function cvtRegion(input: CvtRegionInput | undefined, sites: Float64Array): CvtRegion {
  if (input === undefined) return boxRegion(grownBox(sites));
  if (Array.isArray(input) || (typeof input === 'object' && input !== null && 'minX' in input)) {
    const b = Array.isArray(input)
      ? { minX: input[0], minY: input[1], maxX: input[2], maxY: input[3] }
      : (input as Box);
    const values = [b.minX, b.minY, b.maxX, b.maxY];
    if (
      (Array.isArray(input) && input.length !== 4) ||
      !values.every(Number.isFinite) ||
      !(b.maxX > b.minX && b.maxY > b.minY)
    ) {
      throw new CvtError(
        `region box must be 4 finite numbers [xmin, ymin, xmax, ymax] with max > min, got ${JSON.stringify(input)}`,
      );
    }
    return boxRegion({ minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY });
  }
  const array = 'array' in (input as object) ? (input as HoldsArray).array : (input as GeometryArray);
  const t = array.type;
  if (t !== GeometryType.Polygon && t !== GeometryType.MultiPolygon && t !== 'mixed') {
    throw new CvtError(
      `region must be a box or a Polygon/MultiPolygon column, got a column of type ${String(t)}`,
    );
  }
  const clip = prepareClipRegion(array);
  const area = regionArea(clip);
  if (!(area > 0)) throw new CvtError('region is empty: its polygons have no area');
  const box = { minX: clip.minX, minY: clip.minY, maxX: clip.maxX, maxY: clip.maxY };
  const isBox = Math.abs(area - (box.maxX - box.minX) * (box.maxY - box.minY)) === 0;
  return { clip, box, isBox, area };
}

/** Whether the site lies in the region (a box: closed; polygons: by the clip region's test). */
export function inRegion(region: CvtRegion, x: number, y: number): boolean {
  const b = region.box;
  if (region.isBox) return x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY;
  return regionContains(region.clip, x, y);
}

function boxRegion(box: Box): CvtRegion {
  const b = new GeometryBuilder(GeometryType.Polygon);
  b.beginGeometry(GeometryType.Polygon);
  b.beginRing();
  for (const [x, y] of [
    [box.minX, box.minY],
    [box.maxX, box.minY],
    [box.maxX, box.maxY],
    [box.minX, box.maxY],
    [box.minX, box.minY],
  ]) {
    b.pushXY(x, y);
  }
  b.endGeometry();
  const clip = prepareClipRegion(b.finish());
  return { clip, box, isBox: true, area: (box.maxX - box.minX) * (box.maxY - box.minY) };
}

function grownBox(sites: Float64Array): Box {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < sites.length; i += 2) {
    minX = Math.min(minX, sites[i]);
    maxX = Math.max(maxX, sites[i]);
    minY = Math.min(minY, sites[i + 1]);
    maxY = Math.max(maxY, sites[i + 1]);
  }
  const side = Math.max(maxX - minX, maxY - minY);
  const grow = side > 0 ? DEFAULT_REGION_MARGIN * side : 0.5;
  return { minX: minX - grow, minY: minY - grow, maxX: maxX + grow, maxY: maxY + grow };
}

function regionArea(clip: ClipRegion): number {
  const c = clip.coords;
  let a = 0;
  for (let r = 0; r + 1 < clip.ringOffsets.length; r++) {
    const x0 = c[2 * clip.ringOffsets[r]];
    const y0 = c[2 * clip.ringOffsets[r] + 1];
    for (let k = clip.ringOffsets[r]; k < clip.ringOffsets[r + 1] - 1; k++) {
      a += (c[2 * k] - x0) * (c[2 * k + 3] - y0) - (c[2 * k + 2] - x0) * (c[2 * k + 1] - y0);
    }
  }
  return a / 2;
}
