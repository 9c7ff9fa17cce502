export { encodeScan, type ScanArgs } from './encode-scan.js';
export { SCAN_TILE, type ScanOptions, type ScanVariant } from './scan-plan.js';
export { type ScanU32Options, scanU32 } from './scan-u32.js';
