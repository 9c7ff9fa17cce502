/**
 * The area of a ring of f64 points, computed exactly with BigInt and rounded once to the nearest
 * f64 (ties to even): the reference the device's area kernel must equal bit for bit. Null when
 * the result is not a normal f64 (the kernel declines those).
 */
export function exactRingArea(coords: Float64Array, start: number, end: number): number | null {
  if (end - start < 3) return 0;
  // every finite f64 is an integer multiple of 2^-1074
  const scaled = (v: number) => exactScaled(v);
  const x0 = scaled(coords[2 * start]);
  const y0 = scaled(coords[2 * start + 1]);
  let sum = 0n;
  for (let i = start; i < end - 1; i++) {
    const ax = scaled(coords[2 * i]) - x0;
    const ay = scaled(coords[2 * i + 1]) - y0;
    const bx = scaled(coords[2 * i + 2]) - x0;
    const by = scaled(coords[2 * i + 3]) - y0;
    sum += ax * by - bx * ay;
  }
  if (sum < 0n) sum = -sum;
  // area = sum · 2^(-2·1074 - 1)
  return roundToF64(sum, -2 * 1074 - 1);
}

/** v · 2^1074 as a BigInt (exact for every finite f64). */
export function exactScaled(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const field = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let shift = 0;
  if (field !== 0) {
    mantissa |= 1n << 52n;
    shift = field - 1;
  }
  const value = mantissa << BigInt(shift);
  return negative ? -value : value;
}

/** a · 2^e rounded to the nearest f64, ties to even; null unless the result is a normal f64 (or 0). */
export function roundToF64(a: bigint, e: number): number | null {
  if (a === 0n) return 0;
  const length = a.toString(2).length;
  const top = length - 1 + e;
  if (top > 1023 || top < -1022) return null;
  let mantissa: bigint;
  let exponent: number;
  if (length <= 53) {
    mantissa = a;
    exponent = e;
  } else {
    const drop = BigInt(length - 53);
    mantissa = a >> drop;
    const rest = a - (mantissa << drop);
    const half = 1n << (drop - 1n);
    if (rest > half || (rest === half && (mantissa & 1n) === 1n)) mantissa += 1n;
    exponent = e + (length - 53);
  }
  // mantissa ≤ 2^53 and the result is normal, so exponent ≥ -1076: scaled in two exact steps
  const result =
    exponent < -900 ? Number(mantissa) * 2 ** (exponent + 200) * 2 ** -200 : Number(mantissa) * 2 ** exponent;
  return Number.isFinite(result) ? result : null;
}
