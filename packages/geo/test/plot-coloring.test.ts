import { GeometryArray, GeometryType, readWkt } from '@geoframe/core';
import { voronoiCells } from '@geoframe/cpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import {
  type Adjacency,
  adjacencyFromPairs,
  edgeAdjacency,
  neighborColors,
  smallestLastColoring,
  smallestLastOrder,
} from '../src/plot/index.js';
import { squareGrid } from './plot-fixtures.js';

/** Voronoi cells of `sites`, in a box 1 wider than the sites on each side, as a polygon column. */
function voronoiColumn(sites: Float64Array): GeometryArray {
  const box = { minX: Number.POSITIVE_INFINITY, minY: Number.POSITIVE_INFINITY, maxX: -1e300, maxY: -1e300 };
  for (let i = 0; i < sites.length; i += 2) {
    box.minX = Math.min(box.minX, sites[i] - 1);
    box.minY = Math.min(box.minY, sites[i + 1] - 1);
    box.maxX = Math.max(box.maxX, sites[i] + 1);
    box.maxY = Math.max(box.maxY, sites[i + 1] + 1);
  }
  const { coords, ringOffsets } = voronoiCells(sites, box);
  const length = ringOffsets.length - 1;
  const rows = new Int32Array(length + 1).map((_, i) => i);
  return new GeometryArray({
    type: GeometryType.Polygon,
    dimension: 'xy',
    coords,
    offsets: [rows, ringOffsets],
    length,
  });
}

/** Sorted neighbour lists, for comparing graphs. */
function neighborLists(graph: Adjacency): number[][] {
  const lists: number[][] = [];
  for (let i = 0; i + 1 < graph.offsets.length; i++) {
    lists.push([...graph.neighbors.subarray(graph.offsets[i], graph.offsets[i + 1])].sort((a, b) => a - b));
  }
  return lists;
}

/**
 * Reference adjacency, written independently of the hashing: every segment of every ring keyed by
 * a string of its endpoints in sorted order, rows sharing a key are neighbours.
 */
function referenceNeighbors(array: GeometryArray): number[][] {
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const owners = new Map<string, Set<number>>();
  for (let i = 0; i < array.length; i++) {
    const type = array.typeOf(i);
    if (type !== GeometryType.Polygon && type !== GeometryType.MultiPolygon) continue;
    for (let r = partOffsets[geometryOffsets[i]]; r < partOffsets[geometryOffsets[i + 1]]; r++) {
      const c0 = ringOffsets[r];
      const c1 = ringOffsets[r + 1];
      for (let k = c0; k < c1; k++) {
        const next = k + 1 < c1 ? k + 1 : c0;
        const a = `${array.x(k) + 0},${array.y(k) + 0}`;
        const b = `${array.x(next) + 0},${array.y(next) + 0}`;
        if (a === b) continue;
        const key = a < b ? `${a}|${b}` : `${b}|${a}`;
        const set = owners.get(key) ?? new Set<number>();
        set.add(i);
        owners.set(key, set);
      }
    }
  }
  const lists: Set<number>[] = Array.from({ length: array.length }, () => new Set());
  for (const set of owners.values()) {
    for (const a of set) for (const b of set) if (a !== b) lists[a].add(b);
  }
  return lists.map((s) => [...s].sort((a, b) => a - b));
}

function expectProperColoring(lists: number[][], color: Int32Array): void {
  for (let i = 0; i < lists.length; i++) {
    for (const j of lists[i]) expect(color[i], `rows ${i} and ${j} share an edge`).not.toBe(color[j]);
  }
}

describe('edgeAdjacency', () => {
  it('links squares of a grid across edges, not across corners', () => {
    const cols = 5;
    const rows = 4;
    const lists = neighborLists(edgeAdjacency(squareGrid(cols, rows)));
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const expected: number[] = [];
        if (j > 0) expected.push((j - 1) * cols + i);
        if (i > 0) expected.push(j * cols + i - 1);
        if (i + 1 < cols) expected.push(j * cols + i + 1);
        if (j + 1 < rows) expected.push((j + 1) * cols + i);
        expect(lists[j * cols + i]).toEqual(expected);
      }
    }
  });

  it('matches a string-keyed reference on Voronoi cells (uniform, clustered, lattice)', () => {
    for (const kind of ['uniform', 'clusters', 'lattice'] as const) {
      const cells = voronoiColumn(generatePoints(kind, 1500, 11));
      const lists = neighborLists(edgeAdjacency(cells));
      expect(lists).toEqual(referenceNeighbors(cells));
      // a tessellation: every cell has a neighbour
      expect(lists.every((l) => l.length > 0)).toBe(true);
    }
  });

  it('skips nulls, empties and non-polygons, reads open rings, -0 as 0, and repeats pairs once', () => {
    const array = readWkt([
      'POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))',
      null,
      'POLYGON EMPTY',
      'LINESTRING (1 0, 1 1)',
      // shares the edge (1 0)-(1 1) with row 0, reversed, written with -0 elsewhere; not closed
      'POLYGON ((1 -0, 2 0, 2 1, 1 1))',
      // touches row 0 at the corner (0 1) only
      'POLYGON ((-1 1, 0 1, 0 2, -1 2, -1 1))',
      // two parts, each sharing an edge with row 4: one pair
      'MULTIPOLYGON (((2 0, 3 0, 3 0.5, 2 0.5, 2 0)), ((2 0.5, 3 0.5, 3 1, 2 1, 2 0.5)))',
      'POINT (0.5 0.5)',
    ]);
    expect(neighborLists(edgeAdjacency(array))).toEqual([[4], [], [], [], [0], [], [], []]);
  });

  it('pairs every owner of a segment when more than two polygons have it', () => {
    const array = readWkt([
      'POLYGON ((0 0, 1 0, 1 1, 0 0))',
      'POLYGON ((0 0, 1 0, 1 -1, 0 0))',
      'POLYGON ((1 0, 0 0, 0.5 2, 1 0))',
      'POLYGON ((5 5, 6 5, 6 6, 5 5))',
    ]);
    expect(neighborLists(edgeAdjacency(array))).toEqual([[1, 2], [0, 2], [0, 1], []]);
  });

  it('reads a sliced column by its own rows', () => {
    const grid = squareGrid(4, 1).slice(1, 3);
    expect(neighborLists(edgeAdjacency(grid))).toEqual([[1], [0]]);
  });

  it('handles zero rows and Z coordinates', () => {
    expect(neighborLists(edgeAdjacency(readWkt([])))).toEqual([]);
    const z = readWkt([
      'POLYGON Z ((0 0 5, 1 0 5, 1 1 5, 0 0 5))',
      'POLYGON Z ((1 0 9, 0 0 1, 1 -1 2, 1 0 9))',
    ]);
    expect(neighborLists(edgeAdjacency(z))).toEqual([[1], [0]]);
  });
});

