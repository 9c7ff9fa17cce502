import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GpuValidationError } from '@geoframe/gpu';
import { describe, expect, test } from 'vitest';
import { bindingEntries, bindingMismatch, wgslBindings } from '../src/runtime/kernel-bindings.js';
import { defineKernel, type KernelSpec } from '../src/runtime/pipeline-cache.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

const SOURCE = `struct Params { n: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0)  @binding( 2 ) var<storage, read_write> keys: array<atomic<u32>>;
@group(1) @binding(3) var<storage, read> other_group: array<u32>;
@compute @workgroup_size(1) fn main() { atomicStore(&keys[0], sites[0].x + params.n); }`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'platform' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Constants of every kind a kernel reads (numbers, flags), as an object that answers any name
 * with `value` (or its entry in `named`): a kernel's bindings depend on its constants only where
 * it declares them optional.
 */
function anyConstants(value: number | boolean, named: Record<string, unknown> = {}): Record<string, never> {
  return new Proxy(
    {},
    { get: (_target, key) => (typeof key !== 'string' ? undefined : key in named ? named[key] : value) },
  );
}

/** Constants a number or flag cannot stand for: the cost kernels' connectivity and relax phase. */
const NAMED_CONSTANTS: Record<string, unknown>[] = [
  {},
  { connectivity: 8, phase: 'cost' },
  { connectivity: 26, phase: 'hops' },
];

describe('kernel bindings by name (adr/0016)', () => {
  test('the WGSL bindings of group 0 are read by name, whatever the spacing', () => {
    expect([...wgslBindings(SOURCE)]).toEqual([
      ['params', 0],
      ['sites', 1],
      ['keys', 2],
    ]);
  });

  test('a declared name the WGSL lacks, a wrong number or an undeclared binding is a mismatch', () => {
    expect(bindingMismatch({ sites: 1, keys: 2 }, SOURCE)).toBeNull();
    expect(bindingMismatch({ site: 1, keys: 2 }, SOURCE)).toBe(
      "'site' (@binding(1)) is not in the WGSL; the WGSL's 'sites' (@binding(1)) is not declared",
    );
    expect(bindingMismatch({ sites: 2, keys: 1 }, SOURCE)).toBe(
      "'sites' is declared @binding(2) but the WGSL has @binding(1); 'keys' is declared @binding(1) but the WGSL has @binding(2)",
    );
    expect(bindingMismatch({ sites: 1 }, SOURCE)).toBe("the WGSL's 'keys' (@binding(2)) is not declared");
    expect(bindingMismatch({ sites: 1, keys: 2, extra: { binding: 3, optional: true } }, SOURCE)).toBeNull();
    expect(bindingMismatch({ sites: 1, keys: { binding: 3, optional: true } }, SOURCE)).toMatch(
      /'keys' is declared @binding\(3\) but the WGSL has @binding\(2\)/,
    );
  });

  test('buffers bound by name land at their numbers; a missing required one is an error', () => {
    const a = { label: 'a' } as GPUBuffer;
    const b = { label: 'b' } as GPUBuffer;
    const layout = { sites: 1, keys: 2, rank: { binding: 5, optional: true } } as const;
    expect(bindingEntries(layout, { keys: b, sites: a })).toEqual([
      { binding: 1, buffer: a },
      { binding: 2, buffer: b },
    ]);
    expect(bindingEntries(layout, { sites: a, keys: { buffer: b, offset: 256, size: 8 }, rank: a })).toEqual([
      { binding: 1, buffer: a },
      { binding: 2, buffer: b, offset: 256, size: 8 },
      { binding: 5, buffer: a },
    ]);
    expect(() => bindingEntries(layout, { sites: a } as never)).toThrow("no buffer for binding 'keys'");
  });

  test('every kernel of the engine names its bindings as its WGSL declares them, for flags on and off', async () => {
    const root = join(__dirname, '../src');
    let checked = 0;
    for (const file of sourceFiles(root)) {
      const folder = file.slice(root.length + 1).split('/')[0] as string;
      const module: Record<string, unknown> = await import(file);
      for (const [name, value] of Object.entries(module)) {
        if (
          typeof value !== 'object' ||
          value === null ||
          typeof (value as KernelSpec).source !== 'function'
        ) {
          continue;
        }
        const kernel = value as KernelSpec;
        expect(kernel.bindings, `${name} (${folder}/) does not name its bindings`).toBeDefined();
        if (kernel.bindings === undefined) continue;
        const seen = new Set<string>();
        const values = [1, 64, true, false];
        for (const constants of NAMED_CONSTANTS.flatMap((named) =>
          values.map((v) => anyConstants(v, named)),
        )) {
          let source: string;
          try {
            source = kernel.source(constants);
          } catch {
            continue; // constants this kernel refuses (e.g. a workgroup size it cannot take)
          }
          expect(bindingMismatch(kernel.bindings, source), `${kernel.name}`).toBeNull();
          for (const binding of wgslBindings(source).keys()) seen.add(binding);
        }
        // an optional binding appears for some constants: optional is no cover for a typo
        for (const declared of Object.keys(kernel.bindings)) {
          expect(seen.has(declared), `${kernel.name}: '${declared}' is in no source`).toBe(true);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

gpuTest(
  'a kernel whose declared name does not match its WGSL fails when its pipeline is created',
  async () => {
    const ctx = await requireGpu();
    const misnamed = defineKernel({
      name: 'test/misnamed',
      bindings: { sites: 1, key: 2 },
      source: () => SOURCE,
    });
    const error = await ctx.pipelines.get(misnamed, {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GpuValidationError);
    expect((error as Error).message).toBe(
      "test/misnamed: bindings: 'key' (@binding(2)) is not in the WGSL; the WGSL's 'keys' (@binding(2)) is not declared",
    );
  },
);
