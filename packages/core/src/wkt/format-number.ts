/**
 * A coordinate as WKT text.
 *
 * Without `precision`: the shortest text that reads back to the same double (JavaScript's
 * `String(x)`), so `0.1` stays `0.1`, `1e21` is `1e+21` and `5e-324` is `5e-324`; negative zero
 * is written `-0` so that it survives a round trip.
 *
 * With `precision` (0 to 100): `precision` digits after the point, trailing zeros and a
 * trailing point trimmed (`1.50` → `1.5`, `2.000` → `2`); a value that rounds to zero is `0`
 * (or `-0` for negative zero itself). Magnitudes of 1e21 and more keep the exponent form.
 *
 * NaN is `NaN` and infinities are `Infinity`/`-Infinity` (no WKT reader of this library
 * accepts those back).
 */
export function formatNumber(x: number, precision?: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (precision === undefined) return String(x);
  const text = x.toFixed(precision);
  if (text.indexOf('e') >= 0) return text;
  let end = text.length;
  if (text.indexOf('.') >= 0) {
    while (text.charCodeAt(end - 1) === 48 /* 0 */) end--;
    if (text.charCodeAt(end - 1) === 46 /* . */) end--;
  }
  const trimmed = end === text.length ? text : text.slice(0, end);
  return trimmed === '-0' ? '0' : trimmed;
}

/** Throws a RangeError unless `precision` is undefined or an integer from 0 to 100. */
export function checkPrecision(precision: number | undefined): void {
  if (precision === undefined) return;
  if (!Number.isInteger(precision) || precision < 0 || precision > 100) {
    throw new RangeError(`WKT precision must be an integer from 0 to 100, got ${precision}`);
  }
}
