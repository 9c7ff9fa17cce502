import { EXACT_FIXED, gridUniformsBindingWgsl } from '../../exact/index.js';
import { HALFEDGE, threadEntry } from '../../mesh/halfedge-wgsl.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { linkWgsl } from '../../runtime/wgsl-module.js';
import { KIND_HULL, KIND_SIMPLE } from './walk-kernels.js';

/** `ringInfo.x` of a cell whose fan walk passed its bound (the run is then discarded). */
export const RING_FAULTED = 0xffffffff;

/**
 * Box-walk and ring-finishing logic shared by the ring kernel: the WGSL twin of the CPU's
 * `CellRingWriter` + `closeRing`, on fixed-point coordinates with exact predicates. The ring
 * of the current cell lives in its slot of `ring` (global scratch) from `ring_base`.
 */
const RING_WRITER_WGSL = /* wgsl */ `
var<private> ring_base: u32;
var<private> ring_len: u32;
var<private> pending_exit: bool;
var<private> pending_side: u32;
var<private> pending_point: vec4u;
var<private> first_entry: bool;
var<private> first_side: u32;
var<private> first_point: vec4u;

// consecutive equal points are written once
fn push_point(p: vec4u) {
  if (ring_len > 0u && all(ring[ring_base + ring_len - 1u] == p)) {
    return;
  }
  ring[ring_base + ring_len] = p;
  ring_len += 1u;
}

// corner k of the box: 0 (minX, minY), 1 (maxX, minY), 2 (maxX, maxY), 3 (minX, maxY) — the
// counter-clockwise start of side k
fn box_corner(k: u32) -> vec4u {
  let lo = grid_box_min;
  let hi = grid_box_max;
  switch (k & 3u) {
    case 0u: { return lo; }
    case 1u: { return vec4u(hi.xy, lo.zw); }
    case 2u: { return hi; }
    default: { return vec4u(lo.xy, hi.zw); }
  }
}

// whether boundary point b lies at or after a along side s, counter-clockwise
fn at_or_after(s: u32, a: vec4u, b: vec4u) -> bool {
  switch (s) {
    case 0u: { return !i64_lt(b.xy, a.xy); }
    case 1u: { return !i64_lt(b.zw, a.zw); }
    case 2u: { return !i64_lt(a.xy, b.xy); }
    default: { return !i64_lt(a.zw, b.zw); }
  }
}

// the box corners met walking counter-clockwise from boundary point (fs, fp) to (ts, tp)
fn walk_boundary(fs: u32, fp: vec4u, ts: u32, tp: vec4u) {
  var count = (ts + 4u - fs) % 4u;
  if (fs == ts && !at_or_after(fs, fp, tp)) {
    count = 4u;
  }
  for (var c = 1u; c <= count; c++) {
    push_point(box_corner(fs + c));
  }
}

fn begin_cell(base: u32) {
  ring_base = base;
  ring_len = 0u;
  pending_exit = false;
  first_entry = false;
}

// one boundary edge of the cell (see clip_bisector); only its start is written unless it exits
fn add_edge(si: vec4u, sj: vec4u, has_a: bool, ka: vec4u, a: vec4u, a_in: bool,
            has_b: bool, kb: vec4u, b: vec4u, b_in: bool) {
  let r = clip_bisector(si, sj, has_a, ka, a, a_in, has_b, kb, b, b_in);
  if ((r.flags & 1u) == 0u) {
    return;
  }
  if ((r.flags & 2u) != 0u) {
    if (pending_exit) {
      walk_boundary(pending_side, pending_point, r.side0, r.p0);
      pending_exit = false;
    } else if (ring_len == 0u) {
      first_entry = true;
      first_side = r.side0;
      first_point = r.p0;
    }
  }
  push_point(r.p0);
  if ((r.flags & 4u) != 0u) {
    push_point(r.p1);
    pending_exit = true;
    pending_side = r.side1;
    pending_point = r.p1;
  }
}

fn end_cell(site: vec4u) {
  if (pending_exit && first_entry) {
    walk_boundary(pending_side, pending_point, first_side, first_point);
  }
  if (ring_len == 0u && fixed_in_box(site)) {
    for (var c = 0u; c < 4u; c++) {
      push_point(box_corner(c));
    }
  }
}

// removes every vertex of ring[base .. base + count) that is not a strict left turn, decided
// exactly (the CPU's convexify), compacting in place; returns the new count
fn convexify(base: u32, count: u32) -> u32 {
  var top = base;
  for (var r = base + 1u; r < base + count; r++) {
    let p = ring[r];
    while (top > base && fixed_orient(ring[top - 1u], ring[top], p) <= 0) {
      top -= 1u;
    }
    top += 1u;
    ring[top] = p;
  }
  var first = base;
  var changed = true;
  while (changed && top - first >= 2u) {
    changed = false;
    if (fixed_orient(ring[top - 1u], ring[top], ring[first]) <= 0) {
      top -= 1u;
      changed = true;
    } else if (fixed_orient(ring[top], ring[first], ring[first + 1u]) <= 0) {
      first += 1u;
      changed = true;
    }
  }
  let kept = top - first + 1u;
  if (first != base) {
    for (var q = 0u; q < kept; q++) {
      ring[base + q] = ring[first + q];
    }
  }
  return kept;
}
`;

