/**
 * Caching values larger than one cache entry, compressed. A value is gzipped into base64 text (ASCII,
 * one byte a character), then cut into chunks sized by UTF-8 bytes under the Cache service's 100 KB
 * per value; chunks and a manifest go out in one putAll, and a value that fits one entry travels
 * inside its manifest. Reading takes the manifest, then all chunks in one getAll; any missing or
 * foreign chunk makes the whole value a miss (the cache may drop entries at any time). The manifest
 * keeps the key's full identity, so two identities whose short keys collide never read each other's
 * data, and a generation that every chunk repeats, so a reader never mixes chunks of two writes.
 *
 * A cache holds about 1,000 items, shared with everything else in its scope. `CacheBudget` keeps the
 * values of one prefix under a number of items: a ledger entry lists each value's key, size and
 * expiry, and before a value is written the values nearest to expiry are removed until it fits. So the
 * cache never fills because of these values, and what else it holds (claims, shared state kept for
 * hours) is never evicted for them, whichever entries a full cache would drop first. Should the ledger
 * entry itself be lost, the values it listed go untracked until they expire (an hour at most here).
 */
import type { BatchCache, Compressor } from '../../ports';
import { hashText } from '../../util/hash';
import { splitByBytes, utf8Length } from '../../util/utf8';

/** The Cache service refuses values above 100 KB; a chunk stays under either reading (100,000 or 102,400 bytes). */
export const CACHE_CHUNK_BYTES = 96_000;
/** Cache service keys are at most 250 characters. */
export const CACHE_KEY_MAX_CHARS = 250;
/** The Cache service keeps entries at most 6 hours. */
export const CACHE_MAX_TTL_SECONDS = 21_600;
/** Length of the generation every chunk of one write starts with. */
const GENERATION_CHARS = 8;

interface Manifest {
  /** Identity check: the full key the value was stored under. */
  id: string;
  /** Names the write, so a reader never mixes chunks of two writes. */
  gen: string;
  chunks: number;
  /** The compressed value itself, when it fits the manifest's own entry (then `chunks` is 0). */
  data?: string;
}

/** A value compressed and cut into entries, ready to be written in one call. */
export interface PackedValue {
  /** The manifest's key. */
  key: string;
  entries: Record<string, string>;
  /** How many cache items it takes, the manifest included. */
  items: number;
}

export class ChunkedCache {
  private generation = 0;

  constructor(
    private readonly cache: BatchCache,
    /** Prefix of every key written, to keep this cache's entries apart from others in the same scope. */
    private readonly prefix: string,
    private readonly compressor: Compressor,
    private readonly newGeneration: () => string = () => Math.random().toString(36).slice(2, 8),
  ) {}

  /** The short cache key of a full identity (which may be long and may hold anything). */
  keyOf(identity: string): string {
    return `${this.prefix}${hashText(identity)}`;
  }

  get(identity: string): string | null {
    const raw = this.cache.get(this.keyOf(identity));
    if (!raw) return null;
    let manifest: Manifest;
    try {
      manifest = JSON.parse(raw) as Manifest;
    } catch {
      return null;
    }
    if (manifest.id !== identity || typeof manifest.gen !== 'string' || !(manifest.chunks >= 0)) return null;
    let compressed: string;
    if (manifest.chunks === 0) {
      if (typeof manifest.data !== 'string') return null;
      compressed = manifest.data;
    } else {
      const names = chunkKeys(this.keyOf(identity), manifest.chunks);
      const found = this.cache.getAll ? this.cache.getAll(names) : Object.fromEntries(names.map((n) => [n, this.cache.get(n)]));
      const parts: string[] = [];
      for (const name of names) {
        const part = found[name];
        if (typeof part !== 'string' || !part.startsWith(manifest.gen)) return null;
        parts.push(part.slice(manifest.gen.length));
      }
      compressed = parts.join('');
    }
    try {
      return this.compressor.decompress(compressed);
    } catch {
      return null;
    }
  }

