/**
 * The raster Voronoi vocabulary shared by the CPU and GPU implementations and the geo API.
 *
 * Convention (GDAL's geotransform): `labels[(slice * height + row) * width + col]`; row 0 is the
 * top (largest y); slice 0 is the lowest z. Pixel (voxel) centres sit at half-pixel offsets inside
 * the bounds: x = xmin + (col + 0.5)·(xmax − xmin)/width, y = ymax − (row + 0.5)·(ymax − ymin)/height,
 * z = zmin + (slice + 0.5)·(zmax − zmin)/depth. The label of a pixel is the index of the site
 * nearest to its centre; equal distances go to the lower site index.
 */

/** The raster Voronoi algorithms. */
export type RasterMode = 'jfa' | 'jfa+1' | '1+jfa' | 'facet-jfa' | 'exact';

/** Every {@link RasterMode}, in documentation order. */
export const RASTER_MODES: readonly RasterMode[] = ['jfa', 'jfa+1', '1+jfa', 'facet-jfa', 'exact'];

/** A 2D grid (depth 1) or a 3D grid of voxels over axis-aligned bounds. */
export interface RasterGrid {
  width: number;
  height: number;
  /** 1 for a 2D raster. */
  depth: number;
  /** [xmin, ymin, xmax, ymax] in 2D; [xmin, ymin, zmin, xmax, ymax, zmax] in 3D. */
  bounds: readonly number[];
}

/** The result of a raster Voronoi computation. */
export interface RasterLabels {
  /** Per pixel: the index (into the sites given) of its nearest site, or −1 (no site). */
  labels: Int32Array;
  /** Per pixel: the distance from its centre to its labelled site, in coordinate units (on request). */
  distance?: Float32Array;
}
