import { isGeoArrowField } from '@geoframe/core';
import { type Data, type Field, type Table, util, Vector } from 'apache-arrow';
import { type Column, gatherColumn } from '../ops/join-columns.js';
import { type ColumnKeys, columnKeys, compareKeys } from './column-keys.js';
import { makeTable } from './make-table.js';
import { takeColumn } from './take-column.js';

/** Options of `merge` (pandas' `merge`). */
export interface MergeOptions {
  /** 'inner' (default), 'left', 'right' or 'outer'. */
  how?: 'inner' | 'left' | 'right' | 'outer';
  /** Key column(s) of both frames; default: the columns they share (geometry aside). */
  on?: string | string[];
  /** Key column(s) of the left frame (with `rightOn`). */
  leftOn?: string | string[];
  /** Key column(s) of the right frame (with `leftOn`). */
  rightOn?: string | string[];
  /** Added to clashing names, left and right (default ['_x', '_y']). */
  suffixes?: [string, string];
}

/** The merged table and the new name of the left frame's active geometry. */
export interface Merged {
  table: Table;
  geometryName: string;
}

const NULL_KEY = Symbol('null key');
const HOWS = ['inner', 'left', 'right', 'outer'];

/**
 * pandas' `left.merge(right, how, on | left_on/right_on, suffixes)` with its row order: inner and
 * left in left order (matches in right order), right in right order, outer sorted by key; null keys
 * match each other, as in pandas. Key columns named by `on` appear once (from whichever side has
 * the row); clashing other names get the suffixes. The left frame's active geometry stays active
 * (under its suffixed name if it clashed); unmatched rows get nulls, integers staying integers.
 */
export function mergeTables(
  left: Table,
  geometryName: string,
  right: Table,
  options: MergeOptions = {},
): Merged {
  const how = options.how ?? 'inner';
  if (!HOWS.includes(how)) throw new RangeError(`merge: how must be ${HOWS.join(', ')}, got "${how}"`);
  const [leftOn, rightOn, shared] = keyNames(left, right, options);
  const suffixes = options.suffixes ?? ['_x', '_y'];
  const lk = leftOn.map((n) => columnKeys(left.getChild(n)!, n, 'merge'));
  const rk = rightOn.map((n) => columnKeys(right.getChild(n)!, n, 'merge'));
  lk.forEach((k, i) => {
    if (k.numeric !== rk[i].numeric) {
      throw new TypeError(
        `merge: key "${leftOn[i]}" (${left.getChild(leftOn[i])!.type}) cannot match "${rightOn[i]}" (${right.getChild(rightOn[i])!.type})`,
      );
    }
  });
  const { l, r } = pairRows(lk, rk, left.numRows, right.numRows, how);
  const columns: Column[] = [];
  const rightNames = new Set(right.schema.fields.map((f) => f.name).filter((n) => !shared.includes(n)));
  const leftNames = new Set(left.schema.fields.map((f) => f.name));
  let outGeometry = geometryName;
  for (const f of left.schema.fields) {
    const k = shared.indexOf(f.name);
    if (k >= 0) {
      columns.push(coalesce(left, right, f, right.schema.fields.find((g) => g.name === f.name)!, l, r));
      continue;
    }
    const name = rightNames.has(f.name) ? f.name + suffixes[0] : f.name;
    if (f.name === geometryName) outGeometry = name;
    columns.push(gatherColumn(left, f, l, name));
  }
  for (const f of right.schema.fields) {
    if (shared.includes(f.name)) continue;
    columns.push(gatherColumn(right, f, r, leftNames.has(f.name) ? f.name + suffixes[1] : f.name));
  }
  const names = new Set<string>();
  for (const c of columns) {
    if (names.has(c.field.name))
      throw new RangeError(
        `merge: the result would have two columns "${c.field.name}"; choose other suffixes`,
      );
    names.add(c.field.name);
  }
  return {
    table: makeTable(
      columns.map((c) => c.field),
      columns.map((c) => c.data),
    ),
    geometryName: outGeometry,
  };
}

