/** Seeded 32-bit generator (mulberry32): the same words for the same seed. */
export function seededWords(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * `n` seeded u32 values mixing full-range words, 0, 0xffffffff and small numbers, so sums wrap
 * often and the extremes occur.
 */
export function randomWords(n: number, seed: number): Uint32Array {
  const next = seededWords(seed);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = next();
    const kind = r & 3;
    out[i] = kind === 0 ? 0 : kind === 1 ? 0xffffffff : kind === 2 ? next() : next() & 0xff;
  }
  return out;
}

/** Exclusive or inclusive prefix sums modulo 2^32, the plain sequential way. */
export function cpuScan(values: Uint32Array, inclusive: boolean): Uint32Array {
  const out = new Uint32Array(values.length);
  let run = 0;
  for (let i = 0; i < values.length; i++) {
    if (inclusive) {
      run = (run + values[i]) >>> 0;
      out[i] = run;
    } else {
      out[i] = run;
      run = (run + values[i]) >>> 0;
    }
  }
  return out;
}
