import { GeoframeError } from '../errors.js';

/**
 * A centroidal Voronoi problem that cannot be solved as given: an empty or zero-mass region, a
 * negative or NaN density, sites outside the region, bad options. The message names what and where.
 */
export class CvtError extends GeoframeError {
  constructor(message: string) {
    super('INVALID_CVT', message);
    this.name = 'CvtError';
  }
}
