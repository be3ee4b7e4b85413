/**
 * The Account tab: sign-in (user name and password, or a pasted API token), the sign-in's age and
 * expiry, sign-out, the settings form, and the URL fetches this add-on made in the current 24 hours
 * against Apps Script's daily quota. Engage allows 2 logins an hour, counts failed ones, and a token
 * lasts 30 days, so before each attempt the form says how many sign-ins are left this hour for the
 * user name typed (the server's own count, signInAllowance), and at the last one suggests a pasted
 * token; a pasted token is checked by the server before it is kept. The addresses a deployment may
 * call are shown beside the address fields; the server refuses others. "Formulas in this
 * spreadsheet" (formula-access.ts) says whose sign-in the spreadsheet's formulas use and what the
 * owner lets them use.
 */
import { FORMULA_RESERVE_SHARE, type SidebarState, type SignInAllowance } from '../../src/core';
import { el, field, notice, replaceChildren } from '../dom';
import { mountFormulaAccess } from './formula-access';
import type { Panel, PanelContext } from '../panel';
import { count, quotaBlock } from '../widgets/quota';
import { failureText } from '../server';
import { sheetClock, sheetTime } from '../time';

/** Shows the fetch count as it is now: formulas and runs since the last state also fetched. */
let refreshQuota: (() => void) | undefined;
/** Reads the formula choice and the editors again: someone may have shared the spreadsheet since. */
let reloadFormulas: (() => void) | undefined;

export const panel: Panel = {
  id: 'account',
  title: 'Account',
  mount(container, ctx) {
    const session = el('div', { class: 'card', id: 'account-session' });
    const formulas = el('div', { class: 'card', id: 'account-formulas' });
    const settings = el('div', { class: 'card', id: 'account-settings' });
    const quota = el('div', { class: 'card', id: 'account-quota' });
    container.append(session, formulas, settings, quota);
    reloadFormulas = mountFormulaAccess(formulas, ctx).reload;
    const render = (state: SidebarState) => {
      renderSession(session, state, ctx);
      renderSettings(settings, state, ctx);
      renderQuota(quota, state);
    };
    ctx.onStateChange(render);
    const state = ctx.state();
    if (state) render(state);
    refreshQuota = () =>
      void ctx.server.getSidebarState().then(
        (fresh) => renderQuota(quota, fresh),
        () => undefined,
      );
    refreshQuota();
  },
  shown() {
    refreshQuota?.();
    reloadFormulas?.();
  },
};

/** Disables a form's controls while a call runs and shows its outcome in `status`. */
async function busy<T>(form: HTMLFormElement, status: HTMLElement, work: () => Promise<T>): Promise<T | undefined> {
  const controls = Array.from(form.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button, select'));
  for (const c of controls) c.disabled = true;
  replaceChildren(status);
  try {
    return await work();
  } catch (error) {
    replaceChildren(status, notice('error', failureText(error)));
    return undefined;
  } finally {
    for (const c of controls) c.disabled = false;
  }
}

function renderSession(box: HTMLElement, state: SidebarState, ctx: PanelContext): void {
  if (state.session.signedIn) renderSignedIn(box, state, ctx);
  else renderSignIn(box, state, ctx);
}

/** Who is signed in, the token's age and end, and Sign out. */
function renderSignedIn(box: HTMLElement, state: SidebarState, ctx: PanelContext): void {
  const { session } = state;
  const status = el('div', { class: 'form-status' });
  const age = session.tokenAgeDays ?? 0;
  const expires = session.expiresAt ? new Date(session.expiresAt) : undefined;
  const form = el(
    'form',
    {},
    el('h2', {}, 'Signed in'),
    el(
      'p',
      { id: 'session-summary' },
      session.username ? `As ${session.username}` : 'With a pasted API token',
      ` · token ${age === 0 ? 'from today' : `${age} day${age === 1 ? '' : 's'} old`}`,
      expires ? ` · ends ${sheetTime(expires.getTime(), state.timeZone)}` : '',
    ),
    session.warning ? notice('warning', session.warning) : null,
    el('div', { class: 'actions' }, el('button', { type: 'submit', id: 'sign-out' }, 'Sign out')),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(form, status, () => ctx.server.signOut()).then((s) => s && ctx.setState(s));
  });
  replaceChildren(box, form);
}

