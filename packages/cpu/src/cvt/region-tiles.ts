import { BoxRingClipper } from '../clip/box-clip-ring.js';
import type { ClipRegion } from '../clip/clip-region.js';

/** Closed rings with their boxes: the region's own, or its pieces in one tile. */
export interface RingSet {
  coords: Float64Array;
  ringOffsets: Int32Array;
  /** minX, minY, maxX, maxY per ring. */
  ringBoxes: Float64Array;
}

/**
 * The region's rings cut once to square tiles (each grown by a quarter of its side), so that a
 * cell's box cut starts from the few vertices near it instead of every vertex of the ring: a cell
 * whose (grown) box lies strictly inside a tile's box takes that tile's pieces, and cuts them by
 * its own sides directly (no box cut of its own). Cutting a closed ring to a box keeps its winding
 * number inside the box (Sutherland–Hodgman), and the cell lies inside the tile's box, so the cell
 * sees the same region; the tile cut's new points and zero-width spikes lie on the tile's sides,
 * outside the cell, where the cell's half-planes remove them. Tiles are cut on first use and kept.
 */
export class RegionTiles {
  private readonly tiles = new Map<number, RingSet>();
  private readonly clipper = new BoxRingClipper();
  private readonly nx: number;
  private readonly margin: number;

  /** `side`: a tile's side (a few cells' widths). */
  constructor(
    private readonly region: ClipRegion,
    private readonly side: number,
  ) {
    this.nx = Math.max(1, Math.ceil((region.maxX - region.minX) / side));
    this.margin = side / 4;
  }

  /** The pieces of the tile whose grown box holds the box strictly inside, or null. */
  pieces(x0: number, y0: number, x1: number, y1: number): RingSet | null {
    const { region, side, margin } = this;
    const tx = Math.floor(((x0 + x1) / 2 - region.minX) / side);
    const ty = Math.floor(((y0 + y1) / 2 - region.minY) / side);
    if (!(tx >= 0 && ty >= 0 && tx < this.nx)) return null;
    const bx0 = region.minX + tx * side - margin;
    const by0 = region.minY + ty * side - margin;
    const bx1 = region.minX + (tx + 1) * side + margin;
    const by1 = region.minY + (ty + 1) * side + margin;
    if (!(x0 > bx0 && y0 > by0 && x1 < bx1 && y1 < by1)) return null;
    const key = ty * this.nx + tx;
    let tile = this.tiles.get(key);
    if (tile === undefined) {
      tile = this.cut(bx0, by0, bx1, by1);
      this.tiles.set(key, tile);
    }
    return tile;
  }

  private cut(bx0: number, by0: number, bx1: number, by1: number): RingSet {
    const { coords, ringOffsets, ringBoxes } = this.region;
    const xy: number[] = [];
    const offsets = [0];
    const boxes: number[] = [];
    for (let q = 0; q + 1 < ringOffsets.length; q++) {
      if (ringBoxes[4 * q] > bx1 || ringBoxes[4 * q + 2] < bx0) continue;
      if (ringBoxes[4 * q + 1] > by1 || ringBoxes[4 * q + 3] < by0) continue;
      const ring = this.clipper.clip(coords, ringOffsets[q], ringOffsets[q + 1], bx0, by0, bx1, by1);
      if (ring.length < 3) continue;
      let [minX, minY, maxX, maxY] = [ring[0][0], ring[0][1], ring[0][0], ring[0][1]];
      for (const [x, y] of ring) {
        xy.push(x, y);
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      xy.push(ring[0][0], ring[0][1]);
      offsets.push(xy.length >> 1);
      boxes.push(minX, minY, maxX, maxY);
    }
    return {
      coords: Float64Array.from(xy),
      ringOffsets: Int32Array.from(offsets),
      ringBoxes: Float64Array.from(boxes),
    };
  }
}
