import { describe, expect } from 'vitest';
import { runCases } from './fixed-harness.js';
import {
  type BigPoint,
  type ClipCase,
  type ClipOutcome,
  circumcenterFixedReference,
  clipBisectorReference,
  getPoint,
  put64,
  putPoint,
  RandomBig,
} from './fixed-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

type BigBox = readonly [bigint, bigint, bigint, bigint];

const LIMIT = 1n << 57n; // keep sites and boxes a bit inside the grid's 2^58
const clamp = (v: bigint) => (v >= LIMIT ? LIMIT - 1n : v <= -LIMIT ? -LIMIT + 1n : v);

function inBox(p: BigPoint, box: BigBox): boolean {
  return p[0] >= box[0] && p[0] <= box[2] && p[1] >= box[1] && p[1] <= box[3];
}

/** An edge of site i's cell with j, its ends the circumcenters of (i, j, ka) and (i, j, kb). */
function edge(
  box: BigBox,
  si: BigPoint,
  sj: BigPoint,
  ka: BigPoint,
  kb: BigPoint,
  hasA = true,
  hasB = true,
): ClipCase {
  const end = (k: BigPoint) => {
    const r = circumcenterFixedReference(si, sj, k);
    if (r === null) return { p: [0n, 0n] as BigPoint, inside: false };
    return { p: r.p, inside: !r.far && inBox(r.p, box) };
  };
  const a = end(ka);
  const b = end(kb);
  return { si, sj, hasA, ka, a: a.p, aInside: hasA && a.inside, hasB, kb, b: b.p, bInside: hasB && b.inside };
}

/** The same edge seen from site j's cell. */
function swapped(c: ClipCase): ClipCase {
  return {
    si: c.sj,
    sj: c.si,
    hasA: c.hasB,
    ka: c.kb,
    a: c.b,
    aInside: c.bInside,
    hasB: c.hasA,
    kb: c.ka,
    b: c.a,
    bInside: c.aInside,
  };
}

/** Edges of every kind for one box. */
function casesFor(box: BigBox, random: RandomBig, count: number): { kind: string; c: ClipCase }[] {
  const [minX, minY, maxX, maxY] = box;
  const w = maxX - minX;
  const h = maxY - minY;
  let span = 1n; // the larger side, at least 1 (BigInt: no Math.max)
  if (w > span) span = w;
  if (h > span) span = h;
  const near = (): BigPoint => [
    clamp(minX - span + BigInt(Math.floor(random.next() * Number(3n * span)))),
    clamp(minY - span + BigInt(Math.floor(random.next() * Number(3n * span)))),
  ];
  const small = (): bigint => random.anyMagnitude(Math.max(1, span.toString(2).length - 2));
  const corners: BigPoint[] = [
    [minX, minY],
    [maxX, minY],
    [maxX, maxY],
    [minX, maxY],
  ];
  const out: { kind: string; c: ClipCase }[] = [];
  while (out.length < count) {
    const k = out.length % 8;
    if (k <= 1) {
      out.push({ kind: 'segment', c: edge(box, near(), near(), near(), near()) });
    } else if (k === 2) {
      const hasA = random.int(2) === 0;
      out.push({ kind: 'ray', c: edge(box, near(), near(), near(), near(), hasA, !hasA) });
    } else if (k === 3) {
      out.push({ kind: 'line', c: edge(box, near(), near(), near(), near(), false, false) });
    } else if (k === 4) {
      // bisector through a corner: the sites mirror each other about it
      const C = corners[random.int(4)];
      const v: BigPoint = [small(), small()];
      const si: BigPoint = [C[0] + v[0], C[1] + v[1]];
      const sj: BigPoint = [C[0] - v[0], C[1] - v[1]];
      out.push({
        kind: 'corner',
        c: edge(box, si, sj, near(), near(), random.int(3) > 0, random.int(3) > 0),
      });
    } else if (k === 5) {
      // bisector along a side (or a line parallel to it one unit away)
      const side = random.int(4);
      const off = BigInt(random.int(3) - 1);
      const t = near();
      const g = small() || 1n;
      const [si, sj]: BigPoint[] =
        side % 2 === 0
          ? [
              [t[0], (side === 0 ? minY : maxY) + off + g],
              [t[0], (side === 0 ? minY : maxY) + off - g],
            ]
          : [
              [(side === 1 ? maxX : minX) + off + g, t[1]],
              [(side === 1 ? maxX : minX) + off - g, t[1]],
            ];
      out.push({ kind: 'along', c: edge(box, si, sj, near(), near(), random.int(2) > 0, random.int(2) > 0) });
    } else if (k === 6) {
      // lattice of the box's size / 4: exact halves, vertices on corners and sides
      const step = span / 4n || 1n;
      const lat = (): BigPoint => [
        minX + step * BigInt(random.int(9) - 2),
        minY + step * BigInt(random.int(9) - 2),
      ];
      out.push({
        kind: 'lattice',
        c: edge(box, lat(), lat(), lat(), lat(), random.int(4) > 0, random.int(4) > 0),
      });
    } else {
      // far from the box: usually invisible
      const far = (): BigPoint => [clamp(maxX + span * 3n + small()), clamp(maxY + small())];
      out.push({
        kind: 'outside',
        c: edge(box, far(), far(), far(), far(), random.int(2) > 0, random.int(2) > 0),
      });
    }
  }
  return out;
}

