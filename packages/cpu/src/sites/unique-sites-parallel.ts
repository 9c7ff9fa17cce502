import { type Box, boxOfXY, type UniqueSites, uniqueSites } from '@geoframe/core';
import { availableThreads, preparedFloat64Array, runRanges, toShared } from '../workers/worker-pool.js';

/** Below this many sites one thread removes duplicates (starting workers costs more). */
const PARALLEL_FROM = 1 << 16;

/**
 * `uniqueSites(xy)` (exact duplicates removed, first appearances kept in input order; −0 equals
 * 0) on worker threads, plus the sites' bounding box. Three parallel passes (see
 * first-occurrences.ts): hash the sites and count them per bucket (the hash's top bits), scatter
 * them into their buckets, find each one's first appearance in its bucket with a small table;
 * one pass on this thread then numbers the first appearances in input
 * order — or, when nothing repeats (the common case), the sites are their own unique sites and
 * the numbering is the identity, one array for both maps (unless a coordinate is −0, which the
 * kept sites hold as 0). The result equals `uniqueSites`'s; `xy` may be the caller's
 * array itself (shared, or copied onto a SharedArrayBuffer) when no site repeats.
 * Sites must be finite. Below 65,536 sites, without worker threads or SharedArrayBuffer, it is
 * `uniqueSites` on this thread.
 */
export async function uniqueSitesParallel(xy: Float64Array): Promise<UniqueSites & { box: Box }> {
  const n = xy.length >> 1;
  const threads = await availableThreads();
  if (threads < 2 || n < PARALLEL_FROM || typeof SharedArrayBuffer === 'undefined') {
    const unique = uniqueSites(xy);
    return { ...unique, box: boxOfXY(unique.xy) };
  }
  const shared = await sharedSites(xy);
  // about 512 sites a bucket: its table fits the L1 cache
  const bits = Math.max(4, Math.min(16, Math.floor(Math.log2(n / 512))));
  const buckets = 1 << bits;
  const hashes = new Int32Array(new SharedArrayBuffer(4 * n));
  const shares = (await runRanges('hashSites', threads, threads, [
    shared,
    hashes,
    bits,
    threads,
  ])) as Float64Array[];
  // bucket b starts after the buckets before it; share r of it after the shares before r
  const bucketStart = new Int32Array(new SharedArrayBuffer(4 * (buckets + 1)));
  const starts = new Int32Array(new SharedArrayBuffer(4 * threads * buckets));
  let at = 0;
  for (let b = 0; b < buckets; b++) {
    bucketStart[b] = at;
    for (let r = 0; r < threads; r++) {
      starts[r * buckets + b] = at;
      at += shares[r][b];
    }
  }
  bucketStart[buckets] = at;
  const order = new Int32Array(new SharedArrayBuffer(4 * n));
  const orderHash = new Int32Array(new SharedArrayBuffer(4 * n));
  await runRanges('scatterSites', threads, threads, [hashes, order, orderHash, starts, bits, threads]);
  // the first appearances over the hashes' buffer, no longer needed
  const firstOf = hashes;
  const counts = (await runRanges('firstOccurrences', threads, threads, [
    shared,
    order,
    orderHash,
    bucketStart,
    firstOf,
    threads,
  ])) as number[];
  const repeated = counts.reduce((sum, c) => sum + c, 0);
  let negativeZeros = 0;
  const box: Box = {
    minX: Number.POSITIVE_INFINITY,
    minY: Number.POSITIVE_INFINITY,
    maxX: Number.NEGATIVE_INFINITY,
    maxY: Number.NEGATIVE_INFINITY,
  };
  for (const share of shares) {
    const [minX, minY, maxX, maxY, z] = share.subarray(buckets);
    box.minX = Math.min(box.minX, minX);
    box.minY = Math.min(box.minY, minY);
    box.maxX = Math.max(box.maxX, maxX);
    box.maxY = Math.max(box.maxY, maxY);
    negativeZeros += z;
  }
  // the sites as they are, unless some repeat or a −0 must become 0 (uniqueSites' output); the
  // identity then serves as both maps (one array: read them, never write them)
  if (repeated === 0 && negativeZeros === 0) {
    const identity = order;
    for (let i = 0; i < n; i++) identity[i] = i;
    return { xy: shared, siteOfInput: identity, inputOfSite: identity, box };
  }
  const siteOfInput = new Int32Array(n);
  const count = n - repeated;
  const kept = new Float64Array(2 * count);
  const inputOfSite = new Int32Array(count);
  let next = 0;
  for (let i = 0; i < n; i++) {
    const f = firstOf[i];
    if (f !== i) {
      // an earlier site, already numbered
      siteOfInput[i] = siteOfInput[f];
      continue;
    }
    // + 0 turns −0 into 0, as uniqueSites keeps it
    kept[2 * next] = shared[2 * i] + 0;
    kept[2 * next + 1] = shared[2 * i + 1] + 0;
    inputOfSite[next] = i;
    siteOfInput[i] = next++;
  }
  return { xy: kept, siteOfInput, inputOfSite, box };
}

/**
 * `xy` on shared memory, for the workers to read in place: itself when it is there, else a copy
 * whose pages the workers map first (a fresh 160 MB array faulted in by the one copy into it
 * costs several times the copy).
 */
async function sharedSites(xy: Float64Array): Promise<Float64Array> {
  if (xy.buffer instanceof SharedArrayBuffer) return xy;
  const prepared = await preparedFloat64Array(xy.length);
  if (!(prepared.buffer instanceof SharedArrayBuffer)) return toShared(xy);
  prepared.set(xy);
  return prepared;
}
