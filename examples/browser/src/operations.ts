import type { CostRaster2D, DeviceOption, DispatchExplanation, GeoDataFrame, GeoSeries } from '@geoframe/geo';

/** What the page holds: the loaded rows and, for a demo, the region its cells are clipped to. */
export interface DemoInput {
  name: string;
  frame: GeoDataFrame;
  clipTo: GeoSeries | null;
}

/** The choices the page passes to every operation. */
export interface RunChoices {
  device: DeviceOption;
  /** Clip Voronoi cells to the input's region (when it has one). */
  clip: boolean;
  /** Pixels along the longer side of a raster (raster mode and cost allocation). */
  pixels: number;
}

/**
 * One entry of the operation menu: how to ask `explain` about it, and how to run it. The result
 * is drawn and offered as GeoParquet, so rasters are polygonized first.
 */
export interface Operation {
  label: string;
  explain(input: DemoInput, choices: RunChoices): DispatchExplanation;
  run(input: DemoInput, choices: RunChoices): Promise<GeoSeries | GeoDataFrame>;
}

/** Width and height of a grid over `bounds` with `pixels` along the longer side. */
function gridOf(bounds: readonly number[], pixels: number): { width: number; height: number } {
  const [x0, y0, x1, y1] = bounds;
  const w = Math.max(x1 - x0, Number.MIN_VALUE);
  const h = Math.max(y1 - y0, Number.MIN_VALUE);
  const scale = pixels / Math.max(w, h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/**
 * A cost raster for the demo over the sites' bounds: cost 1 everywhere but a diagonal band of
 * cost 8 (a ridge to cross), so the allocation visibly differs from plain Voronoi.
 */
function demoCost(input: DemoInput, pixels: number): CostRaster2D {
  const bounds = input.frame.totalBounds;
  const { width, height } = gridOf(bounds, pixels);
  const values = new Float32Array(width * height).fill(1);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const t = col / width - row / height;
      if (Math.abs(t) < 0.04) values[row * width + col] = 8;
    }
  }
  return { values, width, height, bounds };
}

function voronoiOptions(input: DemoInput, choices: RunChoices) {
  const clipTo = choices.clip && input.clipTo ? input.clipTo : undefined;
  return { ordered: true, device: choices.device, ...(clipTo ? { clipTo } : {}) };
}

function rasterOptions(input: DemoInput, choices: RunChoices) {
  const bounds = input.frame.totalBounds;
  return { ...gridOf(bounds, choices.pixels), bounds, mode: 'exact' as const, device: choices.device };
}

/**
 * The operation menu, in order. A new operation is one entry here. CVT (centroidal Voronoi
 * tessellation) plugs in as:
 *
 *   cvt: {
 *     label: 'CVT (Lloyd relaxation)',
 *     explain: (input, c) => input.frame.geometry.explain('cvt', { ...rasterOptions(input, c) }),
 *     run: async (input, c) => (await input.frame.geometry.cvt({ ...rasterOptions(input, c) })).toPolygons(),
 *   },
 *
 * once GeoSeries has `cvt` and `explain` answers for it.
 */
export const OPERATIONS: Record<string, Operation> = {
  voronoi: {
    label: 'Voronoi cells',
    explain: (input, c) => input.frame.explain('voronoiPolygons', voronoiOptions(input, c)),
    run: (input, c) => input.frame.voronoiPolygons(voronoiOptions(input, c)),
  },
  delaunay: {
    label: 'Delaunay triangles',
    explain: (input, c) => input.frame.explain('delaunayTriangles', { device: c.device }),
    run: (input, c) => input.frame.delaunayTriangles({ device: c.device }),
  },
  raster: {
    label: 'Raster Voronoi (exact), polygonized',
    explain: (input, c) => input.frame.geometry.explain('voronoiRaster', rasterOptions(input, c)),
    run: async (input, c) => (await input.frame.geometry.voronoiRaster(rasterOptions(input, c))).toPolygons(),
  },
  cost: {
    label: 'Cost allocation (a costly diagonal ridge), polygonized',
    explain: (input, c) =>
      input.frame.explain('costAllocation', { cost: demoCost(input, c.pixels), device: c.device }),
    run: async (input, c) =>
      (await input.frame.costAllocation({ cost: demoCost(input, c.pixels), device: c.device })).toPolygons(),
  },
};
