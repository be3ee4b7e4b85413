/**
 * End to end, a burst of failures over several spreadsheets of one owner, in the built bundle run by
 * the hourly trigger (with spreadsheetAccess "all", the tests' deployment: one run reaches every
 * spreadsheet of the owner; in the strict reading without a document, all of them by ID). The stored
 * sign-in expires, so every due report of the three spreadsheets fails at once: the run sends ONE
 * email and ONE post to the shared webhook, listing every report with its spreadsheet, once the run is
 * over in all three; each report's last notice, in its own spreadsheet's Schedules tab, says it went in
 * one notice with the others. The same failure an hour later sends nothing more.
 */
import { createGasHost, type GasHost } from '../../dev/gas-host';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { distBundle } from '../support/bundles';
import { nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';
import { hourlyDailyReport } from '../support/saved-report';

jest.setTimeout(120_000);

const START = '2026-11-20T12:00:00.000Z';

interface View {
  name: string;
  status: { needsSignIn: boolean };
  notices: { last?: { at: string; subject: string; email?: string; webhook?: string } };
}

let h: AddonHarness;
const others: GasHost[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((o) => o.close()));
  await h?.close();
});

/** Another spreadsheet of the owner on the harness's deployment (one add-on, one clock, the owner's properties). */
function spreadsheet(documentId: string, spreadsheetName: string): GasHost {
  const bundle = distBundle();
  const host = createGasHost({
    deployment: h.host.deployment,
    documentId,
    spreadsheetName,
    owner: OWNER,
    timeZone: 'Europe/Berlin',
    maxColumns: 40,
    concurrency: 1,
    htmlFiles: { sidebar: bundle.sidebar },
    manifest: bundle.manifest,
    strict: h.host.strict,
  });
  host.load(bundle.code);
  others.push(host);
  return host;
}

const views = (host: GasHost) => (host.call('listSchedules', [], { user: OWNER }) as { reports: View[] }).reports;

describe('a sign-in error failing the reports of 3 spreadsheets in one run', () => {
  it('sends ONE email and ONE webhook post listing them all, and each report’s last notice says so', async () => {
    h = await startScheduledAddon(START, { spreadsheetName: 'Sales 2026' });
    h.signIn();
    const costs = spreadsheet('spreadsheet-costs', 'Costs 2026');
    const budget = spreadsheet('spreadsheet-budget', 'Budget 2026');
    const webhook = `${h.emulator.webhookUrl('chat/space-9')}?key=burst-key-9`;
    const layout: Array<[GasHost, string, string[]]> = [
      [h.host, 'Sales 2026', ['Sales A', 'Sales B', 'Sales C']],
      [costs, 'Costs 2026', ['Costs A', 'Costs B']],
      [budget, 'Budget 2026', ['Budget A', 'Budget B']],
    ];
    for (const [host, , names] of layout) {
      for (const name of names) {
        host.call('saveSchedule', [hourlyDailyReport(name, { notices: { when: 'failure', email: true, webhook } })], { user: OWNER });
      }
    }
    // One trigger serves the owner's three spreadsheets.
    expect(h.host.deployment.triggers.filter((t) => t.user === OWNER)).toHaveLength(1);
    // The stored sign-in expires: every due report of every spreadsheet fails before any request.
    const tokens = h.host.properties('user', OWNER);
    const stored = tokens.get('engage.token')!;
    tokens.set('engage.token', JSON.stringify({ ...JSON.parse(stored), expiresAtMs: h.host.clock.now() - 1 }));
    const hosts = layout.map(([host]) => host);
    const mails = () => hosts.flatMap((host) => host.mails) as Array<{ subject: string; body: string }>;
    await h.emulator.clearWebhooks();

    nextTriggerRun(h);

    for (const host of hosts) expect(views(host).every((v) => v.status.needsSignIn)).toBe(true);
    expect(mails()).toHaveLength(1);
    const mail = mails()[0]!;
    expect(mail.subject).toBe('Engage: 7 saved reports in 3 spreadsheets could not be refreshed');
    const lines = mail.body.split('\n');
    for (const [host, sheetName, names] of layout) {
      for (const name of names) expect(lines).toContain(`- "${name}" in "${sheetName}"`);
      expect(lines).toContain(`- "${sheetName}": https://docs.google.com/spreadsheets/d/${host.documentId}/edit`);
    }
    expect(mail.body).toContain('Sign in to Engage again in the sidebar');
    const calls = await h.emulator.webhooks();
    expect(calls.map((c) => [c.path, c.status, c.contentType])).toEqual([
      ['/webhooks/chat/space-9', 200, 'application/json; charset=utf-8'],
    ]);
    const text = (JSON.parse(calls[0]!.body) as { text: string }).text;
    expect(text).toContain('7 saved reports in 3 spreadsheets could not be refreshed');
    for (const [, sheetName, names] of layout) for (const name of names) expect(text).toContain(`- "${name}" in "${sheetName}"`);
    expect(text).not.toContain('burst-key-9');
    // Each spreadsheet's Schedules tab: its reports' last notice went in one notice with the other 6.
    for (const [host, sheetName, names] of layout) {
      const listed = views(host);
      for (const name of names) {
        expect(listed.find((v) => v.name === name)!.notices.last).toEqual({
          at: expect.stringMatching(/^2026-11-20T/),
          subject: `"${name}" could not be refreshed in "${sheetName}", in one notice with 6 other reports from 3 spreadsheets`,
          email: 'sent',
          webhook: 'sent',
        });
      }
    }

    // The same failure an hour later tells nothing more.
    nextTriggerRun(h);
    expect(mails()).toHaveLength(1);
    expect(await h.emulator.webhooks()).toHaveLength(1);
    tokens.set('engage.token', stored);
  });
});