  /** Compresses a value and cuts it into entries; nothing is written yet. */
  pack(identity: string, value: string): PackedValue {
    const key = this.keyOf(identity);
    const gen = `${this.newGeneration()}${(this.generation++).toString(36)}`.slice(-GENERATION_CHARS).padStart(GENERATION_CHARS, '0');
    const compressed = this.compressor.compress(value);
    const inline = JSON.stringify({ id: identity, gen, chunks: 0, data: compressed } satisfies Manifest);
    if (utf8Length(inline) <= CACHE_CHUNK_BYTES) return { key, entries: { [key]: inline }, items: 1 };
    const pieces = splitByBytes(compressed, CACHE_CHUNK_BYTES - GENERATION_CHARS);
    const entries: Record<string, string> = {};
    chunkKeys(key, pieces.length).forEach((name, i) => {
      entries[name] = gen + pieces[i]!;
    });
    entries[key] = JSON.stringify({ id: identity, gen, chunks: pieces.length } satisfies Manifest);
    return { key, entries, items: pieces.length + 1 };
  }

  /** Writes a packed value in one call. */
  write(packed: PackedValue, ttlSeconds: number): void {
    const ttl = Math.max(1, Math.min(CACHE_MAX_TTL_SECONDS, Math.round(ttlSeconds)));
    if (packed.items === 1) this.cache.put(packed.key, packed.entries[packed.key]!, ttl);
    else if (this.cache.putAll) this.cache.putAll(packed.entries, ttl);
    else for (const [name, value] of Object.entries(packed.entries)) this.cache.put(name, value, ttl);
  }

  /** Removes a value written with `items` entries (its manifest and chunks). */
  drop(key: string, items: number): void {
    removeAll(this.cache, [key, ...chunkKeys(key, items - 1)]);
  }
}

/** One value in a budget's ledger: its manifest key, its items and when it expires. */
type LedgerEntry = [key: string, items: number, expiresAtMs: number];

/**
 * Keeps the values of one ChunkedCache under a number of cache items. Call `admit` under a lock that
 * every writer of these values takes: the ledger is read, changed and written back.
 */
export class CacheBudget {
  constructor(
    private readonly cache: BatchCache,
    private readonly values: ChunkedCache,
    /** Where the ledger lives: one entry, kept as long as the cache keeps anything. */
    private readonly ledgerKey: string,
    readonly budgetItems: number,
  ) {}

  /**
   * Makes room for a value of `items` items that expires at `expiresAtMs`: the values nearest to expiry
   * are removed until it fits, and it is entered in the ledger. False, and nothing removed, when the
   * value alone is larger than the budget.
   */
  admit(key: string, items: number, nowMs: number, expiresAtMs: number): boolean {
    if (items > this.budgetItems) return false;
    const ledger = this.read().filter(([, , expires]) => expires > nowMs);
    const previous = ledger.findIndex(([k]) => k === key);
    if (previous >= 0) {
      // Written again: chunks beyond the new value's last would linger unread, so they go now.
      const [, oldItems] = ledger[previous]!;
      if (oldItems > items) removeAll(this.cache, chunkKeys(key, oldItems - 1).slice(items - 1));
      ledger.splice(previous, 1);
    }
    ledger.sort((a, b) => a[2] - b[2]);
    let used = ledger.reduce((sum, [, n]) => sum + n, 0);
    while (used + items > this.budgetItems && ledger.length > 0) {
      const [oldKey, oldItems] = ledger.shift()!;
      this.values.drop(oldKey, oldItems);
      used -= oldItems;
    }
    ledger.push([key, items, expiresAtMs]);
    this.cache.put(this.ledgerKey, JSON.stringify(ledger), CACHE_MAX_TTL_SECONDS);
    return true;
  }

  private read(): LedgerEntry[] {
    try {
      const parsed = JSON.parse(this.cache.get(this.ledgerKey) ?? '[]') as unknown;
      return Array.isArray(parsed)
        ? parsed.filter(
            (e): e is LedgerEntry => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && typeof e[2] === 'number',
          )
        : [];
    } catch {
      return [];
    }
  }
}

function chunkKeys(key: string, chunks: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < chunks; i++) names.push(`${key}.${i}`);
  return names;
}

function removeAll(cache: BatchCache, keys: string[]): void {
  if (keys.length === 0) return;
  if (cache.removeAll) cache.removeAll(keys);
  else for (const key of keys) cache.remove(key);
}
