import { availableThreads, runRanges, toShared } from '../workers/worker-pool.js';
import { firstBadRings } from './ring-pass-kernels.js';

/**
 * Fewest rings for which the output passes go to worker threads; the coordinates must also lie
 * on a SharedArrayBuffer already (the GPU's output array does): copying 100 MiB there would cost
 * more than the pass.
 */
export const RING_PASSES_PARALLEL_FROM = 1 << 15;

/** Rings as the Voronoi engines return them. */
export interface RingBuffers {
  coords: Float64Array;
  ringOffsets: Int32Array;
}

/** The threads for a pass over `rings`, or 1 where it stays on this thread. */
async function threadsFor(rings: RingBuffers): Promise<number> {
  const count = rings.ringOffsets.length - 1;
  if (count < RING_PASSES_PARALLEL_FROM || !(rings.coords.buffer instanceof SharedArrayBuffer)) return 1;
  return availableThreads();
}

/**
 * The first ring that fails the output check (a coordinate not finite, not closed, fewer than 4
 * points; 0 points allowed with `allowEmpty`), or −1 — over worker threads for a large output on
 * shared memory, else on this thread. The caller builds the error (the serial check's message).
 */
export async function firstBadRing(rings: RingBuffers, allowEmpty = false): Promise<number> {
  const threads = await threadsFor(rings);
  const offsets = threads > 1 ? toShared(rings.ringOffsets) : rings.ringOffsets;
  const found =
    threads > 1
      ? ((await runRanges('firstBadRings', threads, threads, [
          rings.coords,
          offsets,
          threads,
          allowEmpty,
        ])) as number[][])
      : [firstBadRings(0, 1, rings.coords, offsets, 1, allowEmpty)];
  for (const share of found) for (const r of share) if (r >= 0) return r;
  return -1;
}

/**
 * The rings without repeated consecutive points (a point equal to the one before it in its
 * ring), every ring still closed — the input itself when nothing repeats — and the first ring of
 * the result that fails the output check (as {@link firstBadRing}, −1 for none), found in the same
 * pass. The same rings as a serial pass, counted and compacted on worker threads; null for an
 * output this thread should take (small, or not on shared memory).
 */
export async function withoutRepeatsParallel<T extends RingBuffers>(
  rings: T,
): Promise<{ rings: T; firstBad: number } | null> {
  const threads = await threadsFor(rings);
  if (threads < 2) return null;
  const offsets = toShared(rings.ringOffsets);
  const shares = (await runRanges('countRepeats', threads, threads, [
    rings.coords,
    offsets,
    threads,
  ])) as number[][][];
  return compactShares(rings, offsets, threads, shares);
}

/**
 * {@link withoutRepeatsParallel} for rings given as vertex indices (the GPU's indexed emit): the
 * coordinates written into `out` (shared memory, as the vertices, indices and offsets) in the
 * pass that counts the repeats and checks the rings. Null where it should run on this thread
 * (small, or not on shared memory).
 */
export async function expandWithoutRepeatsParallel(
  rings: { vertices: Float64Array; index: Uint32Array; ringOffsets: Int32Array },
  out: Float64Array,
): Promise<{ rings: RingBuffers; firstBad: number } | null> {
  const count = rings.ringOffsets.length - 1;
  if (count < RING_PASSES_PARALLEL_FROM || !allShared([rings.vertices, rings.index, rings.ringOffsets, out]))
    return null;
  const threads = await availableThreads();
  if (threads < 2) return null;
  const shares = (await runRanges('expandCountRepeats', threads, threads, [
    rings.vertices,
    rings.index,
    rings.ringOffsets,
    threads,
    out,
  ])) as number[][][];
  return compactShares({ coords: out, ringOffsets: rings.ringOffsets }, rings.ringOffsets, threads, shares);
}

/** The rings less the repeats each share counted (compacted on worker threads when any). */
async function compactShares<T extends RingBuffers>(
  rings: T,
  offsets: Int32Array,
  threads: number,
  shares: number[][][],
): Promise<{ rings: T; firstBad: number }> {
  const repeats = shares.map((share) => share[0][0]);
  const firstBad = shares.map((share) => share[0][1]).find((r) => r >= 0) ?? -1;
  const total = repeats.reduce((sum, r) => sum + r, 0);
  if (total === 0) return { rings, firstBad };
  // item i starts where the rings before it end, less their repeats
  const starts = new Int32Array(new SharedArrayBuffer(4 * threads));
  const count = offsets.length - 1;
  for (let i = 0, dropped = 0; i < threads; i++) {
    starts[i] = offsets[Math.round((count * i) / threads)] - dropped;
    dropped += repeats[i];
  }
  const points = offsets[count] - total;
  const out = new Float64Array(new SharedArrayBuffer(16 * points));
  const outOffsets = new Int32Array(new SharedArrayBuffer(4 * (count + 1)));
  await runRanges('dropRepeats', threads, threads, [rings.coords, offsets, threads, out, outOffsets, starts]);
  return { rings: { ...rings, coords: out, ringOffsets: outOffsets }, firstBad };
}

/** Chunks of rings {@link copyRingsCounted} copies, each then counted and checked by workers. */
const COPY_CHUNKS = 16;

/**
 * Copies `source` (e.g. a GPU mapping, readable on this thread only) into `out` (shared memory)
 * chunk by chunk, and after each chunk starts worker threads counting its rings' repeated
 * points and checking them ({@link countRepeats}'s answer), so that the pass runs while this
 * thread copies the rest. Every read of `source` is done when the returned promise resolves,
 * with the counts still on their way (`counts`: the repeats and the first bad ring, −1 for none).
 * Null (the copy done, nothing counted) where it stays on this thread: small, or not on shared
 * memory.
 */
export async function copyRingsCounted(
  source: Float64Array,
  out: Float64Array,
  ringOffsets: Int32Array,
): Promise<{ counts: Promise<{ repeats: number; firstBad: number }> } | null> {
  const count = ringOffsets.length - 1;
  const threads =
    count >= RING_PASSES_PARALLEL_FROM && allShared([out, ringOffsets]) ? await availableThreads() : 1;
  if (threads < 2) {
    out.set(source.subarray(0, out.length));
    return null;
  }
  const jobs: Promise<unknown[]>[] = [];
  for (let c = 0; c < COPY_CHUNKS; c++) {
    const first = Math.round((count * c) / COPY_CHUNKS);
    const end = Math.round((count * (c + 1)) / COPY_CHUNKS);
    const a = 2 * ringOffsets[first];
    const b = 2 * ringOffsets[end];
    out.set(source.subarray(a, b), a);
    jobs.push(runRanges('countRepeats', threads, threads, [out, ringOffsets, threads, first, end, 1]));
    // one microtask turn: the pool posts the chunk's ranges to the workers before the next copy
    await Promise.resolve();
  }
  const counts = Promise.all(jobs).then((done) => {
    let repeats = 0;
    let firstBad = -1;
    // per chunk, per thread's range (one item each): [repeats, first bad ring]
    for (const shares of done as number[][][][]) {
      for (const [[own, bad]] of shares) {
        repeats += own;
        if (firstBad < 0 && bad >= 0) firstBad = bad;
      }
    }
    return { repeats, firstBad };
  });
  return { counts };
}

/** Whether every array lies on a SharedArrayBuffer (false where there is none: a page that is not
 *  cross-origin isolated). */
function allShared(arrays: ArrayBufferView[]): boolean {
  return (
    typeof SharedArrayBuffer !== 'undefined' && arrays.every((a) => a.buffer instanceof SharedArrayBuffer)
  );
}
