import type { Table } from 'apache-arrow';
import type { GeoDataFrame } from '../geo-data-frame.js';
import { GeoSeries } from '../geo-series.js';
import type { ColumnInput } from './column-data.js';
import { assignColumns, dropColumns, renameColumns } from './edit-columns.js';
import { FrameBase } from './frame-base.js';
import { FrameSpatial } from './frame-spatial.js';
import { type MergeOptions, mergeTables } from './merge.js';
import { type SortByOptions, sortIndices } from './sort-by.js';
import { countBy, type ValueCountsOptions, valueCounts } from './value-counts.js';

/** A GeoDataFrame's column verbs, as pandas names them: assign, sort, rename, drop, merge, counts. */
export abstract class FrameColumns extends FrameSpatial {
  /** pandas' `assign`: columns replaced in place or appended (values: Arrow vector, array, one value, or a GeoSeries). */
  assign(columns: Record<string, ColumnInput | GeoSeries>): GeoDataFrame {
    const specs = Object.fromEntries(
      Object.entries(columns).map(([k, v]) => [k, v instanceof GeoSeries ? v.toArrow() : v]),
    );
    return this.rebuilt(assignColumns(this.table, this.geometryName, specs));
  }

  /** One column replaced or appended (see {@link assign}). */
  withColumn(name: string, values: ColumnInput | GeoSeries): GeoDataFrame {
    return this.assign({ [name]: values });
  }

  /** Rows sorted by one or more columns, stable, nulls last (pandas' `sort_values(by, kind='stable')`). */
  sortBy(by: string | string[], options: SortByOptions = {}): GeoDataFrame {
    return this.take(sortIndices(this.table, by, options));
  }

  /** Columns renamed by `{old: new}` (pandas' `rename(columns=…, errors='raise')`); the active geometry follows its name. */
  rename(mapping: Record<string, string>): GeoDataFrame {
    const { table, geometryName } = renameColumns(this.table, this.geometryName, mapping);
    return this.fromTable(table, { geometry: geometryName, validate: false });
  }

  /** The frame without the named columns (pandas' `drop(columns=…)`). */
  drop(columns: string | string[]): GeoDataFrame {
    return this.rebuilt(
      dropColumns(this.table, this.geometryName, typeof columns === 'string' ? [columns] : columns),
    );
  }

  /** pandas' `merge` on attribute columns, keeping this frame's geometry active (see {@link MergeOptions}). */
  merge(right: GeoDataFrame | Table, options: MergeOptions = {}): GeoDataFrame {
    const r = right instanceof FrameBase ? right.table : right;
    const { table, geometryName } = mergeTables(this.table, this.geometryName, r, options);
    return this.fromTable(table, { geometry: geometryName, validate: false });
  }

  /** Distinct values of a column and their counts, most frequent first (pandas' `value_counts().reset_index()`), as a table. */
  valueCounts(column: string, options: ValueCountsOptions = {}): Table {
    return valueCounts(this.table, column, options);
  }

  /** Rows per value of `by`, keys ascending (pandas' `groupby(by).size()`): e.g. points per `index_right` after a join. */
  countBy(by: string): Table {
    return countBy(this.table, by);
  }
}
