import { type GeometryArray, GeometryType } from '@geoframe/core';

/** An undirected graph over rows in compressed sparse row form. */
export interface Adjacency {
  /** `rows + 1` entries: the neighbours of row `i` are `neighbors[offsets[i] .. offsets[i + 1])`. */
  offsets: Int32Array;
  /** Neighbour rows, each pair listed from both sides, no repeats, never a row itself. */
  neighbors: Int32Array;
}

/** Whether row `i` is a polygon or multipolygon holding at least one coordinate (not null, not empty). */
export function isArealRow(array: GeometryArray, i: number): boolean {
  const type = array.typeOf(i);
  return (type === GeometryType.Polygon || type === GeometryType.MultiPolygon) && !array.isEmpty(i);
}

/** murmur3's 32-bit finalizer: spreads every input bit over the whole hash. */
function mix32(h: number): number {
  let v = h ^ (h >>> 16);
  v = Math.imul(v, 0x85ebca6b);
  v ^= v >>> 13;
  v = Math.imul(v, 0xc2b2ae35);
  return (v ^ (v >>> 16)) | 0;
}

/**
 * Which polygon rows are neighbours: two rows are adjacent when a segment of one (between two
 * consecutive ring vertices, holes included) has the same two endpoints, bit for bit, as a
 * segment of the other, in either direction. That is how cells of a tessellation computed
 * once (Voronoi cells, a shared-boundary map) meet. Rows touching at a single vertex are not
 * neighbours, nor are rows whose shared boundary is split at different vertices on each side.
 *
 * Rows that are not polygons or multipolygons, and null or empty rows, have no neighbours.
 * Zero-length segments and segments with a NaN coordinate are ignored; a ring that is not
 * closed is read as if it were. `-0` and `0` are the same coordinate.
 *
 * Segments are found by open-addressing hashing of their endpoints in typed arrays (no string
 * keys, no per-segment objects): linear in the number of segments.
 */
