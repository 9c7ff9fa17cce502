/**
 * The tail-counts buffer, by name: what the passes that hand stars on count, and the indirect
 * arguments (x, y, z workgroups) of the passes they hand them to. One table for both sides: the
 * WGSL reads and writes its words through the `TAIL_*` / `TIED_*` constants
 * ({@link TAIL_COUNTS_WGSL}), the host binds and copies them at {@link tailCountsOffset}.
 */
export const TAIL_COUNTS = {
  /** Stars on the tail list (the cooperative tail pass takes them). */
  tailStars: 0,
  /** The tail pass's indirect arguments: x raised by the passes that append, y = z = 1. */
  tailArgs: 3,
  /** Stars the first pass by lanes handed to the per-thread pass (a float tie). */
  tiedStars: 6,
  /** The per-thread pass's indirect arguments, likewise. */
  tiedArgs: 9,
} as const;

/** Words of the tail-counts buffer. */
export const TAIL_COUNTS_WORDS = 12;

/** The byte offset of a word of the tail-counts buffer (an indirect dispatch's or a copy's). */
export function tailCountsOffset(word: keyof typeof TAIL_COUNTS): number {
  return 4 * TAIL_COUNTS[word];
}

/** The buffer's first contents: counts 0, indirect arguments (0, 1, 1). */
export function initialTailCounts(): Uint32Array {
  const words = new Uint32Array(TAIL_COUNTS_WORDS);
  for (const args of [TAIL_COUNTS.tailArgs, TAIL_COUNTS.tiedArgs]) words.set([0, 1, 1], args);
  return words;
}

/** The word indices as WGSL constants. */
export const TAIL_COUNTS_WGSL = /* wgsl */ `const TAIL_STARS: u32 = ${TAIL_COUNTS.tailStars}u;
const TAIL_ARGS_X: u32 = ${TAIL_COUNTS.tailArgs}u;
const TIED_STARS: u32 = ${TAIL_COUNTS.tiedStars}u;
const TIED_ARGS_X: u32 = ${TAIL_COUNTS.tiedArgs}u;`;
