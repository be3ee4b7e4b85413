/**
 * The core's Compressor over Utilities: text as UTF-8 bytes, gzipped, then base64, which is ASCII and
 * so takes exactly one byte per character of a cache entry's 100 KB.
 */
import type { Compressor } from '../../core';

const GZIP_CONTENT_TYPE = 'application/x-gzip';

export const gzipCompressor: Compressor = {
  compress(text: string): string {
    return Utilities.base64Encode(Utilities.gzip(Utilities.newBlob(text)).getBytes());
  },
  decompress(compressed: string): string {
    return Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(compressed), GZIP_CONTENT_TYPE)).getDataAsString('UTF-8');
  },
};
