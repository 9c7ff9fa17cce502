/**
 * WGSL of the 'exact' ring search over site buckets, shared by the labelling kernel and the
 * near-tie candidate kernel: `visit_rings_<name>(c, mc)` walks rings (shells in 3D) of buckets
 * around the pixel's bucket, r = 0, 1, …, running `body` for every site k of each visited bucket
 * (`d` its squared f32 distance, `i = order[k]`), and stops after the ring whose distance bound²
 * (less a margin for f32 rounding) exceeds `best_d + 2·tolerance(mc, best_d, bound²)`, or when the
 * rings cover the bucket grid: every site not visited is then farther than that from `c`.
 *
 * Needs, declared by the kernel: `positions: array<vec4f>`, `order: array<u32>`,
 * `start: array<u32>`, `fn tolerance(mc, d1s, d2s) -> f32`, and the private variables `best`,
 * `best_d` that the stopping test reads (a body may update them). Parameters: misc.xyz = buckets
 * per axis, extra = (origin x, y, z, bucket edge), aux.x = bound margin.
 */
export function ringSearch(dims: 2 | 3, name: string, body: string): string {
  const ringZ = dims === 2 ? '' : 'abs(bz - bc.z) == r ||';
  return /* wgsl */ `
fn visit_rings_${name}(c: vec3f, mc: f32) {
  let nb = vec3i(params.misc.xyz);
  let origin = params.extra.xyz;
  let edge = params.extra.w;
  let bc = clamp(vec3i(floor((c - origin) / edge)), vec3i(0), nb - 1);
  let rmax = max(nb.x, max(nb.y, nb.z));
  for (var r = 0; r < rmax; r++) {
    let lo = max(bc - r, vec3i(0));
    let hi = min(bc + r, nb - 1);
    for (var bz = lo.z; bz <= hi.z; bz++) {
      for (var by = lo.y; by <= hi.y; by++) {
        // whole rows on the shell's faces, else only the two x ends
        let full = ${ringZ} abs(by - bc.y) == r;
        let stride = select(max(2 * r, 1), 1, full);
        for (var bx = bc.x - r; bx <= bc.x + r; bx += stride) {
          if (bx < 0 || bx >= nb.x) {
            continue;
          }
          let b = u32((bz * nb.y + by) * nb.x + bx);
          let end = start[b + 1u];
          for (var k = start[b]; k < end; k++) {
            let d3 = positions[k].xyz - c;
            let d = d3.x * d3.x + d3.y * d3.y + d3.z * d3.z;
            let i = order[k];
            ${body}
          }
        }
      }
    }
    // distance from c to the outside of the visited block (sides at the grid's border don't count)
    var bound = BIG;
    let block_lo = origin + vec3f(bc - r) * edge;
    let block_hi = origin + vec3f(bc + r + 1) * edge;
    for (var a = 0; a < ${dims}; a++) {
      if (bc[a] - r > 0) {
        bound = min(bound, c[a] - block_lo[a]);
      }
      if (bc[a] + r < nb[a] - 1) {
        bound = min(bound, block_hi[a] - c[a]);
      }
    }
    if (bound == BIG) {
      break;
    }
    bound = bound - params.aux.x;
    if (bound > 0.0 && best != NONE) {
      let b2 = bound * bound;
      if (b2 > best_d + 2.0 * tolerance(mc, best_d, b2)) {
        break;
      }
    }
  }
}
`;
}
