/** SettingsStore: validated settings in the user's store; the API key never shown. */
import { ValidationError } from '../../../../../src/core/errors';
import type { Deployment } from '../../../../../src/core/deployment';
import { SETTINGS_STORE_KEY, SettingsStore, publicSettings } from '../../../../../src/core/addon/session/settings';
import { FakeStore } from '../../../../support/fakes';

describe('SettingsStore', () => {
  it('saves valid settings and shows them without the API key', () => {
    const store = new FakeStore();
    const settings = new SettingsStore(store);
    const saved = settings.save({
      reportingBaseUrl: 'https://api.example.com/engage/v2/',
      recommendationsUrl: 'https://recs.example.com/v1',
      apiKey: 'secret-key',
      widgetId: 'APP_12',
    });
    expect(saved.reportingBaseUrl).toBe('https://api.example.com/engage/v2');
    expect(publicSettings(settings.load())).toEqual({
      reportingBaseUrl: 'https://api.example.com/engage/v2',
      recommendationsUrl: 'https://recs.example.com/v1',
      widgetId: 'APP_12',
      hasApiKey: true,
      allowedAddresses: { reportingBaseUrl: [], recommendationsUrl: [] },
      localServers: false,
    });
    expect(JSON.stringify(publicSettings(settings.load()))).not.toContain('secret-key');
  });

  it('keeps a setting left out and clears one given as ""', () => {
    const settings = new SettingsStore(new FakeStore());
    settings.save({ apiKey: 'k1', widgetId: 'APP_1' });
    settings.save({ widgetId: '' });
    expect(settings.load()).toEqual({ apiKey: 'k1' });
  });

  it.each([
    [
      { reportingBaseUrl: 'ftp://api.example.com/engage/v2' },
      /^reportingBaseUrl \('ftp:\/\/api.example.com\/engage\/v2'\): must be an http\(s\) address/,
    ],
    [{ reportingBaseUrl: 'https://api.example.com/engage/v1' }, /^reportingBaseUrl .*must end with \/engage\/v2/],
    [{ widgetId: 'APP 12' }, /^widgetId \('APP 12'\): may hold only letters/],
    [{ colour: 'red' }, /^colour: is not a setting/],
  ])('refuses %j naming the setting and the rule', (change, message) => {
    const store = new FakeStore();
    expect(() => new SettingsStore(store).save(change)).toThrow(message);
    expect(store.sets).toBe(0);
  });

  it('never echoes a bad API key in its message', () => {
    let error: unknown;
    try {
      new SettingsStore(new FakeStore()).save({ apiKey: 'has a space secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/^apiKey: must not contain spaces/);
    expect((error as Error).message).not.toContain('secret');
  });

  it('names the missing setting and where to set it', () => {
    expect(() => new SettingsStore(new FakeStore()).require('reportingBaseUrl')).toThrow(
      'reportingBaseUrl: the reporting base address is not set: set it in the Engage sidebar under Settings',
    );
  });

  it('reads unreadable stored settings as none', () => {
    const store = new FakeStore();
    store.values.set(SETTINGS_STORE_KEY, '{not json');
    expect(new SettingsStore(store).load()).toEqual({});
  });
});

describe('SettingsStore input found by the bad-input evidence', () => {
  it.each([
    [{ reportingBaseUrl: 42 }, /^reportingBaseUrl \('42'\): must be text/],
    [{ widgetId: 12 }, /^widgetId \('12'\): must be text/],
    [
      { recommendationsUrl: `https://recs.example.com/${'r'.repeat(600)}` },
      /^recommendationsUrl \('https:\/\/recs.example.com\/r{15}\.\.\.' \(625 characters\)\): must be at most 500 characters/,
    ],
    [{ apiKey: 'sec\u0000ret' }, /^apiKey: must not contain control characters/],
  ])('refuses %j with a message naming the setting', (change, message) => {
    const store = new FakeStore();
    expect(() => new SettingsStore(store).save(change)).toThrow(message);
    expect(store.get(SETTINGS_STORE_KEY)).toBeNull();
  });

  it('never shows the API key, even when it is not text', () => {
    expect(() => new SettingsStore(new FakeStore()).save({ apiKey: 987654 })).toThrow(/^apiKey: must be text$/);
  });
});

describe('SettingsStore in a deployment', () => {
  const deployment: Deployment = {
    reportingBaseUrl: 'https://reports.example.net/engage/v2',
    recommendationsUrl: 'https://recs.example.net/v1/recommendations',
    urlFetchWhitelist: ['https://reports.example.net/engage/v2/', 'https://recs.example.net/v1/'],
    accountType: 'consumer',
  };

  it("uses the deployment's addresses until the user saves others, without storing them", () => {
    const store = new FakeStore();
    const settings = new SettingsStore(store, deployment);
    expect(settings.load()).toEqual({
      reportingBaseUrl: 'https://reports.example.net/engage/v2',
      recommendationsUrl: 'https://recs.example.net/v1/recommendations',
    });
    settings.save({ widgetId: 'APP_1' });
    expect(JSON.parse(store.get(SETTINGS_STORE_KEY)!)).toEqual({ widgetId: 'APP_1' });
    settings.save({ reportingBaseUrl: 'https://reports.example.net/engage/v2/sub/engage/v2' });
    settings.save({ reportingBaseUrl: '' });
    expect(settings.load().reportingBaseUrl).toBe('https://reports.example.net/engage/v2');
  });

  it('refuses an address outside its own prefix with one sentence naming that prefix alone, and stores nothing', () => {
    const store = new FakeStore();
    expect(() => new SettingsStore(store, deployment).save({ reportingBaseUrl: 'https://elsewhere.example.org/engage/v2' })).toThrow(
      "reportingBaseUrl ('https://elsewhere.example.org/engage/v2'): must start with https://reports.example.net/engage/v2/, the address this add-on is allowed to call",
    );
    expect(() => new SettingsStore(store, deployment).save({ recommendationsUrl: 'https://recs.example.net/v2/recommendations' })).toThrow(
      "recommendationsUrl ('https://recs.example.net/v2/recommendations'): must start with https://recs.example.net/v1/, the address this add-on is allowed to call",
    );
    // The reporting prefix is not the recommendations address's, though the manifest lists both.
    expect(() => new SettingsStore(store, deployment).save({ recommendationsUrl: 'https://reports.example.net/engage/v2/recs' })).toThrow(
      /^recommendationsUrl .*must start with https:\/\/recs\.example\.net\/v1\/,/,
    );
    expect(store.sets).toBe(0);
  });

  it('accepts plain http only for a server on this machine, and that only in a build for local servers', () => {
    const forGoogle = new SettingsStore(new FakeStore(), deployment);
    expect(() => forGoogle.save({ reportingBaseUrl: 'http://127.0.0.1:8787/engage/v2' })).toThrow(
      /^reportingBaseUrl .*this deployment does not accept a server on this machine/,
    );
    expect(() => forGoogle.save({ reportingBaseUrl: 'http://reports.example.net/engage/v2' })).toThrow(
      /^reportingBaseUrl .*must be an https address$/,
    );
    const settings = new SettingsStore(new FakeStore(), { ...deployment, localServers: true });
    expect(
      settings.save({ reportingBaseUrl: 'http://127.0.0.1:8787/engage/v2', recommendationsUrl: 'http://localhost:8787/recs' }),
    ).toMatchObject({ reportingBaseUrl: 'http://127.0.0.1:8787/engage/v2' });
    expect(() => settings.save({ reportingBaseUrl: 'http://reports.example.net/engage/v2' })).toThrow(
      /^reportingBaseUrl .*must be an https address \(plain http is only for a test server on this machine/,
    );
  });

  it("shows the sidebar each field's own prefix, and whether the build takes local servers", () => {
    expect(publicSettings(new SettingsStore(new FakeStore(), deployment).load(), deployment)).toMatchObject({
      allowedAddresses: {
        reportingBaseUrl: ['https://reports.example.net/engage/v2/'],
        recommendationsUrl: ['https://recs.example.net/v1/'],
      },
      localServers: false,
    });
    const local = { ...deployment, localServers: true };
    expect(publicSettings(new SettingsStore(new FakeStore(), local).load(), local).localServers).toBe(true);
    // One prefix for both when the recommendations endpoint lies under the reporting base.
    const one: Deployment = {
      ...deployment,
      recommendationsUrl: 'https://reports.example.net/engage/v2/recs',
      urlFetchWhitelist: ['https://reports.example.net/engage/v2/'],
    };
    expect(publicSettings(new SettingsStore(new FakeStore(), one).load(), one).allowedAddresses).toEqual({
      reportingBaseUrl: ['https://reports.example.net/engage/v2/'],
      recommendationsUrl: ['https://reports.example.net/engage/v2/'],
    });
  });
});
