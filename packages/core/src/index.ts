export { type Crs, crsLabel, sameCrs } from './array/crs.js';
export { GeometryArray, type GeometryArrayParts, type NestedOffsets } from './array/geometry-array.js';
export { GeometryBuilder } from './array/geometry-builder.js';
export {
  type ColumnType,
  type Dimension,
  extensionNameOf,
  GeometryType,
  geometryTypeName,
  offsetLevels,
  strideOf,
  typeOfExtensionName,
} from './array/geometry-type.js';
export { GrowableFloat64, GrowableInt32, GrowableUint8 } from './array/growable.js';
export { GeoframeError, InvalidGeometryError, UnsupportedInputError } from './errors.js';
