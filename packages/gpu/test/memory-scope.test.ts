import { describe, expect, test } from 'vitest';
import { GpuOutOfMemoryError } from '../src/runtime/errors.js';
import { MemoryScope } from '../src/runtime/memory-scope.js';

/** A device stand-in: a stack of scopes; an allocation failure lands in the innermost open one. */
function fakeDevice() {
  const stack: (string | null)[] = [];
  const calls: string[] = [];
  return {
    calls,
    fail(message: string) {
      if (stack.length > 0) stack[stack.length - 1] ??= message;
    },
    device: {
      pushErrorScope(filter: string) {
        calls.push(`push ${filter}`);
        stack.push(null);
      },
      popErrorScope() {
        calls.push('pop');
        const caught = stack.pop();
        return Promise.resolve(caught ? ({ message: caught } as GPUError) : null);
      },
    } as unknown as GPUDevice,
  };
}

describe('MemoryScope', () => {
  test('closed early and reopened, it pops once per opening and reports a failure of any', async () => {
    const fake = fakeDevice();
    const scope = new MemoryScope(fake.device);
    scope.close();
    scope.close(); // no-op
    scope.reopen();
    scope.reopen(); // no-op
    fake.fail('no room for voronoi/coords');
    const checked = scope.check('voronoiCellsGpu');
    await expect(checked).rejects.toBeInstanceOf(GpuOutOfMemoryError);
    await expect(checked).rejects.toThrow(/no room for voronoi\/coords/);
    expect(fake.calls).toEqual(['push out-of-memory', 'pop', 'push out-of-memory', 'pop']);
  });

  test('a failure while closed is not its own; none caught, the check passes', async () => {
    const fake = fakeDevice();
    const scope = new MemoryScope(fake.device);
    scope.close();
    fake.fail('someone else');
    await expect(scope.check('x')).resolves.toBeUndefined();
    expect(fake.calls).toEqual(['push out-of-memory', 'pop']);
  });
});
