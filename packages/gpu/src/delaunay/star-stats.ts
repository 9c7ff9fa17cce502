/**
 * The statistics words of the star passes, by name: one table read by both sides, so the WGSL
 * (`STAT_*` constants, see {@link STAR_STATS_CONSTANTS_WGSL}) and the host's decoding
 * ({@link readStarStats}) never count words by hand. Each is summed over sites unless it is a
 * maximum ({@link STAR_STATS_MAXIMA}).
 */
export const STAR_STATS = {
  /** Stars not final (a fallback reason). */
  failedSites: 0,
  /** Rings searched, summed over sites. */
  rings: 1,
  /** Most rings one site searched. */
  maxRing: 2,
  /** Conflict (incircle) tests. */
  incircleTests: 3,
  /** Tests the float filter did not decide. */
  undecidedTests: 4,
  /** Candidates examined. */
  candidates: 5,
  /** Sites whose star disagrees with a neighbour's (written by the count kernel). */
  disagreeingSites: 6,
  /** Most candidates of one site. */
  maxCandidates: 7,
  /** Sites that searched more than 4 rings. */
  farSites: 8,
  /** Grid cells visited (tested against the pending regions). */
  cellsVisited: 9,
  /** Most cells one site visited. */
  maxCellsVisited: 10,
  /** Finality checks (each recomputes the star's pending regions). */
  finalChecks: 11,
  /** Most finality checks of one site. */
  maxFinalChecks: 12,
  /** Cheap finality checks of an unchanged star (narrowing its pending regions). */
  finalNarrowings: 13,
  /** Sites handed from the first pass to the cooperative tail pass. */
  tailSites: 14,
  /** Half-plane conflict regions computed. */
  halfPlanes: 15,
  /** Half-plane regions clipped by the hull (a loop over the hull's vertices each). */
  hullClips: 16,
  /** Exact steps of an insertion (candidates the float regions let through). */
  exactSteps: 17,
  /** Edits of a star (insertions that changed it). */
  edits: 18,
  /** Stars the first pass by lanes handed to the per-thread pass (a float tie). */
  tiedSites: 19,
} as const;

/** The name of a statistics word. */
export type StarStat = keyof typeof STAR_STATS;

/** The words that hold a maximum over sites (the others hold sums). */
export const STAR_STATS_MAXIMA: readonly StarStat[] = [
  'maxRing',
  'maxCandidates',
  'maxCellsVisited',
  'maxFinalChecks',
];

/** Words of the statistics buffer. */
export const STAR_STATS_WORDS = Object.keys(STAR_STATS).length;

const constantName = (name: string) => `STAT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** The WGSL constant naming a statistics word, e.g. `STAT_MAX_RING`. */
export function statWgsl(name: StarStat): string {
  return constantName(name);
}

/** One WGSL constant per statistics word (`const STAT_FAILED_SITES: u32 = 0u;` …). */
export const STAR_STATS_CONSTANTS_WGSL = Object.entries(STAR_STATS)
  .map(([name, word]) => `const ${constantName(name)}: u32 = ${word}u;`)
  .join('\n');

/** The statistics buffer's words, by name. */
export function readStarStats(words: Uint32Array): Record<StarStat, number> {
  const out = {} as Record<StarStat, number>;
  for (const [name, word] of Object.entries(STAR_STATS)) out[name as StarStat] = words[word];
  return out;
}
