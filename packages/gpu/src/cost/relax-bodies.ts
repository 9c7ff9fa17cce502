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
 * The relaxation over the tile's neighbours, unrolled: updates `best` from the shared arrays
 * (and, for the cost phase carrying labels, `bu`: the first neighbour offering the least cost,
 * whose label the cell takes — not the least label among equal offers, which would load every
 * neighbour's label; the label pass repairs ties).
 */
export function relaxBody(
  phase: RelaxPhase,
  carry: boolean,
  offsets: number[],
  cross: ([number, number] | null)[],
): string {
  const at = (k: number) => sharedAt(offsets[k]);
  if (phase === 'cost') {
    const take = carry
      ? 'if (c <= maxc && cb < best) { best = cb; bu = u; }'
      : 'if (c <= maxc && cb < best) { best = cb; }';
    return perOpenNeighbour(offsets, cross, '', (k) => {
      const c = stepCost(k, 'du', 'cu', 'v', crossArgs(cross[k]));
      return `let c = ${c};
        let cb = bitcast<u32>(c);
        ${take}`;
    });
  }
  const take =
    phase === 'label'
      ? (u: string) => `best = min(best, sl[${u}]);`
      : (u: string) => `let hu = sh[${u}]; if (hu != INF) { best = min(best, hu + 1u); }`;
  return offsets.map((_, k) => `if ((mask & ${1 << k}u) != 0u) { ${take(at(k))} }`).join('\n    ');
}

/**
 * The tight-predecessor mask of the interior cell `s` (label and hops passes). With `flat`, a
 * tight step that does not raise the cost (d(u) = d(v): zero-cost cells, or a step below half
 * an ulp of d) sets `flat`: the tight steps may then form cycles.
 */
export function maskBody(
  phase: RelaxPhase,
  offsets: number[],
  cross: ([number, number] | null)[],
  flat: boolean,
): string {
  const sameLabel = phase === 'hops' ? ' && sl[u] == sl[s]' : '';
  const onFlat = flat ? ' if (du == dv) { flat = true; }' : '';
  return perOpenNeighbour(offsets, cross, sameLabel, (k) => {
    const c = stepCost(k, 'du', 'cu', 'v', crossArgs(cross[k]));
    return `if (bitcast<u32>(${c}) == dv) { mask |= ${1 << k}u;${onFlat} }`;
  });
}

/**
 * For each neighbour k of the interior cell `s`, unrolled: its shared index `u`, value `cu` and
 * cost bits `du` (and a knight's move's crossed values) loaded, and `then(k)` where the step is
 * open (the neighbour reached, neither it nor a crossed cell a barrier, and `extra`).
 */
function perOpenNeighbour(
  offsets: number[],
  cross: ([number, number] | null)[],
  extra: string,
  then: (k: number) => string,
): string {
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
