/**
 * End to end, a user who granted the add-on only some of its scopes (granular consent, since August
 * 2025: "Some script executions can start without a user's consent to all required scopes",
 * developers.google.com/apps-script/reference/script/authorization-info). The host's `partialConsent`
 * switch is on in both readings here, so each scenario runs twice in `npm test`. Each optional scope is
 * withheld in turn:
 * - `script.scriptapp`: saving a schedule is refused in one sentence with Google's authorization link,
 *   and nothing is saved (no report, no trigger);
 * - `script.send_mail`: a failing report's run still refreshes the other reports whole, its email notice
 *   is not tried, and the Schedules tab says which permission to allow;
 * - `script.external_request`: signing in is refused with the link, and a scheduled run sends nothing,
 *   marks the reports once with the permission to allow, tells the owner once by email (the channel it
 *   can still use), and refreshes them after the user allows it.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER } from '../support/emulator';
import { nextTriggerRun, useScheduledAddon } from '../support/scheduled-host';
import { distBundle } from '../support/bundles';
import { hourlyDailyReport } from '../support/saved-report';

const START = '2026-11-20T12:00:00.000Z';
const AUTH = 'https://www.googleapis.com/auth/';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  status: { failures: number; lastSuccess?: string; lastError?: { message: string; at: string } };
  notices: { last?: { subject: string; email?: string } };
}
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const list = () => call<{ reports: View[]; triggerInstalled: boolean }>('listSchedules');
const listed = (name: string) => list().reports.find((r) => r.name === name)!;
const everyScope = () => (distBundle().manifest.oauthScopes as string[]).slice();
const withhold = (scope: string) =>
  h.host.grantScopes(
    OWNER,
    everyScope().filter((s) => s !== AUTH + scope),
  );

const report = hourlyDailyReport;

useScheduledAddon(START, { spreadsheetName: 'Sales 2026', strict: { partialConsent: true } }, (harness) => {
  h = harness;
});

afterEach(() => {
  h.host.grantScopes(OWNER, everyScope());
  for (const view of list().reports) call('deleteSchedule', view.id);
});

describe('a user who withheld a permission', () => {
  it('without script.scriptapp: saving a schedule is refused in one sentence with the authorization link, nothing saved', () => {
    withhold('script.scriptapp');
    const propertiesBefore = [...h.host.properties('document').keys()].sort();
    expect(() => call('saveSchedule', report('Daily revenue'))).toThrow(
      /^To save this schedule, allow Engage for Sheets to run on a schedule in Google's authorization page: https:\/\/script\.google\.com\/\S+script\.scriptapp\S*$/,
    );
    expect(list().reports).toEqual([]);
    expect(h.host.triggers).toEqual([]);
    expect([...h.host.properties('document').keys()].sort()).toEqual(propertiesBefore);
    // Allowed again: the same report saves.
    h.host.grantScopes(OWNER, everyScope());
    call('saveSchedule', report('Daily revenue'));
    expect(list().reports.map((r) => r.name)).toEqual(['Daily revenue']);
  });

  it('without script.send_mail: email notices are refused at save; a failing report still lets the others refresh whole, and says which permission to allow', async () => {
    withhold('script.send_mail');
    expect(() => call('saveSchedule', report('Failing', { notices: { when: 'failure', email: true } }))).toThrow(
      /^To save this schedule, allow Engage for Sheets to send email as you in Google's authorization page: /,
    );
    expect(list().reports).toEqual([]);
    // Saved while allowed, then withheld (a grant that expired and was given again in part).
    h.host.grantScopes(OWNER, everyScope());
    call('saveSchedule', report('Failing', { entityId: BIG_PUBLISHER_ID, notices: { when: 'failure', email: true } }));
    call('saveSchedule', report('Revenue A'));
    call('saveSchedule', report('Revenue B', { breakdowns: ['day', 'country'] }));
    // A first run fills them all.
    nextTriggerRun(h);
    expect(list().reports.map((r) => r.status.failures)).toEqual([0, 0, 0]);
    withhold('script.send_mail');
    // Engage takes too long for that one publisher's report, at every try.
    await h.emulator.setFaults([{ match: BIG_PUBLISHER_ID, status: 504, times: 1000 }]);
    nextTriggerRun(h);
    const failing = listed('Failing');
    expect(failing.status.failures).toBe(1);
    expect(failing.notices.last?.email).toBe('not sent: allow Engage for Sheets to send email as you');
    expect(h.host.mails).toEqual([]);
    for (const name of ['Revenue A', 'Revenue B']) {
      expect(listed(name).status.failures).toBe(0);
      expect(listed(name).status.lastSuccess).toBeDefined();
      const rows = h.host.getValues(name);
      expect(rows[0]!.slice(0, 1)).toEqual(['day']);
      expect(rows.filter((row) => row[0] !== '').length).toBeGreaterThan(7);
    }
  });

  it('without script.external_request: sign-in is refused with the link; a run sends nothing, marks its reports once, and refreshes them once allowed', async () => {
    call('saveSchedule', report('Revenue A'));
    await h.emulator.clearRequests();
    withhold('script.external_request');
    expect(() => call('signIn', DEMO_USER.username, DEMO_USER.password)).toThrow(
      /^To sign in, allow Engage for Sheets to connect to an external service in Google's authorization page: https:\/\//,
    );
    nextTriggerRun(h);
    expect(await h.apiRequests()).toEqual([]);
    const marked = listed('Revenue A').status.lastError!;
    expect(marked.message).toMatch(
      /^To refresh this report on its schedule, allow Engage for Sheets to connect to an external service in Google's authorization page: /,
    );
    // The owner is told once, through the channel still allowed: email (a webhook would need the missing permission).
    const mails = h.host.mails.length;
    expect(mails).toBeGreaterThan(0);
    const told = h.host.mails.at(-1) as { subject: string; body: string };
    expect(told.subject).toBe('Engage: "Revenue A" could not be refreshed in "Sales 2026"');
    expect(told.body).toContain('allow Engage for Sheets to connect to an external service');
    // Not tried again, not written again and not told again at the next run.
    nextTriggerRun(h);
    expect(await h.apiRequests()).toEqual([]);
    expect(listed('Revenue A').status.lastError).toEqual(marked);
    expect(h.host.mails).toHaveLength(mails);
    expect(listed('Revenue A').status.failures).toBe(1);
    h.host.grantScopes(OWNER, everyScope());
    nextTriggerRun(h);
    const after = listed('Revenue A').status;
    expect(after.failures).toBe(0);
    expect(Date.parse(after.lastSuccess!)).toBeGreaterThan(Date.parse(marked.at));
    expect((await h.apiRequests()).length).toBeGreaterThan(0);
  });

  it('without script.scriptapp: pausing or resuming is refused and changes nothing; deleting still deletes', () => {
    const saved = call<{ reports: View[] }>('saveSchedule', report('Daily revenue')).reports[0]!;
    expect(h.host.triggers).toHaveLength(1);
    withhold('script.scriptapp');
    expect(() => call('pauseSchedule', saved.id, true)).toThrow(
      /^To pause this schedule, allow Engage for Sheets to run on a schedule in Google's authorization page: https:\/\/script\.google\.com\//,
    );
    expect(listed('Daily revenue')).toMatchObject({ id: saved.id });
    expect((list().reports[0] as View & { paused: boolean }).paused).toBe(false);
    // Deleting asks nothing of the trigger the user may no longer read: the report goes, the trigger waits.
    call('deleteSchedule', saved.id);
    expect(list().reports).toEqual([]);
    expect(h.host.triggers).toHaveLength(1);
    // Allowed again, the next change removes the trigger no report needs.
    h.host.grantScopes(OWNER, everyScope());
    const other = call<{ reports: View[] }>('saveSchedule', report('Other')).reports[0]!;
    call('deleteSchedule', other.id);
    expect(h.host.triggers).toEqual([]);
  });

  it('without script.external_request: listing publishers and previewing recommendations are refused before anything is sent', async () => {
    h.signIn();
    await h.emulator.clearRequests();
    withhold('script.external_request');
    expect(() => call('listPublishers')).toThrow(
      /^To list your publishers, allow Engage for Sheets to connect to an external service in Google's authorization page: https:\/\//,
    );
    expect(() => call('previewRecommendations', { keywords: 'travel' })).toThrow(
      /^To preview recommendations, allow Engage for Sheets to connect to an external service/,
    );
    expect(() => call('createDashboard', 'all')).toThrow(
      /^To create the dashboard, allow Engage for Sheets to connect to an external service/,
    );
    expect(await h.apiRequests()).toEqual([]);
    expect(h.host.state.spreadsheet.sheetByName('Engage dashboard')).toBeFalsy();
  });
});
