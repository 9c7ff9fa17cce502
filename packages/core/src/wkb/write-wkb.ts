import type { BinaryColumn } from '../array/binary-column.js';
import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';
import { flagsOfDimension, HAS_M, HAS_Z } from './column-shape.js';
import { type RowLayout, rowLayoutOf } from './row-layout.js';

const PLATFORM_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const MAX_INT32 = 0x7fffffff;

/**
 * Encodes every row as little-endian ISO WKB (Z/M/ZM as type code + 1000/2000/3000, all rows in
 * the column's dimension). Coordinates are copied as exact doubles. An empty point is written
 * as a point of NaN coordinates, as GEOS/shapely do; other empties have zero parts/rings/points.
 * Null rows are zero-length values marked null in the validity bitmap (shared with the input,
 * with its bit offset). Rows of a mixed column keep their own type.
 *
 * The output is sized exactly in a first pass and then written once.
 *
 * @throws RangeError when the encoded column would exceed 2^31 - 1 bytes (Int32 offsets).
 */
export function writeWkb(array: GeometryArray): BinaryColumn {
  const n = array.length;
  const layout = rowLayoutOf(array);
  const coordBytes = 8 * array.stride;
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (array.isValid(i)) total += rowSize(layout, array.typeOf(i)!, i, coordBytes);
    if (total > MAX_INT32) throw new RangeError(`writeWkb: the WKB of ${n} rows exceeds 2^31 - 1 bytes`);
    offsets[i + 1] = total;
  }

  const writer = new WkbWriter(array, layout, new Uint8Array(total));
  for (let i = 0; i < n; i++) {
    if (array.isValid(i)) writer.writeRow(array.typeOf(i)!, i);
  }
  return {
    length: n,
    values: writer.out,
    offsets,
    validity: array.validity,
    validityOffset: array.validityOffset,
  };
}

/** Bytes of row `i`'s WKB (the row is valid and of `type`). */
function rowSize(layout: RowLayout, type: GeometryType, i: number, coordBytes: number): number {
  const { parts, rings, coords } = layout;
  const p0 = parts ? parts[i] : i;
  const p1 = parts ? parts[i + 1] : i + 1;
  switch (type) {
    case GeometryType.Point:
      return 5 + coordBytes;
    case GeometryType.MultiPoint:
      return 9 + (p1 - p0) * (5 + coordBytes);
    case GeometryType.LineString:
    case GeometryType.MultiLineString: {
      let size = type === GeometryType.MultiLineString ? 9 + 9 * (p1 - p0) : 9;
      for (let p = p0; p < p1; p++) {
        const r = rings ? rings[p] : p;
        size += (coords ? coords[r + 1] - coords[r] : 1) * coordBytes;
      }
      return size;
    }
    default: {
      let size = type === GeometryType.MultiPolygon ? 9 + 9 * (p1 - p0) : 9;
      for (let p = p0; p < p1; p++) {
        const r0 = rings ? rings[p] : p;
        const r1 = rings ? rings[p + 1] : p + 1;
        size += 4 * (r1 - r0);
        if (coords) size += (coords[r1] - coords[r0]) * coordBytes;
        else size += (r1 - r0) * coordBytes;
      }
      return size;
    }
  }
}

/** Writes rows into an exactly sized buffer, in row order. */
class WkbWriter {
  private pos = 0;
  private readonly view: DataView;
  private readonly coordView: Uint8Array;
  private readonly stride: number;
  private readonly dimCode: number;

  constructor(
    private readonly array: GeometryArray,
    private readonly layout: RowLayout,
    readonly out: Uint8Array,
  ) {
    this.view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    const c = array.coords;
    this.coordView = new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
    this.stride = array.stride;
    const flags = flagsOfDimension(array.dimension);
    this.dimCode = (flags & HAS_Z ? 1000 : 0) + (flags & HAS_M ? 2000 : 0);
  }

  writeRow(type: GeometryType, i: number): void {
    const { parts, rings } = this.layout;
    const p0 = parts ? parts[i] : i;
    const p1 = parts ? parts[i + 1] : i + 1;
    this.header(type);
    switch (type) {
      case GeometryType.Point:
        // a mixed column's empty point has no part: write NaN coordinates
        if (p1 > p0) this.coords(this.firstCoord(p0), 1);
        else this.nanCoord();
        return;
      case GeometryType.MultiPoint:
        this.count(p1 - p0);
        for (let p = p0; p < p1; p++) {
          this.header(GeometryType.Point);
          this.coords(this.firstCoord(p), 1);
        }
        return;
      case GeometryType.LineString:
        if (p1 === p0) this.count(0);
        else this.run(rings ? rings[p0] : p0);
        return;
      case GeometryType.MultiLineString:
        this.count(p1 - p0);
        for (let p = p0; p < p1; p++) {
          this.header(GeometryType.LineString);
          this.run(rings ? rings[p] : p);
        }
        return;
      case GeometryType.Polygon:
        if (p1 === p0) this.count(0);
        else this.polygon(p0);
        return;
      default:
        this.count(p1 - p0);
        for (let p = p0; p < p1; p++) {
          this.header(GeometryType.Polygon);
          this.polygon(p);
        }
    }
  }

  /** The coordinate index of part `p`'s first ring's first coordinate. */
  private firstCoord(p: number): number {
    const { rings, coords } = this.layout;
    const r = rings ? rings[p] : p;
    return coords ? coords[r] : r;
  }

  private polygon(p: number): void {
    const rings = this.layout.rings;
    const r0 = rings ? rings[p] : p;
    const r1 = rings ? rings[p + 1] : p + 1;
    this.count(r1 - r0);
    for (let r = r0; r < r1; r++) this.run(r);
  }

  /** Count and coordinates of ring (or linestring) `r`. */
  private run(r: number): void {
    const coords = this.layout.coords;
    const c0 = coords ? coords[r] : r;
    const c1 = coords ? coords[r + 1] : r + 1;
    this.count(c1 - c0);
    this.coords(c0, c1 - c0);
  }

  private header(type: GeometryType): void {
    this.out[this.pos] = 1;
    this.view.setUint32(this.pos + 1, type + this.dimCode, true);
    this.pos += 5;
  }

  private count(value: number): void {
    this.view.setUint32(this.pos, value, true);
    this.pos += 4;
  }

  private coords(first: number, count: number): void {
    const values = count * this.stride;
    if (PLATFORM_LITTLE_ENDIAN) {
      const from = first * this.stride * 8;
      this.out.set(this.coordView.subarray(from, from + values * 8), this.pos);
      this.pos += values * 8;
      return;
    }
    const src = this.array.coords;
    for (let k = first * this.stride, end = k + values; k < end; k++) {
      this.view.setFloat64(this.pos, src[k], true);
      this.pos += 8;
    }
  }

  private nanCoord(): void {
    for (let d = 0; d < this.stride; d++) {
      this.view.setFloat64(this.pos, Number.NaN, true);
      this.pos += 8;
    }
  }
}
