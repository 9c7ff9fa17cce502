import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The dependency rules of adr/0001 and adr/0016, read from the source itself: gpu and cpu never
// import each other, and no package's modules import each other in a cycle. Type-only imports
// (`import type`, or every named import marked `type`) are erased from the JavaScript and cannot
// order module loading, so a cycle is counted on the imports that remain at run time; a type-only
// import across gpu and cpu is still refused (the packages must not know each other).

const ROOT = resolve(import.meta.dirname, '../../..');
const PACKAGES = readdirSync(join(ROOT, 'packages')).filter((p) =>
  statSync(join(ROOT, 'packages', p, 'src'), { throwIfNoEntry: false })?.isDirectory(),
);

interface Import {
  from: string;
  specifier: string;
  /** The module file for a relative import, null for a package. */
  target: string | null;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import and re-export of `file` (static and dynamic), with whether it is type-only. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith('.')
      ? resolve(dirname(file), specifier).replace(/\.js$/, '.ts')
      : null;
    out.push({ from: file, specifier, target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const allTypes =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier.text, allTypes);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The cycles (strongly connected components of two or more modules, or a self-import) of a graph. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return cycles;
}

const imports = new Map(
  PACKAGES.map((pkg) => [pkg, sourceFiles(join(ROOT, 'packages', pkg, 'src')).flatMap(importsOf)]),
);
const rel = (file: string) => relative(ROOT, file);

describe('package imports (src)', () => {
  it('finds the packages and their imports', () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(['core', 'cpu', 'gpu', 'geo']));
    for (const pkg of ['core', 'cpu', 'gpu', 'geo'])
      expect(imports.get(pkg)?.length, pkg).toBeGreaterThan(10);
    // the parser sees what it must refuse: geo's engines module imports both engines
    const engines = (imports.get('geo') ?? []).filter((i) => i.from.endsWith('ops/engines.ts'));
    expect(engines.map((i) => i.specifier)).toEqual(
      expect.arrayContaining(['@geoframe/cpu', '@geoframe/gpu']),
    );
  });

  it('gpu never imports cpu, and cpu never imports gpu (not even types)', () => {
    const crossing = (pkg: string, other: string) =>
      (imports.get(pkg) ?? [])
        .filter((i) => i.specifier === `@geoframe/${other}` || i.specifier.startsWith(`@geoframe/${other}/`))
        .concat(
          (imports.get(pkg) ?? []).filter(
            (i) => i.target !== null && rel(i.target).startsWith(`packages/${other}/`),
          ),
        )
        .map((i) => `${rel(i.from)} imports ${i.specifier}`);
    expect(crossing('gpu', 'cpu')).toEqual([]);
    expect(crossing('cpu', 'gpu')).toEqual([]);
  });

  it('gpu and cpu do not depend on each other in package.json (a devDependency serves reference tests)', () => {
    const deps = (pkg: string) =>
      Object.keys(
        JSON.parse(readFileSync(join(ROOT, 'packages', pkg, 'package.json'), 'utf8')).dependencies ?? {},
      );
    expect(deps('gpu')).not.toContain('@geoframe/cpu');
    expect(deps('cpu')).not.toContain('@geoframe/gpu');
  });

  it('only geo/src/ops/engines.ts imports both engines', () => {
    const both = new Map<string, Set<string>>();
    for (const i of imports.get('geo') ?? []) {
      if (i.specifier !== '@geoframe/cpu' && i.specifier !== '@geoframe/gpu') continue;
      if (i.typeOnly) continue;
      const seen = both.get(i.from) ?? new Set();
      seen.add(i.specifier);
      both.set(i.from, seen);
    }
    const meeting = [...both].filter(([, s]) => s.size === 2).map(([f]) => rel(f));
    expect(meeting).toEqual(['packages/geo/src/ops/engines.ts']);
  });

  it('no package has an import cycle among its modules (run-time imports)', () => {
    for (const [pkg, list] of imports) {
      const graph = new Map<string, string[]>();
      for (const file of sourceFiles(join(ROOT, 'packages', pkg, 'src'))) graph.set(file, []);
      for (const i of list) if (i.target !== null && !i.typeOnly) graph.get(i.from)?.push(i.target);
      const cycles = cyclesOf(graph).map((c) => c.map(rel).join(' → '));
      expect(cycles, pkg).toEqual([]);
    }
  });

  it('the packages depend on each other without a cycle (any import, types included)', () => {
    const graph = new Map<string, string[]>(PACKAGES.map((pkg) => [pkg, []]));
    for (const [pkg, list] of imports) {
      for (const i of list) {
        const other = /^@geoframe\/([\w-]+)/.exec(i.specifier)?.[1];
        if (other !== undefined && other !== pkg && !graph.get(pkg)?.includes(other))
          graph.get(pkg)?.push(other);
      }
    }
    // the layers of adr/0016: core at the bottom, the engines on it, geo on top
    expect(graph.get('core')).toEqual([]);
    expect(graph.get('geo')).toEqual(expect.arrayContaining(['core', 'cpu', 'gpu']));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('the cycle finder finds a cycle, a self-import, and none in a chain', () => {
    const g = (edges: [string, string][]) => {
      const m = new Map<string, string[]>();
      for (const [a, b] of edges) {
        m.set(a, [...(m.get(a) ?? []), b]);
        if (!m.has(b)) m.set(b, []);
      }
      return m;
    };
    expect(
      cyclesOf(
        g([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(g([['a', 'a']]))).toEqual([['a']]);
    expect(
      cyclesOf(
        g([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toEqual([]);
  });
});
