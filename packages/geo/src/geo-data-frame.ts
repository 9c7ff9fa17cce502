import { checkOptions, validateGeometryArray } from '@geoframe/core';
import type { Table, Vector } from 'apache-arrow';
import { concatTables } from './frame/concat.js';
import type { FramePlotOptions } from './frame/frame-base.js';
import { FrameColumns } from './frame/frame-columns.js';
import { defaultGeometryName, seriesTable } from './frame/frame-tables.js';
import type { GeoSeries } from './geo-series.js';
import { readGeoJson } from './io/index.js';
import { checkSameCrs } from './ops/crs-resolve.js';
import type { OverlayHow } from './ops/overlay.js';
import type { SjoinNearestOptions, SjoinOptions } from './ops/sjoin.js';

export type { FramePlotOptions };

/** Options of {@link GeoDataFrame.fromArrow}. */
export interface GeoDataFrameOptions {
  /** The active geometry column; default: the column named "geometry", else the first GeoArrow column. */
  geometry?: string;
  /** Check the active geometry column (offsets, rings, finite coordinates; default true). */
  validate?: boolean;
}

// The methods live in layers by concern, each extending the one before (adr/0016):
// frame/frame-base.ts (columns, rows, the active geometry, conversions, pictures, display),
// frame-spatial.ts (geometry operations and joins) and frame-columns.ts (pandas' column verbs).
// This file holds the constructors and GeoPandas' module functions (sjoin, overlay, clip, concat).

/**
 * A table with an active geometry column — geoframe's GeoDataFrame. It wraps an Arrow `Table`:
 * geometry columns are GeoArrow fields; every other column is kept untouched (types, metadata,
 * dictionaries). Operations return new frames; the caller's table is never modified.
 */
export class GeoDataFrame extends FrameColumns {
  private constructor(table: Table, geometryName: string, geometry?: GeoSeries) {
    super(table, geometryName, geometry);
  }

  protected derive(table: Table, geometryName: string, geometry?: GeoSeries): GeoDataFrame {
    return new GeoDataFrame(table, geometryName, geometry);
  }

  protected fromTable(table: Table, options: GeoDataFrameOptions): GeoDataFrame {
    return GeoDataFrame.fromArrow(table, options);
  }

  /** Wraps an Arrow table whose geometry columns carry GeoArrow extension metadata. */
  static fromArrow(table: Table, options: GeoDataFrameOptions = {}): GeoDataFrame {
    checkOptions(options, ['geometry', 'validate'], 'fromArrow');
    const name = options.geometry ?? defaultGeometryName(table);
    if (name === null) {
      throw new TypeError(
        `fromArrow: the table has no GeoArrow geometry column (columns: ${table.schema.fields.map((f) => f.name).join(', ')}); pass {geometry: name} with a WKB/WKT column`,
      );
    }
    const field = table.schema.fields.find((f) => f.name === name);
    if (!field) throw new TypeError(`fromArrow: no column named "${name}"`);
    const frame = new GeoDataFrame(table, name);
    // decode the active geometry now, so bad input fails here and names its row
    if (options.validate !== false) validateGeometryArray(frame.geometry.array);
    return frame;
  }

  /** From a GeoJSON FeatureCollection (or Feature, geometry, array of either): properties become columns. */
  static fromGeoJSON(input: string | object, options: GeoDataFrameOptions = {}): GeoDataFrame {
    checkOptions(options, ['geometry', 'validate'], 'fromGeoJSON');
    const { table, primary } = readGeoJson(input);
    return GeoDataFrame.fromArrow(table, { geometry: primary ?? undefined, ...options });
  }

  /** A frame from a GeoSeries and optional attribute columns (Arrow vectors of the same length). */
  static fromSeries(geometry: GeoSeries, columns: Record<string, Vector> = {}): GeoDataFrame {
    const { table, name } = seriesTable(geometry, columns);
    return new GeoDataFrame(table, name, geometry.rename(name));
  }
}

/** GeoPandas' `gpd.overlay(df1, df2, how)`: the same as `df1.overlay(df2, {how})`. */
export function overlay(
  df1: GeoDataFrame,
  df2: GeoDataFrame,
  options: { how?: OverlayHow } = {},
): GeoDataFrame {
  return df1.overlay(df2, options);
}

/** GeoPandas' `gpd.clip(gdf, mask)`: the same as `gdf.clip(mask)`. */
export function clip(gdf: GeoDataFrame, mask: GeoSeries | GeoDataFrame): GeoDataFrame {
  return gdf.clip(mask);
}

/** GeoPandas' `gpd.sjoin(left, right, …)`: the same as `left.sjoin(right, …)`. */
export function sjoin(left: GeoDataFrame, right: GeoDataFrame, options: SjoinOptions = {}): GeoDataFrame {
  return left.sjoin(right, options);
}

/** GeoPandas' `gpd.sjoin_nearest(left, right, …)`: the same as `left.sjoinNearest(right, …)`. */
export function sjoinNearest(
  left: GeoDataFrame,
  right: GeoDataFrame,
  options: SjoinNearestOptions = {},
): GeoDataFrame {
  return left.sjoinNearest(right, options);
}

/**
 * GeoPandas' `pd.concat(frames, ignore_index=True)`: rows of every frame in order, columns aligned
 * (a column a frame lacks is null there). The active geometries must share a name and a CRS
 * (a frame without a CRS takes the others'); different CRS are a `CrsError`.
 */
export function concat(frames: GeoDataFrame[]): GeoDataFrame {
  if (frames.length === 0) throw new RangeError('concat: no frames to concatenate');
  const name = frames[0].geometryName;
  for (const f of frames) {
    if (f.geometryName !== name) {
      throw new TypeError(
        `concat: active geometry columns differ ("${name}" and "${f.geometryName}"); rename one`,
      );
    }
  }
  for (const a of frames) for (const b of frames) checkSameCrs(a.crs, b.crs, 'concat');
  return GeoDataFrame.fromArrow(concatTables(frames.map((f) => f.table)), {
    geometry: name,
    validate: false,
  });
}
