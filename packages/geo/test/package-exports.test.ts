import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// adr/0016: each package's index exports its public API only, and docs/api.md ("Package
// exports") lists it. Both are read from the files: a name exported and not listed, or listed and
// not exported, fails, as does an index that exports by `export *` (its names cannot be listed).

const ROOT = resolve(import.meta.dirname, '../../..');
const PACKAGES = readdirSync(join(ROOT, 'packages')).filter((p) =>
  statSync(join(ROOT, 'packages', p, 'src', 'index.ts'), { throwIfNoEntry: false })?.isFile(),
);

/** The names an index exports, or an error naming what cannot be listed. */
function exportsOf(file: string, text: string): { names: string[]; unlisted: string[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const unlisted: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.push(element.name.text);
      } else {
        unlisted.push(statement.getText(source));
      }
    } else if (ts.isExportAssignment(statement)) {
      unlisted.push(statement.getText(source));
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      const declared = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => d.name.getText(source))
        : [(statement as ts.DeclarationStatement).name?.getText(source) ?? '(anonymous)'];
      names.push(...declared);
    }
  }
  return { names, unlisted };
}

interface Listing {
  /** The count the heading states. */
  stated: number | null;
  names: string[];
}

/**
 * The "Package exports" section of docs/api.md: per `### \`@geoframe/<pkg>\` (… N names)`
 * heading, every identifier written in backticks below it.
 */
function listingsOf(markdown: string): Map<string, Listing> {
  const start = markdown.indexOf('\n## Package exports');
  if (start < 0) return new Map();
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const out = new Map<string, Listing>();
  for (const part of section.split(/\n### /).slice(1)) {
    const [heading, ...body] = part.split('\n');
    const pkg = /^`@geoframe\/([\w-]+)`/.exec(heading)?.[1];
    if (pkg === undefined) continue;
    const stated = /(\d+) names\)/.exec(heading);
    const names = [...body.join('\n').matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]);
    out.set(pkg, { stated: stated ? Number(stated[1]) : null, names });
  }
  return out;
}

/** What differs between an index's exports and its listing. */
function differences(exported: string[], listed: string[]) {
  const e = new Set(exported);
  const l = new Set(listed);
  return {
    notListed: [...e].filter((n) => !l.has(n)).sort(),
    notExported: [...l].filter((n) => !e.has(n)).sort(),
    listedTwice: listed.filter((n, i) => listed.indexOf(n) !== i).sort(),
  };
}

const API = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
const LISTINGS = listingsOf(API);

describe('package exports (adr/0016)', () => {
  it('finds every package and its listing', () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(['core', 'cpu', 'geo', 'gpu', 'testing']));
    expect([...LISTINGS.keys()].sort()).toEqual([...PACKAGES].sort());
  });

  for (const pkg of PACKAGES) {
    it(`@geoframe/${pkg}: the index exports by name exactly what docs/api.md lists`, () => {
      const file = join(ROOT, 'packages', pkg, 'src', 'index.ts');
      const { names, unlisted } = exportsOf(file, readFileSync(file, 'utf8'));
      expect(unlisted, 'exports that are not by name').toEqual([]);
      const listing = LISTINGS.get(pkg);
      expect(listing, `docs/api.md has no "### \`@geoframe/${pkg}\`" under "Package exports"`).toBeDefined();
      expect(differences(names, listing?.names ?? [])).toEqual({
        notListed: [],
        notExported: [],
        listedTwice: [],
      });
      expect(listing?.stated, 'the count in the heading').toBe(new Set(names).size);
    });
  }

  it('sees what it must refuse', () => {
    const index = [
      "export { a, type B } from './a.js';",
      "export * from './c.js';",
      'export const d = 1, e = 2;',
      'export function f() {}',
    ].join('\n');
    const { names, unlisted } = exportsOf('index.ts', index);
    expect(names).toEqual(['a', 'B', 'd', 'e', 'f']);
    expect(unlisted).toEqual(["export * from './c.js';"]);
    const listings = listingsOf(
      '# x\n## Package exports\n### `@geoframe/x` (2 names)\n`a`, `g`, `a.b`, `a`\n## Next\n`h`\n',
    );
    expect(listings.get('x')).toEqual({ stated: 2, names: ['a', 'g', 'a'] });
    expect(differences(['a', 'B'], ['a', 'g', 'a'])).toEqual({
      notListed: ['B'],
      notExported: ['g'],
      listedTwice: ['a'],
    });
  });
});
