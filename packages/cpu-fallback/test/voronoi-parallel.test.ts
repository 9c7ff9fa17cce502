// voronoiCellsParallel splits the ring write pass over worker threads; its output must be the
// serial voronoiCells output bit for bit. A lowered minSites keeps the inputs small.
import { clipBox, generatePoints, type PointSetKind, uniqueSites } from '@geoframe/core';
import { expect, test } from 'vitest';
import { voronoiCells, voronoiCellsParallel } from '../src/index.js';

function bits(a: Float64Array): BigUint64Array {
  return new BigUint64Array(a.buffer, a.byteOffset, a.length);
}

const kinds: PointSetKind[] = [
  'uniform',
  'clusters',
  'lattice',
  'lattice-offset',
  'circle',
  'near-duplicates',
];

test.each(kinds)('%s sites: parallel cells equal the serial cells bit for bit', async (kind) => {
  const xy = uniqueSites(generatePoints(kind, 20_000, 7)).xy;
  const box = clipBox(xy);
  const w = (box.maxX - box.minX) / 4;
  const h = (box.maxY - box.minY) / 4;
  const cut = { minX: box.minX + w, minY: box.minY + h, maxX: box.maxX - w, maxY: box.maxY - h };
  for (const b of [box, cut]) {
    const serial = voronoiCells(xy, b);
    for (const threads of [2, 3]) {
      const parallel = await voronoiCellsParallel(xy, b, { minSites: 1000, threads });
      expect(parallel.ringOffsets).toEqual(serial.ringOffsets);
      expect(bits(parallel.coords)).toEqual(bits(serial.coords));
    }
  }
});

test('small inputs, collinear sites and one thread take the serial path', async () => {
  const xy = uniqueSites(generatePoints('uniform', 500, 1)).xy;
  const box = clipBox(xy);
  const serial = voronoiCells(xy, box);
  const small = await voronoiCellsParallel(xy, box);
  expect(bits(small.coords)).toEqual(bits(serial.coords));
  const one = await voronoiCellsParallel(xy, box, { minSites: 0, threads: 1 });
  expect(bits(one.coords)).toEqual(bits(serial.coords));
  const line = new Float64Array([0, 0, 1, 1, 2, 2, 3, 3]);
  const lineBox = { minX: -1, minY: -1, maxX: 4, maxY: 4 };
  const lineCells = await voronoiCellsParallel(line, lineBox, { minSites: 0, threads: 2 });
  expect(bits(lineCells.coords)).toEqual(bits(voronoiCells(line, lineBox).coords));
  expect((await voronoiCellsParallel(new Float64Array(0), lineBox)).ringOffsets).toEqual(new Int32Array(1));
});
