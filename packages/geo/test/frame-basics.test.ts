// Frame basics (assign, sortBy, rename, drop, concat, merge, valueCounts, countBy) against pandas /
// GeoPandas on seeded frames with ties, nulls, NaN, empty and invalid geometries: same columns,
// same rows in the same order, same values, same active geometry and CRS.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CrsError, concat, GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { Float64, Int32, type Table, Utf8, vectorFromArray } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { python, usePython } from './python-reference.js';

type Spec = {
  columns: Record<string, unknown[]>;
  wkb: (string | null)[];
  crs: string | null;
  order: string[];
};
// biome-ignore lint/suspicious/noExplicitAny: answers are JSON from Python, checked by the tests
type Answer = any;

/** A seeded frame: string keys with nulls and ties, floats with null and NaN, ints, mixed geometry. */
function makeFrame(seed: number, n: number, crs: string | null = 'EPSG:3857', extra = 'w'): GeoDataFrame {
  const rand = mulberry32(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const wkt = Array.from({ length: n }, (_, i) =>
    i % 9 === 4
      ? null
      : i % 9 === 7
        ? 'POINT EMPTY'
        : i % 9 === 8
          ? 'POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))' // a bowtie: invalid, kept as it is
          : `POINT (${Math.floor(rand() * 1e6) / 8} ${-1e7 + rand()})`,
  );
  return GeoDataFrame.fromSeries(GeoSeries.fromWKT(wkt, { crs }), {
    k: vectorFromArray(
      Array.from({ length: n }, () => pick(['a', 'b', 'c', 'd', 'é', '', null])),
      new Utf8(),
    ),
    v: vectorFromArray(
      Array.from({ length: n }, () => pick([1.5, -2, 0, 3.25, null, Number.NaN, 1e300])),
      new Float64(),
    ),
    n: vectorFromArray(
      Array.from({ length: n }, () => Math.floor(rand() * 4)),
      new Int32(),
    ),
    [extra]: vectorFromArray(
      Array.from({ length: n }, (_, i) => i * 10 + seed),
      new Int32(),
    ),
  });
}

function plain(v: unknown): unknown {
  if (typeof v === 'number' && Number.isNaN(v)) return null;
  if (typeof v === 'bigint') return Number(v);
  return v ?? null;
}

/** Our frame as {columns, data} with geometry as WKT, the way frame_reference.py answers. */
function tableOf(f: GeoDataFrame | Table): { columns: string[]; data: Record<string, unknown[]> } {
  const columns = f instanceof GeoDataFrame ? f.columns : f.schema.fields.map((x) => x.name);
  const data: Record<string, unknown[]> = {};
  for (const c of columns) {
    const col = f instanceof GeoDataFrame ? f.get(c) : f.getChild(c)!;
    data[c] = col instanceof GeoSeries ? col.toWKT() : [...(col as Iterable<unknown>)].map(plain);
  }
  return { columns, data };
}

/** Theirs, with geometry WKT read and written by us (same text for the same coordinates). */
function theirTable(answer: Answer, geometryColumns: string[]) {
  expect(answer.error).toBeUndefined();
  const data = { ...answer.data };
  for (const g of geometryColumns) data[g] = GeoSeries.fromWKT(data[g], { validate: false }).toWKT();
  return { columns: answer.columns, data };
}

function spec(f: GeoDataFrame): Spec {
  const { data } = tableOf(f);
  const columns = Object.fromEntries(Object.entries(data).filter(([c]) => c !== f.geometryName));
  const wkb = f.geometry.toWKB().map((b) => (b === null ? null : Buffer.from(b).toString('hex')));
  return { columns, wkb, crs: f.crs as string | null, order: f.columns };
}

function reference(tasks: object[]): Answer[] {
  const script = fileURLToPath(new URL('./interop/frame_reference.py', import.meta.url));
  return JSON.parse(
    execFileSync(python!, [script], { input: JSON.stringify(tasks), encoding: 'utf8', maxBuffer: 1 << 28 }),
  );
}

const seeds = [1, 2, 3];
const frames = seeds.map((s) => makeFrame(s, 40 + 7 * s));
const rights = seeds.map((s) => makeFrame(100 + s, 12 + s, 'EPSG:3857', 'm').drop(['v']));
const empty = makeFrame(9, 0);

// \`active\`: our active geometry where GeoPandas' differs (its rename leaves the active name behind)
type Case = { name: string; task: object; ours: () => GeoDataFrame; geometry: string[]; active?: string };
const cases: Case[] = [];
for (const [i, f] of frames.entries()) {
  const sorts: [string | string[], boolean | boolean[], 'last' | 'first'][] = [
    [['k', 'v'], [true, false], 'last'],
    [['k', 'v'], true, 'first'],
    ['v', false, 'last'],
    [['n', 'k', 'v'], [false, true, true], 'last'],
  ];
  for (const [by, ascending, na] of sorts) {
    cases.push({
      name: `seed ${seeds[i]}: sortBy ${by} ${ascending} nulls ${na}`,
      task: { op: 'sort', frame: spec(f), by, ascending, na },
      ours: () => f.sortBy(by, { ascending, naPosition: na }),
      geometry: ['geometry'],
    });
  }
  const right = rights[i];
  const rightTable = right.toArrow().select(right.columns.filter((c) => c !== 'geometry'));
  for (const how of ['inner', 'left', 'right', 'outer'] as const) {
    const keys: { on?: string | string[]; leftOn?: string; rightOn?: string }[] = [
      { on: 'k' },
      { on: ['k', 'n'] },
      { leftOn: 'n', rightOn: 'm' },
      {},
    ];
    for (const key of keys) {
      cases.push({
        name: `seed ${seeds[i]}: merge ${how} ${JSON.stringify(key)}`,
        task: {
          op: 'merge',
          frame: spec(f),
          right: spec(right),
          how,
          on: key.on,
          left_on: key.leftOn,
          right_on: key.rightOn,
        },
        ours: () => f.merge(rightTable, { how, ...key }),
        geometry: ['geometry'],
      });
    }
  }
  cases.push({
    name: `seed ${seeds[i]}: concat with other columns, an int column meeting floats, an empty frame`,
    task: {
      op: 'concat',
      frames: [spec(f), spec(empty), spec(right.withColumn('n', right.get('m') as never))],
    },
    ours: () => concat([f, empty, right.withColumn('n', right.get('m') as never)]),
    geometry: ['geometry'],
  });
  cases.push({
    name: `seed ${seeds[i]}: assign, rename, drop`,
    task: {
      op: 'rename',
      frame: spec(f.assign({ z: 7, w: Float64Array.from(f.get('w') as never) })),
      mapping: { k: 'key', geometry: 'geom' },
    },
    ours: () =>
      f.assign({ z: 7, w: Float64Array.from(f.get('w') as never) }).rename({ k: 'key', geometry: 'geom' }),
    geometry: ['geom'],
    active: 'geom',
  });
}

let answers: Answer[];
describe.runIf(usePython)('frame basics against pandas / GeoPandas', () => {
  beforeAll(() => {
    expect(python, 'CI needs python with geopandas (.ci/run installs it)').not.toBeNull();
    answers = reference(cases.map((c) => c.task));
  }, 60_000); // importing pandas takes seconds on a loaded machine

  it.each(cases.map((c, i) => [c.name, i] as const))('%s', (_, i) => {
    const ours = cases[i].ours();
    const theirs = theirTable(answers[i], cases[i].geometry);
    expect(tableOf(ours)).toEqual(theirs);
    expect(ours.geometryName).toBe(cases[i].active ?? answers[i].geometry);
    // GeoPandas loses the CRS with the active geometry's name; ours follows the rename
    expect(ours.crs).toBe(cases[i].active ? 'EPSG:3857' : answers[i].crs);
  });

  it('valueCounts and countBy give pandas’ counts (ties in first-seen order)', { timeout: 60_000 }, () => {
    const tasks: object[] = [];
    const ours: { keys: unknown[]; counts: unknown[] }[] = [];
    for (const f of frames) {
      for (const [column, dropna, normalize] of [
        ['k', true, false],
        ['k', false, false],
        ['v', true, true],
        ['n', true, false],
      ] as const) {
        tasks.push({ op: 'value_counts', frame: spec(f), column, dropna, normalize });
        const t = f.valueCounts(column, { dropna, normalize });
        ours.push({ keys: [...t.getChildAt(0)!].map(plain), counts: [...t.getChildAt(1)!] });
      }
      for (const by of ['k', 'n', 'v']) {
        tasks.push({ op: 'groupby_size', frame: spec(f), by });
        const t = f.countBy(by);
        ours.push({ keys: [...t.getChildAt(0)!].map(plain), counts: [...t.getChildAt(1)!] });
      }
    }
    const theirs = reference(tasks);
    theirs.forEach((answer: Answer, i: number) => {
      expect(answer.error).toBeUndefined();
      // counts in the same order, and each key with its count (pandas breaks ties in no set order)
      expect(ours[i].counts).toEqual(answer.counts);
      const asMap = (r: { keys: unknown[]; counts: unknown[] }) =>
        new Map(r.keys.map((k, j) => [k, r.counts[j]]));
      expect(asMap(ours[i])).toEqual(asMap(answer));
    });
    // first-seen order on ties, exactly
    const t = frames[0].valueCounts('k', { dropna: false });
    const counts = [...t.getChild('count')!];
    const firstSeen = (key: unknown) => [...(frames[0].get('k') as Iterable<unknown>)].indexOf(key);
    for (let j = 1; j < t.numRows; j++) {
      if (counts[j] === counts[j - 1])
        expect(firstSeen(t.getChildAt(0)!.get(j))).toBeGreaterThan(firstSeen(t.getChildAt(0)!.get(j - 1)));
    }
  });
});

describe('frame basics: bad input and edge cases', () => {
  const f = frames[0];
  it('names the problem', () => {
    expect(() => f.sortBy('nope')).toThrow(/no column named "nope"/);
    expect(() => f.sortBy(['k', 'v'], { ascending: [true] })).toThrow(/1 ascending flags for 2 keys/);
    expect(() => f.rename({ nope: 'x' })).toThrow(/no column named "nope"/);
    expect(() => f.rename({ k: 'v' })).toThrow(/two columns would be named "v"/);
    expect(() => f.drop('geometry')).toThrow(/active geometry/);
    expect(() => f.drop(['k', 'nope'])).toThrow(/"nope"/);
    expect(() => f.withColumn('k', [1, 2])).toThrow(/column "k" has 2 rows, the frame 47/);
    expect(() => f.withColumn('geometry', 1)).toThrow(/active geometry/);
    expect(() => f.merge(f.toArrow(), { on: 'geometry' })).toThrow(/geometry column/);
    expect(() => f.merge(rights[0].toArrow(), { on: 'k', leftOn: 'k' })).toThrow(/not both/);
    expect(() => f.merge(rights[0].toArrow(), { leftOn: 'k', rightOn: 'm' })).toThrow(/cannot match/);
    expect(() => f.merge(rights[0].toArrow(), { on: 'nope' })).toThrow(/left frame has no column "nope"/);
    expect(() => concat([])).toThrow(/no frames/);
    expect(() => concat([f, f.toCrs('EPSG:4326')])).toThrow(CrsError);
    expect(() => concat([f, f.rename({ geometry: 'g' })])).toThrow(/active geometry columns differ/);
    expect(() => concat([f, f.withColumn('k', 1)])).toThrow(/column "k" has different types/);
    expect(() => f.valueCounts('nope')).toThrow(/no column named "nope"/);
  });

  it('setCrs refuses to relabel a different CRS unless told (GeoPandas allow_override)', () => {
    expect(() => f.setCrs('EPSG:4326')).toThrow(
      /already has the CRS EPSG:3857, not EPSG:4326.*allowOverride/,
    );
    expect(f.setCrs('EPSG:4326', { allowOverride: true }).crs).toBe('EPSG:4326');
    expect(f.setCrs('EPSG:3857').crs).toBe('EPSG:3857');
    expect(f.setCrs(null).setCrs('EPSG:4326').crs).toBe('EPSG:4326');
    expect(JSON.parse(f.toGeoJSON()).features.length).toBe(f.length);
  });

  it('keeps a CRS given by some frames only (as GeoPandas, without its warning) and handles 0 rows', () => {
    const bare = makeFrame(5, 4, null);
    expect(concat([bare, f]).crs).toBe('EPSG:3857');
    expect(concat([bare, f]).length).toBe(bare.length + f.length);
    expect(empty.sortBy('k').length).toBe(0);
    expect(empty.merge(rights[0].toArrow(), { on: 'k', how: 'outer' }).length).toBe(rights[0].length);
    expect(f.merge(rights[0].toArrow().slice(0, 0), { on: 'k', how: 'left' }).length).toBe(f.length);
    expect(empty.valueCounts('k').numRows).toBe(0);
    expect(concat([empty, empty]).length).toBe(0);
  });

  it('keeps the geometry: sortBy permutes rows, invalid polygons stay as they were', () => {
    const sorted = f.sortBy('n');
    const order = [...(sorted.get('w') as Iterable<number>)].map((w) => (w - 1) / 10);
    expect(sorted.geometry.toWKT()).toEqual(order.map((i) => f.geometry.toWKT()[i]));
    expect(sorted.geometry.toWKT()).toContain('POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))');
  });
});
