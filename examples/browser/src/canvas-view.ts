import type { GeoSeries } from '@geoframe/geo';

/** GeoArrow native type codes (GeometryType in @geoframe/core) the view draws differently. */
const POINT = 1;
const MULTI_POINT = 4;
const LINE_STRING = 2;
const MULTI_LINE_STRING = 5;

/** A colour per row, spread over the hue circle by the golden angle so neighbours rarely match. */
function rowColour(row: number): string {
  const hue = (row * 137.508) % 360;
  const light = 45 + ((row * 7) % 4) * 8;
  return `hsl(${hue.toFixed(1)} 70% ${light}%)`;
}

/**
 * A canvas showing one geometry column (the result) over another (the input points), fitted to
 * the input's bounds, with pan (drag) and zoom (wheel, about the pointer). Polygons are filled one
 * colour per row; lines are stroked; points are dots. It reads the GeoArrow buffers directly.
 */
export class CanvasView {
  private result: GeoSeries | null = null;
  private sites: GeoSeries | null = null;
  /** World → screen: x' = (x − cx)·scale + w/2, y' = (cy − y)·scale + h/2. */
  private cx = 0;
  private cy = 0;
  private scale = 1;

  constructor(private readonly canvas: HTMLCanvasElement) {
    // the drawing buffer follows the element's size, so nothing is stretched
    new ResizeObserver(() => {
      const { clientWidth, clientHeight } = canvas;
      if (clientWidth === 0 || clientHeight === 0) return;
      this.scale *= Math.min(clientWidth / canvas.width, clientHeight / canvas.height);
      canvas.width = clientWidth;
      canvas.height = clientHeight;
      this.draw();
    }).observe(canvas);
    let drag: { x: number; y: number } | null = null;
    canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!drag) return;
      this.cx -= (e.clientX - drag.x) / this.scale;
      this.cy += (e.clientY - drag.y) / this.scale;
      drag = { x: e.clientX, y: e.clientY };
      this.draw();
    });
    canvas.addEventListener('pointerup', () => {
      drag = null;
    });
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const rect = canvas.getBoundingClientRect();
        const [wx, wy] = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
        this.scale *= Math.exp(-e.deltaY * 0.0015);
        const [nx, ny] = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
        this.cx += wx - nx;
        this.cy += wy - ny;
        this.draw();
      },
      { passive: false },
    );
  }

  /** Shows `result` over `sites`, the view fitted to the sites (or the result when no sites). */
  show(result: GeoSeries | null, sites: GeoSeries | null): void {
    this.result = result;
    this.sites = sites;
    const fit = sites ?? result;
    if (fit && fit.length > 0) {
      const [x0, y0, x1, y1] = fit.totalBounds;
      const { width, height } = this.canvas;
      this.cx = (x0 + x1) / 2;
      this.cy = (y0 + y1) / 2;
      this.scale = 0.95 * Math.min(width / Math.max(x1 - x0, 1e-300), height / Math.max(y1 - y0, 1e-300));
    }
    this.draw();
  }

  private toWorld(px: number, py: number): [number, number] {
    const { width, height } = this.canvas;
    return [(px - width / 2) / this.scale + this.cx, this.cy - (py - height / 2) / this.scale];
  }

  /** Redraws everything (33k cells take a few tens of milliseconds). */
  draw(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { width, height } = this.canvas;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#f4f4f0';
    ctx.fillRect(0, 0, width, height);
    ctx.setTransform(
      this.scale,
      0,
      0,
      -this.scale,
      width / 2 - this.cx * this.scale,
      height / 2 + this.cy * this.scale,
    );
    if (this.result) this.drawSeries(ctx, this.result, true);
    // the input points only where they do not bury the cells: ≥ 40 px² of screen per point
    if (this.sites && this.pixelsPerRow(this.sites) >= 40) this.drawSeries(ctx, this.sites, false);
  }

  /** Screen pixels per row over the series' extent at the current zoom. */
  private pixelsPerRow(series: GeoSeries): number {
    const [x0, y0, x1, y1] = series.totalBounds;
    return ((x1 - x0) * (y1 - y0) * this.scale * this.scale) / Math.max(1, series.length);
  }

  private drawSeries(ctx: CanvasRenderingContext2D, series: GeoSeries, colour: boolean): void {
    const a = series.array;
    const { geometryOffsets: g, partOffsets: p, ringOffsets: r } = a.nestedOffsets();
    const { coords, stride } = a;
    const lines = a.type === LINE_STRING || a.type === MULTI_LINE_STRING;
    const points = a.type === POINT || a.type === MULTI_POINT;
    const pixel = 1 / this.scale;
    ctx.lineWidth = (colour ? 0.6 : 1) * pixel;
    const dot = 2 * pixel;
    for (let row = 0; row < a.length; row++) {
      if (a.isNull(row)) continue;
      const path = new Path2D();
      for (let part = g[row]; part < g[row + 1]; part++) {
        for (let ring = p[part]; ring < p[part + 1]; ring++) {
          const start = r[ring];
          const end = r[ring + 1];
          if (points) {
            for (let k = start; k < end; k++)
              path.rect(coords[k * stride] - dot / 2, coords[k * stride + 1] - dot / 2, dot, dot);
            continue;
          }
          for (let k = start; k < end; k++) {
            const x = coords[k * stride];
            const y = coords[k * stride + 1];
            if (k === start) path.moveTo(x, y);
            else path.lineTo(x, y);
          }
          if (!lines) path.closePath();
        }
      }
      if (points) {
        ctx.fillStyle = colour ? rowColour(row) : '#1b1b1b';
        ctx.fill(path);
      } else if (lines) {
        ctx.strokeStyle = colour ? rowColour(row) : '#1b1b1b';
        ctx.stroke(path);
      } else {
        // no outline: neighbouring colours differ already, and outlines would grey out dense areas
        ctx.fillStyle = rowColour(row);
        ctx.fill(path, 'evenodd');
      }
    }
  }
}
