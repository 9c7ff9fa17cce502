import { GrowableInt32 } from '@geoframe/core';
import type { MultiPolygonParts } from '../voronoi/cell-arrays.js';

/** Where the pixel edges of a label image lie in coordinates (a north-up geotransform). */
export interface PixelEdges {
  width: number;
  height: number;
  xmin: number;
  xmax: number;
  ymin: number;
  ymax: number;
}

// Directions in (col, row) steps, counter-clockwise as seen with y up: east, north, west, south.
const DC = [1, 0, -1, 0];
const DR = [0, -1, 0, 1];
// The edge of a pixel on side s (0 bottom, 1 right, 2 top, 3 left) is walked in direction s with
// the pixel on its left (y up); the neighbour across it lies in direction (s + 3) & 3. Its start
// vertex, as a (col, row) offset from the pixel's top-left vertex:
const START_C = [0, 1, 1, 0];
const START_R = [1, 1, 0, 0];

/**
 * 4-connected components of equal labels (label ≥ 0), numbered in scan order; −1 where the
 * label is −1. Union-find over pixel indices with path halving.
 */
export function labelComponents(labels: Int32Array, width: number, height: number): Int32Array {
  const parent = new Int32Array(labels.length);
  for (let p = 0; p < parent.length; p++) parent[p] = p;
  const find = (p: number): number => {
    while (parent[p] !== p) {
      parent[p] = parent[parent[p]];
      p = parent[p];
    }
    return p;
  };
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const p = r * width + c;
      const l = labels[p];
      if (l < 0) continue;
      if (c > 0 && labels[p - 1] === l) {
        const a = find(p - 1);
        const b = find(p);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
      if (r > 0 && labels[p - width] === l) {
        const a = find(p - width);
        const b = find(p);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  const component = new Int32Array(labels.length).fill(-1);
  const idOfRoot = new Int32Array(labels.length).fill(-1);
  let next = 0;
  for (let p = 0; p < labels.length; p++) {
    if (labels[p] < 0) continue;
    const root = find(p);
    if (idOfRoot[root] < 0) idOfRoot[root] = next++;
    component[p] = idOfRoot[root];
  }
  return component;
}

/**
 * Polygonizes a label image (labels in [0, labelCount) or −1) into one (multi)polygon per label,
 * in GeoArrow multipolygon nesting: label → polygons (its 4-connected components, in scan order of
 * their first pixel) → rings (the outer ring first, counter-clockwise; then holes, clockwise) →
 * coordinates (pixel corners, only where the boundary turns; rings closed). Labels without pixels
 * get no polygon (an empty geometry).
 *
 * Boundaries are traced along pixel edges with the label on the left. Where two pixels of a
 * label touch only diagonally (a "saddle" vertex), the trace joins them when they belong to one
 * component (the enclosed part then becomes a hole touching the outer ring at that vertex) and
 * keeps them apart otherwise (two polygons touching at a vertex) — both valid in the OGC sense.
 * All bookkeeping lives in typed arrays (edge visit bits per pixel, growable vertex lists).
 */
export function polygonizeLabels(
  labels: Int32Array,
  labelCount: number,
  edges: PixelEdges,
): MultiPolygonParts {
  const { width, height } = edges;
  const component = labelComponents(labels, width, height);
  let components = 0;
  for (let p = 0; p < component.length; p++) components = Math.max(components, component[p] + 1);
  const labelOfComponent = new Int32Array(components);
  for (let p = 0; p < labels.length; p++) if (component[p] >= 0) labelOfComponent[component[p]] = labels[p];

  const same = (p: number, c: number, r: number): boolean =>
    c >= 0 && c < width && r >= 0 && r < height && labels[r * width + c] === labels[p];
  const isBoundary = (p: number, s: number): boolean => {
    const d = (s + 3) & 3;
    const c = (p % width) + DC[d];
    const r = Math.floor(p / width) + DR[d];
    return !same(p, c, r);
  };

  const visited = new Uint8Array(labels.length); // bit s: edge on side s traced
  const ringVertices = new GrowableInt32(1024); // vertex index row·(width + 1) + col, corners only
  const ringStart = new GrowableInt32(64);
  const ringComponent = new GrowableInt32(64);
  const ringOuter = new GrowableInt32(64);
  const trailVertex = new GrowableInt32(256);
  const trailDir = new GrowableInt32(256);
  const vw = width + 1;

  for (let p0 = 0; p0 < labels.length; p0++) {
    if (labels[p0] < 0) continue;
    for (let s0 = 0; s0 < 4; s0++) {
      if (visited[p0] & (1 << s0) || !isBoundary(p0, s0)) continue;
      trailVertex.length = 0;
      trailDir.length = 0;
      let p = p0;
      let s = s0;
      do {
        visited[p] |= 1 << s;
        const c = p % width;
        const r = (p - c) / width;
        trailVertex.push((r + START_R[s]) * vw + c + START_C[s]);
        trailDir.push(s);
        // the pixels ahead of the end vertex: A straight on along the left, B diagonally ahead-right
        const n = (s + 3) & 3;
        const ac = c + DC[s];
        const ar = r + DR[s];
        const bc = ac + DC[n];
        const br = ar + DR[n];
        const aSame = same(p, ac, ar);
        const bSame = same(p, bc, br);
        if (aSame && !bSame) {
          p = ar * width + ac; // straight on
        } else if (bSame && (aSame || component[br * width + bc] === component[p])) {
          p = br * width + bc; // turn right (at a saddle: join the diagonal pixel of one component)
          s = (s + 3) & 3;
        } else {
          s = (s + 1) & 3; // turn left around the same pixel
        }
      } while (p !== p0 || s !== s0);
      // keep the corners: vertices where the direction changes (cyclically)
      const dirs = trailDir.finish();
      const verts = trailVertex.finish();
      const m = dirs.length;
      ringStart.push(ringVertices.length);
      let area2 = 0;
      let first = -1;
      let previous = -1;
      for (let k = 0; k < m; k++) {
        if (dirs[k] === dirs[(k + m - 1) % m]) continue;
        const v = verts[k];
        ringVertices.push(v);
        if (first < 0) first = v;
        if (previous >= 0) area2 += cross(previous, v, vw);
        previous = v;
      }
      area2 += cross(previous, first, vw);
      ringComponent.push(component[p0]);
      // the shoelace sum in (col, row) is negative for rings counter-clockwise with y up
      ringOuter.push(area2 < 0 ? 1 : 0);
    }
  }
  ringStart.push(ringVertices.length);
  const starts = ringStart.finish();
  const vertices = ringVertices.finish();
  const ringComp = ringComponent.finish();
  const outer = ringOuter.finish();

  return assembleParts({ starts, vertices, ringComp, outer }, labelOfComponent, labelCount, edges);
}

/** The traced rings of {@link polygonizeLabels}: vertex lists, their component, outer or hole. */
interface TracedRings {
  /** `rings + 1` entries: ring k is `vertices[starts[k] .. starts[k + 1])`. */
  starts: Int32Array;
  vertices: Int32Array;
  ringComp: Int32Array;
  /** 1 for a component's outer ring, 0 for a hole. */
  outer: Int32Array;
}

/**
 * The traced rings in GeoArrow multipolygon nesting (see {@link polygonizeLabels}): rings by
 * component, the outer ring first; components by label in scan order; pixel corners to
 * coordinates.
 */
function assembleParts(
  { starts, vertices, ringComp, outer }: TracedRings,
  labelOfComponent: Int32Array,
  labelCount: number,
  edges: PixelEdges,
): MultiPolygonParts {
  const { width, height } = edges;
  const components = labelOfComponent.length;
  const rings = starts.length - 1;
  const vw = width + 1;
  // order rings by component, the outer ring first, with a counting sort
  const ringsOfComponent = new Int32Array(components + 1);
  for (let k = 0; k < rings; k++) ringsOfComponent[ringComp[k] + 1]++;
  for (let i = 0; i < components; i++) ringsOfComponent[i + 1] += ringsOfComponent[i];
  const fill = ringsOfComponent.slice(0, components);
  const order = new Int32Array(rings);
  for (let pass = 1; pass >= 0; pass--) {
    for (let k = 0; k < rings; k++) if (outer[k] === pass) order[fill[ringComp[k]]++] = k;
  }
  // components by label (scan order within a label)
  const polygonsOfLabel = new Int32Array(labelCount + 1);
  for (let i = 0; i < components; i++) polygonsOfLabel[labelOfComponent[i] + 1]++;
  for (let l = 0; l < labelCount; l++) polygonsOfLabel[l + 1] += polygonsOfLabel[l];
  const at = polygonsOfLabel.slice(0, labelCount);
  const componentOrder = new Int32Array(components);
  for (let i = 0; i < components; i++) componentOrder[at[labelOfComponent[i]]++] = i;

  const polygonOffsets = new Int32Array(components + 1);
  const ringOffsets = new Int32Array(rings + 1);
  const coords = new Float64Array(2 * (vertices.length + rings));
  const pw = (edges.xmax - edges.xmin) / width;
  const ph = (edges.ymax - edges.ymin) / height;
  let ringOut = 0;
  let point = 0;
  const writeVertex = (v: number) => {
    const c = v % vw;
    const r = (v - c) / vw;
    coords[2 * point] = c === width ? edges.xmax : edges.xmin + c * pw;
    coords[2 * point + 1] = r === height ? edges.ymin : edges.ymax - r * ph;
    point++;
  };
  for (let k = 0; k < components; k++) {
    const comp = componentOrder[k];
    for (let j = ringsOfComponent[comp]; j < ringsOfComponent[comp + 1]; j++) {
      const ring = order[j];
      const lo = starts[ring];
      const hi = starts[ring + 1];
      for (let q = lo; q < hi; q++) writeVertex(vertices[q]);
      writeVertex(vertices[lo]); // close the ring
      ringOut++;
      ringOffsets[ringOut] = point;
    }
    polygonOffsets[k + 1] = ringOut;
  }
  return { coords, ringOffsets, polygonOffsets, geometryOffsets: polygonsOfLabel };
}

/** Twice the signed area contribution of the segment a → b (vertex indices of a grid `vw` wide). */
function cross(a: number, b: number, vw: number): number {
  const ac = a % vw;
  const ar = (a - ac) / vw;
  const bc = b % vw;
  const br = (b - bc) / vw;
  return ac * br - bc * ar;
}
