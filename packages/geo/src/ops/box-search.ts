import type Flatbush from 'flatbush';

/** The arrays of a finished flatbush tree (its packed layout, stable across flatbush 4.x). */
interface PackedTree {
  _boxes: Float64Array;
  _indices: Uint16Array | Uint32Array;
  _levelBounds: number[];
  nodeSize: number;
  numItems: number;
}

/**
 * Box queries on a flatbush tree without allocating per query: flatbush's `search` builds a JS
 * array (and a queue) for every call, which dominated a million-point join. This walks the same
 * packed arrays with a typed stack and leaves the item ids in `hits[0..count)`, ascending.
 * Falls back to `search` on a tree whose layout is not the expected one.
 */
export class BoxSearch {
  hits: Int32Array = new Int32Array(64);
  private stack: Int32Array = new Int32Array(128);
  private readonly packed: PackedTree | null;

  constructor(private readonly tree: Flatbush) {
    const t = tree as unknown as PackedTree;
    const ok = t._boxes instanceof Float64Array && Array.isArray(t._levelBounds) && t._indices !== undefined;
    this.packed = ok ? t : null;
  }

  /** Number of items whose boxes meet [minX, maxX] × [minY, maxY]; their ids in `hits`, ascending. */
  search(minX: number, minY: number, maxX: number, maxY: number): number {
    if (this.packed === null) return this.fromArray(this.tree.search(minX, minY, maxX, maxY));
    const { _boxes: boxes, _indices: indices, _levelBounds: levelBounds, nodeSize } = this.packed;
    const numItems4 = this.packed.numItems * 4;
    let count = 0;
    let top = 0;
    let nodeIndex = boxes.length - 4;
    let level = levelBounds.length - 1;
    for (;;) {
      const end = Math.min(nodeIndex + nodeSize * 4, levelBounds[level]);
      const isNode = nodeIndex >= numItems4;
      for (let pos = nodeIndex; pos < end; pos += 4) {
        if (maxX < boxes[pos] || maxY < boxes[pos + 1] || minX > boxes[pos + 2] || minY > boxes[pos + 3])
          continue;
        const index = indices[pos >> 2] | 0;
        if (isNode) {
          if (top + 2 > this.stack.length) this.stack = grow(this.stack);
          this.stack[top++] = index;
          this.stack[top++] = level - 1;
        } else {
          if (count === this.hits.length) this.hits = grow(this.hits);
          this.hits[count++] = index;
        }
      }
      if (top === 0) break;
      level = this.stack[--top];
      nodeIndex = this.stack[--top];
    }
    sortPrefix(this.hits, count);
    return count;
  }

  private fromArray(found: number[]): number {
    while (this.hits.length < found.length) this.hits = grow(this.hits);
    this.hits.set(found);
    sortPrefix(this.hits, found.length);
    return found.length;
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Sorts a[0..n): insertion sort for the few hits a query usually has. */
function sortPrefix(a: Int32Array, n: number): void {
  if (n > 32) {
    a.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
