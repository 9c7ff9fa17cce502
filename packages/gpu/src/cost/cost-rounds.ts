import { GeoframeError } from '@geoframe/core';
import { createBufferChecked } from '../runtime/buffers.js';
import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { type BoundBuffers, bindingEntries, groupEntry } from '../runtime/kernel-bindings.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage } from '../runtime/usage.js';
import type { CostSetup } from './cost-setup.js';
import { COST_PARAM_WORDS, MAX_BATCH, TAIL, TAIL_WORDS } from './cost-wgsl.js';

export { MAX_BATCH } from './cost-wgsl.js';

import { type Batch, type Recorder, readBatch, submitBatch } from './round-batches.js';
import type { TileMarks } from './tile-marks.js';
import type { TilePicks } from './tile-pick.js';
import { type RelaxPhase, TILE_RELAX_KERNEL } from './tile-relax-kernel.js';

/** Rounds in the first batch; later batches double up to {@link MAX_BATCH}. */
export const FIRST_BATCH = 8;

/** The device buffers every pass binds. */
export interface CostBuffers {
  values: GPUBuffer;
  dist: GPUBuffer;
  labels: GPUBuffer;
  hops: GPUBuffer | null;
  sources: GPUBuffer;
  /** Per tile, the ordered cost pass's key (f32 bits of a cost; cost-order.ts). */
  keys: GPUBuffer;
  /** The phase's words: `changed` per round, `flat`, counters, the round (cost-wgsl.ts' TAIL). */
  flags: GPUBuffer;
  /** The three rotating lists of tiles (cost-wgsl.ts' listWords). */
  lists: [GPUBuffer, GPUBuffer, GPUBuffer];
  /**
   * Four words (2³² − 1: none): the lowest cell with an invalid value, with an inconsistent
   * output, whose cost overflows f32, whose value is subnormal for the device (the GPU declines).
   */
  bad: GPUBuffer;
  /** The backlinks, four cells a word (with backlinks). */
  link: GPUBuffer | null;
  /**
   * Staging buffers for a batch's tail words: two per run of a phase (two batches may be in
   * flight, and a phase's last batch may still be mapping when the next phase starts).
   */
  tails: GPUBuffer[];
}

/** What one phase cost: rounds run (the last found nothing to change), batches (host round trips). */
export interface PhaseRounds {
  rounds: number;
  batches: number;
  gpuMs: number;
  /** Tile visits (workgroups that took a tile) and their local iterations, over all rounds. */
  visits: number;
  iterations: number;
  /** Ordered cost pass: listed tiles that waited for a later round (not counted in visits). */
  deferred: number;
  /**
   * The label pass from carried labels met a flat tight step (its fixed point may then not be
   * unique): it stopped early, and the caller runs the monotone label pass instead.
   */
  flat: boolean;
}

/** A phase that did not run. */
export const NONE_RUN: PhaseRounds = {
  rounds: 0,
  batches: 0,
  gpuMs: 0,
  visits: 0,
  iterations: 0,
  deferred: 0,
  flat: false,
};

/** The parameter block of every cost kernel. */
export async function roundParams(
  ctx: GpuContext,
  setup: CostSetup,
  inner: number,
  deltaBits: number,
): Promise<GPUBuffer> {
  const buffer = await createBufferChecked(ctx, {
    label: 'cost params',
    size: COST_PARAM_WORDS * 4,
    usage: BufferUsage.UNIFORM,
    mappedAtCreation: true,
  });
  const words = new Uint32Array(buffer.getMappedRange());
  words.set([...setup.size, setup.cells, ...setup.tiles, setup.maxCostBits, deltaBits, 0, inner]);
  words[12] = setup.sources.length;
  new Float32Array(words.buffer).set(setup.lens, 16);
  buffer.unmap();
  return buffer;
}

/** The relax kernel's buffers by name. */
type RelaxBuffers = BoundBuffers<typeof TILE_RELAX_KERNEL.bindings>;
/** The relax kernel's buffers but its three rotating lists. */
type PhaseBuffers = Omit<RelaxBuffers, 'list_a' | 'list_b' | 'list_c'>;

/** One bind group of the relax kernel over the phase's buffers (params and flags included). */
function bindGroup(
  ctx: GpuContext,
  pipeline: GPUComputePipeline,
  label: string,
  params: GPUBuffer,
  buffers: RelaxBuffers,
): GPUBindGroup {
  return ctx.device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: params } },
      ...bindingEntries(TILE_RELAX_KERNEL.bindings, buffers).map(groupEntry),
    ],
  });
}

