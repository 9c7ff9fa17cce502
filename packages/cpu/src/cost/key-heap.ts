/**
 * A binary min-heap of (cost, label, cell) entries with the keys stored in the heap itself
 * (no indirection through per-cell arrays), compared lexicographically by cost then label. A
 * decrease-key pushes a new entry; the caller skips stale entries on pop (lazy deletion), so the
 * heap may hold a cell more than once. Arrays grow by doubling.
 */
export class KeyHeap {
  private cost: Float64Array;
  private label: Int32Array;
  private cell: Int32Array;
  size = 0;
  /** Cost, label and cell of the entry {@link pop} returned last. */
  topCost = 0;
  topLabel = 0;
  topCell = 0;

  constructor(capacity: number) {
    const c = Math.max(16, capacity);
    this.cost = new Float64Array(c);
    this.label = new Int32Array(c);
    this.cell = new Int32Array(c);
  }

  private grow(): void {
    const c = this.cost.length * 2;
    const cost = new Float64Array(c);
    const label = new Int32Array(c);
    const cell = new Int32Array(c);
    cost.set(this.cost);
    label.set(this.label);
    cell.set(this.cell);
    this.cost = cost;
    this.label = label;
    this.cell = cell;
  }

  push(c: number, l: number, x: number): void {
    if (this.size === this.cost.length) this.grow();
    const cost = this.cost;
    const label = this.label;
    const cell = this.cell;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pc = cost[p];
      if (pc < c || (pc === c && label[p] <= l)) break;
      cost[i] = pc;
      label[i] = label[p];
      cell[i] = cell[p];
      i = p;
    }
    cost[i] = c;
    label[i] = l;
    cell[i] = x;
  }

  /** Removes the least entry into topCost/topLabel/topCell. The heap must not be empty. */
  pop(): void {
    const cost = this.cost;
    const label = this.label;
    const cell = this.cell;
    this.topCost = cost[0];
    this.topLabel = label[0];
    this.topCell = cell[0];
    const n = --this.size;
    if (n === 0) return;
    const c = cost[n];
    const l = label[n];
    const x = cell[n];
    let i = 0;
    for (;;) {
      let k = 2 * i + 1;
      if (k >= n) break;
      if (k + 1 < n && (cost[k + 1] < cost[k] || (cost[k + 1] === cost[k] && label[k + 1] < label[k]))) k++;
      const kc = cost[k];
      if (c < kc || (c === kc && l <= label[k])) break;
      cost[i] = kc;
      label[i] = label[k];
      cell[i] = cell[k];
      i = k;
    }
    cost[i] = c;
    label[i] = l;
    cell[i] = x;
  }
}
