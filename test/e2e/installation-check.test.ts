/**
 * End to end, "Check this installation" in the local host under both readings of Google's rules: the
 * menu item (in a worker, with Sheets' automatic recalculation, so its formula probes compute while it
 * waits) writes one row per finding to the sheet "Engage installation check", each saying what was
 * seen and what it means; the trigger's finding is pending until the check's one-off trigger has run,
 * then written (by the run itself when it has the document, else by the next open). What each reading
 * makes of the probes differs, and so must the findings: a trigger run with or without its document,
 * `1/2` written plainly kept or turned into a date, TODAY() accepted or left loading, 40 formulas at once
 * all computed or 12 refused. Only the owner may check; nothing of the probes is left in the sheet.
 * The check also says how the add-on is installed (a test deployment flags the trigger's row: it runs
 * no installable trigger) and what the user granted, one row per scope, in both readings with the
 * host's `partialConsent` on. Both readings are named here, so `npm run test:strict` leaves this file out.
 */
import type { CellValue } from '../../dev/gas-host/protocol/protocol';
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { currentAccessBundle, distBundle } from '../support/bundles';
import { KIND_READING, STRICT_READING } from '../../dev/gas-host/protocol/strict';

const SHEET = 'Engage installation check';
jest.setTimeout(120_000);

type Row = { check: string; status: string; seen: string; meaning: string };

function rows(h: AddonHarness): Row[] {
  const values = h.host.getValues(SHEET, 'A1:E40') as CellValue[][];
  expect(values[0]).toEqual(['Check', 'Status', 'What was seen', 'What it means', 'Checked']);
  return values
    .slice(1)
    .filter((r) => r[0] !== '')
    .map((r) => ({ check: String(r[0]), status: String(r[1]), seen: String(r[2]), meaning: String(r[3]) }));
}

const find = (all: Row[], check: string | RegExp) => {
  const row = all.find((r) => (typeof check === 'string' ? r.check === check : check.test(r.check)));
  if (!row) throw new Error(`no finding ${String(check)} among ${all.map((r) => r.check).join(' | ')}`);
  return row;
};

async function check(h: AddonHarness, user = OWNER): Promise<void> {
  const [outcome] = await h.host.callConcurrently([{ functionName: 'checkInstallation', options: { user } }]);
  expect(outcome!.error).toBeUndefined();
  await h.host.whenRecalculated();
}

/** The check's one-off trigger, due now, then run as Apps Script would run it. */
function runCheckTrigger(h: AddonHarness): void {
  const trigger = h.host.triggers.find((t) => t.handlerFunction === 'onInstallationCheckTrigger');
  expect(trigger).toBeDefined();
  trigger!.nextRunAt = Date.now();
  const runs = h.host.runDueTriggers();
  expect(runs.map((r) => [r.handlerFunction, r.ok])).toEqual([['onInstallationCheckTrigger', true]]);
}

