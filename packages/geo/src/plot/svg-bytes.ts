const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * An SVG document built as UTF-8 bytes in one growing buffer: numbers are written digit by digit,
 * so a picture of a million vertices makes no intermediate strings (and little garbage).
 */
export class SvgBytes {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;

  private reserve(extra: number): void {
    const need = this.length + extra;
    if (need <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < need) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends text (markup and escaped values; any Unicode). */
  text(value: string): void {
    let ascii = true;
    for (let i = 0; i < value.length; i++) {
      if (value.charCodeAt(i) > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (!ascii) {
      const encoded = encoder.encode(value);
      this.reserve(encoded.length);
      this.bytes.set(encoded, this.length);
      this.length += encoded.length;
      return;
    }
    this.reserve(value.length);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < value.length; i++) bytes[at++] = value.charCodeAt(i);
    this.length = at;
  }

  /** Appends one ASCII character by code. */
  char(code: number): void {
    this.reserve(1);
    this.bytes[this.length++] = code;
  }

  /**
   * Appends `hundredths / 100` in the shortest decimal form: `12`, `12.5`, `-0.07`. `hundredths`
   * must be an integer of magnitude below 2^53.
   */
  hundredths(hundredths: number): void {
    this.reserve(24);
    const bytes = this.bytes;
    let at = this.length;
    let v = hundredths;
    if (v < 0) {
      bytes[at++] = 45; // '-'
      v = -v;
    }
    let whole = Math.floor(v / 100);
    const fraction = v - whole * 100;
    // digits of the whole part, written backwards then reversed in place
    const first = at;
    do {
      const q = Math.floor(whole / 10);
      bytes[at++] = 48 + (whole - q * 10);
      whole = q;
    } while (whole > 0);
    for (let i = first, j = at - 1; i < j; i++, j--) {
      const t = bytes[i];
      bytes[i] = bytes[j];
      bytes[j] = t;
    }
    if (fraction !== 0) {
      const tens = Math.floor(fraction / 10);
      bytes[at++] = 46; // '.'
      bytes[at++] = 48 + tens;
      if (fraction !== tens * 10) bytes[at++] = 48 + (fraction - tens * 10);
    }
    this.length = at;
  }

  /** The document as a string. */
  finish(): string {
    return decoder.decode(this.bytes.subarray(0, this.length));
  }
}
