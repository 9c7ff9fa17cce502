/** Lanes of a first-pass star (a warp's width on NVIDIA). */
export const STAR_LANES = 32;

/** Candidates the first pass's block of rings aims at (ADR 0013). */
const BLOCK_SITES = 45;

/**
 * Rings of cells the first pass takes around a site, for cells holding `sitesPerCell` sites on
 * average: the fewest (at least 1) whose block holds about {@link BLOCK_SITES}, enough for nearly
 * every uniform star to be final (a Delaunay circle through the site rarely reaches 3 spacings).
 */
export function laneRings(sitesPerCell: number): number {
  let r = 1;
  while ((2 * r + 1) ** 2 * sitesPerCell < BLOCK_SITES && r < 8) r++;
  return r;
}

/**
 * Candidates a first-pass star may take from rings 0..`rings` of cells of about `sitesPerCell`
 * sites: twice the expected count, a multiple of the lanes, at most 1024 (a denser block is taken
 * with fewer rings; one too dense even alone, a cluster, starts again in the tail pass).
 */
export function laneCandidates(rings: number, sitesPerCell: number): number {
  const expected = (2 * rings + 1) ** 2 * sitesPerCell;
  return Math.min(1024, Math.max(2 * STAR_LANES, Math.ceil((2 * expected) / STAR_LANES) * STAR_LANES));
}

/** Workgroup memory of a first-pass star of `candidates` candidates and `rows` rows, bytes. */
const slotBytes = (candidates: number, rows: number): number => 24 * candidates + 8 * rows + 48;

/**
 * Stars a first-pass workgroup builds together and the candidates each may take, within the
 * device's `workgroupBytes`: `wanted` stars (2 by default: a workgroup's barriers and latency are
 * shared, and the GPU's limit on resident workgroups holds twice the stars), fewer when their
 * memory does not fit, and with one star, fewer candidates (a multiple of the lanes; a denser
 * block is then taken with fewer rings).
 */
export function laneShape(
  wanted: number,
  candidates: number,
  rows: number,
  workgroupBytes: number,
): { slots: number; candidates: number } {
  const fits = (slots: number, k: number) => slots * slotBytes(k, rows) + 256 <= workgroupBytes;
  let slots = Math.max(1, Math.floor(wanted));
  while (slots > 1 && !fits(slots, candidates)) slots--;
  let k = candidates;
  while (k > STAR_LANES && !fits(1, k)) k -= STAR_LANES;
  return { slots, candidates: k };
}