/**
 * Per site: writes its cell's ring (fixed point) into its scratch slot and finishes it as the
 * CPU's `closeRing` does, except that the rotation to the lowest vertex and the closing point
 * are left to the emit pass: stores the closed length (0 for an empty cell) and the index of the
 * lowest vertex ({@link RING_FAULTED} for a walk past its bound). Its ten storage buffers are
 * what browsers expose a stage (Chromium: 10): the caller-index copy of the length and the fault
 * flag are {@link RING_LENGTHS_KERNEL}'s.
 *
 * A simple cell (kind bit 1) is its circumcentres in fan order; any other is built edge by edge
 * with the exact clip of each bisector against the box and the box corners in between.
 */
export const RING_KERNEL = defineKernel({
  name: 'voronoi/cell-rings',
  bindings: {
    sites: 1,
    triangles: 2,
    halfedges: 3,
    start: 4,
    kind: 5,
    cc: 6,
    ccFlags: 7,
    slotOffset: 8,
    ring: 9,
    ringInfo: 10,
    grid_uniforms: 11,
  },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read> triangles: array<u32>;
@group(0) @binding(3) var<storage, read> halfedges: array<i32>;
@group(0) @binding(4) var<storage, read> start: array<u32>;
@group(0) @binding(5) var<storage, read> kind: array<u32>;
@group(0) @binding(6) var<storage, read> cc: array<vec4u>;
@group(0) @binding(7) var<storage, read> ccFlags: array<u32>;
@group(0) @binding(8) var<storage, read> slotOffset: array<u32>;
@group(0) @binding(9) var<storage, read_write> ring: array<vec4u>;
@group(0) @binding(10) var<storage, read_write> ringInfo: array<vec2u>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 11)}
const RING_FAULTED: u32 = ${RING_FAULTED}u;
var<private> faulted: bool;
${RING_WRITER_WGSL}

fn inside(t: u32) -> bool {
  return (ccFlags[t] & 1u) != 0u;
}

${threadEntry('k', 'params.sites', 'grid_init(grid_uniforms);')}
  faulted = false;
  let site = sites[k];
  let e0 = ~start[k];
  let how = kind[k];
  begin_cell(slotOffset[k]);
  var e = e0;
  // the plan's walk bound (a fan has fewer edges than there are half-edges); past it the twins
  // do not close and the run is discarded (see runtime/kernel-fault.ts)
  let most = arrayLength(&halfedges);
  var steps = 0u;
  if ((how & ${KIND_SIMPLE}u) != 0u) {
    loop {
      steps += 1u;
      if (steps > most) {
        faulted = true;
        break;
      }
      push_point(cc[e / 3u]);
      e = next_halfedge(u32(halfedges[e]));
      if (e == e0) {
        break;
      }
    }
  } else {
    // one call site of add_edge (and so of the exact clip): each inlined copy of the clip costs
    // the NVIDIA driver's compiler tens of seconds, so every edge of the walk goes through it
    // a hull cell starts with the ray coming in from infinity, on the bisector with the hull
    // neighbour before the walk
    var incoming = (how & ${KIND_HULL}u) != 0u;
    loop {
      var edge = true;
      var done = false;
      var sj: vec4u;
      var has_a = true;
      var ka = site;
      var a = site;
      var a_in = false;
      var has_b = true;
      var kb = site;
      var b = site;
      var b_in = false;
      if (incoming) {
        incoming = false;
        let t = e0 / 3u;
        sj = sites[triangles[prev_halfedge(e0)]];
        has_a = false;
        kb = sites[triangles[next_halfedge(e0)]];
        b = cc[t];
        b_in = inside(t);
      } else {
        steps += 1u;
        if (steps > most) {
          faulted = true;
          break;
        }
        let t = e / 3u;
        let twin = halfedges[e];
        sj = sites[triangles[next_halfedge(e)]];
        ka = sites[triangles[prev_halfedge(e)]];
        a = cc[t];
        a_in = inside(t);
        if (twin < 0) {
          // the ray going out to infinity, on the bisector with the hull neighbour after the walk
          has_b = false;
          done = true;
        } else {
          let e2 = next_halfedge(u32(twin));
          let t2 = e2 / 3u;
          if (a_in && inside(t2)) {
            push_point(a);
            edge = false;
          } else {
            kb = sites[triangles[next_halfedge(e2)]];
            b = cc[t2];
            b_in = inside(t2);
          }
          e = e2;
          done = e == e0;
        }
      }
      if (edge) {
        add_edge(site, sj, has_a, ka, a, a_in, has_b, kb, b, b_in);
      }
      if (done) {
        break;
      }
    }
    end_cell(site);
  }
  // closeRing: a last point equal to the first goes, non-convex vertices go
  var n = ring_len;
  let base = ring_base;
  if (n > 1u && all(ring[base + n - 1u] == ring[base])) {
    n -= 1u;
  }
  if (n >= 3u) {
    n = convexify(base, n);
  }
  var lowest = 0u;
  for (var q = 1u; q < n; q++) {
    if (fixed_less(ring[base + q], ring[base + lowest])) {
      lowest = q;
    }
  }
  let closed = select(0u, n + 1u, n > 0u);
  // a walk past its bound is marked for the lengths pass, which raises the fault
  ringInfo[k] = select(vec2u(closed, lowest), vec2u(RING_FAULTED, 0u), faulted);
}
`,
});
