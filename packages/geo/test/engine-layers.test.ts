import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The GPU engine's stages depend one way (adr/0016): a folder imports only the folders after it
// in LAYERS, so following a call down never comes back up.
const GPU = resolve(import.meta.dirname, '../../gpu/src');
const LAYERS = ['voronoi', 'delaunay', 'order', 'exact', 'mesh', 'primitives', 'runtime'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder under gpu/src of every relative import of `file` (static, dynamic, re-export). */
function importedFolders(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((m) => m[1]);
  return specifiers.map((s) => relative(GPU, resolve(dirname(file), s)).split('/')[0]);
}

/** Every import from a layer to one at or before it, as `from → to (file)`. */
function upwardImports(): string[] {
  const out: string[] = [];
  for (const [rank, layer] of LAYERS.entries()) {
    for (const file of sourceFiles(join(GPU, layer))) {
      for (const folder of importedFolders(file)) {
        const to = LAYERS.indexOf(folder);
        if (folder !== layer && to >= 0 && to < rank)
          out.push(`${layer} → ${folder} (${relative(GPU, file)})`);
      }
    }
  }
  return out;
}

describe('gpu stage layers (adr/0016)', () => {
  it('finds every layer', () => {
    for (const layer of LAYERS) expect(sourceFiles(join(GPU, layer)).length).toBeGreaterThan(0);
  });

  it('imports only the layers below', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('reads an upward import as one', () => {
    // the rule's own reading: an exact/ module importing delaunay/ and runtime/ names both
    const text = "import { a } from '../delaunay/guard.js';\nexport { b } from '../runtime/usage.js';";
    expect(importedFolders(join(GPU, 'exact', 'x.ts'), text)).toEqual(['delaunay', 'runtime']);
    expect(LAYERS.indexOf('delaunay')).toBeLessThan(LAYERS.indexOf('exact'));
  });
});
