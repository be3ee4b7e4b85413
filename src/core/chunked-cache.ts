/**
 * Caching values larger than one cache entry. The Cache service refuses values above 100 KB, so a large
 * value is written as chunks plus a manifest entry that names them; reading takes the manifest and
 * then all chunks in one getAll, and any missing chunk makes the whole value a miss (the cache may drop
 * entries at any time). The manifest also keeps a check over the key's full identity, so that two
 * requests whose short keys collide never read each other's data.
 */
import type { Cache } from './ports';

/** 32,000 UTF-16 units are at most 96,000 UTF-8 bytes: under the 100 KB entry limit whatever the text. */
export const CACHE_CHUNK_CHARS = 32_000;
/** Cache service keys are at most 250 characters. */
export const CACHE_KEY_MAX_CHARS = 250;
/** The Cache service keeps entries at most 6 hours. */
export const CACHE_MAX_TTL_SECONDS = 21_600;

/** A cache that may also write several entries in one call (the Cache service's putAll). */
export type BatchCache = Cache & { putAll?(values: Record<string, string>, ttlSeconds: number): void };

interface Manifest {
  /** Identity check: the full key the value was stored under. */
  id: string;
  /** Names the chunk generation, so a reader never mixes chunks of two writes. */
  gen: string;
  chunks: number;
}

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

export class ChunkedCache {
  private generation = 0;

  constructor(
    private readonly cache: BatchCache,
    /** Prefix of every key written, to keep this cache's entries apart from others in the same scope. */
    private readonly prefix: string,
    private readonly newGeneration: () => string = () => Math.random().toString(36).slice(2, 8),
  ) {}

  /** The short cache key of a full identity (which may be long and may hold anything). */
  keyOf(identity: string): string {
    return `${this.prefix}${hashText(identity)}`;
  }

  get(identity: string): string | null {
    const key = this.keyOf(identity);
    const raw = this.cache.get(key);
    if (!raw) return null;
    let manifest: Manifest;
    try {
      manifest = JSON.parse(raw) as Manifest;
    } catch {
      return null;
    }
    if (manifest.id !== identity || !(manifest.chunks >= 0)) return null;
    const names = chunkKeys(key, manifest);
    const found = this.readAll(names);
    let value = '';
    for (const name of names) {
      const part = found[name];
      if (part === undefined || part === null) return null;
      value += part;
    }
    return value;
  }

  put(identity: string, value: string, ttlSeconds: number): void {
    const key = this.keyOf(identity);
    const ttl = Math.max(1, Math.min(CACHE_MAX_TTL_SECONDS, Math.round(ttlSeconds)));
    const manifest: Manifest = { id: identity, gen: `${this.newGeneration()}${this.generation++}`, chunks: Math.ceil(value.length / CACHE_CHUNK_CHARS) };
    const names = chunkKeys(key, manifest);
    const entries: Record<string, string> = {};
    names.forEach((name, i) => {
      entries[name] = value.slice(i * CACHE_CHUNK_CHARS, (i + 1) * CACHE_CHUNK_CHARS);
    });
    // Chunks first, manifest last: a reader that finds the manifest finds its chunks (unless evicted).
    if (this.cache.putAll && names.length > 0) this.cache.putAll(entries, ttl);
    else for (const name of names) this.cache.put(name, entries[name]!, ttl);
    this.cache.put(key, JSON.stringify(manifest), ttl);
  }

  remove(identity: string): void {
    this.cache.remove(this.keyOf(identity));
  }

  private readAll(names: string[]): Record<string, string | null | undefined> {
    if (names.length === 0) return {};
    if (this.cache.getAll) return this.cache.getAll(names);
    const found: Record<string, string | null> = {};
    for (const name of names) found[name] = this.cache.get(name);
    return found;
  }
}

function chunkKeys(key: string, manifest: Manifest): string[] {
  const names: string[] = [];
  for (let i = 0; i < manifest.chunks; i++) names.push(`${key}.${manifest.gen}.${i}`);
  return names;
}
