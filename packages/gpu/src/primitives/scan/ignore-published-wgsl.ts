/**
 * First statement of a look-back `peek` under the `ignorePublished` test knob: every state reads
 * as not ready, as if no other workgroup had run, so every wait ends in the fallback. (The
 * condition is always true; it keeps the rest of the function reachable for the compiler.)
 */
export const IGNORE_PUBLISHED_WGSL = /* wgsl */ `
  if (arrayLength(&status) > 0u) {
    return vec2u(0u, 0u);
  }`;
