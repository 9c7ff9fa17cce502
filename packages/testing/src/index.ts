// Shared by tests and benches only (private package): seeded point sets and random numbers.
export { mulberry32 } from './mulberry32.js';
export {
  generatePoints,
  type NamedPointSet,
  type PointSetKind,
  pointSetKinds,
  pointSets,
  SeededRandom,
} from './point-sets.js';
