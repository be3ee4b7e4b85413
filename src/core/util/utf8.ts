/**
 * Sizes in UTF-8 bytes, the unit of Apps Script's storage limits (a property value's 9 KB, a store's
 * 500 KB, a cache value's 100 KB), and cutting text to fit them.
 */

/** UTF-8 bytes of a string (a lone surrogate counts 3, as it is sent as U+FFFD). */
export function utf8Length(text: string): number {
  if (/^[\x00-\x7f]*$/.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Cuts text into pieces of at most `maxBytes` UTF-8 bytes each, never inside a character. */
export function splitByBytes(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  if (/^[\x00-\x7f]*$/.test(text)) {
    for (let i = 0; i < text.length; i += maxBytes) pieces.push(text.slice(i, i + maxBytes));
    return pieces;
  }
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) {
      pieces.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
    if (pair) i++;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}
