/**
 * An indexed binary min-heap of grid cells keyed by (cost, label) compared lexicographically,
 * read from the caller's arrays: a cell's key lives in `cost[cell]` and `label[cell]`, so a
 * decrease-key is "write the new key, then {@link CostHeap.raise}". Each cell is in the heap at
 * most once (no stale duplicates), so memory is two Int32Arrays of the grid's size.
 */
export class CostHeap {
  private readonly heap: Int32Array;
  /** Per cell: its slot in `heap`, −1 when not in the heap. */
  private readonly slot: Int32Array;
  private count = 0;

  constructor(
    cells: number,
    private readonly cost: Float64Array,
    private readonly label: Int32Array,
  ) {
    this.heap = new Int32Array(cells);
    this.slot = new Int32Array(cells).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  has(cell: number): boolean {
    return this.slot[cell] >= 0;
  }

  private less(a: number, b: number): boolean {
    const ca = this.cost[a];
    const cb = this.cost[b];
    return ca < cb || (ca === cb && this.label[a] < this.label[b]);
  }

  /** Adds `cell` (not in the heap) with the key already written to the arrays. */
  push(cell: number): void {
    this.heap[this.count] = cell;
    this.slot[cell] = this.count;
    this.siftUp(this.count++);
  }

  /** After the key of `cell` (in the heap) decreased: restores the heap order. */
  raise(cell: number): void {
    this.siftUp(this.slot[cell]);
  }

  /** Removes and returns the cell of the least key. The heap must not be empty. */
  pop(): number {
    const heap = this.heap;
    const top = heap[0];
    this.slot[top] = -1;
    const last = heap[--this.count];
    if (this.count > 0) {
      heap[0] = last;
      this.slot[last] = 0;
      this.siftDown(0);
    }
    return top;
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    const cell = heap[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (!this.less(cell, p)) break;
      heap[i] = p;
      this.slot[p] = i;
      i = parent;
    }
    heap[i] = cell;
    this.slot[cell] = i;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const n = this.count;
    const cell = heap[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.less(heap[child + 1], heap[child])) child++;
      const c = heap[child];
      if (!this.less(c, cell)) break;
      heap[i] = c;
      this.slot[c] = i;
      i = child;
    }
    heap[i] = cell;
    this.slot[cell] = i;
  }
}