/** The relax pass's buffers: values, costs, flags; labels where read; hops and sources for hops. */
function relaxBuffers(
  phase: RelaxPhase,
  carry: boolean,
  ordered: boolean,
  buffers: CostBuffers,
): PhaseBuffers {
  return {
    values: buffers.values,
    dist: buffers.dist,
    flags: buffers.flags,
    ...(phase !== 'cost' || carry ? { labels: buffers.labels } : {}),
    ...(phase === 'hops' ? { hops: buffers.hops!, sources: buffers.sources } : {}),
    ...(ordered ? { keys: buffers.keys } : {}),
  };
}

/** The three bind groups of a phase: round r uses group r % 3 (reads list r % 3, fills r + 1, empties r + 2). */
function rotatingGroups(
  ctx: GpuContext,
  pipeline: GPUComputePipeline,
  label: string,
  params: GPUBuffer,
  buffers: PhaseBuffers,
  lists: readonly GPUBuffer[],
): GPUBindGroup[] {
  return [0, 1, 2].map((k) =>
    bindGroup(ctx, pipeline, `${label} ${k}`, params, {
      ...buffers,
      list_a: lists[k] as GPUBuffer,
      list_b: lists[(k + 1) % 3] as GPUBuffer,
      list_c: lists[(k + 2) % 3] as GPUBuffer,
    }),
  );
}

/** How the relax kernel takes this round's tiles and lists the next round's (kept to compare them). */
export interface RelaxKernelOptions {
  marks: TileMarks;
  picks: TilePicks;
  /** Most workgroups a round (default {@link ROUND_WORKGROUPS}; fewer only in tests). */
  workgroups?: number;
}

/** How a phase runs: labels carried (see TileRelaxConstants.carry), batches overlapped. */
export interface PhaseOptions {
  carry: boolean;
  /**
   * Record and submit the next batch before reading the current one's `changed` words, so the
   * GPU never waits for the host between batches (the batch after the last is empty
   * dispatches). Default of the engine; off only to measure what it saves.
   */
  overlap: boolean;
  /** Which pair of {@link CostBuffers.tails} this run of a phase uses (each run its own). */
  slot: number;
  /**
   * The first round's list (default: every tile). Ordered (cost pass only): these tiles start
   * with key 0, every other with +∞, and tiles run by key (cost-order.ts; Δ is in the params).
   */
  first?: Uint32Array;
  ordered?: boolean;
  /** How the relax kernel is built (tile-pick.ts, tile-marks.ts). */
  kernel: RelaxKernelOptions;
  /** Records a host event (tracing: what happened when). */
  mark?: (what: string) => void;
}

/**
 * Workgroups of a round (at most; each takes list entries in turn). A round is one direct
 * dispatch: the host records two calls a round (bind group, dispatch), where an indirect dispatch
 * over the list's length and a kernel between rounds to size it took six and cost the host
 * about 0.2 ms a round on the H200 (Dawn validates an indirect dispatch with one of its own).
 */
export const ROUND_WORKGROUPS = 2048;

/**
 * Runs one relax phase to its fixed point: the `first` tiles (default every tile) listed at
 * first; batches of rounds (one dispatch of {@link ROUND_WORKGROUPS} at most over the round's
 * list, all in one compute pass) until a round finds its list empty. The round count is bounded
 * by the cell count plus one (Bellman-Ford: a least-cost path has fewer steps than there are cells,
 * and each round extends every unfinished path by at least one step), so a run that goes past it
 * is a bug and throws rather than looping. `profilers`: two, used in turn (two batches may be in
 * flight).
 */