describe.each([
  ['kind', false],
  ['strict', true],
] as const)('the installation check under the %s reading', (reading, strict) => {
  let h: AddonHarness;
  beforeAll(async () => {
    h = await startAddon({ strict, autoRecalculate: true, sheets: ['Sheet1'], editors: [EDITOR] });
    h.signIn();
    await check(h);
  });
  afterAll(async () => {
    await h.close();
  });

  it('writes a finding for each probe, with what it means', () => {
    const all = rows(h);
    expect(all.map((r) => r.check)).toEqual([
      'URL Fetch reaches the reporting API',
      'URL Fetch reaches the recommendations endpoint',
      'A scheduled run has its spreadsheet',
      'Names that look like dates stay text',
      'TODAY() is accepted as an argument',
      'Sidebar functions refuse to run in a cell',
      '40 formulas recalculating at once',
      'Caching a 20,000-row formula result',
      'Email notices can be sent today',
      'Webhook notices may post under https://chat.googleapis.com/v1/spaces/',
      'Webhook notices may post under https://hooks.slack.com/services/',
      'How Engage for Sheets is installed',
      'Permission granted: spreadsheets',
      'Permission granted: script.external_request',
      'Permission granted: script.scriptapp',
      'Permission granted: script.send_mail',
    ]);
    expect(find(all, 'How Engage for Sheets is installed')).toMatchObject({
      status: 'OK',
      seen: 'Installed by you, from the Marketplace (WEB_STORE_ADD_ON).',
    });
    expect(find(all, 'Permission granted: script.send_mail')).toMatchObject({
      status: 'OK',
      seen: 'You allowed Engage for Sheets to send email as you.',
    });
    expect(find(all, 'URL Fetch reaches the reporting API')).toMatchObject({
      status: 'OK',
      seen: `${h.emulator.baseUrl}/publishers answered HTTP 401 (no sign-in was sent, as expected).`,
    });
    expect(find(all, 'URL Fetch reaches the recommendations endpoint').status).toBe('OK');
    expect(find(all, 'A scheduled run has its spreadsheet')).toMatchObject({
      status: 'Pending',
      seen: 'No trigger run since the check started.',
    });
    // The host's day of 100 email recipients (a consumer account, Apps Script's quotas page), none spent.
    expect(find(all, 'Email notices can be sent today')).toMatchObject({
      status: 'OK',
      seen: 'MailApp.getRemainingDailyQuota() says 100 emails are left today (of 100 a day on this account type).',
    });
    // The tests' deployment's prefixes, read from the build: nothing was posted.
    for (const prefix of ['https://chat.googleapis.com/v1/spaces/', 'https://hooks.slack.com/services/']) {
      expect(find(all, `Webhook notices may post under ${prefix}`)).toMatchObject({
        status: 'OK',
        seen: `${prefix} is configured, https, and in the manifest's urlFetchWhitelist; nothing was posted (a post would reach the chat).`,
      });
    }
    expect(h.host.fetchLog.filter((f) => f.method.toUpperCase() === 'POST')).toEqual([]);
    expect(find(all, /^Caching/).seen).toMatch(
      /^Compressing and caching it took \d+\.\d s \(\d+ cache entries, [\d,]+ KB\), reading it back \d+\.\d s\.$/,
    );
  });

  it("keeps the add-on's text, and says what writing it plainly does in this reading", () => {
    const text = find(rows(h), 'Names that look like dates stay text');
    expect(text.status).toBe('OK');
    expect(text.seen).toMatch(/^"1\/2" written as the add-on writes API text came back as the text "1\/2"\./);
    expect(text.seen).toMatch(
      strict
        ? /Written plainly it became the date \d{4}-01-02: the add-on's protection is needed here\.$/
        : /Written plainly it stayed text too/,
    );
  });

  it('says whether TODAY() ran, and how many of 40 formulas at once did', () => {
    const all = rows(h);
    const today = find(all, 'TODAY() is accepted as an argument');
    const many = find(all, '40 formulas recalculating at once');
    if (strict) {
      expect(today).toMatchObject({ status: 'Needs attention', seen: '=ENGAGE_VERSION(TODAY()) still showed Loading... after 30 s.' });
      // The check itself and its =GETSIDEBARSTATE() probe, started with the 40, are two of the user's 30 executions.
      expect(many).toMatchObject({ status: 'Needs attention', seen: '28 computed, 12 ended in error.' });
    } else {
      expect(today).toMatchObject({ status: 'OK', seen: '=ENGAGE_VERSION(TODAY()) computed.' });
      expect(many).toMatchObject({ status: 'OK', seen: '40 computed, 0 ended in error.' });
    }
    // In a cell, a sidebar function shows the guard's error (strict: any function can be typed) or #NAME? (kind).
    expect(find(all, 'Sidebar functions refuse to run in a cell')).toMatchObject({
      status: 'OK',
      seen: `=GETSIDEBARSTATE() typed in a cell shows ${strict ? '#ERROR!' : '#NAME?'}.`,
    });
  });

  it('leaves nothing of its probes in the sheet: only the findings', () => {
    const grid = h.host.getValues(SHEET);
    const used = grid.flatMap((row, r) => row.map((v, c) => (v !== '' ? [r, c] : null)).filter((x) => x !== null));
    expect(Math.max(...used.map(([, c]) => c!))).toBeLessThanOrEqual(4);
    expect(h.host.state.spreadsheet.sheetByName(SHEET)!.maxRows).toBeGreaterThan(0);
  });

  it("fills in the trigger's finding once its one-off trigger has run, and removes that trigger", () => {
    runCheckTrigger(h);
    if (strict) {
      // Without its document the run cannot write the sheet: the next open does.
      expect(find(rows(h), 'A scheduled run has its spreadsheet').status).toBe('Pending');
      h.host.open({ user: OWNER });
    }
    const trigger = find(rows(h), 'A scheduled run has its spreadsheet');
    if (strict) {
      expect(trigger).toMatchObject({ status: 'OK', seen: "The check's trigger ran without a document." });
      expect(trigger.meaning).toMatch(/spreadsheetAccess "all" allows\. Keep "all"\.$/);
    } else {
      expect(trigger).toMatchObject({ status: 'OK', seen: "The check's trigger ran with this spreadsheet as its document." });
    }
    expect(h.host.triggers.filter((t) => t.handlerFunction === 'onInstallationCheckTrigger')).toEqual([]);
  });

  it("is the owner's: an editor is told who may check, and nothing is written", async () => {
    const before = JSON.stringify(h.host.getValues(SHEET, 'A1:E40'));
    const [outcome] = await h.host.callConcurrently([{ functionName: 'checkInstallation', options: { user: EDITOR } }]);
    expect(outcome!.error).toBeUndefined();
    expect(h.host.alerts.at(-1)).toMatchObject({
      prompt:
        "Only the owner of this spreadsheet, owner@example.com, can check this installation (the check writes a sheet of findings, sets off formulas that use the owner's sign-in and installs a trigger): ask the owner to run Check this installation from the Engage menu.",
    });
    expect(JSON.stringify(h.host.getValues(SHEET, 'A1:E40'))).toBe(before);
    void reading;
  });
});

