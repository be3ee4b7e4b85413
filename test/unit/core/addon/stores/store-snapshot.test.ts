/**
 * StoreSnapshot: one getProperties for every look a use case takes at the document's properties, its
 * own writes seen and passed through, others' writes after the first look not seen.
 */
import { StoreSnapshot } from '../../../../../src/core/addon/stores/store-snapshot';
import { FakeStore } from '../../../../support/fakes';

class CountingStore extends FakeStore {
  entryReads = 0;
  override entries(): Record<string, string> {
    this.entryReads++;
    return super.entries();
  }
}

describe('StoreSnapshot', () => {
  it('reads the store once, on the first look, however many keys are read after', () => {
    const store = new CountingStore();
    for (let i = 0; i < 100; i++) store.values.set(`k${i}`, `v${i}`);
    const snapshot = new StoreSnapshot(store);
    expect(store.entryReads).toBe(0);
    for (let i = 0; i < 100; i++) expect(snapshot.get(`k${i}`)).toBe(`v${i}`);
    expect(snapshot.get('missing')).toBeNull();
    expect(Object.keys(snapshot.entries())).toHaveLength(100);
    expect([store.entryReads, store.gets]).toEqual([1, 0]);
  });

  it('passes writes and removals through to the store and sees them itself', () => {
    const store = new CountingStore();
    store.values.set('a', '1');
    store.values.set('b', '2');
    const snapshot = new StoreSnapshot(store);
    snapshot.set('c', '3');
    snapshot.remove('a');
    expect(Object.fromEntries(store.values)).toEqual({ b: '2', c: '3' });
    expect(snapshot.entries()).toEqual({ b: '2', c: '3' });
    snapshot.set('b', '22');
    expect([snapshot.get('b'), store.values.get('b')]).toEqual(['22', '22']);
    expect(store.entryReads).toBe(1);
  });

  it("does not see another execution's writes after its first look, as a new snapshot does", () => {
    const store = new CountingStore();
    const snapshot = new StoreSnapshot(store);
    expect(snapshot.get('x')).toBeNull();
    store.values.set('x', 'written elsewhere');
    expect(snapshot.get('x')).toBeNull();
    expect(new StoreSnapshot(store).get('x')).toBe('written elsewhere');
  });

  it('keeps a key named like an object property as any other', () => {
    const snapshot = new StoreSnapshot(new CountingStore());
    expect(snapshot.get('constructor')).toBeNull();
    expect(snapshot.get('__proto__')).toBeNull();
  });
});
