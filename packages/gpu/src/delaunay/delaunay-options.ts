import type { Box } from '@geoframe/core';
import type { FixedGrid } from '../exact/fixed-grid.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import type { CpuStages, DelaunayStage } from './delaunay-stage.js';

/** Options of {@link gpuDelaunayStage} and {@link delaunayGpu}. */
export interface DelaunayGpuOptions {
  /**
   * Rings of cells searched around a site before it is given up (counted; CPU fallback). Default:
   * the whole grid (only cells that can still hold a conflicting site are visited once the star
   * is closed, so the candidate budget is what bounds the work).
   */
  ringLimit?: number;
  /**
   * Rings of cells around a site the first pass takes whole; stars unfinished there go on in the
   * tail pass, a workgroup a star (ADR 0013). At most 8 are taken. Default: by lanes, the fewest
   * whose block holds about 45 sites at the grid's mean density (3 at ≈ 1 site a cell); per
   * thread, 3.
   */
  firstPassRings?: number;
  /**
   * How the first pass builds a star: `'lanes'` (default), 32 lanes a star and a lane a
   * candidate, every lane clipping its candidate's bisector by the others, nearest first, the
   * stars with float ties then built by the per-thread pass; or `'threads'`, the per-thread pass
   * for every star, a thread inserting its candidates one by one (the earlier first pass;
   * `firstPassCapacity` and `firstPassScan` apply to the per-thread pass only).
   */
  firstPass?: 'lanes' | 'threads';
  /**
   * Stars a workgroup of the first pass by lanes builds together, 32 lanes each (fewer when
   * their workgroup memory does not fit the device). Default 2.
   */
  starsPerWorkgroup?: number;
  /** Threads of a tail-pass workgroup (one star, its cells spread over them). Default 64. */
  tailWorkgroupSize?: number;
  /**
   * Entries a star of the per-thread pass may hold (the workgroup memory of its pass scales with
   * it), at most `STAR_CAPACITY`; larger stars start again in the tail pass. Default
   * `STAR_FIRST_CAPACITY`.
   */
  firstPassCapacity?: number;
  /**
   * Steps (a cell or a candidate each) the per-thread pass's threads scan with the float test alone
   * before the warp runs the exact step for the candidates that passed (ADR 0013). Default 8.
   */
  firstPassScan?: number;
  /** Candidate sites one star may examine before it is given up. Default 65536. */
  candidateBudget?: number;
  /**
   * Largest hull whose vertices a star still open after two rings takes as candidates (closing it
   * at once instead of searching along a long hull edge). Default 4096.
   */
  hullSeedLimit?: number;
  /**
   * Largest hull that bounds the search of a half-plane conflict region (a loop over its vertices
   * each time one is computed at a finality check). Default 256.
   */
  hullClipLimit?: number;
  /**
   * Average sites per bucket cell aimed at (rounded to a power-of-two cell). Default 1: on the
   * H100, 2 was as fast for uniform sites and 1.8× slower for clustered ones (ADR 0013).
   */
  sitesPerCell?: number;
  /** The sites already on the fixed grid (`vec4u` a site) with its grid; converted here otherwise. */
  fixed?: { sites: GPUBuffer; grid: FixedGrid };
  /**
   * With `fixed`: site k of the triangulation is `sites[order[k]]` (the caller's array is not in
   * the triangulation's order, which only the device sites follow). The hull candidates' grid
   * values come from the device, so the order is needed only past 8192 candidates and for a CPU
   * fallback (which gathers the whole array): it may be given as a function that reads it then.
   */
  order?: Uint32Array | (() => Promise<Uint32Array>);
  /**
   * The sites' bounding box, when the caller has it (every coordinate checked finite): spares the
   * stage its own scan of the sites.
   */
  bounds?: Box;
  /** Times the passes of the main submission (buckets, stars, count, scan, emit, twins). */
  profiler?: GpuProfiler;
  /** `'never'` reports failures as stats without the CPU answer (for benchmarks and tests). */
  fallback?: 'cpu' | 'never';
  /**
   * The CPU triangulation a failed run answers with (`CpuStages.delaunay`; geo hands in the CPU
   * engine's). Without it, a failure under `fallback: 'cpu'` throws a `GpuDeclinedError`.
   */
  cpuDelaunay?: CpuStages['delaunay'];
  /**
   * With `fixed`: the caller's f64 sites (`vec4u` of bits, caller order) and the order (curve →
   * caller) already on the device, which the faithful-representation guard reads (adr/0020);
   * uploaded here otherwise.
   */
  input?: { xy: GPUBuffer; order: GPUBuffer };
  /**
   * The clip box whose cells will be built from this triangulation: the guard then also bounds
   * how far the grid's rounding can move their vertices (Voronoi). Default: predicates only.
   */
  cellsBox?: Box;
  /** Sites one bucket cell may hold before the run is declined as a cluster (0: no limit). */
  clusterLimit?: number;
  /**
   * `false` skips the faithful-representation guard (the cluster check stays): for benchmarks
   * that time its cost only — the answer may then be wrong where the grid rounds sites.
   */
  guard?: boolean;
}