/** The sign-in form, with the sign-ins left this hour, and the pasted token as the alternative. */
function renderSignIn(box: HTMLElement, state: SidebarState, ctx: PanelContext): void {
  const status = el('div', { class: 'form-status' });
  const username = el('input', {
    type: 'email',
    id: 'sign-in-username',
    autocomplete: 'username',
    required: true,
    placeholder: 'you@example.com',
  });
  const password = el('input', { type: 'password', id: 'sign-in-password', autocomplete: 'current-password', required: true });
  const submit = el('button', { type: 'submit', class: 'action', id: 'sign-in-submit' }, 'Sign in');
  const allowance = el('div', { id: 'sign-in-allowance', 'aria-live': 'polite' });
  const tokenBox = el('details', { class: 'alternative', id: 'token-details' });
  const form = el(
    'form',
    { id: 'sign-in-form' },
    el('h2', {}, 'Sign in to Engage'),
    state.session.warning ? notice('warning', state.session.warning) : null,
    field('User name', username),
    field('Password', password),
    el(
      'p',
      { class: 'hint' },
      'Engage allows 2 sign-ins an hour. A sign-in lasts 30 days; only its token is kept, in your own user properties, never your password.',
    ),
    allowance,
    el('div', { class: 'actions' }, submit),
    status,
  );
  const token = mountTokenSignIn(tokenBox, ctx);

  /** Asks the server how many sign-ins the user name typed has left this hour, and says so before the attempt. */
  let asked = 0;
  const showAllowance = async () => {
    const name = username.value.trim();
    const mine = ++asked;
    if (!name) {
      replaceChildren(allowance);
      submit.disabled = false;
      return;
    }
    try {
      const a = await ctx.server.signInAllowance(name);
      if (mine !== asked) return;
      submit.disabled = a.left === 0;
      const useToken = (label: string) =>
        el(
          'button',
          { type: 'button', class: 'link', id: 'sign-in-use-token', onclick: () => ((tokenBox.open = true), token.focus()) },
          label,
        );
      replaceChildren(allowance, allowanceNotice(a, name, state.timeZone, useToken));
    } catch {
      // The count is a courtesy: the server's own guard still refuses a sign-in past the limit.
    }
  };
  username.addEventListener('change', () => void showAllowance());
  password.addEventListener('focus', () => void showAllowance());
  // The form may be filled in before this runs (a password manager, the playground): read it once it is.
  setTimeout(() => void showAllowance(), 0);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(form, status, () => ctx.server.signIn(username.value, password.value)).then((s) => {
      if (!s) return void showAllowance();
      password.value = '';
      ctx.setState(s);
      ctx.showPanel('report');
    });
  });
  replaceChildren(box, form, tokenBox);
}

/** What the sign-ins left this hour mean for the next attempt; at the last one or none, a way to a pasted token. */
function allowanceNotice(a: SignInAllowance, name: string, timeZone: string, useToken: (label: string) => HTMLElement): HTMLElement {
  // A sentence of its own after the first case, the end of one after the second: its capital follows.
  if (a.left === 0)
    return notice(
      'warning',
      el(
        'span',
        {},
        `No sign-ins left this hour for ${name}: Engage allows ${a.limit} an hour, failed ones included. The next is possible at ${a.nextAt ? sheetClock(a.nextAt, timeZone) : 'the end of the hour'} (${timeZone}). `,
        useToken('Paste an API token instead'),
      ),
    );
  if (a.left === 1)
    return notice(
      'warning',
      el(
        'span',
        {},
        `1 of ${a.limit} sign-ins left this hour for ${name}: this is the last one until the hour is over. If you are not sure of the password, `,
        useToken('paste an API token instead'),
        '.',
      ),
    );
  return el('div', { class: 'hint' }, `${a.left} of ${a.limit} sign-ins left this hour for ${name}.`);
}

