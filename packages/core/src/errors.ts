/** Base class of every error geoframe throws on purpose; `code` is stable for programs to match. */
export class GeoframeError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GeoframeError';
    this.code = code;
  }
}

/** A geometry that cannot be used as given. The message names the row and the problem. */
export class InvalidGeometryError extends GeoframeError {
  /** Row index in the column the caller passed (not in an internal copy). */
  readonly row: number;
  constructor(row: number, problem: string) {
    super('INVALID_GEOMETRY', `row ${row}: ${problem}`);
    this.name = 'InvalidGeometryError';
    this.row = row;
  }
}

/** Input that is not a geometry column we can read: wrong Arrow type, unknown extension, bad metadata. */
export class UnsupportedInputError extends GeoframeError {
  constructor(message: string) {
    super('UNSUPPORTED_INPUT', message);
    this.name = 'UnsupportedInputError';
  }
}

/**
 * A file that cannot be read or written as asked: missing, unreadable, not in the format its
 * extension names, corrupt, or holding no geometry. The message starts with the path.
 */
export class FileError extends GeoframeError {
  /** The path as the caller gave it. */
  readonly path: string;
  constructor(code: string, path: string, problem: string, options?: { cause?: unknown }) {
    super(code, `${path}: ${problem}`, options);
    this.name = 'FileError';
    this.path = path;
  }
}
