// Cost of one Delaunay predicate evaluation on the GPU, by the path that decides it: the float
// filter, the lattice-tie fast paths (f32-exact, 32/64-bit), the wide exact paths (128-bit orient,
// 256-bit incircle) and incircle_sos on lattice squares (a tie plus one orientation). Each batch
// of N cases is dispatched with each thread evaluating the predicate R times (arguments rotated:
// same answer, nothing folds); the cost per evaluation is the time difference between R = 17 and
// R = 1 over 16N, so transfers, dispatch and the batch's I/O cancel. Each repetition reloads its
// inputs, so the last column subtracts the same difference for a kernel that only loads them.
// Every batch's paths are checked (at least 99 % on the named path; random inputs can be nearly
// degenerate) before it is timed.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/delaunay-predicates.ts`, then
//   node .gpu/bundle/delaunay-predicates.mjs [--small] [--runs N] [--warmup N]
// N = 1e5 (`--small`: 1e4).

import { fixedGrid, fixedSiteBigInt } from '../../packages/gpu/src/exact/fixed-grid.js';
import type { GpuContext } from '../../packages/gpu/src/index.js';
import {
  evalPredicates,
  IN_WORDS,
  type PredicateOp,
} from '../../packages/gpu/test/delaunay-predicates-harness.js';
import { type BigPoint, putPoint, RandomBig } from '../../packages/gpu/test/fixed-reference.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import { createBenchContext, describeDevice, markdownTable, parseBenchArgs } from './bench-harness.js';

const args = parseBenchArgs();
const n = args.small ? 10_000 : 100_000;
const random = new RandomBig(1);

// the 1e7-offset lattice through the Voronoi grid (spacing 2^34 grid units)
const side = 1000;
const grid = fixedGrid(generatePoints('lattice-offset', side * side), {
  minX: 1e7 - 1,
  minY: 1e7 - 1,
  maxX: 1e7 + side,
  maxY: 1e7 + side,
});
const at = (i: number, j: number): BigPoint => fixedSiteBigInt(grid, j * side + i);
const cell = () => [random.int(side - 20), random.int(side - 20)];

// Pythagorean triple circle (radius 5²·13·17·29·37) scaled to about 2^56: exact ties of 256 bits
const R = 5n * 5n * 13n * 17n * 29n * 37n;
const circle: BigPoint[] = [];
for (let m = 1n; m < 60n; m++)
  for (let k = 1n; k < m; k++)
    if (R % (m * m + k * k) === 0n) {
      const f = R / (m * m + k * k);
      circle.push([f * (m * m - k * k), f * 2n * m * k], [-f * 2n * m * k, f * (m * m - k * k)]);
    }

interface Family {
  name: string;
  op: PredicateOp;
  path: number | null; // the path every case must take (null: not reported by the op)
  make: () => BigPoint[];
  indices?: boolean;
}