export function edgeAdjacency(array: GeometryArray): Adjacency {
  const n = array.length;
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const coords = array.coords;
  const stride = array.stride;

  // count segments (closed rings have as many segments as coordinates minus one; open ones one more)
  const areal = new Uint8Array(n);
  let segmentCount = 0;
  for (let i = 0; i < n; i++) {
    if (!isArealRow(array, i)) continue;
    areal[i] = 1;
    segmentCount +=
      ringOffsets[partOffsets[geometryOffsets[i + 1]]] - ringOffsets[partOffsets[geometryOffsets[i]]];
  }

  // the bit patterns of the coordinates (a Float64Array is always 8-byte aligned)
  const words = new Uint32Array(coords.buffer, coords.byteOffset, coords.length * 2);
  const segA = new Int32Array(segmentCount); // coordinate index of the first endpoint
  const segB = new Int32Array(segmentCount);
  const segRow = new Int32Array(segmentCount);
  const sameNext = new Int32Array(segmentCount); // an earlier segment with the same endpoints, or -1
  let capacity = 16;
  while (capacity < segmentCount * 2) capacity *= 2;
  const mask = capacity - 1;
  const table = new Int32Array(capacity).fill(-1);
  let pairs = new Int32Array(Math.max(16, segmentCount));
  let pairCount = 0;

  let s = 0;
  for (let i = 0; i < n; i++) {
    if (areal[i] === 0) continue;
    const r1 = partOffsets[geometryOffsets[i + 1]];
    for (let r = partOffsets[geometryOffsets[i]]; r < r1; r++) {
      const c0 = ringOffsets[r];
      const c1 = ringOffsets[r + 1];
      if (c1 - c0 < 2) continue;
      // vertices c0 .. c0 + m - 1, joined cyclically; a closed ring's repeated last coordinate is
      // the first one again, so it is left out
      const closed =
        coords[c0 * stride] === coords[(c1 - 1) * stride] &&
        coords[c0 * stride + 1] === coords[(c1 - 1) * stride + 1];
      const m = closed ? c1 - 1 - c0 : c1 - c0;
      let hb = 0;
      let b = c0;
      let x1 = 0;
      let y1 = 0;
      for (let t = 0; t <= m; t++) {
        const a = b;
        const x0 = x1;
        const y0 = y1;
        const ha = hb;
        b = t < m ? c0 + t : c0;
        x1 = coords[b * stride];
        y1 = coords[b * stride + 1];
        // hash of the coordinate's bits, with -0 read as 0
        const j = 2 * b * stride;
        const xhi = x1 === 0 ? 0 : words[j + 1];
        const yhi = y1 === 0 ? 0 : words[j + 3];
        hb = mix32(
          words[j] ^
            Math.imul(xhi, 0x9e3779b1) ^
            Math.imul(words[j + 2], 0x85ebca6b) ^
            Math.imul(yhi, 0xc2b2ae35),
        );
        if (t === 0) continue;
        if ((x0 === x1 && y0 === y1) || Number.isNaN(x0 + y0 + x1 + y1)) continue;
        // symmetric in the two endpoints, so both directions land in the same slot
        let slot = mix32((ha ^ hb) + Math.imul(ha + hb, 0x27d4eb2f)) & mask;
        segA[s] = a;
        segB[s] = b;
        segRow[s] = i;
        sameNext[s] = -1;
        for (;;) {
          const found = table[slot];
          if (found === -1) {
            table[slot] = s;
            break;
          }
          const ta = segA[found] * stride;
          const tb = segB[found] * stride;
          const cx = coords[ta];
          const cy = coords[ta + 1];
          const dx = coords[tb];
          const dy = coords[tb + 1];
          if (
            (x0 === cx && y0 === cy && x1 === dx && y1 === dy) ||
            (x0 === dx && y0 === dy && x1 === cx && y1 === cy)
          ) {
            // pair with every earlier owner of this segment, then take the slot over
            for (let u = found; u !== -1; u = sameNext[u]) {
              const other = segRow[u];
              if (other === i) continue;
              if (pairCount + 2 > pairs.length) {
                const grown = new Int32Array(pairs.length * 2);
                grown.set(pairs);
                pairs = grown;
              }
              pairs[pairCount++] = i;
              pairs[pairCount++] = other;
            }
            sameNext[s] = found;
            table[slot] = s;
            break;
          }
          slot = (slot + 1) & mask;
        }
        s++;
      }
    }
  }
  return adjacencyFromPairs(n, pairs.subarray(0, pairCount));
}

/**
 * The CSR graph of `rows` vertices with the undirected edges `pairs` (`a0, b0, a1, b1, …`);
 * repeated pairs and self-loops are dropped.
 */
export function adjacencyFromPairs(rows: number, pairs: Int32Array): Adjacency {
  const degree = new Int32Array(rows + 1);
  for (let p = 0; p < pairs.length; p += 2) {
    if (pairs[p] === pairs[p + 1]) continue;
    degree[pairs[p]]++;
    degree[pairs[p + 1]]++;
  }
  const start = new Int32Array(rows + 1);
  for (let i = 0; i < rows; i++) start[i + 1] = start[i] + degree[i];
  const fill = start.slice(0, rows);
  const all = new Int32Array(start[rows]);
  for (let p = 0; p < pairs.length; p += 2) {
    const a = pairs[p];
    const b = pairs[p + 1];
    if (a === b) continue;
    all[fill[a]++] = b;
    all[fill[b]++] = a;
  }
  // drop repeats (rows sharing several segments) in place, with a last-seen stamp per row
  const seen = new Int32Array(rows).fill(-1);
  const offsets = new Int32Array(rows + 1);
  let w = 0;
  for (let i = 0; i < rows; i++) {
    offsets[i] = w;
    for (let j = start[i]; j < start[i + 1]; j++) {
      const v = all[j];
      if (seen[v] === i) continue;
      seen[v] = i;
      all[w++] = v;
    }
  }
  offsets[rows] = w;
  return { offsets, neighbors: all.slice(0, w) };
}
