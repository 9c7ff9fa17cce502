/**
 * WGSL shared by the raster kernels: the parameter block, grid indexing, pixel centres and the
 * candidate comparison, generated for 2D or 3D.
 *
 * Parameter block (binding 0, 32 words): `size` = (width, height, depth, pixels) of the grid level
 * the kernel works on; `misc` = four kernel-specific words; `scale` = (per-axis scale of pixel
 * centres, block side 2^level of a Facet-JFA level, else 1);
 * `extra`, `aux` = kernel-specific floats; `auxu` = kernel-specific words.
 */

/** Threads per workgroup along x, y, z of the grid-shaped kernels. */
export function gridWorkgroup(dims: 2 | 3): [number, number, number] {
  return dims === 2 ? [16, 16, 1] : [8, 8, 4];
}

/** Workgroups covering a `width × height × depth` grid with {@link gridWorkgroup} threads. */
export function gridWorkgroups(
  dims: 2 | 3,
  width: number,
  height: number,
  depth: number,
): [number, number, number] {
  const [x, y, z] = gridWorkgroup(dims);
  return [Math.ceil(width / x), Math.ceil(height / y), Math.ceil(depth / z)];
}

/** Threads per workgroup of the list-shaped (1D) kernels. */
export const LIST_WORKGROUP = 256;

/** The parameter block, constants and helpers; `sitesBinding` declares `sites` there (read-only). */
export function rasterHeader(dims: 2 | 3, sitesBinding: number | null): string {
  const sites =
    sitesBinding === null
      ? ''
      : dims === 2
        ? /* wgsl */ `@group(0) @binding(${sitesBinding}) var<storage, read> sites: array<vec2f>;
// squared distance from a pixel centre to site i, in scaled pixel units (full resolution)
fn dist2(c: vec3f, i: u32) -> f32 {
  return dist2_at(c, sites[i]);
}`
        : /* wgsl */ `@group(0) @binding(${sitesBinding}) var<storage, read> sites: array<vec4f>;
fn dist2(c: vec3f, i: u32) -> f32 {
  let d = sites[i].xyz - c;
  return d.x * d.x + d.y * d.y + d.z * d.z;
}`;
  return /* wgsl */ `
const NONE: u32 = 0xffffffffu;
const BIG: f32 = 3.0e38;
const DIMS: u32 = ${dims}u;
struct Params {
  size: vec4u,
  misc: vec4u,
  scale: vec4f,
  extra: vec4f,
  aux: vec4f,
  auxu: vec4u,
}
@group(0) @binding(0) var<uniform> params: Params;
${sites}

fn linear_of(q: vec3u) -> u32 {
  return (q.z * params.size.y + q.y) * params.size.x + q.x;
}
fn coords_of(p: u32) -> vec3u {
  let plane = params.size.x * params.size.y;
  let r = p % plane;
  return vec3u(r % params.size.x, r / params.size.x, p / plane);
}
// squared distance from a pixel centre to a 2D site position (the one formula of every 2D kernel)
fn dist2_at(c: vec3f, s: vec2f) -> f32 {
  let d = s - c.xy;
  return d.x * d.x + d.y * d.y;
}
// centre of level pixel q in full-resolution scaled units: ((q + 0.5)·2^level)·scale, rounded as
// the CPU implementation rounds it
fn centre_of(q: vec3u) -> vec3f {
  return ((vec3f(q) + 0.5) * params.scale.w) * params.scale.xyz;
}
`;
}

/**
 * Loops over the 3×3 (2D) or 3×3×3 (3D) pixels at offsets {−step, 0, step} per axis around
 * `origin` (a vec3i) that lie inside the level grid; `body` sees `qx`, `qy`, `qz` (i32) and the
 * linear index `qi` (u32). Row and plane bases are computed once per row (fewer instructions than
 * a generic in-grid test and index per neighbour, which the JFA passes are bound by).
 */