describe('adjacencyFromPairs', () => {
  it('drops self-loops and repeated pairs', () => {
    const graph = adjacencyFromPairs(4, new Int32Array([0, 1, 1, 0, 2, 2, 1, 2, 0, 1]));
    expect(neighborLists(graph)).toEqual([[1], [0, 2], [1], []]);
  });
});

/** A random graph of `n` vertices and about `m` edges, seeded. */
function randomGraph(n: number, m: number, seed: number): Adjacency {
  const rng = new SeededRandom(seed);
  const pairs = new Int32Array(2 * m);
  for (let p = 0; p < pairs.length; p++) pairs[p] = Math.floor(rng.next() * n);
  return adjacencyFromPairs(n, pairs);
}

describe('smallestLastOrder and smallestLastColoring', () => {
  it('removes a vertex of least remaining degree at every step (brute-force check)', () => {
    for (const [n, m, seed] of [
      [1, 0, 1],
      [30, 60, 2],
      [200, 900, 3],
      [300, 3000, 4],
    ]) {
      const graph = randomGraph(n, m, seed);
      const lists = neighborLists(graph);
      const order = smallestLastOrder(graph);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      const removed = new Uint8Array(n);
      for (const v of order) {
        const remaining = (u: number) => lists[u].filter((w) => !removed[w]).length;
        let least = Number.POSITIVE_INFINITY;
        for (let u = 0; u < n; u++) if (!removed[u]) least = Math.min(least, remaining(u));
        expect(remaining(v)).toBe(least);
        removed[v] = 1;
      }
    }
  });

  it('colours random graphs properly with at most degeneracy + 1 colours', () => {
    for (const [n, m, seed] of [
      [50, 100, 5],
      [400, 4000, 6],
    ]) {
      const graph = randomGraph(n, m, seed);
      const lists = neighborLists(graph);
      const color = smallestLastColoring(graph);
      expectProperColoring(lists, color);
      // degeneracy: the largest remaining degree met along the smallest-last order
      const removed = new Uint8Array(n);
      let degeneracy = 0;
      for (const v of smallestLastOrder(graph)) {
        degeneracy = Math.max(degeneracy, lists[v].filter((w) => !removed[w]).length);
        removed[v] = 1;
      }
      expect(Math.max(...color)).toBeLessThanOrEqual(degeneracy);
    }
  });

  it('gives an empty graph no colours and isolated vertices colour 0', () => {
    expect([...smallestLastColoring(adjacencyFromPairs(0, new Int32Array(0)))]).toEqual([]);
    expect([...smallestLastColoring(adjacencyFromPairs(3, new Int32Array(0)))]).toEqual([0, 0, 0]);
  });
});

describe('neighborColors', () => {
  it('colours a grid of squares so that edge-sharing squares differ', () => {
    const grid = squareGrid(12, 9);
    const color = neighborColors(grid);
    expectProperColoring(referenceNeighbors(grid), color);
    expect(Math.max(...color)).toBeLessThan(6);
    expect(Math.min(...color)).toBe(0);
  });

  it('colours Voronoi tessellations with at most six colours, neighbours always different', () => {
    for (const [kind, seed] of [
      ['uniform', 1],
      ['uniform', 2],
      ['clusters', 3],
      ['lattice', 4],
      ['circle', 5],
    ] as const) {
      const cells = voronoiColumn(generatePoints(kind, 3000, seed));
      const color = neighborColors(cells);
      expectProperColoring(referenceNeighbors(cells), color);
      expect(Math.max(...color)).toBeLessThan(6);
    }
  });

  it('gives -1 to rows that are not drawn as polygons', () => {
    const array = readWkt([
      'POLYGON ((0 0, 1 0, 1 1, 0 0))',
      null,
      'POLYGON EMPTY',
      'LINESTRING (0 0, 1 0)',
      'POLYGON ((1 0, 0 0, 1 -1, 1 0))',
    ]);
    expect([...neighborColors(array)].map((c) => c >= 0)).toEqual([true, false, false, false, true]);
    const color = neighborColors(array);
    expect(color[0]).not.toBe(color[4]);
  });
});
