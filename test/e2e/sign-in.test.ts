/**
 * End to end: signing in, the stored token's lifecycle, and the owner rule, through the built
 * bundle's entry points in the local host against a fresh emulator per test.
 */
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER } from '../support/emulator';
import { builtDeployment } from '../support/paths';
import { addressPrefixes } from '../../src/core/deployment';

/** The addresses and whitelist the tested bundle was built with (test/fixtures/tests.deploy.json). */
const DEPLOYMENT = builtDeployment();

const DAY_MS = 24 * 3600 * 1000;
let h: AddonHarness;

beforeEach(async () => {
  h = await startAddon({ maxColumns: 40 });
});
afterEach(async () => {
  await h.close();
});

type State = {
  session: { signedIn: boolean; rejected: boolean; warning?: string; tokenAgeDays?: number; username?: string };
  settings: Record<string, unknown>;
};

function state(user = OWNER): State {
  return h.host.call('getSidebarState', [], { user }) as State;
}

function everyStoredText(): string {
  return (['user', 'document', 'script'] as const)
    .flatMap((scope) => [OWNER, EDITOR].flatMap((u) => [...h.host.properties(scope, u).entries()].map(([k, v]) => `${scope}:${k}=${v}`)))
    .join('\n');
}

/** Moves the stored token's issue time back by `days`, as if it had been issued then. */
function ageToken(days: number): void {
  const props = h.host.properties('user', OWNER);
  const stored = JSON.parse(props.get('engage.token')!) as { obtainedAtMs: number; expiresAtMs: number };
  stored.obtainedAtMs -= days * DAY_MS;
  stored.expiresAtMs -= days * DAY_MS;
  props.set('engage.token', JSON.stringify(stored));
}

function publishersFormula(user = OWNER, refresh = 'r') {
  return h.host.evaluateFormula('Sheet1', 'A1', `=ENGAGE_PUBLISHERS("${refresh}")`, { user });
}

describe('signIn', () => {
  it("logs in once and keeps only the token and its issue time in the user's own properties", async () => {
    h.signIn();
    const logins = (await h.apiRequests()).filter((r) => r.path.endsWith('/login'));
    expect(logins).toHaveLength(1);
    const stored = JSON.parse(h.host.properties('user', OWNER).get('engage.token')!);
    expect(Object.keys(stored).sort()).toEqual(['expiresAtMs', 'obtainedAtMs', 'source', 'token', 'username']);
    expect(stored.expiresAtMs - stored.obtainedAtMs).toBe(30 * DAY_MS);
    const all = everyStoredText();
    expect(all).not.toContain(DEMO_USER.password);
    expect(h.host.properties('document', OWNER).size).toBe(0);
    expect(h.host.properties('script', OWNER).size).toBe(0);
    expect(h.host.logText()).not.toContain(stored.token);
    expect(state().session).toMatchObject({ signedIn: true, rejected: false, username: DEMO_USER.username, tokenAgeDays: 0 });
  });

  it('says plainly that the user name or password is wrong, stores nothing, and counts the attempt', () => {
    h.configure();
    const allowance = () => h.host.call('signInAllowance', [` ${DEMO_USER.username.toUpperCase()} `], { user: OWNER });
    expect(allowance()).toEqual({ left: 2, limit: 2 });
    let message = '';
    try {
      h.host.call('signIn', [DEMO_USER.username, 'wrong'], { user: OWNER });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(
      /^The user name or password is wrong: Engage did not accept them; check both and try again \[trace ID [^\]]+\]\.$/,
    );
    expect(message).not.toMatch(/30 days|token/);
    expect(h.host.properties('user', OWNER).has('engage.token')).toBe(false);
    // The failed attempt counts toward the 2 an hour, as it does at Engage; the right password still gets in.
    expect(allowance()).toEqual({ left: 1, limit: 2 });
    h.host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER });
    const none = allowance() as { left: number; nextAt: string };
    expect(none.left).toBe(0);
    expect(Date.parse(none.nextAt) - h.host.now().getTime()).toBeGreaterThan(59 * 60_000);
  });

  it('refuses a third login within an hour locally, saying when it will be allowed', async () => {
    h.signIn();
    h.host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER });
    await h.emulator.clearRequests();
    expect(() => h.host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER })).toThrow(
      /rate limit.*try again after \d\d:\d\d/i,
    );
    expect(await h.apiRequests()).toEqual([]);
  });

  it('accepts a pasted token instead of a password, after one request to the publisher list', async () => {
    h.configure();
    const token = await h.emulator.login(DEMO_USER.username, DEMO_USER.password);
    await h.emulator.clearRequests();
    h.host.call('signInWithToken', [token], { user: OWNER });
    expect(await h.apiRequests()).toEqual([{ method: 'GET', path: '/engage/v2/publishers', status: 200 }]);
    expect(publishersFormula().error).toBeUndefined();
  });

  it('keeps no pasted token Engage refuses, says so, and blames no password afterwards', async () => {
    h.configure();
    await h.emulator.clearRequests();
    expect(() => h.host.call('signInWithToken', ['garbage-token'], { user: OWNER })).toThrow(
      /^Engage did not accept this token, so it was not saved: copy the whole token/,
    );
    expect(await h.apiRequests()).toEqual([{ method: 'GET', path: '/engage/v2/publishers', status: 401 }]);
    expect(h.host.properties('user', OWNER).has('engage.token')).toBe(false);
    expect(h.host.properties('user', OWNER).has('engage.token.rejected')).toBe(false);
    expect(state().session).toEqual({ signedIn: false, rejected: false });
  });

  it('forgets the token on sign out', () => {
    h.signIn();
    h.host.call('signOut', [], { user: OWNER });
    expect(h.host.properties('user', OWNER).has('engage.token')).toBe(false);
    expect(publishersFormula().error).toMatch(/not signed in/);
  });
});