/** Fills `tokenBox` with the pasted-token form; returns its token field. */
function mountTokenSignIn(tokenBox: HTMLDetailsElement, ctx: PanelContext): HTMLInputElement {
  const tokenStatus = el('div', { class: 'form-status' });
  const token = el('input', { type: 'password', id: 'sign-in-token', autocomplete: 'off', required: true });
  const tokenForm = el(
    'form',
    { id: 'token-form' },
    field('API token', token, 'Created in Engage’s web interface. It is checked with Engage before it is kept, and spends no sign-in.'),
    el('div', { class: 'actions' }, el('button', { type: 'submit', id: 'token-submit' }, 'Use token')),
    tokenStatus,
  );
  tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(tokenForm, tokenStatus, () => ctx.server.signInWithToken(token.value)).then((s) => {
      if (!s) return;
      token.value = '';
      ctx.setState(s);
      ctx.showPanel('report');
    });
  });
  tokenBox.append(el('summary', {}, 'Sign in with an API token instead'), tokenForm);
  return token;
}

function renderQuota(box: HTMLElement, state: SidebarState): void {
  const account = state.quota.accountType === 'workspace' ? 'Google Workspace account' : 'consumer Google account';
  replaceChildren(
    box,
    el('h2', {}, 'Apps Script quota'),
    quotaBlock('quota-urlfetch', 'URL fetches by Engage in the current 24 hours', state.quota.urlFetch, count, state.timeZone),
    el(
      'p',
      { class: 'hint' },
      `Apps Script allows ${count(state.quota.urlFetch.limit)} URL fetches a day for a ${account}, shared with your other scripts. ` +
        `Scheduled refreshes stop at ${Math.round((1 - FORMULA_RESERVE_SHARE) * 100)}% of it; the rest is kept for your formulas and this sidebar.`,
    ),
  );
}

/**
 * What an address field may hold: its own whitelist prefixes (each field names only its own), and in a
 * build for local servers why the emulator's http://127.0.0.1 address is taken too.
 */
function addressHint(prefixes: readonly string[], localServers: boolean): string {
  const own = prefixes.join(' or ');
  const local = 'http://127.0.0.1 or localhost, where the emulator runs: this build is for local servers (the playground and the tests)';
  if (!own) return localServers ? ` Any https address, or ${local}.` : '';
  return localServers ? ` Must start with ${own}, or with ${local}.` : ` Must start with ${own}.`;
}

function renderSettings(box: HTMLElement, state: SidebarState, ctx: PanelContext): void {
  const s = state.settings;
  const reportingHint = `Ends with /engage/v2.${addressHint(s.allowedAddresses.reportingBaseUrl, s.localServers)}`;
  const recommendationsHint = addressHint(s.allowedAddresses.recommendationsUrl, s.localServers).trim();
  const status = el('div', { class: 'form-status' });
  const baseUrl = el('input', {
    type: 'url',
    id: 'settings-base-url',
    value: s.reportingBaseUrl ?? '',
    placeholder: 'https://…/engage/v2',
  });
  const recommendationsUrl = el('input', { type: 'url', id: 'settings-recommendations-url', value: s.recommendationsUrl ?? '' });
  const apiKey = el('input', {
    type: 'password',
    id: 'settings-api-key',
    autocomplete: 'off',
    placeholder: s.hasApiKey ? 'Saved (type to replace)' : '',
  });
  const widgetId = el('input', { type: 'text', id: 'settings-widget-id', value: s.widgetId ?? '' });
  const form = el(
    'form',
    { id: 'settings-form' },
    el('h2', {}, 'Settings'),
    field('Reporting base address', baseUrl, reportingHint),
    field('Recommendations address', recommendationsUrl, recommendationsHint || undefined),
    field(
      'Recommendations API key',
      apiKey,
      s.hasApiKey ? 'A key is saved. Leave empty to keep it.' : 'Kept in your user properties only.',
    ),
    field('Widget ID', widgetId),
    el('div', { class: 'actions' }, el('button', { type: 'submit', id: 'settings-save' }, 'Save settings')),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const change: Record<string, string> = {
      reportingBaseUrl: baseUrl.value,
      recommendationsUrl: recommendationsUrl.value,
      widgetId: widgetId.value,
    };
    if (apiKey.value) change.apiKey = apiKey.value;
    void busy(form, status, () => ctx.server.saveSettings(change)).then((saved) => {
      if (!saved) return;
      ctx.setState(saved);
      // The form was rebuilt by setState; announce success in the new one.
      document.querySelector('#settings-form .form-status')?.appendChild(notice('success', 'Settings saved.'));
    });
  });
  replaceChildren(box, form);
}
