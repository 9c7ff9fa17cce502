// Shared by tests and benches only (private package): seeded point sets and random numbers.

export {
  type AdversarialKind,
  type AdversarialSet,
  adversarialKinds,
  adversarialSet,
} from './adversarial-sets.js';
export { mulberry32 } from './mulberry32.js';
export {
  generatePoints,
  type NamedPointSet,
  type PointSetKind,
  pointSetKinds,
  pointSets,
  SeededRandom,
} from './point-sets.js';
