import type { GeometryArray } from '../array/geometry-array.js';
import { totalBounds } from '../measures/total-bounds.js';
import { type Box, boxOfXY, emptyBox, isEmptyBox, unionBox } from './box.js';

/**
 * GEOS' default Voronoi clip box: the sites' bounding box grown on every side by
 * `max(width, height)`. A single site (or an empty box) gives the box unchanged, so one site
 * without `extendTo` has a degenerate box and, as in GEOS, no cell.
 */
export function defaultClipBox(siteBox: Box): Box {
  if (isEmptyBox(siteBox)) return emptyBox();
  const grow = Math.max(siteBox.maxX - siteBox.minX, siteBox.maxY - siteBox.minY);
  return {
    minX: siteBox.minX - grow,
    minY: siteBox.minY - grow,
    maxX: siteBox.maxX + grow,
    maxY: siteBox.maxY + grow,
  };
}

/**
 * The clip box of `voronoiPolygons` with GEOS semantics: {@link defaultClipBox} of the sites,
 * united with the envelope of `extendTo` when given. `extendTo` can only enlarge the box, never
 * shrink it; only its envelope counts (null and empty rows are ignored; an `extendTo` with no
 * coordinates changes nothing). `extendTo` is a `Box` or a whole geometry column.
 *
 * @param sites interleaved xy of the (unique) sites
 * @param siteBox their bounding box, when the caller has it (spares a scan of the sites)
 */
export function clipBox(
  sites: Float64Array,
  extendTo?: Box | GeometryArray | null,
  siteBox: Box = boxOfXY(sites),
): Box {
  const grown = defaultClipBox(siteBox);
  if (extendTo === undefined || extendTo === null) return grown;
  return unionBox(grown, envelopeOf(extendTo));
}

function envelopeOf(extendTo: Box | GeometryArray): Box {
  if ('minX' in extendTo) return extendTo;
  const [minX, minY, maxX, maxY] = totalBounds(extendTo);
  if (Number.isNaN(minX)) return emptyBox();
  return { minX, minY, maxX, maxY };
}
