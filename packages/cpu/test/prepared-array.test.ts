import { availableParallelism } from 'node:os';
import { preparedFloat32Array, preparedFloat64Array, preparedInt32Array } from '@geoframe/cpu';
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

describe('preparedInt32Array and preparedFloat32Array', () => {
  it('are zero-filled, writable arrays of the asked length, shared from 2 MiB', async () => {
    for (const length of [0, 1, 1000, (1 << 19) - 1, (1 << 19) + 3]) {
      for (const make of [preparedInt32Array, preparedFloat32Array]) {
        const a = await make(length);
        expect(a.length).toBe(length);
        for (let i = 0; i < length; i += 509) expect(a[i]).toBe(0);
        if (length > 0) {
          a[length - 1] = -7;
          expect(a[length - 1]).toBe(-7);
        }
        const shared = a.buffer instanceof SharedArrayBuffer;
        expect(shared).toBe(4 * length >= 1 << 21 && availableParallelism() > 1);
      }
    }
  });
});
