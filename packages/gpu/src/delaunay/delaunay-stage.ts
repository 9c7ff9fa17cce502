import type { Box } from '@geoframe/core';
import { GpuDeclinedError } from '../runtime/errors.js';

/**
 * Stage 2 of the GPU Voronoi pipeline: the Delaunay triangulation of the sites (numbered along
 * the Hilbert curve), in delaunator's half-edge form. Arrays live on the host (a CPU stage) or
 * already on the device (a GPU stage); the later stages take either.
 */
export interface DelaunayStage {
  /** Site indices, three per triangle, clockwise in a y-up frame (delaunator's convention). */
  triangles: Uint32Array | GPUBuffer;
  /** Per half-edge: its twin in the adjacent triangle, or −1 on the convex hull. */
  halfedges: Int32Array | GPUBuffer;
  triangleCount: number;
  /** Where it ran and what it needed (for stats). */
  path: 'cpu' | 'gpu';
  /** Interior edges flipped by the exact repair (CPU), for stats. */
  flips: number;
}

/** Polygons as the pipeline returns them: one closed ring each, back to back (the CPU's layout). */
export interface PolygonBuffers {
  /** Interleaved xy of every ring, rings back to back. */
  coords: Float64Array;
  /** `polygons + 1` entries: ring `i` is coordinates `[ringOffsets[i], ringOffsets[i + 1])`. */
  ringOffsets: Int32Array;
}

/** Lines as the pipeline returns them (the CPU's layout). */
export interface LineBuffers {
  /** Interleaved xy of every part. */
  coords: Float64Array;
  /** `parts + 1` entries: part `i` is coordinates `[partOffsets[i], partOffsets[i + 1])`. */
  partOffsets: Int32Array;
}

/** An exact CPU triangulation in the sites' own numbering (what {@link CpuStages.delaunay} returns). */
export interface CpuTriangulation {
  triangles: Uint32Array;
  halfedges: Int32Array;
  /** Edges the exact repair flipped (for stats). */
  flips: number;
}

/**
 * The CPU work the GPU pipelines hand off, given by the caller: @geoframe/gpu never imports
 * @geoframe/cpu (adr/0001); @geoframe/geo's `ops/engines.ts` passes the CPU engine's functions.
 * Without them, a run that needs one declines with a {@link GpuDeclinedError}.
 */
export interface CpuStages {
  /**
   * The exact Delaunay triangulation of `sites` (interleaved xy, unique, finite) in their own
   * numbering, clockwise in a y-up frame with delaunator's half-edges; null when there is no
   * triangle (fewer than 3 sites or all collinear, decided exactly). Taken when the GPU's stars
   * cannot be certified, or with `delaunay: 'cpu'`.
   */
  delaunay(sites: Float64Array): Promise<CpuTriangulation | null>;
  /** The CPU's Voronoi cells (same contract as the pipeline), for inputs without a triangle. */
  voronoiCells(sites: Float64Array, box: Box): PolygonBuffers;
  /** The CPU's Voronoi edges, for inputs without a triangle. */
  voronoiEdges(sites: Float64Array, box: Box): LineBuffers;
  /**
   * An output array of `length` doubles, e.g. with its pages already mapped by worker threads
   * (the cells' output is large and faulted in page by page otherwise). Default `new Float64Array`.
   */
  outputArray?(length: number): Promise<Float64Array>;
  /**
   * The rings of an indexed emit expanded into `out` (interleaved xy at the rings' offsets),
   * e.g. on worker threads. It may also drop repeated consecutive points (returning compacted
   * rings); default: a gather on the calling thread, repeats kept.
   */
  expandRings?(rings: IndexedRings, out: Float64Array): Promise<PolygonBuffers>;
  /**
   * Copies the cells' coordinates out of the mapped readback (`source`, readable on the calling
   * thread only, until the returned promise resolves) into `out`, e.g. starting worker passes
   * over the rings already copied. Default: one `out.set`.
   */
  copyRings?(source: Float64Array, out: Float64Array, ringOffsets: Int32Array): Promise<void>;
}

/** Rings as vertex indices: point p of the output is vertex `index[p]` of `vertices` (xy pairs). */
export interface IndexedRings {
  vertices: Float64Array;
  index: Uint32Array;
  ringOffsets: Int32Array;
}

/** Says which stage of a GPU run went to the CPU and why (reported once per run). */
export type StageFallbackListener = (stage: string, reason: string) => void;

/** The CPU stages, or a {@link GpuDeclinedError} naming what the run needed them for. */
export function requireCpu(cpu: CpuStages | undefined, operation: string, why: string): CpuStages {
  if (cpu === undefined) {
    throw new GpuDeclinedError(`${operation}: ${why}, and no CPU stages were handed in (options.cpu)`);
  }
  return cpu;
}

/** The pipeline's stage form of a CPU triangulation (null stays null: no triangle). */
export function cpuStageOf(tri: CpuTriangulation | null): DelaunayStage | null {
  if (tri === null) return null;
  return {
    triangles: tri.triangles,
    halfedges: tri.halfedges,
    triangleCount: tri.triangles.length / 3,
    path: 'cpu',
    flips: tri.flips,
  };
}

/** Buffers of zero polygons. */
export function emptyPolygons(): PolygonBuffers {
  return { coords: new Float64Array(0), ringOffsets: new Int32Array(1) };
}

/** Buffers of zero lines. */
export function emptyLines(): LineBuffers {
  return { coords: new Float64Array(0), partOffsets: new Int32Array(1) };
}
