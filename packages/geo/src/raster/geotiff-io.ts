import { GeoframeError } from '@geoframe/core';
import { fromArrayBuffer, writeArrayBuffer } from 'geotiff';
import { readBytes, writeBytes } from '#platform/files';

/** A single-band north-up raster: `values[row · width + col]`, row 0 at the top (largest y). */
export interface Raster2D {
  values: Float32Array;
  width: number;
  height: number;
  /** [xmin, ymin, xmax, ymax]: the outer edges of the pixels (docs/raster.md). */
  bounds: readonly [number, number, number, number];
  /** "EPSG:n" when the file names an EPSG code, else null. */
  crs?: string | null;
}

/** A GeoTIFF that cannot be used as a raster here (rotated, several bands, no georeference…). */
export class RasterFileError extends GeoframeError {
  constructor(path: string, problem: string) {
    super('INVALID_RASTER_FILE', `${path}: ${problem}`);
    this.name = 'RasterFileError';
  }
}

function parseNoData(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const clean = text.replace(/\0+$/, '').trim().toLowerCase();
  if (clean === '') return null;
  if (clean === 'nan') return Number.NaN;
  const v = Number(clean);
  return Number.isNaN(v) ? null : v;
}

/**
 * Reads band 1 of a GeoTIFF as a {@link Raster2D} (values as f32; pixels equal to the GDAL
 * no-data value become NaN, i.e. barriers for `costAllocation`). The georeference must be north
 * up: a ModelPixelScale with one tie point, or a ModelTransformation without rotation or shear.
 * Pixel-is-point files are shifted half a pixel so `bounds` are pixel edges.
 *
 * @throws RasterFileError naming the file for several bands, a missing georeference, a rotated or
 *   sheared transform, or several tie points.
 */
export async function readRaster(path: string): Promise<Raster2D> {
  const bytes = await readBytes(path);
  const tiff = await fromArrayBuffer(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  const image = await tiff.getImage();
  const fd = image.fileDirectory;
  if (image.getSamplesPerPixel() !== 1) {
    throw new RasterFileError(path, `has ${image.getSamplesPerPixel()} bands; a cost raster has one`);
  }
  const width = image.getWidth();
  const height = image.getHeight();
  const transform = fd.getValue('ModelTransformation') as number[] | undefined;
  const ties = fd.getValue('ModelTiepoint') as number[] | undefined;
  const scale = fd.getValue('ModelPixelScale') as number[] | undefined;
  let x0: number;
  let y0: number;
  let px: number;
  let py: number;
  if (transform) {
    if (transform[1] !== 0 || transform[4] !== 0) {
      throw new RasterFileError(
        path,
        'has a rotated or sheared transform; only north-up rasters are supported',
      );
    }
    [px, x0, py, y0] = [transform[0], transform[3], -transform[5], transform[7]];
  } else if (ties && scale) {
    if (ties.length !== 6) {
      throw new RasterFileError(
        path,
        `has ${ties.length / 6} tie points; only one (with a pixel scale) is supported`,
      );
    }
    [px, py] = [scale[0], scale[1]];
    x0 = ties[3] - ties[0] * px;
    y0 = ties[4] + ties[1] * py;
  } else {
    throw new RasterFileError(
      path,
      'has no georeference (ModelPixelScale and ModelTiepoint, or ModelTransformation)',
    );
  }
  if (!(px > 0 && py > 0 && Number.isFinite(x0) && Number.isFinite(y0))) {
    throw new RasterFileError(path, `pixel size ${px} × ${py} must be positive (north up)`);
  }
  const keys = image.getGeoKeys() ?? {};
  if (keys.GTRasterTypeGeoKey === 2) {
    // pixel is point: the tie point is a pixel centre
    x0 -= px / 2;
    y0 += py / 2;
  }
  const band = (await image.readRasters({ samples: [0], interleave: true })) as unknown as ArrayLike<number>;
  const values = Float32Array.from(band);
  const noData = parseNoData(fd.getValue('GDAL_NODATA'));
  if (noData !== null && !Number.isNaN(noData)) {
    const f = Math.fround(noData);
    for (let i = 0; i < values.length; i++) if (values[i] === f || band[i] === noData) values[i] = Number.NaN;
  }
  const epsg = keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey;
  const crs = typeof epsg === 'number' && epsg > 0 && epsg < 32767 ? `EPSG:${epsg}` : null;
  return { values, width, height, bounds: [x0, y0 - height * py, x0 + width * px, y0], crs };
}

/** Options of {@link writeRaster}. */
export interface WriteRasterOptions {
  /** Written as GDAL_NODATA; default −1. Non-finite values (NaN, ±Infinity) are written as it. */
  noData?: number;
}

/**
 * Writes one band (Float32Array as f32, Int32Array as i32) as an uncompressed north-up GeoTIFF
 * over `bounds` (pixel edges, PixelIsArea), with a GDAL no-data value, and the CRS when it is
 * "EPSG:n" (otherwise marked user-defined).
 */
export async function writeRaster(
  path: string,
  raster: {
    values: Float32Array | Int32Array;
    width: number;
    height: number;
    bounds: readonly number[];
    crs?: string | null;
  },
  options: WriteRasterOptions = {},
): Promise<void> {
  const { width, height, bounds } = raster;
  if (raster.values.length !== width * height) {
    throw new RangeError(`writeRaster: ${raster.values.length} values for a ${width} × ${height} raster`);
  }
  const noData = options.noData ?? -1;
  let values = raster.values;
  if (values instanceof Float32Array) {
    values = values.map((v) => (Number.isFinite(v) ? v : noData));
  }
  const epsg = /^EPSG:(\d+)$/i.exec(raster.crs ?? '');
  const code = epsg ? Number(epsg[1]) : 32767;
  const geographic = code === 4326 || code === 4269 || code === 4258;
  // geotiff's writer encodes Uint32Array but not Int32Array: same bits, declared signed (SampleFormat 2)
  const signed = values instanceof Int32Array;
  const data = signed ? new Uint32Array(values.buffer, values.byteOffset, values.length) : values;
  const buffer = writeArrayBuffer(data, {
    width,
    ...(signed ? { SampleFormat: [2] } : {}),
    height,
    ModelPixelScale: [(bounds[2] - bounds[0]) / width, (bounds[3] - bounds[1]) / height, 0],
    ModelTiepoint: [0, 0, 0, bounds[0], bounds[3], 0],
    GDAL_NODATA: `${noData}\0`,
    GTModelTypeGeoKey: geographic ? 2 : 1,
    GTRasterTypeGeoKey: 1,
    ...(geographic ? { GeographicTypeGeoKey: code } : { ProjectedCSTypeGeoKey: code }),
  });
  await writeBytes(path, new Uint8Array(buffer));
}
