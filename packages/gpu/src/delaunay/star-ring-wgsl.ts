import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_COMMON } from './star-common-wgsl.js';

/**
 * A site's bucket cell and the block of rings around it: what every star pass needs of the grid
 * (params: `min_x`, `min_y`, `shift`, `grid_w`, `grid_h`).
 */
export const STAR_CELL: WgslModule = wgslModule(
  'delaunay/star-cell',
  /* wgsl */ `
// the site's bucket cell, and its position inside it in cells (the low bits below the shift)
struct SiteCell { c: vec2i, f: vec2f }

fn site_cell(pi: vec4u) -> SiteCell {
  let dx = i64_sub(pi.xy, params.min_x);
  let dy = i64_sub(pi.zw, params.min_y);
  let back = 64u - params.shift;
  let sh = i32(params.shift);
  let c = vec2i(i32(u64_shr(dx, params.shift).x), i32(u64_shr(dy, params.shift).x));
  let f = vec2f(i64_to_f32_scaled(u64_shr(u64_shl(dx, back), back), sh),
                i64_to_f32_scaled(u64_shr(u64_shl(dy, back), back), sh));
  return SiteCell(c, f);
}

// rings 0..r around (cx, cy) cover the grid
fn ring_covers_grid(r: i32, cx: i32, cy: i32) -> bool {
  return cx <= r && cy <= r && cx + r + 1 >= i32(params.grid_w) && cy + r + 1 >= i32(params.grid_h);
}
`,
  [STAR_COMMON],
);

/**
 * The rings of bucket cells around a site's cell (cut to the grid, the pending regions' box and
 * the spans they cross on each side) and the finality check after a ring. Part of the star module
 * (`starSearchModule` links it).
 */