const families: Family[] = [
  {
    name: 'orient, filter (random 58-bit)',
    op: 'orient',
    path: 0,
    make: () => [0, 1, 2].map(() => [random.signed(58), random.signed(58)] as BigPoint),
  },
  {
    name: 'orient, lattice tie (f32 exact)',
    op: 'orient',
    path: 1,
    make: () => {
      const [x, y] = cell();
      return [at(x, y), at(x + 3, y + 1), at(x + 6, y + 2)];
    },
  },
  {
    name: 'orient, collinear span 30 (64-bit)',
    op: 'orient',
    path: 1,
    make: () => {
      const a: BigPoint = [random.signed(40), random.signed(40)];
      const d: BigPoint = [random.signed(14) | 1n, random.signed(14)];
      return [a, [a[0] + d[0], a[1] + d[1]], [a[0] - (1n << 15n) * d[0], a[1] - (1n << 15n) * d[1]]];
    },
  },
  {
    name: 'orient, collinear 57-bit (128-bit exact)',
    op: 'orient',
    path: 2,
    make: () => {
      const a: BigPoint = [random.signed(56), random.signed(56)];
      const d: BigPoint = [random.signed(28) | 1n, random.signed(28)];
      const k = random.signed(27);
      return [a, [a[0] + d[0], a[1] + d[1]], [a[0] + k * d[0], a[1] + k * d[1]]];
    },
  },
  {
    name: 'incircle, filter (random 58-bit)',
    op: 'incircle',
    path: 0,
    make: () => [0, 1, 2, 3].map(() => [random.signed(58), random.signed(58)] as BigPoint),
  },
  {
    name: 'incircle, lattice square tie (f32 exact)',
    op: 'incircle',
    path: 1,
    make: () => {
      const [x, y] = cell();
      return [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)];
    },
  },
  {
    name: 'incircle, lattice rectangle tie, span ≤ 14 (64-bit)',
    op: 'incircle',
    path: 1,
    make: () => {
      const [x, y] = [random.int(side / 2), random.int(side / 2)];
      const w = 100 + random.int(side / 2 - 100);
      const h = 1 + random.int(side / 2 - 1);
      return [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)];
    },
  },
  {
    name: 'incircle, cocircular 2^56 tie (256-bit exact)',
    op: 'incircle',
    path: 2,
    make: () => {
      const scale = 1n << 33n;
      const picked = new Set<number>();
      while (picked.size < 4) picked.add(random.int(circle.length));
      return [...picked].map((k) => [scale * circle[k][0], scale * circle[k][1]] as BigPoint);
    },
  },
  {
    name: 'incircle_sos, lattice square (tie + 1 orient)',
    op: 'incircle-sos',
    path: null,
    indices: true,
    make: () => {
      const [x, y] = cell();
      return [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)];
    },
  },
  {
    name: 'copy (I/O only)',
    op: 'copy',
    path: null,
    make: () => [0, 1, 2, 3].map(() => [random.signed(58), random.signed(58)] as BigPoint),
  },
];

function batch(family: Family): Uint32Array {
  const words = IN_WORDS[family.op];
  const input = new Uint32Array(n * words);
  for (let i = 0; i < n; i++) {
    const points = family.make();
    points.forEach((p, k) => {
      putPoint(input, i * words + 4 * k, p);
    });
    if (family.indices) for (let k = 0; k < 4; k++) input[i * words + 16 + k] = random.int(1 << 30);
  }
  return input;
}

async function main(ctx: GpuContext): Promise<void> {
  console.log(`${describeDevice(ctx)}; N = ${n}, median of ${args.runs} runs`);
  const rows: (string | number)[][] = [];
  for (const family of families) {
    const input = batch(family);
    const once = await evalPredicates(ctx, family.op, input, 1, args.warmup + args.runs);
    let onPath = n;
    if (family.path !== null) {
      onPath = 0;
      for (let i = 0; i < n; i++) if (once.out[2 * i + 1] === family.path) onPath++;
      if (onPath < 0.99 * n)
        throw new Error(`${family.name}: only ${onPath} of ${n} cases took path ${family.path}`);
    }
    const many = await evalPredicates(ctx, family.op, input, 17, args.warmup + args.runs);
    const ns = ((many.ms - once.ms) / (16 * n)) * 1e6;
    rows.push([family.name, (100 * onPath) / n, once.ms, many.ms, ns]);
  }
  // each repetition reloads its inputs from storage: the copy row is that cost alone
  const copyNs = Number(rows[rows.length - 1][4]);
  for (const row of rows) row.push(Number(row[4]) - copyNs);
  console.log(
    markdownTable(
      ['case', '% on its path', 'R = 1 (ms)', 'R = 17 (ms)', 'ns / evaluation', 'net of copy (ns)'],
      rows,
    ),
  );
}

const ctx = await createBenchContext();
try {
  await main(ctx);
} finally {
  ctx.destroy();
}
