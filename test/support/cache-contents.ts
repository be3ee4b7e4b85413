/**
 * What a cache holds, readable: formula results are stored gzipped and base64-encoded, in chunks
 * behind a manifest, so a scan for secrets must look at the decompressed values as well as at the raw
 * entries. This reassembles every compressed value it finds (a manifest with inline data, or a
 * manifest and its chunks) and returns the raw entries followed by those values.
 */
import zlib from 'node:zlib';

interface Manifest {
  id: string;
  gen: string;
  chunks: number;
  data?: string;
}

function manifestOf(value: string): Manifest | null {
  try {
    const parsed = JSON.parse(value) as Partial<Manifest>;
    return parsed && typeof parsed.gen === 'string' && typeof parsed.chunks === 'number' && typeof parsed.id === 'string'
      ? (parsed as Manifest)
      : null;
  } catch {
    return null;
  }
}

/** Raw values, then every compressed value decompressed (its manifest's identity included). */
export function readableCacheTexts(entries: ReadonlyArray<{ key: string; value: string }>): string[] {
  const byKey = new Map(entries.map((e) => [e.key, e.value]));
  const texts = entries.map((e) => e.value);
  for (const { key, value } of entries) {
    const manifest = manifestOf(value);
    if (!manifest) continue;
    let compressed = manifest.data;
    if (compressed === undefined) {
      const parts: string[] = [];
      for (let i = 0; i < manifest.chunks; i++) {
        const part = byKey.get(`${key}.${i}`);
        if (part === undefined) break;
        parts.push(part.slice(manifest.gen.length));
      }
      if (parts.length !== manifest.chunks) continue;
      compressed = parts.join('');
    }
    texts.push(zlib.gunzipSync(Buffer.from(compressed, 'base64')).toString('utf8'));
  }
  return texts;
}