const IN_WORDS = 25;
const OUT_WORDS = 11;

function encode(cases: ClipCase[]): Uint32Array {
  const input = new Uint32Array(cases.length * IN_WORDS);
  cases.forEach((c, i) => {
    const at = i * IN_WORDS;
    putPoint(input, at, c.si);
    putPoint(input, at + 4, c.sj);
    putPoint(input, at + 8, c.ka);
    putPoint(input, at + 12, c.a);
    putPoint(input, at + 16, c.kb);
    putPoint(input, at + 20, c.b);
    input[at + 24] = (c.hasA ? 1 : 0) | (c.aInside ? 2 : 0) | (c.hasB ? 4 : 0) | (c.bInside ? 8 : 0);
  });
  return input;
}

const CLIP_BODY = /* wgsl */ `
  let f = in_word(24u);
  let r = clip_bisector(in4(0u), in4(4u), (f & 1u) != 0u, in4(8u), in4(12u), (f & 2u) != 0u,
                        (f & 4u) != 0u, in4(16u), in4(20u), (f & 8u) != 0u);
  out_word(0u, r.flags);
  out4(1u, r.p0);
  out4(5u, r.p1);
  out_word(9u, r.side0);
  out_word(10u, r.side1);`;

function decode(out: Uint32Array, i: number): ClipOutcome {
  const at = i * OUT_WORDS;
  return {
    flags: out[at],
    p0: getPoint(out, at + 1),
    p1: getPoint(out, at + 5),
    side0: out[at + 9],
    side1: out[at + 10],
  };
}

function gridWords(box: BigBox): Uint32Array {
  const words = new Uint32Array(12);
  box.forEach((v, k) => {
    put64(words, 2 * k, v);
  });
  return words;
}

/** Boxes: ordinary, huge (near the grid's limit), tiny, thin, a point. */
function boxes(random: RandomBig): BigBox[] {
  const list: BigBox[] = [
    [-(1n << 56n), -(1n << 55n), 1n << 56n, 1n << 56n],
    [1000n, 2000n, 1010n, 2003n],
    [-7n, -7n, 7n, 7n],
    [0n, 0n, 1n << 50n, 5n],
    [5n, 5n, 5n, 5n],
  ];
  for (let k = 0; k < 3; k++) {
    const x = random.anyMagnitude(55);
    const y = random.anyMagnitude(55);
    const w = random.anyMagnitude(54);
    const h = random.anyMagnitude(54);
    list.push([x, y, x + (w < 0n ? -w : w), y + (h < 0n ? -h : h)]);
  }
  return list;
}

