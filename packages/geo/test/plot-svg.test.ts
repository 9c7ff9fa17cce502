import { GeometryArray, GeometryType, readWkt } from '@geoframe/core';
import { voronoiCells } from '@geoframe/cpu';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { NEIGHBOR_PALETTE, neighborColors, plotFrame, plotSvg } from '../src/plot/index.js';
import { squareGrid } from './plot-fixtures.js';

interface Element {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

/**
 * A small well-formedness check and reader: every tag balanced, attributes `name="value"` with
 * no raw `<` or stray `&`, text without raw `<`. Returns the elements in document order.
 */
function parseSvg(svg: string): Element[] {
  const elements: Element[] = [];
  const open: Element[] = [];
  const token = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  const entity = /&(?!(?:amp|lt|gt|quot|#39);)/;
  let at = 0;
  while (at < svg.length) {
    token.lastIndex = at;
    const m = token.exec(svg);
    if (!m) throw new Error(`not well-formed at ${at}: ${svg.slice(at, at + 40)}`);
    at = token.lastIndex;
    if (m[5] !== undefined) {
      if (entity.test(m[5])) throw new Error(`stray & in text ${m[5]}`);
      if (open.length === 0) {
        if (m[5].trim() !== '') throw new Error('text outside the root');
      } else open[open.length - 1].text += m[5];
      continue;
    }
    if (m[1] === '/') {
      const top = open.pop();
      if (!top || top.name !== m[2]) throw new Error(`</${m[2]}> closes ${top?.name}`);
      continue;
    }
    if (open.length === 0 && elements.length > 0) throw new Error('a second root element');
    const attributes: Record<string, string> = {};
    for (const a of m[3].matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (a[1] in attributes) throw new Error(`repeated attribute ${a[1]}`);
      if (entity.test(a[2])) throw new Error(`stray & in ${a[1]}`);
      attributes[a[1]] = a[2];
    }
    const element = { name: m[2], attributes, text: '' };
    elements.push(element);
    if (m[4] !== '/') open.push(element);
  }
  if (open.length > 0) throw new Error(`<${open[0].name}> is never closed`);
  return elements;
}

/** The vertices of each subpath of path data made of `M x y`, `l dx dy …`, implicit pairs, `h0`, `Z`. */
function subpaths(d: string): [number, number][][] {
  const out: [number, number][][] = [];
  const tokens = d.match(/[MlZh]|-?\d+(?:\.\d+)?/g) ?? [];
  let command = '';
  let x = 0;
  let y = 0;
  for (let i = 0; i < tokens.length; ) {
    const t = tokens[i];
    if (/[MlZh]/.test(t)) {
      command = t;
      i++;
      if (t === 'Z') command = '';
      if (t === 'h') {
        expect(tokens[i]).toBe('0');
        i++;
      }
      continue;
    }
    const a = Number(tokens[i]);
    const b = Number(tokens[i + 1]);
    i += 2;
    if (command === 'M') {
      x = a;
      y = b;
      out.push([[x, y]]);
      command = 'L'; // pairs after M are absolute line-tos
    } else if (command === 'L') {
      x = a;
      y = b;
      out[out.length - 1].push([x, y]);
    } else if (command === 'l') {
      x += a;
      y += b;
      out[out.length - 1].push([Math.round(x * 100) / 100, Math.round(y * 100) / 100]);
    } else throw new Error(`numbers after ${command || 'Z'}`);
  }
  return out;
}

const paths = (elements: Element[]) => elements.filter((e) => e.name === 'path');

describe('plotSvg', () => {
  it('writes one coloured path per polygon, neighbours in different palette colours', () => {
    const grid = squareGrid(6, 4);
    const elements = parseSvg(plotSvg(grid));
    expect(elements[0].name).toBe('svg');
    expect(elements[0].attributes.xmlns).toBe('http://www.w3.org/2000/svg');
    const polygons = paths(elements);
    expect(polygons).toHaveLength(24);
    const colors = neighborColors(grid);
    for (const [i, p] of polygons.entries()) expect(p.attributes.fill).toBe(NEIGHBOR_PALETTE[colors[i]]);
    // squares sharing an edge: horizontal and vertical neighbours
    for (let j = 0; j < 4; j++) {
      for (let i = 0; i < 6; i++) {
        const fill = polygons[j * 6 + i].attributes.fill;
        if (i + 1 < 6) expect(fill).not.toBe(polygons[j * 6 + i + 1].attributes.fill);
        if (j + 1 < 4) expect(fill).not.toBe(polygons[(j + 1) * 6 + i].attributes.fill);
      }
    }
  });

  it('uses the size asked for, the data aspect by default, and at most 800 high', () => {
    const grid = squareGrid(6, 4); // 6 × 4 plus 2% margins: aspect stays 3:2
    let root = parseSvg(plotSvg(grid))[0].attributes;
    expect([root.width, root.height, root.viewBox]).toEqual(['800', '533', '0 0 800 533']);
    root = parseSvg(plotSvg(grid, { width: 300, height: 120 }))[0].attributes;
    expect([root.width, root.height, root.viewBox]).toEqual(['300', '120', '0 0 300 120']);
    const tall = squareGrid(1, 10);
    root = parseSvg(plotSvg(tall, { width: 400 }))[0].attributes;
    expect([root.width, root.height]).toEqual(['400', '800']);
  });

  it('maps data to pixels with y flipped, equal scales, the window centred', () => {
    const square = readWkt(['POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))']);
    // a 20 × 10 window into 200 × 200 pixels: scale 10, centred vertically (50 px above and below);
    // y = 5 is the window's top (pixel 50), so the square's top half lies above the picture
    const options = { width: 200, height: 200, bounds: [-5, -5, 15, 5] as [number, number, number, number] };
    const [d] = paths(parseSvg(plotSvg(square, options))).map((p) => p.attributes.d);
    expect(subpaths(d)).toEqual([
      [
        [50, 100],
        [150, 100],
        [150, 0],
        [50, 0],
      ],
    ]);
    expect(d.endsWith('Z')).toBe(true);
    const frame = plotFrame(square, options);
    expect([frame.scale, frame.left, frame.top]).toEqual([10, 0, 50]);
  });

  it('defaults the window to the total bounds widened by 2%, points included', () => {
    const square = readWkt(['POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))']);
    const [d] = paths(parseSvg(plotSvg(square, { width: 104 }))).map((p) => p.attributes.d);
    // window -0.2 .. 10.2 into 104 px: scale 10, the square from 2 to 102
    expect(subpaths(d)[0]).toEqual([
      [2, 102],
      [102, 102],
      [102, 2],
      [2, 2],
    ]);
    const points = readWkt(['POINT (20 5)']);
    const frame = plotFrame(square, { width: 104, points });
    expect(frame.x0).toBeCloseTo(-0.4, 12);
  });

  it('cuts holes with evenodd and writes every ring of a multipolygon in its one path', () => {
    const array = readWkt([
      'MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 8 8, 8 2, 2 2)), ((20 0, 30 0, 30 10, 20 0)))',
    ]);
    const elements = parseSvg(plotSvg(array));
    const group = elements.find((e) => e.name === 'g');
    expect(group?.attributes['fill-rule']).toBe('evenodd');
    const [path] = paths(elements);
    expect(subpaths(path.attributes.d).map((s) => s.length)).toEqual([4, 4, 3]);
  });

  it('draws lines stroked, points as dots, skips nulls and empties, overlays the sites in one path', () => {
    const array = readWkt([
      'POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))',
      null,
      'POLYGON EMPTY',
      'LINESTRING (0 0, 3 4)',
      'POINT EMPTY',
      'MULTIPOINT ((1 1), (3 3))',
      'POINT (2 2)',
    ]);
    const sites = readWkt(['POINT (1 2)', null, 'POINT (3 1)', 'POINT EMPTY']);
    const elements = parseSvg(plotSvg(array, { points: sites }));
    const all = paths(elements);
    expect(all).toHaveLength(4 + 1);
    const groups = elements.filter((e) => e.name === 'g');
    expect(groups.map((g) => g.attributes.fill)).toEqual([undefined, 'none', 'none']);
    expect(groups[1].attributes.stroke).toBe('#333333');
    // dots are zero-length subpaths under round caps
    expect(groups[2].attributes['stroke-linecap']).toBe('round');
    expect(all[2].attributes.d.match(/h0/g)).toHaveLength(2);
    expect(all[3].attributes.d.match(/h0/g)).toHaveLength(1);
    const overlay = all[4];
    expect(overlay.attributes.d.match(/h0/g)).toHaveLength(2);
    expect(overlay.attributes['stroke-linecap']).toBe('round');
  });

  it('fills with one colour or none, strokes as asked, escapes titles', () => {
    const grid = squareGrid(2, 1);
    let elements = parseSvg(plotSvg(grid, { fill: 'none', stroke: 'navy', strokeWidth: 2 }));
    let group = elements.find((e) => e.name === 'g')!;
    expect([group.attributes.fill, group.attributes.stroke, group.attributes['stroke-width']]).toEqual([
      'none',
      'navy',
      '2',
    ]);
    expect(paths(elements).every((p) => p.attributes.fill === undefined)).toBe(true);
    elements = parseSvg(plotSvg(grid, { fill: '#123456', background: 'none', title: 'Cells <&> "Zürich"' }));
    group = elements.find((e) => e.name === 'g')!;
    expect(group.attributes.fill).toBe('#123456');
    expect(elements.some((e) => e.name === 'rect')).toBe(false);
    const title = elements.find((e) => e.name === 'text');
    expect(title?.text).toBe('Cells &lt;&amp;&gt; &quot;Zürich&quot;');
    elements = parseSvg(plotSvg(grid, { strokeWidth: 0, background: '#eeeeee' }));
    expect(elements.find((e) => e.name === 'g')?.attributes.stroke).toBe('none');
    expect(elements.find((e) => e.name === 'rect')?.attributes.fill).toBe('#eeeeee');
  });

  it('writes coordinates with at most two decimals and keeps shared vertices identical', () => {
    const cells = readWkt([
      'POLYGON ((0 0, 0.123456 0, 0.1 0.3333333, 0 0))',
      'POLYGON ((0.123456 0, 0.5 0.1, 0.1 0.3333333, 0.123456 0))',
    ]);
    const [a, b] = paths(parseSvg(plotSvg(cells, { width: 777 }))).map((p) => p.attributes.d);
    for (const d of [a, b]) {
      for (const number of d.match(/-?\d+(?:\.\d+)?/g) ?? []) expect(number).toMatch(/^-?\d+(\.\d{1,2})?$/);
    }
    const [pa] = subpaths(a);
    const [pb] = subpaths(b);
    expect(pb).toContainEqual(pa[1]);
    expect(pb).toContainEqual(pa[2]);
  });

  it('handles zero rows, all-null rows, Z coordinates and sliced columns', () => {
    for (const array of [readWkt([]), readWkt([null, null])]) {
      const elements = parseSvg(plotSvg(array));
      expect(paths(elements)).toHaveLength(0);
      expect(elements[0].attributes.viewBox).toBe('0 0 800 800');
    }
    const z = readWkt(['POLYGON Z ((0 0 1, 1 0 2, 1 1 3, 0 0 1))']);
    const flat = readWkt(['POLYGON ((0 0, 1 0, 1 1, 0 0))']);
    expect(plotSvg(z)).toBe(plotSvg(flat));
    const grid = squareGrid(5, 1);
    const sliced = grid.slice(2, 4);
    expect(plotSvg(sliced)).toBe(plotSvg(grid.take([2, 3])));
    expect(paths(parseSvg(plotSvg(sliced)))).toHaveLength(2);
  });

  it('rejects sizes that are not positive and bounds that are not finite', () => {
    const grid = squareGrid(1, 1);
    expect(() => plotSvg(grid, { width: 0 })).toThrow(RangeError);
    expect(() => plotSvg(grid, { height: Number.NaN })).toThrow(RangeError);
    expect(() => plotSvg(grid, { bounds: [0, 0, Number.POSITIVE_INFINITY, 1] })).toThrow(RangeError);
    expect(() => plotSvg(grid, { bounds: [1, 0, 0, 1] })).toThrow(RangeError);
    expect(() => plotSvg(grid, { strokeWidth: -1 })).toThrow(RangeError);
  });

  it('draws 100k Voronoi cells with their sites quickly', () => {
    const n = 100_000;
    const sites = generatePoints('uniform', n, 3);
    const { coords, ringOffsets } = voronoiCells(sites, { minX: -1, minY: -1, maxX: 1001, maxY: 1001 });
    const rows = new Int32Array(n + 1).map((_, i) => i);
    const cells = new GeometryArray({
      type: GeometryType.Polygon,
      dimension: 'xy',
      coords,
      offsets: [rows, ringOffsets],
      length: n,
    });
    const points = new GeometryArray({
      type: GeometryType.Point,
      dimension: 'xy',
      coords: sites,
      offsets: [],
      length: n,
    });
    const start = performance.now();
    const svg = plotSvg(cells, { points });
    const elapsed = performance.now() - start;
    // about 0.2–0.3 s on a laptop core; the bound only catches a blow-up, not jitter
    expect(elapsed).toBeLessThan(3000);
    // one path per cell, and the sites in one path per dot size (sizes follow the local density)
    const pathCount = svg.match(/<path /g)?.length ?? 0;
    expect(pathCount).toBeGreaterThan(n);
    expect(pathCount).toBeLessThanOrEqual(n + 3);
    const fills = new Set(svg.match(/fill="#[0-9a-f]{6}"/g));
    expect(fills.size).toBeLessThanOrEqual(6 + 1); // palette colours, plus the background
  });
});
