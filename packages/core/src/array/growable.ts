/**
 * Typed arrays that grow by doubling, for builders: appending never allocates per element and
 * `finish()` hands out a view of exactly the written length (no copy).
 */
type TypedArray = Float64Array | Int32Array | Uint8Array;
type TypedArrayConstructor<T extends TypedArray> = { new (length: number): T };

class Growable<T extends TypedArray> {
  private data: T;
  length = 0;
  constructor(
    private readonly ctor: TypedArrayConstructor<T>,
    capacity = 16,
  ) {
    this.data = new ctor(Math.max(1, capacity));
  }

  /** Makes room for `extra` more values. */
  reserve(extra: number): void {
    const need = this.length + extra;
    if (need <= this.data.length) return;
    let capacity = this.data.length * 2;
    while (capacity < need) capacity *= 2;
    const next = new this.ctor(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  /** Appends a run of values (e.g. a whole coordinate sequence) with one copy. */
  pushAll(values: ArrayLike<number>): void {
    this.reserve(values.length);
    (this.data as unknown as { set(a: ArrayLike<number>, o: number): void }).set(values, this.length);
    this.length += values.length;
  }

  get(index: number): number {
    return this.data[index];
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** The written values. Later appends may reallocate, so take this once, at the end. */
  finish(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export class GrowableFloat64 extends Growable<Float64Array> {
  constructor(capacity?: number) {
    super(Float64Array, capacity);
  }
}

export class GrowableInt32 extends Growable<Int32Array> {
  constructor(capacity?: number) {
    super(Int32Array, capacity);
  }
}

export class GrowableUint8 extends Growable<Uint8Array> {
  constructor(capacity?: number) {
    super(Uint8Array, capacity);
  }
}
