import type { GeometryArray } from '@geoframe/core';
import type { PlotFrame } from './plot-options.js';

/**
 * Writes path data for rows of a geometry column in pixel space, coordinates rounded to
 * hundredths of a pixel (consecutive points equal after rounding are written once; points that are not finite
 * are skipped). Rounding is
 * a function of the coordinate alone, so vertices shared by neighbouring polygons stay shared.
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

  constructor(array: GeometryArray, frame: PlotFrame) {
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
   * Closed rings of row `i` (every ring of every part) as `M x y x y … Z` subpaths; a repeated
   * closing vertex is left to `Z`. Empty string when nothing is drawable.
   */
  rings(i: number): string {
    const { coords, stride, partOffsets, ringOffsets, sx, bx, by } = this;
    let d = '';
    const r1 = partOffsets[this.geometryOffsets[i + 1]];
    for (let r = partOffsets[this.geometryOffsets[i]]; r < r1; r++) {
      const c0 = ringOffsets[r];
      let c1 = ringOffsets[r + 1];
      if (c1 - c0 > 1 && coords[c0 * stride] === coords[(c1 - 1) * stride]) {
        if (coords[c0 * stride + 1] === coords[(c1 - 1) * stride + 1]) c1--;
      }
      let px = Number.NaN;
      let py = Number.NaN;
      let count = 0;
      for (let k = c0; k < c1; k++) {
        const x = Math.round(coords[k * stride] * sx + bx);
        const y = Math.round(by - coords[k * stride + 1] * sx);
        if ((x === px && y === py) || !Number.isFinite(x + y)) continue;
        d += count === 0 ? `M${x / 100} ${y / 100}` : ` ${x / 100} ${y / 100}`;
        px = x;
        py = y;
        count++;
      }
      if (count > 0) d += 'Z';
    }
    return d;
  }

  /** Open polylines of row `i` (every part) as `M x y x y …` subpaths. */
  lines(i: number): string {
    const { coords, stride, partOffsets, ringOffsets, sx, bx, by } = this;
    let d = '';
    const r1 = partOffsets[this.geometryOffsets[i + 1]];
    for (let r = partOffsets[this.geometryOffsets[i]]; r < r1; r++) {
      let px = Number.NaN;
      let py = Number.NaN;
      let count = 0;
      for (let k = ringOffsets[r]; k < ringOffsets[r + 1]; k++) {
        const x = Math.round(coords[k * stride] * sx + bx);
        const y = Math.round(by - coords[k * stride + 1] * sx);
        if ((x === px && y === py) || !Number.isFinite(x + y)) continue;
        d += count === 0 ? `M${x / 100} ${y / 100}` : ` ${x / 100} ${y / 100}`;
        px = x;
        py = y;
        count++;
      }
      // a one-point line still shows, as a dot under a round cap
      if (count === 1) d += 'h0';
    }
    return d;
  }

  /**
   * Every coordinate of row `i` as a zero-length subpath `M x yh0`, which a round line cap
   * draws as a dot of the stroke width's diameter. Coordinates that are not finite are skipped.
   */
  dots(i: number): string {
    const { coords, stride, partOffsets, ringOffsets, sx, bx, by } = this;
    let d = '';
    const end = ringOffsets[partOffsets[this.geometryOffsets[i + 1]]];
    for (let k = ringOffsets[partOffsets[this.geometryOffsets[i]]]; k < end; k++) {
      const x = Math.round(coords[k * stride] * sx + bx);
      const y = Math.round(by - coords[k * stride + 1] * sx);
      if (!Number.isFinite(x + y)) continue;
      d += `M${x / 100} ${y / 100}h0`;
    }
    return d;
  }
}
