import { describe, expect, test } from 'vitest';
import { STAR_COMMON } from '../src/delaunay/star-common-wgsl.js';
import { starSearchModule } from '../src/delaunay/star-search-wgsl.js';
import { EXACT_FIXED, FIXED_WGSL } from '../src/exact/fixed-wgsl.js';
import { DELAUNAY_PREDICATES } from '../src/exact/predicates/predicates-wgsl.js';
import { HALFEDGE } from '../src/mesh/halfedge-wgsl.js';
import { F64_BITS } from '../src/resident/f64-bits-wgsl.js';
import { linkOrder, linkWgsl, type WgslModule, wgslModule } from '../src/runtime/wgsl-module.js';

/** Names of the functions a WGSL source defines, in order. */
function functions(source: string): string[] {
  return [...source.matchAll(/\bfn\s+(\w+)\s*\(/g)].map((m) => m[1] as string);
}

describe('WGSL modules (adr/0016)', () => {
  test('each module once, after everything it needs, in the order given', () => {
    const a = wgslModule('a', 'fn a() {}');
    const b = wgslModule('b', 'fn b() { a(); }', [a]);
    const c = wgslModule('c', 'fn c() { a(); }', [a]);
    const d = wgslModule('d', 'fn d() { b(); c(); }', [b, c]);
    expect(functions(linkWgsl(d))).toEqual(['a', 'b', 'c', 'd']);
    expect(functions(linkWgsl(c, d, a))).toEqual(['a', 'c', 'b', 'd']);
    expect(linkWgsl(wgslModule('empty', '', [a]))).toBe('fn a() {}');
  });

  test('a cycle and two modules of one name are errors naming them', () => {
    const deps: WgslModule[] = [];
    const x = { name: 'x', source: 'fn x() {}', deps };
    const y = wgslModule('y', 'fn y() {}', [x]);
    deps.push(y); // a module list built lazily can close a loop
    expect(() => linkWgsl(y)).toThrow('WGSL modules depend on each other in a cycle: y → x → y');
    const one = wgslModule('same', 'fn s() {}');
    const other = wgslModule('same', 'fn s() { return; }');
    expect(() => linkWgsl(wgslModule('top', '', [one, other]))).toThrow(
      "two different WGSL modules are named 'same'",
    );
  });

  test('the exact libraries: no function defined twice, and a module calls only into itself and modules before it', () => {
    for (const roots of [[EXACT_FIXED], [EXACT_FIXED, DELAUNAY_PREDICATES], [DELAUNAY_PREDICATES]]) {
      const defined = functions(linkWgsl(...roots));
      expect(new Set(defined).size, 'a function defined twice').toBe(defined.length);
      const before = new Set<string>();
      for (const module of linkOrder(...roots)) {
        const own = new Set(functions(module.source));
        for (const call of module.source.matchAll(/\b(\w+)\s*\(/g)) {
          const callee = call[1] as string;
          if (defined.includes(callee) && !own.has(callee)) {
            expect(before.has(callee), `${module.name} calls ${callee} of a module not before it`).toBe(true);
          }
        }
        for (const name of own) before.add(name);
      }
    }
    expect(FIXED_WGSL).toBe(linkWgsl(EXACT_FIXED));
  });

  test('the star, half-edge and f64-bits libraries: each module once, no function defined twice, a pass shape one module', () => {
    const first = starSearchModule(12, 64, false);
    expect(starSearchModule(12, 64, false)).toBe(first);
    expect(starSearchModule(48, 1, true)).not.toBe(first);
    for (const root of [first, starSearchModule(48, 1, true), F64_BITS]) {
      const order = linkOrder(root);
      expect(new Set(order.map((m) => m.name)).size).toBe(order.length);
      const defined = functions(linkWgsl(root));
      expect(new Set(defined).size, `${root.name}: a function defined twice`).toBe(defined.length);
    }
    const search = linkOrder(first).map((m) => m.name);
    // the libraries before the star code, the pass's shape before the bindings and state over it
    expect(search.slice(0, 2)).toEqual([HALFEDGE.name, 'exact/wide-int']);
    expect(search.indexOf(STAR_COMMON.name)).toBeLessThan(search.indexOf('delaunay/star-shape(12,64,false)'));
    expect(search.indexOf('delaunay/star-shape(12,64,false)')).toBeLessThan(
      search.indexOf('delaunay/star-bindings'),
    );
    expect(search.at(-1)).toBe('delaunay/star-search(12,64,false)');
  });
});
