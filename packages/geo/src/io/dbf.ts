import { UnsupportedInputError } from '@geoframe/core';
import type { AttributeColumn, AttributeKind } from './attribute-columns.js';

/**
 * Reads a dBase (.dbf) table, the attributes of a Shapefile, into typed columns, as GDAL (and so
 * GeoPandas through pyogrio) types them: C → Utf8 (trailing spaces trimmed), N/F with decimals →
 * Float64, N without decimals → Int32 under 10 digits, else Int64, L → Bool, D → Timestamp at
 * UTC midnight; blank (strings too), '*' or unparsable values are null. `encoding` is the .cpg's (default UTF-8).
 */
export function readDbf(bytes: Uint8Array, encoding = 'utf-8'): AttributeColumn[] {
  if (bytes.length < 32) throw new UnsupportedInputError('the .dbf is shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  let decoder: { decode(input: Uint8Array): string };
  try {
    decoder = new TextDecoder(encoding.trim() || 'utf-8');
  } catch {
    throw new UnsupportedInputError(`the .cpg names an encoding this runtime cannot decode: "${encoding}"`);
  }
  const latin = new TextDecoder('latin1');
  const fields: { name: string; type: string; length: number; decimals: number; offset: number }[] = [];
  let offset = 1; // the deletion flag
  for (let at = 32; at + 32 <= headerLength && bytes[at] !== 0x0d; at += 32) {
    const raw = bytes.subarray(at, at + 11);
    const end = raw.indexOf(0);
    const name = decoder.decode(raw.subarray(0, end < 0 ? 11 : end));
    const field = {
      name,
      type: String.fromCharCode(bytes[at + 11]),
      length: bytes[at + 16],
      decimals: bytes[at + 17],
      offset,
    };
    fields.push(field);
    offset += field.length;
  }
  if (headerLength + records * recordLength > bytes.length) {
    throw new UnsupportedInputError(
      `the .dbf says ${records} records of ${recordLength} bytes, more than the file holds`,
    );
  }
  return fields.map((f) => {
    const kind = kindOf(f.type, f.length, f.decimals);
    const values = new Array<unknown>(records);
    for (let r = 0; r < records; r++) {
      const start = headerLength + r * recordLength + f.offset;
      const cell = bytes.subarray(start, start + f.length);
      const text = (kind === 'utf8' ? decoder : latin).decode(cell);
      values[r] = parseCell(text, kind);
    }
    return { name: f.name, kind, values };
  });
}

function kindOf(type: string, length: number, decimals: number): AttributeKind {
  if (type === 'N' || type === 'F')
    return decimals > 0 || type === 'F' ? 'float64' : length < 10 ? 'int32' : 'int64';
  if (type === 'L') return 'bool';
  if (type === 'D') return 'timestamp';
  return 'utf8';
}

function parseCell(text: string, kind: AttributeKind): unknown {
  if (kind === 'utf8') return text.replace(/[\s\0]+$/, '') || null; // blank is null, as GDAL reads it
  const t = text.trim();
  if (t === '' || /^\*+$/.test(t) || /^\0+$/.test(t)) return null;
  if (kind === 'bool') return /^[YyTt]$/.test(t) ? true : /^[NnFf]$/.test(t) ? false : null;
  if (kind === 'timestamp') {
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec(t);
    return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  }
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}
