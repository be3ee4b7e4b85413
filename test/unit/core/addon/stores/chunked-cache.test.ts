/**
 * ChunkedCache and CacheBudget: values are compressed, cut by UTF-8 bytes under a cache entry's
 * 100 KB and written in one call; any missing or foreign chunk is a miss; and a budget keeps the values
 * of one prefix under a number of items by removing those nearest to expiry first.
 */
import { CACHE_CHUNK_BYTES, CacheBudget, ChunkedCache } from '../../../../../src/core/addon/stores/chunked-cache';
import { splitByBytes, utf8Length } from '../../../../../src/core/util/utf8';
import { FakeCache, FakeCompressor, ManualClock } from '../../../../support/fakes';
import { hashText } from '../../../../../src/core/util/hash';

/** Text that gzip cannot shrink much: pseudo-random digits, so values need several chunks. */
function noisyText(chars: number, seed = 1): string {
  let x = seed;
  let out = '';
  while (out.length < chars) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += x.toString(36);
  }
  return out.slice(0, chars);
}

function setup() {
  const clock = new ManualClock();
  const cache = new FakeCache(clock);
  const compressor = new FakeCompressor();
  let n = 0;
  const chunked = new ChunkedCache(cache, 'engage.r.', compressor, () => `g${n++}`);
  return { clock, cache, compressor, chunked };
}

function put(chunked: ChunkedCache, identity: string, value: string, ttlSeconds: number) {
  const packed = chunked.pack(identity, value);
  chunked.write(packed, ttlSeconds);
  return packed;
}

describe('ChunkedCache', () => {
  it('keeps a small value inside its manifest: one put, one get', () => {
    const { chunked, cache } = setup();
    const value = JSON.stringify(Array.from({ length: 500 }, (_, i) => ['2026-11-01', i, 'Germany']));
    const packed = put(chunked, 'small', value, 600);
    expect(packed.items).toBe(1);
    expect(chunked.get('small')).toBe(value);
    expect({ puts: cache.puts, putAlls: cache.putAlls, gets: cache.gets, getAlls: cache.getAlls }).toEqual({
      puts: 1,
      putAlls: 0,
      gets: 1,
      getAlls: 0,
    });
  });

  it('writes a large value compressed, in chunks of at most 96,000 bytes, with one putAll and reads it with one getAll', () => {
    const { chunked, cache, compressor } = setup();
    const value = noisyText(600_000);
    const packed = put(chunked, 'large', value, 600);
    const compressedChars = compressor.compress(value).length;
    expect(packed.items).toBe(1 + Math.ceil(compressedChars / (CACHE_CHUNK_BYTES - 8)));
    for (const v of Object.values(packed.entries)) expect(Buffer.byteLength(v, 'utf8')).toBeLessThanOrEqual(CACHE_CHUNK_BYTES);
    expect(cache.keys().sort()).toEqual(Object.keys(packed.entries).sort());
    expect({ puts: cache.puts, putAlls: cache.putAlls }).toEqual({ puts: 0, putAlls: 1 });
    expect(chunked.get('large') === value).toBe(true);
    expect({ gets: cache.gets, getAlls: cache.getAlls }).toEqual({ gets: 1, getAlls: 1 });
  });

  it('stores far fewer entries than the text has 96,000-character pieces when the text compresses', () => {
    const { chunked } = setup();
    const rows = Array.from({ length: 30_000 }, (_, i) => ['2026-11-01', `Country ${i % 40}`, 'desktop', i, i * 0.37, (i * 7) % 1000]);
    const value = JSON.stringify(rows);
    const packed = put(chunked, 'rows', value, 600);
    expect(packed.items).toBeLessThan(Math.ceil(value.length / CACHE_CHUNK_BYTES) / 2);
    expect(chunked.get('rows') === value).toBe(true);
  });

  it('answers a miss when one chunk was evicted', () => {
    const { chunked, cache } = setup();
    const packed = put(chunked, 'id', noisyText(300_000), 600);
    cache.remove(`${packed.key}.1`);
    expect(chunked.get('id') === null).toBe(true);
  });

  it('answers a miss when a chunk belongs to another write of the same key', () => {
    const { chunked, cache } = setup();
    const first = put(chunked, 'id', noisyText(300_000, 1), 600);
    const second = chunked.pack('id', noisyText(300_000, 2));
    // Another execution's write lands halfway: its second chunk overwrites ours, its manifest does not.
    cache.put(`${first.key}.1`, second.entries[`${first.key}.1`]!, 600);
    expect(chunked.get('id') === null).toBe(true);
  });

  it('answers a miss after the lifetime', () => {
    const { chunked, clock } = setup();
    put(chunked, 'id', 'short', 60);
    clock.advance(61_000);
    expect(chunked.get('id')).toBeNull();
  });

  it('answers a miss when the data does not decompress', () => {
    const { chunked, cache } = setup();
    const packed = put(chunked, 'id', 'value', 60);
    cache.put(packed.key, JSON.stringify({ id: 'id', gen: 'x', chunks: 0, data: 'bm90IGd6aXA=' }), 60);
    expect(chunked.get('id')).toBeNull();
  });

  it('never returns the value of another identity whose short key collides', () => {
    const { chunked, cache } = setup();
    put(chunked, 'identity A', 'value of A', 600);
    const collidingReader = new ChunkedCache(
      { get: (k) => cache.get(k.replace(hashText('identity B'), hashText('identity A'))), put: () => undefined, remove: () => undefined },
      'engage.r.',
      new FakeCompressor(),
    );
    expect(collidingReader.get('identity A')).toBe('value of A');
    expect(collidingReader.get('identity B')).toBeNull();
  });

  it('keys are short whatever the identity', () => {
    const { chunked } = setup();
    expect(chunked.keyOf('z'.repeat(10_000)).length).toBeLessThan(40);
    expect(hashText('a')).not.toBe(hashText('b'));
  });
});

