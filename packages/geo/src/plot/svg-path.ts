import type { GeometryArray } from '@geoframe/core';
import type { PlotFrame } from './plot-options.js';
import type { SvgBytes } from './svg-bytes.js';

const M = 77;
const L_REL = 108; // 'l'
const Z = 90;
const SPACE = 32;

/**
 * Writes path data for rows of a geometry column in pixel space. Every vertex is rounded to a
 * hundredth of a pixel as a function of the coordinate alone, so vertices shared by neighbouring
 * polygons stay shared; after the first vertex of a subpath the exact differences of rounded
 * positions are written as relative moves (`l`), which keeps documents small without drift.
 * Consecutive vertices equal after rounding are written once; vertices that are not finite are
 * skipped.
 */
export class SvgPathWriter {
  private readonly coords: Float64Array;
  private readonly stride: number;
  private readonly geometryOffsets: Int32Array;
  private readonly partOffsets: Int32Array;
  private readonly ringOffsets: Int32Array;
  private readonly sx: number;
  private readonly bx: number;
  private readonly by: number;

  constructor(
    array: GeometryArray,
    frame: PlotFrame,
    private readonly out: SvgBytes,
  ) {
    const nested = array.nestedOffsets();
    this.coords = array.coords;
    this.stride = array.stride;
    this.geometryOffsets = nested.geometryOffsets;
    this.partOffsets = nested.partOffsets;
    this.ringOffsets = nested.ringOffsets;
    // pixel x in hundredths: x * sx + bx; pixel y: by - y * sx
    this.sx = frame.scale * 100;
    this.bx = (frame.left - frame.x0 * frame.scale) * 100;
    this.by = (frame.top + frame.y1 * frame.scale) * 100;
  }

  /**
   * Writes coordinates `[c0, c1)` as one subpath (`M x y l dx dy …`), closed with `Z` when
   * `close` is set; returns the number of distinct vertices written.
   */
  private subpath(c0: number, c1: number, close: boolean): number {
    const { coords, stride, sx, bx, by, out } = this;
    let px = 0;
    let py = 0;
    let count = 0;
    for (let k = c0; k < c1; k++) {
      const x = Math.round(coords[k * stride] * sx + bx);
      const y = Math.round(by - coords[k * stride + 1] * sx);
      if (!Number.isFinite(x + y) || (count > 0 && x === px && y === py)) continue;
      if (count === 0) {
        out.char(M);
        out.hundredths(x);
        out.char(SPACE);
        out.hundredths(y);
      } else {
        out.char(count === 1 ? L_REL : SPACE);
        out.hundredths(x - px);
        out.char(SPACE);
        out.hundredths(y - py);
      }
      px = x;
      py = y;
      count++;
    }
    if (count > 0 && close) out.char(Z);
    return count;
  }

  /**
   * Row `i`'s rings (every ring of every part) as closed subpaths; a repeated closing vertex is
   * left to `Z`.
   */
  rings(i: number): void {
    const { coords, stride, partOffsets, ringOffsets } = this;
    const r1 = partOffsets[this.geometryOffsets[i + 1]];
    for (let r = partOffsets[this.geometryOffsets[i]]; r < r1; r++) {
      const c0 = ringOffsets[r];
      let c1 = ringOffsets[r + 1];
      if (
        c1 - c0 > 1 &&
        coords[c0 * stride] === coords[(c1 - 1) * stride] &&
        coords[c0 * stride + 1] === coords[(c1 - 1) * stride + 1]
      ) {
        c1--;
      }
      this.subpath(c0, c1, true);
    }
  }

  /** Row `i`'s parts as open subpaths; a part of one distinct vertex becomes a dot (`h0`). */
  lines(i: number): void {
    const { partOffsets, ringOffsets, out } = this;
    const r1 = partOffsets[this.geometryOffsets[i + 1]];
    for (let r = partOffsets[this.geometryOffsets[i]]; r < r1; r++) {
      if (this.subpath(ringOffsets[r], ringOffsets[r + 1], false) === 1) out.text('h0');
    }
  }

  /**
   * Every coordinate of row `i` as a zero-length subpath `M x yh0`, which a round line cap
   * draws as a dot of the stroke width's diameter; with `classes`, only the coordinates of
   * class `cls` (see `densityDotClasses`).
   */
  dots(i: number, classes?: Uint8Array, cls?: number): void {
    const { coords, stride, partOffsets, ringOffsets, sx, bx, by, out } = this;
    const end = ringOffsets[partOffsets[this.geometryOffsets[i + 1]]];
    for (let k = ringOffsets[partOffsets[this.geometryOffsets[i]]]; k < end; k++) {
      if (classes !== undefined && classes[k] !== cls) continue;
      const x = Math.round(coords[k * stride] * sx + bx);
      const y = Math.round(by - coords[k * stride + 1] * sx);
      if (!Number.isFinite(x + y)) continue;
      out.char(M);
      out.hundredths(x);
      out.char(SPACE);
      out.hundredths(y);
      out.text('h0');
    }
  }
}