export function gatherLoop(dims: 2 | 3, origin: string, step: string, body: string): string {
  const z =
    dims === 2
      ? 'let qz = 0;\n  let plane = 0u;'
      : `for (var dz = -1; dz <= 1; dz++) {
  let qz = ${origin}.z + dz * ${step};
  if (qz < 0 || qz >= i32(params.size.z)) {
    continue;
  }
  let plane = u32(qz) * params.size.y;`;
  return /* wgsl */ `{
  ${z}
  for (var dy = -1; dy <= 1; dy++) {
    let qy = ${origin}.y + dy * ${step};
    if (qy < 0 || qy >= i32(params.size.y)) {
      continue;
    }
    let row = (plane + u32(qy)) * params.size.x;
    for (var dx = -1; dx <= 1; dx++) {
      let qx = ${origin}.x + dx * ${step};
      if (qx < 0 || qx >= i32(params.size.x)) {
        continue;
      }
      let qi = row + u32(qx);
      ${body}
    }
  }
  ${dims === 2 ? '' : '}'}
}`;
}

/** The linear thread index of a list-shaped kernel (dispatch split over x and y). */
export const LIST_INDEX = /* wgsl */ `(wid.y * nwg.x + wid.x) * ${LIST_WORKGROUP}u + lid`;

/** The builtins of a list-shaped kernel's entry point. */
export const LIST_BUILTINS = /* wgsl */ `@builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32`;

/** Words in a parameter block. */
export const PARAM_WORDS = 32;

/**
 * A parameter block: `u` fills size and misc (8 words), `f` fills scale, extra and aux
 * (12 floats), `u2` fills auxu (4 words).
 */
export function paramBlock(
  u: readonly number[],
  f: readonly number[],
  u2: readonly number[] = [],
): Uint32Array {
  const words = new Uint32Array(PARAM_WORDS);
  words.set(u.slice(0, 8));
  new Float32Array(words.buffer, 32, 12).set(f.slice(0, 12));
  words.set(u2.slice(0, 4), 20);
  return words;
}

/**
 * Straight-line WGSL choosing, among the labels of the 3×3 (2D) or 3×3×3 (3D) pixels at offsets
 * {−`step`, 0, `step`} around grid thread `g` that lie in the level grid, the site nearest to
 * centre `c` (ties to the lower index) into `best` / `best_d` (declared by the caller). All labels
 * are loaded first and every candidate's position is loaded unconditionally (labels outside the
 * grid or NONE are discarded afterwards), so the loads are independent and overlap. The result is
 * the lexicographic minimum of (distance, index) over the candidates, as a sequential scan gives;
 * the index order is the caller's `fn before(a: u32, b: u32) -> bool` (see {@link tieOrder}).
 *
 * Where a candidate's position comes from:
 * - `{ lastSite }`: gathered from `sites` through its label (`dist2`), the index clamped to
 *   `lastSite` — a dependent load per candidate;
 * - `{ readPosition }` (2D): read next to the label from the same pixel (`readPosition(index)`, a
 *   vec2f), so no load depends on another; the winner's position goes to `best_pos` (declared by
 *   the caller).
 *
 * `readLabel(index)` reads a label.
 */