describe('splitByBytes', () => {
  it('cuts by UTF-8 bytes and never inside a character', () => {
    const text = 'a€😀'.repeat(1000);
    const pieces = splitByBytes(text, 100);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) expect(Buffer.byteLength(piece, 'utf8')).toBeLessThanOrEqual(100);
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('CacheBudget', () => {
  function budgeted(budgetItems: number) {
    const env = setup();
    const budget = new CacheBudget(env.cache, env.chunked, 'engage.r-ledger', budgetItems);
    const store = (identity: string, chars: number, ttlSeconds: number) => {
      const packed = env.chunked.pack(identity, noisyText(chars, identity.length));
      const now = env.clock.now();
      if (!budget.admit(packed.key, packed.items, now, now + ttlSeconds * 1000)) return false;
      env.chunked.write(packed, ttlSeconds);
      return true;
    };
    const held = (identity: string) => env.chunked.get(identity) !== null;
    /** Items the ledger counts for values that have not expired. */
    const ledgerItems = () =>
      (JSON.parse(env.cache.get('engage.r-ledger') ?? '[]') as Array<[string, number, number]>)
        .filter(([, , expires]) => expires > env.clock.now())
        .reduce((sum, [, n]) => sum + n, 0);
    return { ...env, budget, store, held, ledgerItems };
  }

  it('removes the values nearest to expiry to make room, and keeps the total within the budget', () => {
    const itemsOf300k = setup().chunked.pack('x', noisyText(300_000)).items;
    expect(itemsOf300k).toBeGreaterThan(2);
    const { store, held, ledgerItems, cache } = budgeted(2 * itemsOf300k + 1);
    expect(store('hourly', 300_000, 3600)).toBe(true);
    expect(store('realtime', 300_000, 300)).toBe(true);
    expect(store('third', 300_000, 1800)).toBe(true);
    expect({ hourly: held('hourly'), realtime: held('realtime'), third: held('third') }).toEqual({
      hourly: true,
      realtime: false,
      third: true,
    });
    expect(ledgerItems()).toBeLessThanOrEqual(2 * itemsOf300k + 1);
    // Only the ledger and the budgeted values are in the cache: nothing removed lingers.
    expect(cache.keys().length).toBe(ledgerItems() + 1);
  });

  it('refuses a value larger than the whole budget and removes nothing for it', () => {
    const { store, held } = budgeted(3);
    expect(store('small', 1000, 3600)).toBe(true);
    expect(store('huge', 600_000, 3600)).toBe(false);
    expect({ small: held('small'), huge: held('huge') }).toEqual({ small: true, huge: false });
  });

  it('forgets expired values, and a value written again replaces its own entry', () => {
    const { store, ledgerItems, clock, cache } = budgeted(100);
    store('a', 300_000, 60);
    clock.advance(61_000);
    expect(ledgerItems()).toBe(0);
    store('b', 300_000, 600);
    const items = ledgerItems();
    store('b', 100_000, 600);
    expect(ledgerItems()).toBeLessThan(items);
    expect(cache.keys().length).toBe(ledgerItems() + 1);
  });
});