export async function runPhase(
  ctx: GpuContext,
  setup: CostSetup,
  phase: RelaxPhase,
  buffers: CostBuffers,
  params: GPUBuffer,
  profilers: [GpuProfiler, GpuProfiler] | null,
  options: PhaseOptions,
): Promise<PhaseRounds> {
  const connectivity = setup.connectivity;
  const carry = options.carry && phase !== 'hops';
  const ordered = options.ordered === true && phase === 'cost';
  const pipeline = await ctx.pipelines.get(TILE_RELAX_KERNEL, {
    connectivity,
    phase,
    carry: carry ? 1 : 0,
    ordered: ordered ? 1 : 0,
    marks: options.kernel.marks === 'parallel' ? 1 : 0,
    // parallel picks pay where tiles wait (the ordered pass); elsewhere every entry runs, and
    // taking runs of consecutive entries made the label pass visit 2.5× the tiles on the H200
    picks: ordered && options.kernel.picks === 'parallel' ? 1 : 0,
  });
  const tiles = setup.tiles[3];
  const groups = rotatingGroups(
    ctx,
    pipeline,
    `cost/${phase}`,
    params,
    relaxBuffers(phase, carry, ordered, buffers),
    buffers.lists,
  );
  const mark = options.mark ?? (() => {});
  mark(`${phase} pipeline and bind groups`);
  writeFirstLists(ctx, buffers, tiles, options.first ?? null, ordered);
  ctx.device.queue.writeBuffer(buffers.flags, 0, new Uint32Array(TAIL_WORDS));
  const wide = dispatchSize(
    Math.min(tiles, options.kernel.workgroups ?? ROUND_WORKGROUPS),
    ctx.limits.maxComputeWorkgroupsPerDimension,
  ) as [number, number];
  mark(`${phase} lists written`);
  const stagings = buffers.tails.slice(2 * options.slot, 2 * options.slot + 2);
  if (stagings.length < 2) throw new RangeError(`no staging buffers for phase run ${options.slot}`);
  const recorder: Recorder = {
    ctx,
    label: `cost/${phase}`,
    flags: buffers.flags,
    pipeline,
    groups,
    wide,
    stagings,
    profilers,
    mark,
    submitted: 0,
    recorded: 0,
  };
  const submit = (size: number) => submitBatch(recorder, size);
  const read = (batch: Batch) => readBatch(ctx, batch);
  // ordered, a round may run only the least-key tiles: the bound is a guard, not a proof
  const limit = (setup.cells + 2) * (ordered ? 8 : 1);
  const out: PhaseRounds = { ...NONE_RUN };
  let ahead: Batch | null = null;
  try {
    ctx.assertUsable();
    let current = submit(FIRST_BATCH);
    for (;;) {
      const size = Math.min(MAX_BATCH, current.size * 2);
      ahead = options.overlap ? submit(size) : null;
      const { tail, gpuMs } = await read(current);
      out.gpuMs += gpuMs;
      out.batches++;
      out.visits = tail[TAIL.visits];
      out.iterations = tail[TAIL.iterations];
      out.deferred = tail[TAIL.deferred];
      mark(`${phase} batch read`);
      // the first round of the batch whose list was empty: the rounds before it were the last
      let quiet = -1;
      for (let j = 0; j < current.size && quiet < 0; j++)
        if (tail[(current.first + j) % MAX_BATCH] === 0) quiet = j;
      // a flat tight step is seen in the first round (every tile, every cell): stop at once
      out.flat = carry && phase === 'label' && tail[TAIL.flat] !== 0;
      if (quiet >= 0 || out.flat) {
        out.rounds += quiet >= 0 ? quiet : current.size;
        break;
      }
      out.rounds += current.size;
      if (out.rounds > limit) {
        // the watchdog's code for a kernel loop at its bound: a CPU run may answer instead
        throw new GeoframeError(
          'GPU_LOOP_LIMIT',
          `cost/${phase}: no fixed point after ${out.rounds} rounds (bound ${limit})`,
        );
      }
      ctx.assertUsable();
      current = ahead ?? submit(size);
      ahead = null;
    }
    if (ahead && profilers) {
      // a profiled run reads the batch in flight too (its profiler must be read before reuse)
      out.gpuMs += (await read(ahead)).gpuMs;
      ahead = null;
    }
    return out;
  } finally {
    // a batch still in flight (empty rounds after the fixed point) is not read: its mapping
    // ends when the buffers are destroyed (the next phase runs on other staging buffers)
    ahead?.mapped.catch(() => {});
  }
}

const INF_BITS = 0x7f800000;

/**
 * The phase's first lists: list 0 holds `first` (default every tile) with least key 0 (the seeded
 * tiles' keys; ordered, the first threshold is then Δ), lists 1 and 2 are empty; with `ordered`,
 * the keys of the listed tiles 0, of the others +∞. Only what is read is written: list 0's flags,
 * its listed entries and its two words; lists 1 and 2's flags are cleared on the device (entries
 * past a list's length are never read), which saves the host most of the bytes on large grids.
 */
function writeFirstLists(
  ctx: GpuContext,
  buffers: CostBuffers,
  tiles: number,
  first: Uint32Array | null,
  ordered: boolean,
): void {
  const { queue } = ctx.device;
  const clear = ctx.device.createCommandEncoder({ label: 'cost/empty lists' });
  clear.clearBuffer(buffers.lists[1], 0, tiles * 4);
  clear.clearBuffer(buffers.lists[2], 0, tiles * 4);
  queue.submit([clear.finish()]);
  const listed = first ? first.length : tiles;
  const head = new Uint32Array(tiles + listed);
  for (let k = 0; k < listed; k++) {
    const t = first ? first[k] : k;
    head[t] = 1;
    head[tiles + k] = t;
  }
  queue.writeBuffer(buffers.lists[0], 0, head);
  queue.writeBuffer(buffers.lists[0], 2 * tiles * 4, Uint32Array.of(listed, 0));
  for (const k of [1, 2]) queue.writeBuffer(buffers.lists[k], 2 * tiles * 4, Uint32Array.of(0, INF_BITS));
  if (ordered) {
    const keys = new Uint32Array(tiles).fill(INF_BITS);
    for (let k = 0; k < listed; k++) keys[first ? first[k] : k] = 0;
    queue.writeBuffer(buffers.keys, 0, keys);
  }
}