/** What a GPU Delaunay run did. */
export interface DelaunayGpuStats {
  /** Where the answer came from: the stars, or the CPU after a failure (see `fallbackReason`). */
  path: 'gpu' | 'cpu';
  fallbackReason: string | null;
  sites: number;
  /** Sites that survived the octagon filter and went to the CPU monotone chain. */
  hullCandidates: number;
  /** Convex hull vertices (collinear boundary sites included). */
  hull: number;
  /** Triangles of the GPU stars (2n − 2 − h when complete). */
  triangles: number;
  grid: { width: number; height: number; shift: number };
  /** Sites whose star was not final (ring limit, overflow, budget, inconsistency). */
  failedSites: number;
  /** Final stars that disagree with a neighbour's. */
  disagreeingSites: number;
  meanRing: number;
  maxRing: number;
  /** Candidates inserted or tested, summed over sites, and the most one site examined. */
  candidates: number;
  maxCandidates: number;
  /** Grid cells visited (tested against the star's pending regions), summed over sites, and the
   * most one site visited. */
  cellsVisited: number;
  maxCellsVisited: number;
  /** Finality checks (each recomputes the pending conflict regions of a star, O(star × hull) for
   * half-plane regions), summed over sites, and the most of one site. */
  finalChecks: number;
  maxFinalChecks: number;
  /** Cheap finality checks of an unchanged star (its pending regions narrowed), summed over sites. */
  finalNarrowings: number;
  /** Sites that searched more than 4 rings (the tail of the work). */
  farSites: number;
  /** Stars the first pass handed to the tail pass (a workgroup a star). */
  tailSites: number;
  /** Half-plane conflict regions computed, and those clipped by the hull (a loop over it each). */
  halfPlanes: number;
  hullClips: number;
  /** Insertion steps past the float regions (exact tests, then maybe an edit), summed over sites. */
  exactSteps: number;
  /** Insertions that changed a star of three or more entries, summed over sites. */
  edits: number;
  /**
   * Stars the first pass by lanes handed to the per-thread pass: a tie or near-tie its floats
   * could not decide (cocircular or collinear sites).
   */
  tiedSites: number;
  /** Finite incircle tests, and the fraction the float filter could not decide. */
  incircleTests: number;
  exactFraction: number;
  /** Wall time of the hull round trip (extremes, filter, compaction, readback, chain, upload), ms. */
  hullMs: number;
  /** Wall time of recording the main submission (buckets to twins), ms. */
  encodeMs: number;
  /** Wall time from the main submission to its statistics in host memory (GPU work and mapping), ms. */
  resultMs: number;
  /**
   * The faithful-representation guard (adr/0020): triangles and hull turns touching a site the
   * grid rounds, and those of them its float bound left to the host's exact decision.
   */
  guard?: { touched: number; uncertain: number };
}

/** A GPU Delaunay stage: the pipeline's {@link DelaunayStage} plus what happened. */
export interface GpuDelaunayResult {
  stage: DelaunayStage;
  stats: DelaunayGpuStats;
}