/** Left keys, right keys, and the names that are keys on both sides (kept once). */
function keyNames(left: Table, right: Table, options: MergeOptions): [string[], string[], string[]] {
  const list = (v: string | string[] | undefined) =>
    v === undefined ? undefined : typeof v === 'string' ? [v] : v;
  const on = list(options.on);
  let leftOn = list(options.leftOn);
  let rightOn = list(options.rightOn);
  if (on && (leftOn || rightOn))
    throw new TypeError('merge: give `on`, or `leftOn` with `rightOn`, not both');
  if (!on && (leftOn === undefined) !== (rightOn === undefined)) {
    throw new TypeError('merge: `leftOn` and `rightOn` go together');
  }
  if (on) [leftOn, rightOn] = [on, on];
  if (!leftOn || !rightOn) {
    const rightPlain = new Set(right.schema.fields.filter((f) => !isGeoArrowField(f)).map((f) => f.name));
    const common = left.schema.fields
      .filter((f) => !isGeoArrowField(f) && rightPlain.has(f.name))
      .map((f) => f.name);
    if (common.length === 0)
      throw new TypeError(
        'merge: the frames share no column to merge on; name the keys with `on` or `leftOn`/`rightOn`',
      );
    [leftOn, rightOn] = [common, common];
  }
  if (leftOn.length !== rightOn.length || leftOn.length === 0) {
    throw new RangeError(`merge: ${leftOn.length} left keys for ${rightOn.length} right keys`);
  }
  for (const [t, names, side] of [
    [left, leftOn, 'left'],
    [right, rightOn, 'right'],
  ] as const) {
    for (const n of names) {
      const f = t.schema.fields.find((g) => g.name === n);
      if (!f)
        throw new RangeError(
          `merge: the ${side} frame has no column "${n}" (columns: ${t.schema.fields.map((g) => g.name).join(', ')})`,
        );
      if (isGeoArrowField(f))
        throw new TypeError(
          `merge: "${n}" is a geometry column; merge on attributes, or use sjoin for geometry`,
        );
    }
  }
  const shared = leftOn.filter((n, i) => rightOn![i] === n);
  return [leftOn, rightOn, shared];
}

/** A hashable key of row `i` (one column: the value; several: a tuple string); nulls are one key. */
function keyOf(keys: ColumnKeys[], i: number): unknown {
  if (keys.length === 1) return keys[0].nulls[i] ? NULL_KEY : keys[0].values[i];
  return JSON.stringify(
    keys.map((k) => (k.nulls[i] ? null : String(k.values[i]))),
    (_, v) => v,
  );
}

function pairRows(lk: ColumnKeys[], rk: ColumnKeys[], nl: number, nr: number, how: string) {
  const byKey = new Map<unknown, number[]>();
  for (let j = 0; j < nr; j++) {
    const key = keyOf(rk, j);
    const rows = byKey.get(key);
    if (rows) rows.push(j);
    else byKey.set(key, [j]);
  }
  const l: number[] = [];
  const r: number[] = [];
  const matchedRight = new Uint8Array(nr);
  const pair = (i: number, j: number) => {
    l.push(i);
    r.push(j);
  };
  if (how === 'right') {
    const byLeft = new Map<unknown, number[]>();
    for (let i = 0; i < nl; i++) {
      const key = keyOf(lk, i);
      const rows = byLeft.get(key);
      if (rows) rows.push(i);
      else byLeft.set(key, [i]);
    }
    for (let j = 0; j < nr; j++) {
      const rows = byLeft.get(keyOf(rk, j));
      if (!rows) pair(-1, j);
      else for (const i of rows) pair(i, j);
    }
    return { l: Int32Array.from(l), r: Int32Array.from(r) };
  }
  for (let i = 0; i < nl; i++) {
    const rows = byKey.get(keyOf(lk, i));
    if (rows) {
      for (const j of rows) {
        pair(i, j);
        matchedRight[j] = 1;
      }
    } else if (how !== 'inner') pair(i, -1);
  }
  if (how === 'outer') {
    for (let j = 0; j < nr; j++) if (!matchedRight[j]) pair(-1, j);
    const order = Int32Array.from(l.keys());
    const cmp = (p: number, q: number) => {
      for (let k = 0; k < lk.length; k++) {
        const [kp, ip] = l[p] >= 0 ? [lk[k], l[p]] : [rk[k], r[p]];
        const [kq, iq] = l[q] >= 0 ? [lk[k], l[q]] : [rk[k], r[q]];
        if (kp.nulls[ip] || kq.nulls[iq]) {
          if (kp.nulls[ip] && kq.nulls[iq]) continue;
          return kp.nulls[ip] ? 1 : -1;
        }
        const c = compareKeys(kp.values[ip], kq.values[iq]);
        if (c !== 0) return c;
      }
      return p - q;
    };
    order.sort(cmp);
    return { l: Int32Array.from(order, (p) => l[p]), r: Int32Array.from(order, (p) => r[p]) };
  }
  return { l: Int32Array.from(l), r: Int32Array.from(r) };
}

/** A key column named on both sides: the left value where the row has a left side, else the right one. */
function coalesce(left: Table, right: Table, lf: Field, rf: Field, l: Int32Array, r: Int32Array): Column {
  if (!l.some((i) => i < 0)) return gatherColumn(left, lf, l);
  const lv = gatherColumn(left, lf, l).data;
  const rv = gatherColumn(right, rf, r).data;
  if (!util.compareTypes(lf.type, rf.type)) {
    throw new TypeError(
      `merge: key "${lf.name}" has type ${lf.type} on the left and ${rf.type} on the right`,
    );
  }
  const both = new Vector<never>([lv as Data<never>, rv as Data<never>]);
  const n = l.length;
  const data = takeColumn(
    both,
    Int32Array.from(l, (i, j) => (i >= 0 ? j : n + j)),
  );
  return { field: lf.clone({ nullable: lf.nullable || rf.nullable }), data };
}