export function unrolledNearest(
  dims: 2 | 3,
  step: string,
  readLabel: (index: string) => string,
  source: { lastSite: string } | { readPosition: (index: string) => string },
): string {
  const axes = dims === 2 ? (['x', 'y'] as const) : (['x', 'y', 'z'] as const);
  const lines: string[] = [];
  for (const a of axes) {
    lines.push(`let ${a}m = i32(g.${a}) - ${step};`);
    lines.push(`let ${a}p = i32(g.${a}) + ${step};`);
    lines.push(`let ${a}0 = u32(max(${a}m, 0));`);
    lines.push(`let ${a}1 = g.${a};`);
    lines.push(`let ${a}2 = u32(min(${a}p, i32(params.size.${a}) - 1));`);
    lines.push(`let ok_${a}0 = ${a}m >= 0;`);
    lines.push(`let ok_${a}2 = ${a}p < i32(params.size.${a});`);
  }
  const zs = dims === 2 ? [1] : [0, 1, 2];
  for (const dz of zs)
    for (const dy of [0, 1, 2]) {
      const plane = dims === 2 ? '' : `z${dz} * params.size.y + `;
      lines.push(`let row_${dz}${dy} = (${plane}y${dy}) * params.size.x;`);
    }
  const carried = 'readPosition' in source;
  if (carried && dims !== 2) throw new RangeError('unrolledNearest: carried positions are 2D only');
  let k = 0;
  const labels: string[] = [];
  for (const dz of zs)
    for (const dy of [0, 1, 2])
      for (const dx of [0, 1, 2]) {
        const ok = [
          dx !== 1 ? `ok_x${dx}` : '',
          dy !== 1 ? `ok_y${dy}` : '',
          dims === 3 && dz !== 1 ? `ok_z${dz}` : '',
        ].filter(Boolean);
        const index = `row_${dz}${dy} + x${dx}`;
        const load = readLabel(index);
        lines.push(
          ok.length === 0 ? `let l${k} = ${load};` : `let l${k} = select(NONE, ${load}, ${ok.join(' && ')});`,
        );
        if (carried) lines.push(`let s_l${k} = ${source.readPosition(index)};`);
        labels.push(`l${k}`);
        k++;
      }
  for (const l of labels) {
    lines.push(
      carried
        ? `let d_${l} = dist2_at(c, s_${l});`
        : `let d_${l} = dist2(c, min(${l}, ${(source as { lastSite: string }).lastSite}));`,
    );
  }
  for (const l of labels) {
    const pos = carried ? ` best_pos = s_${l};` : '';
    lines.push(
      `if (${l} != NONE && (d_${l} < best_d || (d_${l} == best_d && ${l} != best && before(${l}, best)))) { best_d = d_${l}; best = ${l};${pos} }`,
    );
  }
  return lines.join('\n  ');
}

/** Threads per workgroup (x, y) of the 2D JFA pass over a tile of `x × y` pixels. */
export const JFA_TILE: readonly [number, number] = [32, 8];

/**
 * The order in which a 2D JFA pass at step `step` visits its rows of tiles ({@link JFA_TILE}):
 * `classStride` = step / tile height (at least 1) and `perClass` rows per residue class, so that
 * dispatch row i covers tile row (i mod perClass)·classStride + ⌊i / perClass⌋ (beyond the grid
 * for the last `classStride·perClass − tileRows` dispatch rows). Pixel rows y − step, y and
 * y + step then lie in consecutive tile rows of the order, so the three reads of a pixel row (as
 * the row above, itself and the row below of other pixels) come close together, for L2; in
 * row-major order they lie `step` pixel rows of traffic apart (at 4096² and step 2048, about
 * 200 MB of a carrying pass: more than L2 holds, so each label would come from memory 3 times).
 */
export function jfaTileOrder(height: number, step: number): { classStride: number; perClass: number } {
  const tileRows = Math.ceil(height / JFA_TILE[1]);
  const classStride = Math.max(1, Math.floor(step / JFA_TILE[1]));
  return { classStride, perClass: Math.ceil(tileRows / classStride) };
}

/**
 * WGSL `fn before(a, b)`: whether label a precedes label b among candidates at equal distance,
 * i.e. has the lower site index. Labels are site indices (`ranked` false), or ranks
 * (`rankSites`) whose site indices are read from `original` at binding `binding` (indices
 * clamped to `lastRank`, a WGSL expression).
 */
export function tieOrder(ranked: boolean, binding: number, lastRank: string): string {
  return ranked
    ? /* wgsl */ `@group(0) @binding(${binding}) var<storage, read> original: array<u32>;
fn before(a: u32, b: u32) -> bool {
  return original[min(a, ${lastRank})] < original[min(b, ${lastRank})];
}`
    : /* wgsl */ `fn before(a: u32, b: u32) -> bool {
  return a < b;
}`;
}
