/** ChunkedCache: values above one cache entry are split, and any missing chunk is a miss. */
import { CACHE_CHUNK_CHARS, ChunkedCache, hashText } from '../../../src/core/chunked-cache';
import { FakeCache, ManualClock } from '../../support/fakes';

function setup() {
  const clock = new ManualClock();
  const cache = new FakeCache(clock);
  const seen: Record<string, string> = {};
  const spy = {
    get: (k: string) => cache.get(k),
    getAll: (keys: string[]) => cache.getAll(keys),
    put: (k: string, v: string, ttl: number) => {
      seen[k] = v;
      cache.put(k, v, ttl);
    },
    remove: (k: string) => cache.remove(k),
  };
  let n = 0;
  return { clock, cache, seen, chunked: new ChunkedCache(spy, 'engage.r.', () => `g${n++}`) };
}

describe('ChunkedCache', () => {
  it('stores a value of 250,000 characters in chunks no larger than a cache entry allows', () => {
    const { chunked, seen } = setup();
    const value = 'x'.repeat(250_000);
    chunked.put('report identity', value, 600);
    const chunks = Object.entries(seen).filter(([k]) => k !== chunked.keyOf('report identity'));
    expect(chunks).toHaveLength(Math.ceil(250_000 / CACHE_CHUNK_CHARS));
    for (const [, v] of chunks) expect(Buffer.byteLength(v, 'utf8')).toBeLessThanOrEqual(100 * 1024);
    expect(chunked.get('report identity')).toBe(value);
  });

  it('keeps multi-byte text under 100 KB per entry', () => {
    const { chunked, seen } = setup();
    chunked.put('id', '€'.repeat(70_000), 600);
    for (const v of Object.values(seen)) expect(Buffer.byteLength(v, 'utf8')).toBeLessThanOrEqual(100 * 1024);
    expect(chunked.get('id')).toBe('€'.repeat(70_000));
  });

  it('answers a miss when one chunk was evicted', () => {
    const { chunked, cache, seen } = setup();
    chunked.put('id', 'y'.repeat(100_000), 600);
    const someChunk = Object.keys(seen).find((k) => k.endsWith('.1'))!;
    cache.remove(someChunk);
    expect(chunked.get('id')).toBeNull();
  });

  it('answers a miss after the lifetime', () => {
    const { chunked, clock } = setup();
    chunked.put('id', 'short', 60);
    clock.advance(61_000);
    expect(chunked.get('id')).toBeNull();
  });

  it('never returns the value of another identity whose short key collides', () => {
    const { chunked } = setup();
    chunked.put('identity A', 'value of A', 600);
    const collidingReader = new ChunkedCache({ get: () => JSON.stringify({ id: 'identity A', gen: 'g0', chunks: 1 }), put: () => undefined, remove: () => undefined, getAll: () => ({}) }, 'engage.r.');
    expect(collidingReader.get('identity B')).toBeNull();
  });

  it('keys are short whatever the identity', () => {
    const { chunked } = setup();
    expect(chunked.keyOf('z'.repeat(10_000)).length).toBeLessThan(40);
    expect(hashText('a')).not.toBe(hashText('b'));
  });
});