export const STAR_RING: WgslModule = wgslModule(
  'delaunay/star-ring',
  /* wgsl */ `// The cells of ring r around the site's cell (cx, cy) to visit: inside the grid and, once the star
// is closed, inside the bounding box of the pending regions and, on each side of the ring, within
// the span of cells the pending regions cross there. In visiting order: row −r (top), row r
// (bottom), column −r (left) and column r (right) without their corners; each side a run of cells
// from its start.
struct RingCells {
  r: i32,
  top_x0: i32, bottom_x0: i32, left_y0: i32, right_y0: i32,
  top: u32, bottom: u32, left: u32, right: u32,
}

// The cells [lo, hi] of the row of cells at = dy (y in [at, at + 1]; vertical: the column at = dx,
// coordinates swapped) that a pending region may meet: the hull of every pending region's span,
// conservative (the regions are float supersets; each visited cell is tested again).
fn side_span(vertical: bool, at: i32) -> vec2i {
  let y0 = f32(at);
  let y1 = y0 + 1.0;
  var lo = 1e9;
  var hi = -1e9;
  for (var k = 0u; k < npend; k++) {
    var region = pend_s[k * LANES + slot];
    var box = pend_box_s[k * LANES + slot];
    if (vertical) {
      region = vec4f(region.yx, region.zw);
      box = box.yxwz;
    }
    if (box.w < y0 || box.y > y1) {
      continue;
    }
    var a = box.x;
    var b = box.z;
    if (region.w == 0.0) {
      // a disk: its chord at the strip's nearest height
      let d = max(0.0, max(y0 - region.y, region.y - y1));
      if (d > region.z) {
        continue;
      }
      let half = sqrt(region.z * region.z - d * d);
      a = max(a, region.x - half);
      b = min(b, region.x + half);
    } else if (region.w == 1.0 && region.x != 0.0) {
      // {p : n·p ≤ c}: x on one side of (c − n.y·y) / n.x, y where that reaches furthest
      let reach = (region.z - min(region.y * y0, region.y * y1)) / region.x;
      if (region.x > 0.0) {
        b = min(b, reach);
      } else {
        a = max(a, reach);
      }
    }
    if (a <= b) {
      lo = min(lo, a);
      hi = max(hi, b);
    }
  }
  if (lo > hi) {
    return vec2i(1, 0);
  }
  return vec2i(i32(floor(clamp(lo, -1e8, 1e8))) - 1, i32(floor(clamp(hi, -1e8, 1e8))));
}

fn ring_cells(r: i32, cx: i32, cy: i32) -> RingCells {
  var xlo = -cx;
  var xhi = i32(params.grid_w) - 1 - cx;
  var ylo = -cy;
  var yhi = i32(params.grid_h) - 1 - cy;
  if (npend != NO_SKIP) {
    let lo = vec2i(floor(clamp(pend_lo, vec2f(-1e8), vec2f(1e8)))) - vec2i(1);
    let hi = vec2i(floor(clamp(pend_hi, vec2f(-1e8), vec2f(1e8))));
    xlo = max(xlo, lo.x);
    ylo = max(ylo, lo.y);
    xhi = min(xhi, hi.x);
    yhi = min(yhi, hi.y);
  }
  // per side: [first, last] cell along it
  var top = vec2i(max(-r, xlo), min(r, xhi));
  var bottom = top;
  var left = vec2i(max(1 - r, ylo), min(r - 1, yhi));
  var right = left;
  if (npend != NO_SKIP && r > 0) {
    let t = side_span(false, -r);
    let b = side_span(false, r);
    let l = side_span(true, -r);
    let g = side_span(true, r);
    top = vec2i(max(top.x, t.x), min(top.y, t.y));
    bottom = vec2i(max(bottom.x, b.x), min(bottom.y, b.y));
    left = vec2i(max(left.x, l.x), min(left.y, l.y));
    right = vec2i(max(right.x, g.x), min(right.y, g.y));
  }
  let count = vec4i(top.y - top.x, bottom.y - bottom.x, left.y - left.x, right.y - right.x) + vec4i(1);
  let n = vec4u(max(count, vec4i(0)));
  return RingCells(
    r,
    top.x,
    bottom.x,
    left.x,
    right.x,
    select(0u, n.x, -r >= ylo && -r <= yhi),
    select(0u, n.y, r > 0 && r >= ylo && r <= yhi),
    select(0u, n.z, -r >= xlo && -r <= xhi),
    select(0u, n.w, r > 0 && r >= xlo && r <= xhi),
  );
}

fn ring_size(g: RingCells) -> u32 {
  return g.top + g.bottom + g.left + g.right;
}

// the k-th cell of the ring, (dx, dy) from the site's cell
fn ring_cell(g: RingCells, k: u32) -> vec2i {
  if (k < g.top) {
    return vec2i(g.top_x0 + i32(k), -g.r);
  }
  var j = k - g.top;
  if (j < g.bottom) {
    return vec2i(g.bottom_x0 + i32(j), g.r);
  }
  j -= g.bottom;
  if (j < g.left) {
    return vec2i(-g.r, g.left_y0 + i32(j));
  }
  return vec2i(g.r, g.right_y0 + i32(j - g.left));
}

// After ring r: 1 final, 0 to search on, -1 impossible (a complete star of the wrong shape).
// While the closed star has not changed, only its pending regions are narrowed to the ones still
// meeting unsearched cells (a full check recomputes every region, O(star × hull) for
// half-planes: once a ring, it made far-searching stars slow). The callers run it at one place
// in their loops (each inlined copy of the exact code costs the driver's compiler seconds).
fn ring_check(pi: vec4u, r: i32, cx: i32, cy: i32, f: vec2f, hull: vec2u) -> i32 {
  let complete = ring_covers_grid(r, cx, cy);
  if (npend != NO_SKIP && edits == checked_edits) {
    return select(narrow_pending(r, cx, cy), 1, complete);
  }
  checked_edits = edits;
  return star_final(pi, r, cx, cy, f, hull, complete);
}

// still open after two rings (verdict 0): a site near a long hull edge, whose star closes only
// with sites far along the boundary; the hull's vertices close it at once (it is inside them),
// so the caller inserts them (its candidates' source, once a star) and checks again
fn wants_hull_seeds(verdict: i32, r: i32) -> bool {
  return verdict == 0 && npend == NO_SKIP && r >= 2 && !hull_seeded && params.hull_count <= params.hull_seed_limit;
}

// the status a check's verdict ends a star's search with (0: search on)
fn verdict_status(verdict: i32) -> u32 {
  if (verdict > 0) {
    return STATUS_FINAL;
  }
  return select(0u, STATUS_INCONSISTENT, verdict < 0);
}
`,
  [STAR_CELL],
);
