export { CC_FAR, CC_INSIDE, CIRCUMCENTER_KERNEL, type CircumcenterConstants } from './circumcenter-kernel.js';
export {
  type CircumcenterArgs,
  type CircumcentersResult,
  circumcentersGpu,
  encodeCircumcenters,
} from './circumcenters.js';
