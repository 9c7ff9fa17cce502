/**
 * An axis-aligned rectangle in planar coordinates. A box with `minX > maxX` (or `minY > maxY`)
 * is empty; {@link emptyBox} returns the canonical empty box.
 */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The empty box: the identity of {@link unionBox}. */
export function emptyBox(): Box {
  return {
    minX: Number.POSITIVE_INFINITY,
    minY: Number.POSITIVE_INFINITY,
    maxX: Number.NEGATIVE_INFINITY,
    maxY: Number.NEGATIVE_INFINITY,
  };
}

/** Whether `box` contains no point at all (a degenerate box of one point or one segment is not empty). */
export function isEmptyBox(box: Box): boolean {
  return !(box.minX <= box.maxX && box.minY <= box.maxY);
}

/** The smallest box containing both; an empty operand is ignored. */
export function unionBox(a: Box, b: Box): Box {
  if (isEmptyBox(a)) return { ...b };
  if (isEmptyBox(b)) return { ...a };
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
  };
}

/** The bounding box of interleaved xy coordinates; empty for no coordinates. */
export function boxOfXY(xy: Float64Array): Box {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let k = 0; k + 1 < xy.length; k += 2) {
    const x = xy[k];
    const y = xy[k + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** Width times height; 0 for an empty or degenerate box. */
export function boxArea(box: Box): number {
  if (isEmptyBox(box)) return 0;
  return (box.maxX - box.minX) * (box.maxY - box.minY);
}