describe('the token lifecycle', () => {
  it('counts a token older than 30 days as expired, without a request', async () => {
    h.signIn();
    ageToken(31);
    await h.emulator.clearRequests();
    const result = publishersFormula();
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toMatch(/older than 30 days and has expired: the owner must sign in again/);
    expect(await h.apiRequests()).toEqual([]);
    expect(state().session.warning).toMatch(/expired: sign in again/);
  });

  it('warns from day 25 in the sidebar state and in the menu', () => {
    h.signIn();
    ageToken(26);
    expect(state().session.warning).toMatch(/ends in 4 days/);
    h.host.open({ authMode: 'FULL' });
    const items = JSON.stringify(h.host.menus);
    expect(items).toContain('Sign-in ends in 4 days');
    expect(items).toContain('Open sidebar');
  });

  it('after a revocation, shows "sign in again" and sends nothing more until the user signs in', async () => {
    h.signIn();
    await h.emulator.revoke(DEMO_USER.username);
    const first = publishersFormula(OWNER, 'after revoke');
    expect(first.value).toBe('#ERROR!');
    expect(first.error).toMatch(/sign in again/);
    const log = await h.emulator.requests();
    expect(first.error).toContain(`trace ID ${log[log.length - 1]!.traceId}`);
    await h.emulator.clearRequests();
    const second = h.host.evaluateFormula('Sheet1', 'A1', `=ENGAGE_WIDGETS("${BIG_PUBLISHER_ID}")`, { user: OWNER });
    expect(second.error).toMatch(/sign in again/);
    expect(await h.apiRequests()).toEqual([]);
    expect(state().session).toMatchObject({ signedIn: false, rejected: true });
  });
});

describe('the owner rule', () => {
  it('tells an editor that the spreadsheet owner must sign in, even when the editor has', async () => {
    h.signIn(EDITOR);
    h.configure(OWNER);
    const result = publishersFormula(EDITOR);
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toMatch(/the owner of this spreadsheet must sign in/);
    expect(await h.apiRequests()).toHaveLength(1); // the editor's own login only
  });

  it("runs an editor's formula with the owner's sign-in", () => {
    h.signIn(OWNER);
    const result = publishersFormula(EDITOR);
    expect(result.error).toBeUndefined();
    expect((result.values![0] as string[]).slice(0, 2)).toEqual(['id', 'name']);
  });
});

describe('settings', () => {
  it("keeps the API key in the user's properties and never shows it", () => {
    h.host.call('saveSettings', [{ reportingBaseUrl: h.emulator.baseUrl, apiKey: 'demo-api-key', widgetId: 'APP_12' }], { user: OWNER });
    const shown = state();
    expect(shown.settings).toEqual({
      reportingBaseUrl: h.emulator.baseUrl,
      recommendationsUrl: DEPLOYMENT.recommendationsUrl,
      widgetId: 'APP_12',
      hasApiKey: true,
      allowedAddresses: addressPrefixes(DEPLOYMENT),
      localServers: true,
    });
    expect(JSON.stringify(shown)).not.toContain('demo-api-key');
    expect([...h.host.properties('document', OWNER).values(), ...h.host.properties('script', OWNER).values()].join()).not.toContain(
      'demo-api-key',
    );
  });

  it('refuses a bad base address with a message naming the setting', () => {
    expect(() => h.host.call('saveSettings', [{ reportingBaseUrl: 'api.example.com' }], { user: OWNER })).toThrow(
      /reportingBaseUrl \('api.example.com'\): must be an http\(s\) address/,
    );
  });

  it("starts with the deployment's addresses, and names a missing setting that has no default", () => {
    expect(state().settings).toMatchObject({
      reportingBaseUrl: DEPLOYMENT.reportingBaseUrl,
      recommendationsUrl: DEPLOYMENT.recommendationsUrl,
    });
    const result = h.host.evaluateFormula('Sheet1', 'A1', '=ENGAGE_RECOMMENDATIONS("coffee", "", "https://news.example/a", "APP_12")', {
      user: OWNER,
    });
    expect(result.error).toBe('apiKey: the recommendations API key is not set: set it in the Engage sidebar under Settings');
  });
});
