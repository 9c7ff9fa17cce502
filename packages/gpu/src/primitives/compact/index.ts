export {
  type CompactArgs,
  type CompactValuesArgs,
  compactIndices,
  encodeCompact,
  encodeCompactValues,
} from './compact.js';
