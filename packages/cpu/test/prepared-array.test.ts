import { availableParallelism } from 'node:os';
import { preparedFloat64Array } from '@geoframe/cpu';
import { describe, expect, it } from 'vitest';

describe('preparedFloat64Array', () => {
  it('is a zero-filled, writable array of the asked length, shared when large', async () => {
    for (const length of [0, 1, 1000, (1 << 18) + 3, 3_000_001]) {
      const a = await preparedFloat64Array(length);
      expect(a.length).toBe(length);
      // every page was touched with zeros only
      for (let i = 0; i < length; i += 509) expect(a[i]).toBe(0);
      if (length > 0) {
        a[length - 1] = 1.5;
        expect(a[length - 1]).toBe(1.5);
      }
      // (a single core has no threads to touch pages with)
      if (length >= 1 << 18 && availableParallelism() > 1)
        expect(a.buffer instanceof SharedArrayBuffer).toBe(true);
    }
  });
});
