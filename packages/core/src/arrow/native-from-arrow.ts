import { type Data, DataType, type Float, Precision } from 'apache-arrow';
import type { Crs } from '../array/crs.js';
import { GeometryArray } from '../array/geometry-array.js';
import { type Dimension, extensionNameOf, type GeometryType, offsetLevels } from '../array/geometry-type.js';
import { UnsupportedInputError } from '../errors.js';
import { validityOfData } from './validity.js';

const INT32_MAX = 2 ** 31 - 1;
const DIMENSIONS: readonly Dimension[] = ['xy', 'xyz', 'xym', 'xyzm'];

/**
 * Reads one Arrow Data holding a native GeoArrow column of `type` (interleaved or separated
 * coordinates, List or LargeList offsets) into a GeometryArray.
 *
 * Zero-copy for interleaved coordinates with List offsets: `coords` and every offsets array
 * are views of Arrow's buffers (Arrow JS keeps a slice's buffers starting at its row 0, so the
 * views start there; inner levels are shared whole, as GeometryArray expects). Separated
 * coordinates are copied into an interleaved buffer; LargeList offsets are copied into Int32
 * (UnsupportedInputError past 2^31 - 1). The outermost validity bitmap gives the nulls.
 */
export function nativeArrayFromData(data: Data, type: GeometryType, crs: Crs | null): GeometryArray {
  // Arrow JS gives an empty table's column a zero-length Data without children or buffers
  if (data.length === 0 && !hasBuffers(data, offsetLevels(type)))
    return emptyNativeArray(type, data.type, crs);
  const name = extensionNameOf(type);
  const offsets: Int32Array[] = [];
  let level: Data = data;
  for (let k = 0; k < offsetLevels(type); k++) {
    if (!DataType.isList(level.type) && !DataType.isLargeList(level.type)) {
      throw new UnsupportedInputError(
        `${name} needs ${offsetLevels(type)} nested List levels around its coordinates; level ${k} is ${String(level.type)}`,
      );
    }
    offsets.push(int32Offsets(level.valueOffsets as Int32Array | BigInt64Array, level.length, name));
    level = level.children[0];
  }
  const { coords, dimension } = readCoordinates(level, name);
  const validity = validityOfData(data);
  return new GeometryArray({
    type,
    dimension,
    coords,
    offsets,
    length: data.length,
    validity: validity.bitmap,
    validityOffset: validity.offset,
    crs,
  });
}

/** The `length + 1` offsets of a list level as Int32 (a view for List, a checked copy for LargeList). */
function int32Offsets(offsets: Int32Array | BigInt64Array, length: number, name: string): Int32Array {
  if (offsets instanceof Int32Array) return offsets.subarray(0, length + 1);
  const out = new Int32Array(length + 1);
  for (let i = 0; i <= length; i++) {
    const v = offsets[i];
    if (v > INT32_MAX || v < 0) {
      throw new UnsupportedInputError(
        `${name}: LargeList offset ${v} does not fit in 32 bits (at most 2^31 - 1)`,
      );
    }
    out[i] = Number(v);
  }
  return out;
}

function isFloat64(type: DataType): boolean {
  return DataType.isFloat(type) && (type as Float).precision === Precision.DOUBLE;
}

