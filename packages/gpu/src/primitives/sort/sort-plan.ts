/** One LSD pass: sort stably by the `bits` bits of the key starting at bit `shift`. */
export interface DigitPass {
  shift: number;
  bits: number;
}

/** Largest digit one radix pass sorts by (256 buckets). */
export const MAX_DIGIT_BITS = 8;

/**
 * The LSD passes that sort by the low `keyBits` bits: at most {@link MAX_DIGIT_BITS} bits each, and
 * always an even number of passes, so that ping-ponging between the caller's buffers and one
 * scratch pair ends in the caller's buffers with no final copy. Bits are spread evenly: 32 bits
 * are 4 passes of 8, 16 bits 2 of 8, 24 bits 4 of 6, 8 bits 2 of 4, 1 bit one pass of 1 and one
 * of 0 (a stable copy).
 *
 * @throws RangeError when `keyBits` is not an integer in [1, 32].
 */
export function planDigitPasses(keyBits: number): DigitPass[] {
  if (!Number.isInteger(keyBits) || keyBits < 1 || keyBits > 32) {
    throw new RangeError(`keyBits ${keyBits} is not an integer in [1, 32]`);
  }
  let passes = Math.ceil(keyBits / MAX_DIGIT_BITS);
  if (passes % 2 === 1) passes++;
  const base = Math.floor(keyBits / passes);
  const extra = keyBits % passes;
  const plan: DigitPass[] = [];
  let shift = 0;
  for (let p = 0; p < passes; p++) {
    const bits = base + (p < extra ? 1 : 0);
    plan.push({ shift, bits });
    shift += bits;
  }
  return plan;
}

/** Bits needed to write every integer in [0, n] (at least 1). */
export function bitsFor(n: number): number {
  let bits = 1;
  while (bits < 32 && n >= 2 ** bits) bits++;
  return bits;
}
