import { stepCost } from './cost-wgsl.js';

/**
 * What a relax pass computes, each a fixed point iterated over tiles:
 * 1. `'cost'`: d(v) = min(d₀(v), min over neighbours u of d(u) ⊕ w(u, v)), d₀ = 0 at sources.
 * 2. `'label'`: with d fixed, l(v) = min(l₀(v), min over tight u of l(u)) — tight: d(u) ⊕ w(u, v)
 *    equals d(v) bit for bit; l₀ = the lowest source id in v's cell.
 * 3. `'hops'`: with d and l fixed, h(v) = 0 at the cell of source l(v), else min over tight u with
 *    l(u) = l(v) of h(u) + 1 (what makes backlinks acyclic where steps cost nothing).
 */
export type RelaxPhase = 'cost' | 'label' | 'hops';

/** The shared-memory index `s + offset`. */
export function sharedAt(offset: number): string {
  return `s ${offset < 0 ? '-' : '+'} ${Math.abs(offset)}u`;
}

/** A knight's move's crossed cells' values, loaded (nothing for other steps). */
function crossLoads(cross: [number, number] | null): string {
  return cross ? `let ca = sv[${sharedAt(cross[0])}];\n      let cb = sv[${sharedAt(cross[1])}];` : '';
}

/** A knight's move is open only where neither crossed cell is a barrier. */
function crossOpen(cross: [number, number] | null): string {
  return cross ? ' && ca >= 0.0 && cb >= 0.0' : '';
}

function crossArgs(cross: [number, number] | null): [string, string] | undefined {
  return cross ? ['ca', 'cb'] : undefined;
}

/**
 * A relax pass's neighbours: per step, the predecessor's offset in the workgroup box and a
 * knight's move's crossed cells; `rolled`: loop over the steps (offsets and lengths read from the
 * params block) instead of unrolling them — fewer instructions and registers for the 26
 * neighbours of 3D, the same expression for a step's cost (only where no step is a knight's move).
 */
export interface NeighbourTable {
  offsets: number[];
  cross: ([number, number] | null)[];
  rolled: boolean;
}

/** The rolled loop's predecessor index along step `k` (its offset from the params block). */
const ROLLED_U = 'u32(i32(s) + params.offs[k >> 2u][k & 3u])';

/**
 * The relaxation over the tile's neighbours: updates `best` from the shared arrays (and, for the
 * cost phase carrying labels, `bu`: the first neighbour offering the least cost, whose label the
 * cell takes — not the least label among equal offers, which would load every neighbour's label;
 * the label pass repairs ties).
 */
export function relaxBody(phase: RelaxPhase, carry: boolean, table: NeighbourTable): string {
  if (phase === 'cost') {
    const take = carry
      ? 'if (c <= maxc && cb < best) { best = cb; bu = u; }'
      : 'if (c <= maxc && cb < best) { best = cb; }';
    return perOpenNeighbour(table, '', (k) => {
      const c = stepCost(k, 'du', 'cu', 'v', crossArgs(typeof k === 'number' ? table.cross[k] : null));
      return `let c = ${c};
        let cb = bitcast<u32>(c);
        ${take}`;
    });
  }
  const take =
    phase === 'label'
      ? (u: string) => `best = min(best, sl[${u}]);`
      : (u: string) => `let hu = sh[${u}]; if (hu != INF) { best = min(best, hu + 1u); }`;
  if (table.rolled) {
    // the mask's set bits, lowest first
    return `var m = mask;
    loop {
      if (m == 0u) { break; }
      let k = firstTrailingBit(m);
      m &= m - 1u;
      let u = ${ROLLED_U};
      ${take('u')}
    }`;
  }
  return table.offsets
    .map((offset, k) => `if ((mask & ${1 << k}u) != 0u) { ${take(sharedAt(offset))} }`)
    .join('\n    ');
}

/**
 * The tight-predecessor mask of the interior cell `s` (label and hops passes). With `flat`, a
 * tight step that does not raise the cost (d(u) = d(v): zero-cost cells, or a step below half
 * an ulp of d) sets `flat`: the tight steps may then form cycles.
 */
export function maskBody(phase: RelaxPhase, table: NeighbourTable, flat: boolean): string {
  const sameLabel = phase === 'hops' ? ' && sl[u] == sl[s]' : '';
  const onFlat = flat ? ' if (du == dv) { flat = true; }' : '';
  return perOpenNeighbour(table, sameLabel, (k) => {
    const c = stepCost(k, 'du', 'cu', 'v', crossArgs(typeof k === 'number' ? table.cross[k] : null));
    const bit = typeof k === 'number' ? `${1 << k}u` : `(1u << ${k})`;
    return `if (bitcast<u32>(${c}) == dv) { mask |= ${bit};${onFlat} }`;
  });
}

/**
 * For each neighbour k of the interior cell `s` (unrolled, or the rolled loop over `k`): its
 * shared index `u`, value `cu` and cost bits `du` (and a knight's move's crossed values) loaded,
 * and `then(k)` where the step is open (the neighbour reached, neither it nor a crossed cell a
 * barrier, and `extra`). The rolled loop's bound is a uniform (`extra.y`), so compilers keep it
 * a loop.
 */
function perOpenNeighbour(
  table: NeighbourTable,
  extra: string,
  then: (k: number | string) => string,
): string {
  if (table.rolled) {
    return `for (var k = 0u; k < params.extra.y; k++) {
      let u = ${ROLLED_U};
      let cu = sv[u];
      let du = sd[u];
      if (cu >= 0.0 && du != INF${extra}) {
        ${then('k')}
      }
    }`;
  }
  const { offsets, cross } = table;
  return offsets
    .map(
      (offset, k) => `{
      let u = ${sharedAt(offset)};
      let cu = sv[u];
      let du = sd[u];
      ${crossLoads(cross[k])}
      if (cu >= 0.0 && du != INF${crossOpen(cross[k])}${extra}) {
        ${then(k)}
      }
    }`,
    )
    .join('\n    ');
}
