/**
 * A short, fast, non-cryptographic hash of text, for cache keys that must not carry what they name
 * (a token, an API key, a request too long for a key).
 */

/** A 53-bit string hash (two FNV-1a lanes), for short cache keys. Not cryptographic. */
export function hashText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return (a >>> 0).toString(36) + (b & 0x1fffff).toString(36);
}
