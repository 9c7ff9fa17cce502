import { bigIntToWords } from '../exact/fixed-grid.js';

/** The uniform bucket grid of the star search: square cells of 2^shift grid units. */
export interface StarGrid {
  /** A cell is 2^shift grid units wide (shift ≥ 0). */
  shift: number;
  /** Cells along x and y; a site's cell is ((x − minX) >> shift, (y − minY) >> shift). */
  width: number;
  height: number;
  /** minX and minY of the sites as i64 words (lo, hi, lo, hi). */
  minWords: Uint32Array;
}

/**
 * Chooses the bucket grid for `n` sites whose grid values span [minX, maxX] × [minY, maxY]
 * (exact integers): about `perCell` sites per cell on average when they are spread over the box
 * (a power-of-two cell rounds that to within a factor 2), never more cells than 2n + 1 along an
 * axis nor about 4n in all, so thin or clustered sets stay bounded (their cells just fill unevenly).
 */
export function starGridOf(
  n: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  perCell = 1,
): StarGrid {
  const spanX = BigInt(maxX) - BigInt(minX);
  const spanY = BigInt(maxY) - BigInt(minY);
  const area = Number(spanX) * Number(spanY);
  const side = Math.sqrt(area / Math.max(1, n / perCell));
  let shift = side > 1 ? Math.round(Math.log2(side)) : 0;
  const cells = (s: number): [number, number] => [
    Number(spanX >> BigInt(s)) + 1,
    Number(spanY >> BigInt(s)) + 1,
  ];
  let [width, height] = cells(shift);
  while (width > 2 * n + 1 || height > 2 * n + 1 || width * height > 4 * n + 4) {
    shift++;
    [width, height] = cells(shift);
  }
  const minWords = new Uint32Array(4);
  bigIntToWords(BigInt(minX), minWords, 0);
  bigIntToWords(BigInt(minY), minWords, 2);
  return { shift, width, height, minWords };
}
