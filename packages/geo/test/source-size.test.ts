import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The size rules of adr/0016, read from the source itself: every module under packages/*/src
// stays under 400 lines and every function (declaration, method, arrow or expression, counted
// from its first line to its last) under 120, so a newcomer reads one piece at a time.

const ROOT = resolve(import.meta.dirname, '../../..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;

/**
 * Files the rules do not hold, each with why. Keep it short: a new entry needs an ADR's word.
 */
const ALLOWED: Record<string, string> = {};

/** Folders the rules do not hold yet, with why (prefixes of repository paths). */
const ALLOWED_FOLDERS: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function allowed(path: string): boolean {
  return path in ALLOWED || Object.keys(ALLOWED_FOLDERS).some((folder) => path.startsWith(folder));
}

const FILES = readdirSync(join(ROOT, 'packages'))
  .map((p) => join(ROOT, 'packages', p, 'src'))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(sourceFiles)
  .map((file) => relative(ROOT, file));

/**
 * Every function of `text` longer than the limit, as `name at line (lines)`. The lines of a
 * template literal after its first (a kernel's WGSL text) are not TypeScript and do not count:
 * WGSL is held to the file limit, and its entry points are split only where the H100 shows the
 * shader runs as fast (adr/0016).
 */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const textLines = new Set<number>();
  const functions: ts.FunctionLikeDeclaration[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      for (let line = lineOf(node.getStart(source)) + 1; line <= lineOf(node.getEnd()); line++)
        textLines.add(line);
    }
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) functions.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out: string[] = [];
  for (const node of functions) {
    const first = lineOf(node.getStart(source));
    let lines = 0;
    for (let line = first; line <= lineOf(node.getEnd()); line++) if (!textLines.has(line)) lines++;
    if (lines > MAX_FUNCTION_LINES) {
      const name = node.name !== undefined ? node.name.getText(source) : '(anonymous)';
      out.push(`${name} at line ${first + 1} (${lines} lines)`);
    }
  }
  return out;
}

describe('source size (adr/0016)', () => {
  it('finds the sources', () => {
    expect(FILES.length).toBeGreaterThan(100);
    for (const path of [...Object.keys(ALLOWED), ...Object.keys(ALLOWED_FOLDERS)]) {
      expect(
        FILES.some((file) => file.startsWith(path)),
        `allow-list entry ${path} names no source`,
      ).toBe(true);
    }
  });

  it(`keeps every module under ${MAX_FILE_LINES} lines`, () => {
    const long = FILES.filter((file) => !allowed(file))
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines >= MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`keeps every function under ${MAX_FUNCTION_LINES} lines`, () => {
    const long = FILES.filter((file) => !allowed(file)).flatMap((file) =>
      longFunctions(file, readFileSync(join(ROOT, file), 'utf8')).map((f) => `${file}: ${f}`),
    );
    expect(long).toEqual([]);
  });

  it('measures what it claims', () => {
    // a function of 121 lines is found, one of 120 is not; a file's lines are its newline count
    const body = (n: number) => `function f() {\n${'  x();\n'.repeat(n - 2)}}\n`;
    expect(longFunctions('a.ts', body(MAX_FUNCTION_LINES + 1))).toHaveLength(1);
    expect(longFunctions('a.ts', body(MAX_FUNCTION_LINES))).toHaveLength(0);
    expect(
      longFunctions('a.ts', `const g = () => {\n${'  x();\n'.repeat(MAX_FUNCTION_LINES)}};\n`),
    ).toHaveLength(1);
    // a long template literal (WGSL) inside a short function does not count
    const wgsl = `const k = () => \`\n${'fn f() {}\n'.repeat(2 * MAX_FUNCTION_LINES)}\`;\n`;
    expect(longFunctions('a.ts', wgsl)).toHaveLength(0);
  });
});
