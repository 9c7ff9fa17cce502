import { bucketSites } from './exact-buckets.js';
import { TIE_CANDIDATES } from './exact-gpu-kernels.js';
import { redecideFromCandidates, redecideNearTies } from './near-ties-cpu.js';
import { type RasterPlan, type RasterResult, TIE_PREFIX } from './raster-plan.js';

/** What a run's one mapping brought back besides the labels and distances. */
export interface RasterReadback {
  /** Facet-JFA's per-level counts, else null. */
  counts: Uint32Array | null;
  /** 'exact': near-ties found, and how many of them are listed with their candidates. */
  tieCount: number;
  listed: number;
  /** 'exact': unique sites (duplicates removed on the GPU). */
  unique: number;
  ties: Uint32Array;
  candidateCount: Uint32Array;
  candidates: Uint32Array;
}

/**
 * Copies a run's results out of the mapped `range` (`parts` at `offsets`, as
 * `RasterPlan.resultParts` lists them): labels and distances into the caller's arrays, the rest
 * (only as much as the counts say) into a {@link RasterReadback}.
 */
export function copyResults(
  parts: readonly RasterResult[],
  range: ArrayBuffer,
  offsets: readonly number[],
  out: { labels: Int32Array; distance?: Float32Array },
): RasterReadback {
  const pixels = out.labels.length;
  const got: RasterReadback = {
    counts: null,
    tieCount: 0,
    listed: 0,
    unique: 0,
    ties: new Uint32Array(0),
    candidateCount: new Uint32Array(0),
    candidates: new Uint32Array(0),
  };
  parts.forEach((part, k) => {
    const words = new Uint32Array(range, offsets[k], part.bytes / 4);
    if (part.kind === 'labels') out.labels.set(new Int32Array(range, offsets[k], pixels));
    else if (part.kind === 'distance') out.distance!.set(new Float32Array(range, offsets[k], pixels));
    else if (part.kind === 'counts') got.counts = words.slice();
    else if (part.kind === 'tie-count') {
      got.tieCount = Math.min(words[0], pixels);
      got.listed = Math.min(got.tieCount, TIE_PREFIX);
    } else if (part.kind === 'ties') got.ties = words.slice(0, got.listed);
    else if (part.kind === 'candidate-count') got.candidateCount = words.slice(0, got.listed);
    else if (part.kind === 'candidates') got.candidates = words.slice(0, got.listed * TIE_CANDIDATES);
    else got.unique = words[0];
  });
  return got;
}

/**
 * 'exact': re-decides the run's f32 near-ties in f64 — from the candidates the GPU listed, and
 * from host buckets for the rest (a pixel with more candidates than listed, near-ties past the
 * listed prefix; rare). Returns how many labels changed.
 */
export async function redecideExact(
  plan: RasterPlan,
  sites: Float64Array,
  got: RasterReadback,
  out: { labels: Int32Array; distance?: Float32Array; labelOf?: Int32Array | Uint32Array },
): Promise<number> {
  const overflow: number[] = [];
  const { setup } = plan;
  let changed = redecideFromCandidates(
    setup,
    sites,
    got.ties,
    got.candidateCount,
    got.candidates,
    TIE_CANDIDATES,
    out,
    overflow,
  );
  if (got.tieCount > got.listed) {
    for (const p of (await plan.readNearTies()).subarray(got.listed)) overflow.push(p);
  }
  if (overflow.length > 0) {
    const buckets = bucketSites(setup, sites);
    const rest = Uint32Array.from(overflow);
    changed += redecideNearTies(setup, sites, buckets, rest, out.labels, out.distance, out.labelOf);
  }
  return changed;
}
