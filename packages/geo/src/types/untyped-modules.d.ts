// lz4js and shpjs ship no types: the functions geoframe calls.
declare module 'lz4js' {
  /** Decompresses an LZ4 frame (the size from its header, or `maxSize`). */
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
  const lz4: { decompress: typeof decompress };
  export default lz4;
}

// shpjs ships no types: the parser geoframe calls (the .shp bytes, no projection: the CRS is kept).
declare module 'shpjs' {
  /** The .shp records as GeoJSON geometries (null for null shapes). */
  export function parseShp(shp: Uint8Array | ArrayBuffer | DataView, prj?: string | false): unknown[];
}

// sql.js ships no types: the part of its API geoframe calls (SQLite in WebAssembly).
declare module 'sql.js' {
  export interface QueryExecResult {
    columns: string[];
    values: unknown[][];
  }
  export interface Database {
    exec(sql: string, params?: unknown[]): QueryExecResult[];
    close(): void;
  }
  export interface SqlJsStatic {
    Database: new (data?: Uint8Array) => Database;
  }
  export default function initSqlJs(config?: object): Promise<SqlJsStatic>;
}