describe('with the mail service refused (a manifest without script.send_mail)', () => {
  // The refusal's words are the host's guard, the same in both readings: the kind one alone spares the strict one's 30 s TODAY() probe.
  it('reports Google’s refusal in its words, and the rest of the check goes on', async () => {
    const bundle = distBundle();
    const scopes = (bundle.manifest.oauthScopes as string[]).filter((s) => !s.endsWith('/script.send_mail'));
    const h = await startAddon(
      { strict: false, autoRecalculate: true },
      { ...bundle, manifest: { ...bundle.manifest, oauthScopes: scopes } },
    );
    try {
      h.signIn();
      await check(h);
      const all = rows(h);
      expect(find(all, 'Email notices can be sent today')).toMatchObject({
        status: 'Needs attention',
        seen: 'MailApp.getRemainingDailyQuota() was refused: You do not have permission to call MailApp.getRemainingDailyQuota. Required permissions: https://www.googleapis.com/auth/script.send_mail',
      });
      expect(find(all, 'Webhook notices may post under https://hooks.slack.com/services/').status).toBe('OK');
      expect(find(all, /^Caching/).status).toBe('OK');
    } finally {
      await h.close();
    }
  });
});

/**
 * The strict reading but for TODAY(): its refusal only makes the check wait 30 s for that probe, whose row
 * the strict describe above covers, and changes no row these tests read.
 */
const STRICT_BUT_TODAY = { ...STRICT_READING, volatileToday: false };

describe.each([
  ['kind', { ...KIND_READING, partialConsent: true }],
  ['strict', STRICT_BUT_TODAY],
] as const)('a test deployment whose user withheld a permission, under the %s reading', (_reading, strict) => {
  it('says how it is installed, flags the trigger row, and names each permission granted or not', async () => {
    const scopes = (distBundle().manifest.oauthScopes as string[]).filter((s) => !s.endsWith('/script.send_mail'));
    const h = await startAddon({ strict, autoRecalculate: true, installationSource: 'NONE', grantedScopes: { [OWNER]: scopes } });
    try {
      h.signIn();
      await check(h);
      const all = rows(h);
      expect(find(all, 'How Engage for Sheets is installed')).toMatchObject({
        status: 'Needs attention',
        seen: 'Not as an installed add-on (its installation source is NONE): a test deployment, or the script itself.',
      });
      const trigger = find(all, 'A scheduled run has its spreadsheet');
      expect(trigger.status).toBe('Needs attention');
      expect(trigger.meaning).toMatch(/^Triggers need the add-on installed, not a test deployment\./);
      const mail = find(all, 'Permission granted: script.send_mail');
      expect(mail).toMatchObject({ status: 'Needs attention', seen: 'You have not allowed Engage for Sheets to send email as you.' });
      expect(mail.meaning).toMatch(
        /^email notices are sent with it; allow it in Google's authorization page: https:\/\/script\.google\.com\//,
      );
      expect(find(all, 'Permission granted: script.scriptapp').status).toBe('OK');
      // A test deployment runs no installable trigger: the check's own never runs, and its row stays as the check wrote it.
      const checkTrigger = h.host.triggers.find((t) => t.handlerFunction === 'onInstallationCheckTrigger')!;
      checkTrigger.nextRunAt = Date.now();
      expect(h.host.runDueTriggers()).toEqual([]);
      h.host.open({ user: OWNER });
      expect(find(rows(h), 'A scheduled run has its spreadsheet')).toEqual(trigger);
    } finally {
      await h.close();
    }
  });
});

