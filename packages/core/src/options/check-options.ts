/** snake_case → camelCase: `extend_to` → `extendTo`. */
function camelOf(key: string): string {
  return key.replace(/_+([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
}

/** The known key `key` most likely meant: its camelCase, or the same letters in another case. */
function suggestionFor(key: string, known: readonly string[]): string | undefined {
  const camel = camelOf(key);
  if (known.includes(camel)) return camel;
  const folded = key.replace(/[_-]/g, '').toLowerCase();
  return known.find((k) => k.toLowerCase() === folded);
}

/**
 * Refuses an options object with a key the operation does not know, instead of ignoring it:
 * a `TypeError` naming the key, the operation and the known keys, with "did you mean …?" for
 * the spelling other libraries use (`extend_to` → `extendTo`). `undefined` passes (no options);
 * anything that is not a plain object is a `TypeError` too. Keys whose value is `undefined` are
 * checked like any other: a misspelt key is a mistake whatever its value.
 *
 * @param where the operation, as the user calls it (`voronoiPolygons`)
 */
export function checkOptions(options: unknown, known: readonly string[], where: string): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(
      `${where}: options must be an object, got ${options === null ? 'null' : typeof options}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = suggestionFor(key, known);
    const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
    const list = known.length > 0 ? known.join(', ') : 'none';
    throw new TypeError(`${where}: unknown option "${key}"${hint}; known options: ${list}`);
  }
}
