import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_COMMON } from './star-common-wgsl.js';

/**
 * Inserting a candidate into a star (Bowyer–Watson restricted to the star): the neighbours strictly
 * inside the run of conflicting triangles leave, the candidate takes their place; each new pair's
 * conflict region is computed when it forms. Part of the star module (`starSearchModule` links
 * it): it uses the star's state declared there (`star_s`, `reg_of_s`, `len`, `slot`, …).
 */
export const STAR_INSERT: WgslModule = wgslModule(
  'delaunay/star-insert',
  /* wgsl */ `
fn nxt(t: u32) -> u32 {
  return select(t + 1u, 0u, t + 1u == len);
}

fn prv(t: u32) -> u32 {
  return select(t - 1u, len - 1u, t == 0u);
}

// the conflict region of pair t: (0, 0, 0, -1) for an infinite pair (every site may conflict)
fn pair_region(pi: vec4u, t: u32) -> vec4f {
  let a = star_s[t * LANES + slot];
  let b = star_s[nxt(t) * LANES + slot];
  if (a == NONE || b == NONE) {
    return vec4f(0.0, 0.0, 0.0, -1.0);
  }
  var box: vec4f;
  return conflict_region(pi, sites[a], sites[b], f_site, &box);
}

// l (at lp) conflicts with pair t exactly (the pair's region let it through)
fn conflicts(i: u32, pi: vec4u, t: u32, l: u32, pl: vec4u) -> bool {
  let a = star_s[t * LANES + slot];
  let b = star_s[nxt(t) * LANES + slot];
  if (a == NONE || b == NONE) {
    // a half-plane pair, [NONE, b] or [a, NONE]: one orientation test for both (each inlined copy
    // of an exact predicate costs the driver's compiler seconds)
    let other = sites[select(a, b, a == NONE)];
    let o = orient_sign(pi, select(other, pl, a == NONE), select(pl, other, a == NONE));
    return o > 0 || (o == 0 && strictly_between(pi, pl, other));
  }
  let pa = sites[a];
  let pb = sites[b];
  tests += 1u;
  let s = incircle_sign_path(pi, pa, pb, pl);
  if (s.y != 0) {
    filtered_out += 1u;
  }
  if (s.x != 0) {
    return s.x > 0;
  }
  return incircle_sos_tie(pi, pa, pb, pl, i, a, b, l) > 0;
}

fn bit_of(mask: vec2u, t: u32) -> bool {
  return select((mask.y >> (t - 32u)) & 1u, (mask.x >> t) & 1u, t < 32u) != 0u;
}

// The pairs whose float region lets l (at lp, in cells from the corner of the site's cell)
// through: the cheap first step of an insertion. A star of fewer than three entries has no
// regions yet: every bit.
fn candidate_mask(lp: vec2f) -> vec2u {
  if (len < 3u) {
    return vec2u(0xffffffffu);
  }
  var maybe = vec2u(0u, 0u);
  for (var t = 0u; t < len; t++) {
    let region = reg_of_s[t * LANES + slot];
    if (region.w < 0.0 || region_meets(region, lp, lp)) {
      if (t < 32u) {
        maybe.x |= 1u << t;
      } else {
        maybe.y |= 1u << (t - 32u);
      }
    }
  }
  return maybe;
}


// inserts candidate l into the star; returns status bits of a failure (0 when fine)
fn insert(i: u32, pi: vec4u, l: u32) -> u32 {
  let maybe = candidate_mask(f_site + cells_between(pi, sites[l]));
  if (all(maybe == vec2u(0u))) {
    return 0u;
  }
  return insert_masked(i, pi, l, sites[l], maybe);
}

// Inserts candidate l (at pl) whose float test let it through the pairs in \`candidates\` (every bit for a
// star of fewer than three entries): the exact tests of those pairs, then the edit. Two steps, so
// that a warp's threads run each together: the first pass runs the float step alone until a
// candidate passes, then this step with the other threads of its warp. The regions of the pairs
// the edit made are computed at one place (see refresh_regions).
fn insert_masked(i: u32, pi: vec4u, l: u32, pl: vec4u, candidates: vec2u) -> u32 {
  exact_steps++;
  var fresh = vec2u(0u, 0u); // (first pair, count) whose regions are new
  if (len == 0u) {
    star_s[0 * LANES + slot] = l;
    star_s[1 * LANES + slot] = NONE;
    len = 2u;
    fresh = vec2u(0u, len);
  } else if (len == 2u) {
    insert_second(pi, l, pl);
    fresh = vec2u(0u, len);
  } else {
    let edit = edit_star(i, pi, l, pl, candidates);
    if (edit.x != 0u) {
      return edit.x;
    }
    fresh = edit.yz;
  }
  refresh_regions(pi, fresh.x, fresh.y);
  return 0u;
}

// the regions of \`count\` pairs from pair \`first\` on (round the end): one call site of the exact
// region code for every edit, in a loop whose count the compiler cannot unroll
fn refresh_regions(pi: vec4u, first: u32, count: u32) {
  for (var k = 0u; k < count; k++) {
    let t = (first + k) % len;
    reg_of_s[t * LANES + slot] = pair_region(pi, t);
  }
}

// the star of one entry [a, NONE] (a half-plane) meets its second candidate l (at pl)
fn insert_second(pi: vec4u, l: u32, pl: vec4u) {
  let a = star_s[0 * LANES + slot];
  let pa = sites[a];
  let o = orient_sign(pi, pa, pl);
  if (o > 0) {
    star_s[1 * LANES + slot] = l;
    star_s[2 * LANES + slot] = NONE;
    len = 3u;
  } else if (o < 0) {
    star_s[2 * LANES + slot] = l;
    len = 3u;
  } else if (fixed_less(pl, pi) != fixed_less(pa, pi)) {
    star_s[2 * LANES + slot] = l;
    star_s[3 * LANES + slot] = NONE;
    len = 4u;
  } else if (strictly_between(pi, pl, pa)) {
    star_s[0 * LANES + slot] = l;
  }
}

// A star of three or more entries: the exact conflict tests of the candidate pairs, then the
// edit in place. Returns (failure status, first new pair, new pairs): (0, _, 0) when l conflicts
// with no pair, (0, fresh, 2) after an edit.
fn edit_star(i: u32, pi: vec4u, l: u32, pl: vec4u, candidates: vec2u) -> vec3u {
  var maybe = candidates;
  var mask = vec2u(0u, 0u);
  while (any(maybe != vec2u(0u))) {
    var t: u32;
    if (maybe.x != 0u) {
      t = firstTrailingBit(maybe.x);
      maybe.x &= maybe.x - 1u;
    } else {
      t = 32u + firstTrailingBit(maybe.y);
      maybe.y &= maybe.y - 1u;
    }
    if (conflicts(i, pi, t, l, pl)) {
      if (t < 32u) {
        mask.x |= 1u << t;
      } else {
        mask.y |= 1u << (t - 32u);
      }
    }
  }
  let total = countOneBits(mask.x) + countOneBits(mask.y);
  if (total == 0u) {
    return vec3u(0u);
  }
  if (total == len) {
    return vec3u(STATUS_INCONSISTENT, 0u, 0u);
  }
  var s = 0u;
  for (var t = 0u; t < len; t++) {
    if (bit_of(mask, t) && !bit_of(mask, prv(t))) {
      s = t;
      break;
    }
  }
  var k = 0u;
  var t = s;
  while (bit_of(mask, t)) {
    k++;
    t = nxt(t);
  }
  if (k != total) {
    return vec3u(STATUS_INCONSISTENT, 0u, 0u);
  }
  // entries s+1 .. s+k-1 leave; l goes between entries s and s+k
  let keep = len - k + 1u;
  if (keep + 1u > CAP) {
    return vec3u(STATUS_OVERFLOW, 0u, 0u);
  }
  // the new triangles (p, l) and (l, q) turn counter-clockwise: one orientation call site for
  // both ends (side 0: p, 1: q; an infinite end is skipped)
  let p = star_s[s * LANES + slot];
  let q = star_s[t * LANES + slot];
  let first_side = select(0u, 1u, p == NONE);
  let last_side = select(1u, 0u, q == NONE);
  for (var side = first_side; side <= last_side; side++) {
    let end = sites[select(p, q, side == 1u)];
    if (orient_sign(pi, select(end, pl, side == 1u), select(pl, end, side == 1u)) <= 0) {
      return vec3u(STATUS_INCONSISTENT, 0u, 0u);
    }
  }
  // in place: the pairs between kept entries keep their regions (a pair moves with its first
  // entry), (p, l) and (l, q) are new
  var fresh: u32;
  if (t <= s) {
    // the run wraps round the end (or ends there): keep entries t..s, then l
    let m = s - t + 1u;
    for (var j = 0u; j < m; j++) {
      star_s[j * LANES + slot] = star_s[(t + j) * LANES + slot];
      reg_of_s[j * LANES + slot] = reg_of_s[(t + j) * LANES + slot];
    }
    star_s[m * LANES + slot] = l;
    len = m + 1u;
    fresh = m - 1u;
  } else if (t == s + 1u) {
    // nothing leaves: open a slot after s
    for (var j = len; j > t; j--) {
      star_s[j * LANES + slot] = star_s[(j - 1u) * LANES + slot];
      reg_of_s[j * LANES + slot] = reg_of_s[(j - 1u) * LANES + slot];
    }
    star_s[t * LANES + slot] = l;
    len += 1u;
    fresh = s;
  } else {
    // entries s+1 .. t-1 leave: l takes s+1, the entries from t on move down
    let d = t - s - 2u;
    star_s[(s + 1u) * LANES + slot] = l;
    for (var j = t; j < len; j++) {
      star_s[(j - d) * LANES + slot] = star_s[j * LANES + slot];
      reg_of_s[(j - d) * LANES + slot] = reg_of_s[j * LANES + slot];
    }
    len -= d;
    fresh = s;
  }
  edits++;
  return vec3u(0u, fresh, 2u);
}
`,
  [STAR_COMMON],
);
