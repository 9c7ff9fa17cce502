import type { GeometryArray } from './geometry-array.js';

/**
 * Checks offsets, ring closure and coordinate values; throws InvalidGeometryError naming the
 * first bad row. STUB: being written.
 */
export function validateGeometryArray(_array: GeometryArray): void {
  throw new Error('validateGeometryArray: not implemented yet');
}
