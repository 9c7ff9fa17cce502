import { type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';

/** A `cols` × `rows` grid of unit squares, row-major from (0, 0), counter-clockwise rings. */
export function squareGrid(cols: number, rows: number): GeometryArray {
  const b = new GeometryBuilder(GeometryType.Polygon);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      b.beginGeometry(GeometryType.Polygon);
      b.beginRing();
      for (const [x, y] of [
        [i, j],
        [i + 1, j],
        [i + 1, j + 1],
        [i, j + 1],
        [i, j],
      ]) {
        b.pushXY(x, y);
      }
      b.endGeometry();
    }
  }
  return b.finish();
}
