export {
  type CountScatterOptions,
  type CountScatterResult,
  countScatter,
  encodeHistogram,
  type HistogramArgs,
  MAX_PRIVATE_BINS,
} from './histogram.js';
