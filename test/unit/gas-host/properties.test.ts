import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function setUser(k, v) { PropertiesService.getUserProperties().setProperty(k, v); }
function getUser(k) { return PropertiesService.getUserProperties().getProperty(k); }
function setDoc(k, v) { PropertiesService.getDocumentProperties().setProperty(k, v); }
function getDoc(k) { return PropertiesService.getDocumentProperties().getProperty(k); }
function all() { var p = PropertiesService.getScriptProperties(); p.setProperties({ a: 1, b: true }); return [p.getProperties(), p.getKeys().sort()]; }
function replaceAll() { var p = PropertiesService.getScriptProperties(); p.setProperties({ c: 'x' }, true); p.deleteProperty('nothing'); return p.getKeys(); }
function clearAll() { PropertiesService.getScriptProperties().deleteAllProperties(); return PropertiesService.getScriptProperties().getKeys().length; }
`;

describe('PropertiesService', () => {
  it('stores strings only', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('all')).toEqual([{ a: '1', b: 'true' }, ['a', 'b']]);
    expect(host.call('replaceAll')).toEqual(['c']);
    expect(host.call('clearAll')).toBe(0);
  });

  it('keeps user properties per user and document properties shared', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('setUser', ['token', 'alice-token'], { user: 'alice@example.com' });
    host.call('setDoc', ['widget', 'w1'], { user: 'alice@example.com' });
    expect(host.call('getUser', ['token'], { user: 'bob@example.com' })).toBeNull();
    expect(host.call('getUser', ['token'], { user: 'alice@example.com' })).toBe('alice-token');
    expect(host.call('getDoc', ['widget'], { user: 'bob@example.com' })).toBe('w1');
  });

  it('rejects a value over 9 KB and a store over 500 KB, a KB read as 1,000 bytes (the stricter reading)', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    // Google's quotas page: "9 KB / val"; 9,000 bytes of UTF-8 fit, one more does not (nor 3,001 three-byte characters).
    host.call('setUser', ['fits', 'x'.repeat(9000)]);
    expect(() => host.call('setUser', ['big', 'x'.repeat(9001)])).toThrow('Argument too large: value');
    expect(() => host.call('setUser', ['big', '€'.repeat(3001)])).toThrow('Argument too large: value');
    // "500 KB / property store", keys and values: 500,000 bytes fit, one more does not.
    const store = host.properties('user');
    store.clear();
    for (let i = 0; i < 55; i++) host.call('setUser', [`k${String(i).padStart(2, '0')}`, 'y'.repeat(9000 - 3)]);
    const last = 500_000 - 55 * 9000 - 3;
    host.call('setUser', ['end', 'z'.repeat(last)]);
    expect(() => host.call('setUser', ['one', ''])).toThrow(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
    expect(store.get('one')).toBeUndefined();
    host.call('setUser', ['end', 'z'.repeat(last - 3)]);
    host.call('setUser', ['one', '']);
  });

  it("gives custom functions the owner's user properties, whoever recalculates", () => {
    const host = createGasHost({ owner: 'owner@example.com' });
    host.load(BUNDLE);
    host.call('setUser', ['token', 'owner-token'], { user: 'owner@example.com' });
    host.call('setUser', ['token', 'editor-token'], { user: 'editor@example.com' });
    expect(host.call('getUser', ['token'], { authMode: 'CUSTOM_FUNCTION', user: 'editor@example.com' })).toBe('owner-token');
  });

  it('lets only the owner set user properties from a custom function', () => {
    const host = createGasHost({ owner: 'owner@example.com' });
    host.load(BUNDLE);
    expect(() => host.call('setUser', ['k', 'v'], { authMode: 'CUSTOM_FUNCTION', user: 'editor@example.com' })).toThrow(
      'You do not have permission to call setProperty',
    );
    host.call('setUser', ['k', 'v'], { authMode: 'CUSTOM_FUNCTION', user: 'owner@example.com' });
    expect(host.properties('user', 'owner@example.com').get('k')).toBe('v');
  });

  it('counts reads and writes', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('setUser', ['a', '1']);
    host.call('getUser', ['a']);
    host.call('getUser', ['a']);
    expect(host.counters['Properties.writes']).toBe(1);
    expect(host.counters['Properties.reads']).toBe(2);
    expect(host.counters['Properties.getProperty']).toBe(2);
  });

  it("refuses reads and writes past the user's daily quota (the quotas page: 50,000 a day on a consumer account) with Apps Script's words, until 24 hours after the first", () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), propertyOperationsPerDay: 3 });
    host.load(BUNDLE);
    host.call('setDoc', ['a', '1']);
    host.advanceTime(20 * 3_600_000);
    expect(host.call('getDoc', ['a'])).toBe('1');
    host.call('setUser', ['b', '2']);
    expect(() => host.call('setDoc', ['a', 'changed'])).toThrow('Service invoked too many times for one day: properties.');
    expect(host.state.properties.of('document').get('a')).toBe('1');
    // Another user has a quota of their own; a custom function spends the owner's.
    expect(host.call('getDoc', ['a'], { user: 'editor@example.com' })).toBe('1');
    host.load(`${BUNDLE}\n/** @customfunction */\nfunction OWNERPROP(k) { return getUser(k); }`);
    expect(host.evaluateFormula('Sheet1', 'A1', '=OWNERPROP("b")', { user: 'editor@example.com' }).error).toMatch(
      /too many times for one day/,
    );
    // The window closes 24 hours after its first call, not at midnight.
    host.advanceTime(4 * 3_600_000);
    expect(host.call('getDoc', ['a'])).toBe('1');
  });
});
