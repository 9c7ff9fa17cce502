import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { GeometryArray, GeometryType, readWkt } from '@geoframe/core';
import { voronoiCells } from '@geoframe/cpu';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { NEIGHBOR_PALETTE, neighborColors, plotPng } from '../src/plot/index.js';
import { squareGrid } from './plot-fixtures.js';

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

interface Decoded {
  width: number;
  height: number;
  /** RGBA, row by row. */
  pixels: Uint8Array;
}

/**
 * A minimal PNG reader, independent of the renderer: walks the chunks, inflates the IDAT data
 * with node:zlib and undoes the five scanline filters. Only 8-bit RGBA (colour type 6) and
 * non-interlaced images, which is what the renderer writes.
 */
function decodePng(png: Uint8Array): Decoded {
  expect([...png.subarray(0, 8)]).toEqual(SIGNATURE);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  for (;;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      expect([data[8], data[9], data[12]]).toEqual([8, 6, 0]); // bit depth, RGBA, no interlace
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= 4 ? pixels[y * stride + i - 4] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= 4 && y > 0 ? pixels[(y - 1) * stride + i - 4] : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + i] = (line[i] + predicted) & 0xff;
    }
  }
  return { width, height, pixels };
}

function rgbaAt(image: Decoded, x: number, y: number): number[] {
  const k = (y * image.width + x) * 4;
  return [...image.pixels.subarray(k, k + 4)];
}

function rgba(hex: string): number[] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).concat(255);
}

describe('plotPng', () => {
  it('loads the renderer only when called', async () => {
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).some((path) => path.includes('resvg-js'));
    expect(loaded()).toBe(false);
    await plotPng(squareGrid(1, 1), { width: 8, height: 8 });
    expect(loaded()).toBe(true);
  });

  it('renders a grid at the asked size, each square filled with its colour', async () => {
    const grid = squareGrid(4, 3);
    // a 4 × 3 window into 400 × 300 pixels: square (i, j) spans x 100i..100i+100, y flipped
    const png = await plotPng(grid, { width: 400, height: 300, bounds: [0, 0, 4, 3] });
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([400, 300]);
    const colors = neighborColors(grid);
    for (let j = 0; j < 3; j++) {
      for (let i = 0; i < 4; i++) {
        const x = 100 * i + 50;
        const y = 300 - (100 * j + 50);
        expect(rgbaAt(image, x, y), `square ${i}, ${j}`).toEqual(rgba(NEIGHBOR_PALETTE[colors[j * 4 + i]]));
      }
    }
    // the outline between squares 0 and 1 is dark, not a fill colour
    const edge = rgbaAt(image, 100, 250);
    expect(edge[0] + edge[1] + edge[2]).toBeLessThan(3 * 150);
  });

  it('paints background, holes, a single fill colour and dots', async () => {
    const array = readWkt(['POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 4 6, 6 6, 6 4, 4 4))']);
    const points = readWkt(['POINT (2 2)']);
    const png = await plotPng(array, {
      width: 120,
      height: 120,
      bounds: [-1, -1, 11, 11],
      fill: '#ff8000',
      background: '#0000ff',
      points,
      pointRadius: 3,
      strokeWidth: 0,
    });
    const image = decodePng(png);
    const at = (x: number, y: number) => rgbaAt(image, (x + 1) * 10, 120 - (y + 1) * 10);
    expect(at(8, 8)).toEqual(rgba('#ff8000')); // inside the polygon
    expect(at(5, 5)).toEqual(rgba('#0000ff')); // inside the hole
    expect(at(10.5, 5)).toEqual(rgba('#0000ff')); // outside
    expect(at(2, 2)).toEqual(rgba('#1a1a1a')); // the site's dot
  });

  it('leaves the background transparent with background none', async () => {
    const image = decodePng(
      await plotPng(readWkt(['POINT (0 0)', 'POINT (1 1)']), { width: 50, height: 50, background: 'none' }),
    );
    expect(rgbaAt(image, 25, 25)).toEqual([0, 0, 0, 0]);
  });

  it('renders Voronoi cells with sites: every site pixel is a dot, cell interiors are palette colours', async () => {
    const n = 200;
    const sites = generatePoints('uniform', n, 8);
    const { coords, ringOffsets } = voronoiCells(sites, { minX: 0, minY: 0, maxX: 1000, maxY: 1000 });
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
    const image = decodePng(
      await plotPng(cells, { points, width: 500, height: 500, bounds: [0, 0, 1000, 1000], pointRadius: 2 }),
    );
    expect([image.width, image.height]).toEqual([500, 500]);
    const colors = neighborColors(cells);
    let checked = 0;
    for (let i = 0; i < n; i++) {
      const x = Math.round(sites[2 * i] / 2);
      const y = Math.round(500 - sites[2 * i + 1] / 2);
      if (x < 1 || y < 1 || x > 498 || y > 498) continue;
      expect(rgbaAt(image, x, y)).toEqual(rgba('#1a1a1a'));
      // 5 px right of the site (data x + 10 or 11 at the pixel's centre), when that spot is in
      // the site's own cell and at least 4 px from its boundary: then it shows the cell's fill
      const px = x + 5;
      if (px > 498) continue;
      const sampleX = 2 * (px + 0.5);
      const sampleY = 2 * (500 - (y + 0.5));
      const distances = Array.from({ length: n }, (_, j) =>
        Math.hypot(sites[2 * j] - sampleX, sites[2 * j + 1] - sampleY),
      );
      const own = distances[i];
      const others = Math.min(...distances.filter((_, j) => j !== i));
      // the distance to the bisector with the nearest other site is at least (others - own) / 2
      if (others - own < 16) continue;
      expect(rgbaAt(image, px, y), `cell ${i}`).toEqual(rgba(NEIGHBOR_PALETTE[colors[i]]));
      checked++;
    }
    expect(checked).toBeGreaterThan(n / 2);
  });
});