describe('a user who withheld the permission to run on a schedule', () => {
  // The refusal's words are the host's guard, the same in both readings: the kind one alone spares the strict one's 30 s TODAY() probe.
  it('reports in Google words a probe that Apps Script refuses, and goes on', async () => {
    const scopes = (distBundle().manifest.oauthScopes as string[]).filter((s) => !s.endsWith('/script.scriptapp'));
    const h = await startAddon({
      strict: { ...KIND_READING, partialConsent: true },
      autoRecalculate: true,
      grantedScopes: { [OWNER]: scopes },
    });
    try {
      h.signIn();
      await check(h);
      const all = rows(h);
      expect(find(all, 'A scheduled run has its spreadsheet')).toMatchObject({
        status: 'Needs attention',
        seen: 'The check could not install its trigger: You do not have permission to call ScriptApp.getUserTriggers. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
      });
      expect(find(all, 'Permission granted: script.scriptapp')).toMatchObject({
        status: 'Needs attention',
        seen: 'You have not allowed Engage for Sheets to run on a schedule.',
      });
    } finally {
      await h.close();
    }
  });
});

describe('with spreadsheetAccess "current" and trigger runs without a document', () => {
  it('asks the deployer for "all"', async () => {
    const h = await startAddon({ strict: STRICT_BUT_TODAY, autoRecalculate: true }, await currentAccessBundle());
    try {
      h.signIn();
      await check(h);
      runCheckTrigger(h);
      h.host.open({ user: OWNER });
      const trigger = find(rows(h), 'A scheduled run has its spreadsheet');
      expect(trigger).toMatchObject({ status: 'Needs attention', seen: "The check's trigger ran without a document." });
      expect(trigger.meaning).toBe(
        'Trigger runs have no document, and with spreadsheetAccess "current" a scheduled refresh cannot open its spreadsheet: set spreadsheetAccess "all" in the deploy config, build and push again.',
      );
    } finally {
      await h.close();
    }
  });
});

describe('the check beside the hourly trigger of scheduled refreshes (one time-driven trigger per document)', () => {
  const schedule = {
    name: 'Daily',
    kind: 'main',
    entityId: '089ff7bee9730601caec5cca961a3cbe',
    period: { type: 'lastDays', days: 7, endingYesterday: true },
    breakdowns: ['day'],
    target: { sheetName: 'Sheet1', cell: 'A1' },
    schedule: { every: 'hour' },
  };

  it('waits for the hourly run where that takes the document, and the run fills the finding in', async () => {
    const h = await startAddon({ strict: false, autoRecalculate: true });
    try {
      h.signIn();
      h.host.call('saveSchedule', [schedule], { user: OWNER });
      await check(h);
      expect(h.host.triggers.map((t) => t.handlerFunction)).toEqual(['onScheduledRefresh']);
      expect(find(rows(h), 'A scheduled run has its spreadsheet').seen).toMatch(
        /your hourly trigger is in this spreadsheet: its next run will tell/,
      );
      const hourly = h.host.triggers[0]!;
      hourly.nextRunAt = Date.now();
      expect(h.host.runDueTriggers().map((r) => r.ok)).toEqual([true]);
      expect(find(rows(h), 'A scheduled run has its spreadsheet')).toMatchObject({
        status: 'OK',
        seen: 'An hourly run of your saved reports ran with this spreadsheet as its document.',
      });
    } finally {
      await h.close();
    }
  });

  it("gives way when a schedule is saved while its trigger waits: the schedule's trigger is installed, and its run tells", async () => {
    const h = await startAddon({ strict: false, autoRecalculate: true });
    try {
      h.signIn();
      await check(h);
      expect(h.host.triggers.map((t) => t.handlerFunction)).toEqual(['onInstallationCheckTrigger']);
      h.host.call('saveSchedule', [schedule], { user: OWNER });
      expect(h.host.triggers.map((t) => t.handlerFunction)).toEqual(['onScheduledRefresh']);
      h.host.triggers[0]!.nextRunAt = Date.now();
      h.host.runDueTriggers();
      expect(find(rows(h), 'A scheduled run has its spreadsheet').seen).toBe(
        'An hourly run of your saved reports ran with this spreadsheet as its document.',
      );
    } finally {
      await h.close();
    }
  });
});
