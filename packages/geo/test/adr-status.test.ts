import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// adr/0016 (issue 18): every ADR opens with its number and title and states its status — a
// "Status:" line or a "## Status" section before its context — so a reader knows whether it holds.

const ADR = resolve(import.meta.dirname, '../../../adr');

/** What is wrong with the opening of an ADR file, or null. */
function openingProblem(file: string, text: string): string | null {
  const number = /^(\d{4})-[\w-]+\.md$/.exec(file)?.[1];
  if (number === undefined) return 'the name is not NNNN-title.md';
  const lines = text.split('\n');
  if (!new RegExp(`^# ${number}(:| —) \\S`).test(lines[0]))
    return `the first line is not "# ${number} — title"`;
  const context = lines.findIndex((l) => /^## (Context|Decision)/.test(l));
  const head = lines.slice(1, context < 0 ? 12 : context);
  if (!head.some((l) => /^Status: \S/.test(l) || /^## Status\s*$/.test(l)))
    return 'no status before its context';
  return null;
}

describe('ADRs', () => {
  const files = readdirSync(ADR).filter((f) => f.endsWith('.md'));

  it('each opens with its number and title and states its status', () => {
    expect(files.length).toBeGreaterThan(30);
    const problems = files
      .map((f) => [f, openingProblem(f, readFileSync(join(ADR, f), 'utf8'))])
      .filter(([, p]) => p !== null);
    expect(problems).toEqual([]);
  });

  it('numbers are not reused', () => {
    const numbers = files.map((f) => f.slice(0, 4));
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });

  it('refuses what it must', () => {
    expect(openingProblem('0001-a.md', '# 0001 — A\n\nStatus: accepted\n\n## Context\n')).toBeNull();
    expect(openingProblem('0002-b.md', '# 0002 — B\n\n## Status\n\nBuilt.\n\n## Context\n')).toBeNull();
    expect(openingProblem('0003-c.md', '# 0003 — C\n\n## Context\n\nStatus: late\n')).toMatch(/no status/);
    expect(openingProblem('0004-d.md', '# 0005 — D\n\nStatus: x\n')).toMatch(/first line/);
    expect(openingProblem('notes.md', '# x\n')).toMatch(/name/);
  });
});