/** The interleaved coordinates of a FixedSizeList<Float64> or Struct<x, y[, z][, m]> Data. */
function readCoordinates(data: Data, name: string): { coords: Float64Array; dimension: Dimension } {
  const n = data.length;
  if (DataType.isFixedSizeList(data.type)) {
    const size = data.type.listSize;
    const childField = data.type.children[0];
    if (!isFloat64(childField.type)) {
      throw new UnsupportedInputError(`${name}: coordinates must be Float64, got ${String(childField.type)}`);
    }
    const dimension = interleavedDimension(childField.name, size, name);
    const values = data.children[0].values as Float64Array;
    if (values.length < n * size) {
      throw new UnsupportedInputError(
        `${name}: ${n} coordinates need ${n * size} values, the buffer has ${values.length}`,
      );
    }
    return { coords: values.subarray(0, n * size), dimension };
  }
  if (DataType.isStruct(data.type)) {
    const names = data.type.children.map((f) => f.name);
    const index = (axis: string) => names.indexOf(axis);
    const [ix, iy, iz, im] = [index('x'), index('y'), index('z'), index('m')];
    if (ix < 0 || iy < 0 || names.length !== 2 + Number(iz >= 0) + Number(im >= 0)) {
      throw new UnsupportedInputError(
        `${name}: separated coordinates must be a Struct of x, y and optionally z and m; got fields ${names.join(', ')}`,
      );
    }
    const dimension = `xy${iz >= 0 ? 'z' : ''}${im >= 0 ? 'm' : ''}` as Dimension;
    const axes = [ix, iy, iz, im].filter((i) => i >= 0);
    const stride = axes.length;
    const coords = new Float64Array(n * stride);
    axes.forEach((child, d) => {
      const field = data.type.children[child];
      if (!isFloat64(field.type)) {
        throw new UnsupportedInputError(
          `${name}: coordinate ${field.name} must be Float64, got ${String(field.type)}`,
        );
      }
      const values = data.children[child].values as Float64Array;
      if (values.length < n) {
        throw new UnsupportedInputError(
          `${name}: coordinate ${field.name} has ${values.length} values for ${n} points`,
        );
      }
      for (let i = 0, k = d; i < n; i++, k += stride) coords[k] = values[i];
    });
    return { coords, dimension };
  }
  throw new UnsupportedInputError(
    `${name}: coordinates must be FixedSizeList<Float64> (interleaved) or Struct<x, y, …> (separated), got ${String(data.type)}`,
  );
}

/** The dimension of interleaved coordinates: from the child field name, else from the list size. */
function interleavedDimension(childName: string, size: number, name: string): Dimension {
  const named = DIMENSIONS.find((d) => d === childName.toLowerCase());
  if (named) {
    if (named.length !== size) {
      throw new UnsupportedInputError(
        `${name}: coordinate field '${childName}' does not match list size ${size}`,
      );
    }
    return named;
  }
  switch (size) {
    case 2:
      return 'xy';
    case 3:
      return 'xyz';
    case 4:
      return 'xyzm';
    default:
      throw new UnsupportedInputError(
        `${name}: interleaved coordinates must have 2, 3 or 4 values, got ${size}`,
      );
  }
}

/**
 * A zero-row array of `type` for an empty column; the dimension is read from the Arrow type
 * (the same rules as for data), and the type's nesting is checked.
 */
export function emptyNativeArray(type: GeometryType, arrowType: DataType, crs: Crs | null): GeometryArray {
  const name = extensionNameOf(type);
  let t: DataType = arrowType;
  for (let k = 0; k < offsetLevels(type); k++) {
    if (!DataType.isList(t) && !DataType.isLargeList(t)) {
      throw new UnsupportedInputError(
        `${name} needs ${offsetLevels(type)} nested List levels; level ${k} is ${String(t)}`,
      );
    }
    t = t.children[0].type;
  }
  let dimension: Dimension;
  if (DataType.isFixedSizeList(t)) {
    dimension = interleavedDimension(t.children[0].name, t.listSize, name);
  } else if (DataType.isStruct(t)) {
    const names = new Set(t.children.map((f) => f.name));
    dimension = `xy${names.has('z') ? 'z' : ''}${names.has('m') ? 'm' : ''}` as Dimension;
  } else {
    throw new UnsupportedInputError(
      `${name}: coordinates must be FixedSizeList<Float64> or Struct, got ${String(t)}`,
    );
  }
  return new GeometryArray({
    type,
    dimension,
    coords: new Float64Array(0),
    offsets: Array.from({ length: offsetLevels(type) }, () => new Int32Array(1)),
    length: 0,
    crs,
  });
}

/** Whether every level down to the coordinates has its child Data and offsets. */
function hasBuffers(data: Data, levels: number): boolean {
  let d: Data | undefined = data;
  for (let k = 0; k < levels; k++) {
    if (!d?.valueOffsets || d.valueOffsets.length === 0) return false;
    d = d.children[0];
  }
  return d !== undefined && d.children.length > 0 && d.children.every((c) => c?.values !== undefined);
}