describe('clip_bisector', () => {
  test('equals the BigInt rational reference; the neighbouring cell gets bitwise-identical points', async () => {
    const ctx = await requireGpu();
    const random = new RandomBig(21);
    const tally: Record<string, number> = {};
    for (const box of boxes(random)) {
      const cases = casesFor(box, random, 2400);
      const calls = cases.flatMap(({ c }) => [c, swapped(c)]);
      const out = await runCases(
        ctx,
        'clip-bisector',
        CLIP_BODY,
        encode(calls),
        IN_WORDS,
        OUT_WORDS,
        gridWords(box),
      );
      cases.forEach(({ kind, c }, i) => {
        const got = decode(out, 2 * i);
        const back = decode(out, 2 * i + 1);
        const label = `${kind} in box ${box}: ${JSON.stringify(c, (_k, v) => (typeof v === 'bigint' ? `${v}` : v))}`;
        expect(got, label).toEqual(clipBisectorReference(c, box));
        expect(back, `swapped ${label}`).toEqual(clipBisectorReference(swapped(c), box));
        // symmetry: visibility agrees, entries are the other side's exits at the same point
        expect(back.flags & 1, label).toBe(got.flags & 1);
        if (got.flags & 1) {
          expect((back.flags & 2) !== 0, label).toBe((got.flags & 4) !== 0);
          expect((back.flags & 4) !== 0, label).toBe((got.flags & 2) !== 0);
          expect(back.p0, label).toEqual(got.p1);
          expect(back.p1, label).toEqual(got.p0);
          expect(back.side0, label).toBe(got.side1);
          expect(back.side1, label).toBe(got.side0);
        }
        // clipped points lie on the box side they name
        for (const [p, s] of [
          [got.p0, got.side0],
          [got.p1, got.side1],
        ] as const) {
          if (s === 0xffffffff) continue;
          expect(inBox(p, box), label).toBe(true);
          expect(p[s % 2 === 0 ? 1 : 0], label).toBe(box[s === 0 ? 1 : s === 1 ? 2 : s === 2 ? 3 : 0]);
        }
        const outcome =
          got.flags === 0 ? 'invisible' : got.flags === 1 ? 'inside' : got.flags === 7 ? 'crossing' : 'half';
        tally[`${kind}/${outcome}`] = (tally[`${kind}/${outcome}`] ?? 0) + 1;
        if (got.side0 !== 0xffffffff && got.p0[0] === box[2] && got.p0[1] === box[1])
          tally.corner = (tally.corner ?? 0) + 1;
      });
    }
    // every kind met every outcome it can have, corners included
    for (const key of [
      'segment/crossing',
      'segment/half',
      'segment/invisible',
      'segment/inside',
      'ray/crossing',
      'ray/half',
      'line/crossing',
      'line/invisible',
      'corner/crossing',
      'along/crossing',
      'lattice/crossing',
      'lattice/half',
      'outside/invisible',
      'corner',
    ]) {
      expect(tally[key] ?? 0, `${key}: ${JSON.stringify(tally)}`).toBeGreaterThan(10);
    }
  });

  test('hand-computed: a horizontal bisector through a unit box and a ray along the bottom side', async () => {
    const ctx = await requireGpu();
    const box: BigBox = [0n, 0n, 10n, 10n];
    const lines: ClipCase[] = [
      // sites (3, 3) and (3, 8): bisector y = 5.5, d = (-5, 0) → from x = 10 to x = 0, y floor 5
      {
        si: [3n, 3n],
        sj: [3n, 8n],
        hasA: false,
        ka: [0n, 0n],
        a: [0n, 0n],
        aInside: false,
        hasB: false,
        kb: [0n, 0n],
        b: [0n, 0n],
        bInside: false,
      },
      // sites (4, 1) and (4, -1): bisector y = 0 (the bottom side), d = (2, 0): corner to corner
      {
        si: [4n, 1n],
        sj: [4n, -1n],
        hasA: false,
        ka: [0n, 0n],
        a: [0n, 0n],
        aInside: false,
        hasB: false,
        kb: [0n, 0n],
        b: [0n, 0n],
        bInside: false,
      },
    ];
    const out = await runCases(
      ctx,
      'clip-bisector-hand',
      CLIP_BODY,
      encode(lines),
      IN_WORDS,
      OUT_WORDS,
      gridWords(box),
    );
    expect(decode(out, 0)).toEqual({ flags: 7, p0: [10n, 5n], p1: [0n, 5n], side0: 1, side1: 3 });
    expect(decode(out, 1)).toEqual({ flags: 7, p0: [0n, 0n], p1: [10n, 0n], side0: 0, side1: 1 });
  });
});
