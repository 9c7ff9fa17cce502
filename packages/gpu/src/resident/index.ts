export { DevicePolygons, type ResidentBuffers } from './device-polygons.js';
export { residentArea, residentBounds, residentTotalBounds } from './resident-measures.js';
export { residentTake } from './resident-take.js';
