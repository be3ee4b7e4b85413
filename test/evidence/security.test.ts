/**
 * Security evidence (issue 8): one realistic session drives the built bundle through every entry
 * point (sign-in with a password, a pasted token, settings with an API key, every ENGAGE_* formula,
 * Run to sheet, Insert formula, schedules saved, run now and run by the hourly trigger, the
 * recommendations formula and preview, the menu, sign-out) under a representative set of failures
 * (wrong password, 401, 403, 404, 429, 504, malformed bodies, dropped connections, recommendations
 * errors). Then everything the local host holds is scanned for the secrets of the session, as they
 * are and encoded: the password, every token the emulator saw in a request header, and the API keys.
 * Secrets may live only in the user's own properties; never in document or script properties, a
 * cache, a log, a cell (value, formula or note), an error message or anything a sidebar call returns.
 *
 * The same session checks that text from the API which a spreadsheet would run (=, +, -, @) lands as
 * text in cells on every write path: Run to sheet, a scheduled refresh, and the incremental merge,
 * which reads rows back from the sheet and writes them again.
 *
 * The manifest's scopes are checked in test/build/manifest.test.ts (exactly the minimal four); here
 * only docs/deploying.md's whitelist section and the shape of the whitelist entries. The sidebar's escaping
 * is in security-browser.test.ts. Run `npm run build` first: this reads dist/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EDITOR, OWNER, type AddonHarness } from '../support/addon-host';
import {
  ANALYST_PUBLISHER_ID,
  DEMO_API_KEY,
  DEMO_USER,
  HOSTILE_PUBLISHER_ID,
  MEDIUM_PUBLISHER_ID,
  type RequestLogEntry,
} from '../support/emulator';
import { HOUR_MS, MINUTE_MS, startScheduledAddon } from '../support/scheduled-host';
import { HOSTILE_STRINGS } from '../../dev/emulator/model/seed';
import { builtDeployment, distManifest, repoRoot } from '../support/paths';
import { everythingHeld as heldBy, type Holding, placesHolding as placesIn } from '../support/secret-scan';
import { SAVED_REPORTS_INDEX_KEY } from '../../src/core/schedules/saved/saved-report-store';
import { addressPrefixes } from '../../src/core/deployment';

jest.setTimeout(120_000);

const START = '2026-11-20T12:00:00.000Z';
/** A key the emulator does not know, saved by the editor: a secret as much as the real one. */
const WRONG_API_KEY = 'wrong-key-5f0c9e1d7a';
/** A token the editor pastes that the service never issued. */
const UNKNOWN_TOKEN = 'pasted-unknown-token-3b8e41c2';
const UNKNOWN_PUBLISHER_ID = '0123456789abcdef0123456789abcdef';

let h: AddonHarness;
/** Every message a failing entry point or formula showed, with where it came from. */
const messages: Array<{ where: string; message: string }> = [];
/** Every value an entry point returned to its caller (the sidebar, the menu). */
const returned: Array<{ where: string; value: unknown }> = [];
/** Everything the emulator received, kept across clearRequests() calls. */
const apiLog: RequestLogEntry[] = [];

/** The urlFetchWhitelist the build wrote into the pushed manifest, from the deployment config. */
function builtWhitelist(): string[] {
  return (JSON.parse(fs.readFileSync(distManifest, 'utf8')) as { urlFetchWhitelist?: string[] }).urlFetchWhitelist ?? [];
}

function call<T = unknown>(fn: string, args: unknown[] = [], user = OWNER): T {
  try {
    const value = h.host.call(fn, args, { user }) as T;
    returned.push({ where: `${fn} as ${user}`, value });
    return value;
  } catch (error) {
    messages.push({ where: `${fn} as ${user}`, message: (error as Error).message });
    throw error;
  }
}

/** Calls an entry point that must fail, and returns its message. */
function failing(fn: string, args: unknown[] = [], user = OWNER): string {
  expect(() => call(fn, args, user)).toThrow();
  return messages[messages.length - 1]!.message;
}

/** Formulas go one under another in Sheet1; none returns more rows than this. */
const FORMULA_BLOCK_ROWS = 150;
const SHEET_ROWS = 5000;
let formulaRow = 1;
/** Types a formula into a fresh block of Sheet1 and evaluates it as Sheets would. */
function formula(text: string): { value: unknown; values: unknown[][]; error?: string; a1: string } {
  const a1 = `A${formulaRow}`;
  formulaRow += FORMULA_BLOCK_ROWS;
  const result = h.host.evaluateFormula('Sheet1', a1, text, { user: OWNER });
  if (result.error) messages.push({ where: text, message: result.error });
  return { ...result, a1 };
}

async function keepApiLog(): Promise<void> {
  apiLog.push(...(await h.emulator.requests()));
  await h.emulator.clearRequests();
}

async function withFaults<T>(rules: Parameters<AddonHarness['emulator']['setFaults']>[0], work: () => T): Promise<T> {
  await h.emulator.setFaults(rules);
  try {
    return work();
  } finally {
    await h.emulator.clearFaults();
  }
}

/** A fresh rate window: the virtual clock and the frozen emulator clock move together. */
function nextMinutes(): void {
  h.host.advanceTime(2 * MINUTE_MS);
}

// ---- Scanning ----

/** Every text the host holds, with the messages and values the session's entry points gave. */
function everythingHeld(): Holding[] {
  const seen = [
    ...messages.map((m) => ({ place: `message of ${m.where}`, text: m.message })),
    ...returned.map((r) => ({ place: `value returned by ${r.where}`, text: JSON.stringify(r.value) ?? '' })),
  ];
  return heldBy(h.host, [OWNER, EDITOR], seen);
}

function placesHolding(secret: string): string[] {
  return placesIn(everythingHeld(), secret);
}

// ---- The session ----

/** Sheets that Run to sheet and scheduled refreshes filled with API text: every cell of their grids is checked. */
const sheetsWithApiText: string[] = [];

beforeAll(async () => {
  h = await startScheduledAddon(START, { maxColumns: 40, maxRows: SHEET_ROWS });
  h.host.open({ authMode: 'NONE' });
});
afterAll(async () => {
  await h?.close();
});

describe('a session through every entry point', () => {
  it('saves settings with an API key and refuses a bad key without echoing it', () => {
    const state = call<{ settings: Record<string, unknown> }>('saveSettings', [
      {
        reportingBaseUrl: h.emulator.baseUrl,
        recommendationsUrl: h.emulator.recsUrl,
        apiKey: DEMO_API_KEY.key,
        widgetId: DEMO_API_KEY.widgetIds[0],
      },
    ]);
    expect(state.settings).toEqual({
      reportingBaseUrl: h.emulator.baseUrl,
      recommendationsUrl: h.emulator.recsUrl,
      widgetId: 'APP_12',
      hasApiKey: true,
      // Each field's own Engage prefix of the manifest's whitelist; the notices' webhook prefixes follow them there.
      allowedAddresses: addressPrefixes(builtDeployment()),
      localServers: true,
    });
    // A key with a space is refused, and the message names the setting without quoting the key.
    const refused = failing('saveSettings', [{ apiKey: `${DEMO_API_KEY.key} trailing` }]);
    expect(refused).toMatch(/^apiKey: must not contain spaces/);
    expect(refused).not.toContain(DEMO_API_KEY.key);
    call(
      'saveSettings',
      [{ reportingBaseUrl: h.emulator.baseUrl, recommendationsUrl: h.emulator.recsUrl, apiKey: WRONG_API_KEY, widgetId: 'APP_13' }],
      EDITOR,
    );
  });

  it('refuses a wrong password with one sentence, then signs in with the right one', () => {
    expect(failing('signIn', [DEMO_USER.username, `${DEMO_USER.password}-wrong`])).toMatch(/^The user name or password is wrong: /);
    const state = call<{ session: { signedIn: boolean } }>('signIn', [DEMO_USER.username, DEMO_USER.password]);
    expect(state.session.signedIn).toBe(true);
    call('getSidebarState');
    h.host.open({ authMode: 'FULL' });
    call('showSidebar');
  });

  it('runs every kind of formula, hostile publisher included', () => {
    const ok = [
      `=ENGAGE_PUBLISHERS()`,
      `=ENGAGE_WIDGETS("${HOSTILE_PUBLISHER_ID}")`,
      `=ENGAGE_NATIVEAPPS("${MEDIUM_PUBLISHER_ID}")`,
      `=ENGAGE_COUNTRIES()`,
      `=ENGAGE_TIMEZONES()`,
      `=ENGAGE_REPORT("${HOSTILE_PUBLISHER_ID}", "2026-11-01", "2026-11-19", "section", , , , 100)`,
      `=ENGAGE_COMPARE("${HOSTILE_PUBLISHER_ID}", "2026-11-08", "2026-11-14", "previous", "section", , , , 100)`,
      `=ENGAGE_EXPLAIN("${HOSTILE_PUBLISHER_ID}", "2026-11-08", "2026-11-14", "previous", "revenue", "section", 100)`,
      `=ENGAGE_EXTERNALID_REPORT("${HOSTILE_PUBLISHER_ID}", "2026111700", "2026111800", "externalId,widget", , , , 100)`,
      `=ENGAGE_REALTIME_REPORT("${MEDIUM_PUBLISHER_ID}", "2026112000", "2026112010", , , , , 20)`,
      `=ENGAGE_RECOMMENDATIONS("hostile,running", "IAB17", "https://news.example/story", "APP_12")`,
    ];
    for (const text of ok) {
      const result = formula(text);
      expect({ text, error: result.error }).toEqual({ text, error: undefined });
      expect(result.values.length).toBeGreaterThan(1);
    }
    // A formula's strings are values, never formulas: the hostile sponsor of an ad and the hostile sections.
    const cells = h.host.getValues('Sheet1', `A1:Z${formulaRow}`).flat();
    expect(cells).toContain('=HYPERLINK("http://evil.example","x")');
    expect(cells).toContain('=HYPERLINK("http://evil.example","click")');
    expect(cells).toContain('Hostile Herald <img src=x onerror=alert("publisher")>');
  });

  it('answers 403, 404, 429, 504, malformed bodies and lost connections with one sentence each', async () => {
    nextMinutes();
    expect(formula(`=ENGAGE_REPORT("${ANALYST_PUBLISHER_ID}", "2026-11-01", "2026-11-07")`).error).toMatch(/denied access/);
    expect(formula(`=ENGAGE_WIDGETS("${UNKNOWN_PUBLISHER_ID}")`).error).toMatch(/could not find/);
    await withFaults([{ match: 'reports/main', rateLimitMs: 10 * MINUTE_MS, times: 20 }], () => {
      expect(formula(`=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-02", , , , , , , , "429")`).error).toMatch(
        /rate limit/,
      );
    });
    nextMinutes();
    await withFaults([{ match: 'reports/main', status: 504, times: 20 }], () => {
      expect(formula(`=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-03", , , , , , , , "504")`).error).toMatch(
        /took too long/,
      );
    });
    await withFaults([{ match: 'countries', malformedJson: true, times: 5 }], () => {
      expect(formula(`=ENGAGE_COUNTRIES("malformed")`).error).toMatch(/unexpected form/);
    });
    await withFaults([{ match: 'timezones', dropConnection: true, times: 5 }], () => {
      expect(formula(`=ENGAGE_TIMEZONES("dropped")`).error).toMatch(/Could not reach Engage/);
    });
    await withFaults([{ match: 'publishers', malformedJson: true, times: 5 }], () => {
      expect(failing('listPublishers')).toMatch(/unexpected form/);
    });
    nextMinutes();
    await withFaults([{ match: 'reports/main', status: 504, times: 20 }], () => {
      const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day'] };
      expect(failing('runReportToSheet', [request, { type: 'newSheet', sheetName: 'Will fail' }, 'run-fails-504'])).toMatch(
        /took too long/,
      );
    });
    await keepApiLog();
  });

  it('keeps the API key out of every recommendations failure: 401, 400, 504, malformed, lost connection', async () => {
    // The editor's key is unknown to the service: 401.
    expect(failing('previewRecommendations', [{ keywords: 'coffee', contentUrl: 'https://news.example/a' }], EDITOR)).toMatch(
      /did not accept the API key/,
    );
    expect(formula(`=ENGAGE_RECOMMENDATIONS("coffee", "", "https://news.example/a", "APP_99")`).error).toMatch(
      /rejected the request \(HTTP 400/,
    );
    await withFaults([{ match: 'recommendations', status: 504, times: 10 }], () => {
      expect(formula(`=ENGAGE_RECOMMENDATIONS("tea", "", "https://news.example/b", "APP_12")`).error).toMatch(/HTTP 504/);
    });
    await withFaults([{ match: 'recommendations', malformedJson: true, times: 10 }], () => {
      expect(failing('previewRecommendations', [{ keywords: 'juice', contentUrl: 'https://news.example/c' }])).toMatch(/unexpected form/);
    });
    await withFaults([{ match: 'recommendations', dropConnection: true, times: 10 }], () => {
      expect(formula(`=ENGAGE_RECOMMENDATIONS("water", "", "https://news.example/d", "APP_12")`).error).toMatch(/Could not reach/);
    });
    const preview = call<{ documents: Array<{ content: string }> }>('previewRecommendations', [
      { keywords: 'hostile', contentUrl: 'https://news.example/story' },
    ]);
    expect(preview.documents[0]!.content).toBe('<img src=x onerror=alert(1)>');
    await keepApiLog();
  });

  it('runs reports to sheets, inserts a formula and adds a chart', async () => {
    nextMinutes();
    const run = (request: Record<string, unknown>, sheetName: string, runId: string) => {
      const summary = call<{ block: { sheetName: string; rows: number; columns: number } }>('runReportToSheet', [
        request,
        { type: 'newSheet', sheetName },
        runId,
      ]);
      expect(call<{ state: string }>('getRunProgress', [runId]).state).toBe('done');
      return summary;
    };
    const sections = run(
      { kind: 'main', entityId: HOSTILE_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-19', breakdowns: ['section'] },
      'Hostile sections',
      'run-sections-1',
    );
    const widgets = run(
      { kind: 'main', entityId: HOSTILE_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-19', breakdowns: ['widget'] },
      'Hostile widgets',
      'run-widgets-1',
    );
    const ids = run(
      {
        kind: 'externalId',
        entityId: HOSTILE_PUBLISHER_ID,
        fromDate: '2026-11-17 00:00',
        toDate: '2026-11-18 00:00',
        breakdowns: ['externalId', 'widget'],
      },
      'Hostile IDs',
      'run-ids-1',
    );
    for (const s of [sections, widgets, ids]) sheetsWithApiText.push(s.block.sheetName);
    const daily = run(
      { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day'] },
      'Daily',
      'run-daily-1',
    );
    call('addChart', [daily.block]);
    call('getSheetContext');
    call('refreshAll');
    h.host.setActiveRange('Sheet1', 'AB1');
    const inserted = call<{ formula: string }>('insertFormula', [
      { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day'] },
    ]);
    expect(inserted.formula).toMatch(/^=ENGAGE_REPORT\(/);
    // The dashboard's title carries the publisher's hostile name: as text, never a formula.
    const dashboard = call<{ sheetName: string }>('createDashboard', [HOSTILE_PUBLISHER_ID]);
    const title = h.host.getCell(dashboard.sheetName, 'A1');
    expect([title.value, title.formula]).toEqual(['Engage dashboard: Hostile Herald <img src=x onerror=alert("publisher")>', '']);
    // The installation check writes the addresses it reached and what it saw: scanned with the rest.
    call('checkInstallation');
    expect(h.host.getValues('Engage installation check', 'A1:A1')).toEqual([['Check']]);
    await keepApiLog();
  });

  it('saves schedules, runs one now and lets the hourly trigger refresh them, incrementally too', async () => {
    nextMinutes();
    const save = (report: Record<string, unknown>) =>
      call<{ reports: Array<{ id: string; name: string }> }>('saveSchedule', [report]).reports.find((r) => r.name === report.name)!.id;
    const merged = save({
      name: 'Hostile daily sections',
      kind: 'main',
      entityId: HOSTILE_PUBLISHER_ID,
      period: { type: 'lastDays', days: 7 },
      breakdowns: ['day', 'section'],
      target: { sheetName: 'Scheduled sections', cell: 'B2' },
      schedule: { every: 'hour' },
      incremental: true,
    });
    save({
      name: 'Hostile IDs hourly',
      kind: 'externalId',
      entityId: HOSTILE_PUBLISHER_ID,
      period: { type: 'lastHours', hours: 24 },
      breakdowns: ['externalId'],
      target: { sheetName: 'Scheduled IDs', cell: 'A1' },
      schedule: { every: 'hour' },
    });
    const now = call<{ summary: { refreshed: string[] } }>('runScheduleNow', [merged]);
    expect(now.summary.refreshed).toEqual([merged]);
    // The trigger's next runs: a full refresh of the IDs, and the incremental merge of the sections.
    h.host.advanceTime(HOUR_MS);
    h.host.advanceTime(HOUR_MS);
    const list = call<{ reports: Array<{ name: string; status: { rows?: number; failures: number; lastError?: unknown } }> }>(
      'listSchedules',
    );
    for (const view of list.reports)
      expect({ name: view.name, rows: (view.status.rows ?? 0) > 0, failures: view.status.failures }).toEqual({
        name: view.name,
        rows: true,
        failures: 0,
      });
    sheetsWithApiText.push('Scheduled sections', 'Scheduled IDs');
    // The trigger's second run of the sections was incremental: it asked only for the last days.
    const sectionRuns = (await h.emulator.requests()).filter(
      (r) => r.query.entityId === HOSTILE_PUBLISHER_ID && r.query.breakdowns === 'day,section',
    );
    expect(new Set(sectionRuns.map((r) => r.query.fromDate)).size).toBeGreaterThanOrEqual(2);
    call('pauseSchedule', [merged, true]);
    call('pauseSchedule', [merged, false]);
    await keepApiLog();
  });

  it('uses a pasted token, and refuses an unknown one with 401, keeping none of it', async () => {
    h.host.advanceTime(HOUR_MS); // a new login hour for the demo user
    const issued = await h.emulator.login(DEMO_USER.username, DEMO_USER.password);
    call('signInWithToken', [issued], EDITOR);
    expect(call<Array<{ id: string }>>('listPublishers', [], EDITOR)).toHaveLength(3);
    // An unknown token is checked with Engage (a 401) and not kept: the editor keeps the issued one.
    expect(failing('signInWithToken', [UNKNOWN_TOKEN], EDITOR)).toMatch(/^Engage did not accept this token, so it was not saved/);
    expect(call<Array<{ id: string }>>('listPublishers', [], EDITOR)).toHaveLength(3);
    expect(failing('signInWithToken', [`${UNKNOWN_TOKEN} with spaces`], EDITOR)).not.toContain(UNKNOWN_TOKEN);
    call('signOut', [], EDITOR);
    await keepApiLog();
  });

  it('after the token is revoked, formulas, Run now and the trigger all say "sign in again" and nothing more', async () => {
    nextMinutes();
    await h.emulator.revoke(DEMO_USER.username);
    expect(formula(`=ENGAGE_PUBLISHERS("revoked")`).error).toMatch(/sign in again/);
    const id = call<{ reports: Array<{ id: string }> }>('listSchedules').reports[0]!.id;
    call('runScheduleNow', [id]);
    h.host.advanceTime(HOUR_MS);
    expect(call<{ reports: Array<{ status: { needsSignIn: boolean } }> }>('listSchedules').reports.every((r) => r.status.needsSignIn)).toBe(
      true,
    );
    call('getSidebarState');
    call('signOutFromMenu');
    call('signOut');
    call('getSidebarState');
    // A login answered with a truncated body (that held a fresh token) is refused without quoting it.
    await withFaults([{ match: 'login', malformedJson: true, times: 1 }], () => {
      expect(failing('signIn', [DEMO_USER.username, DEMO_USER.password])).toMatch(/GET \/login in an unexpected form/);
    });
    await keepApiLog();
  });
});

describe("no secret reaches anything but the user's own properties", () => {
  let tokens: string[];
  let keys: string[];
  let basicCredentials: string[];

  beforeAll(async () => {
    await keepApiLog();
    tokens = [...new Set(apiLog.map((r) => r.headers['svc-token-v1']).filter((t): t is string => typeof t === 'string'))];
    keys = [...new Set(apiLog.map((r) => r.query.key).filter((k): k is string => typeof k === 'string'))];
    basicCredentials = [
      ...new Set(
        apiLog
          .map((r) => r.headers.authorization)
          .filter((a): a is string => typeof a === 'string')
          .map((a) => a.replace(/^basic\s+/i, '')),
      ),
    ];
  });

  it('saw the secrets of the session on the wire: two issued tokens and the unknown one, both keys, the Basic credentials', () => {
    expect(tokens).toContain(UNKNOWN_TOKEN);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    expect(keys.sort()).toEqual([DEMO_API_KEY.key, WRONG_API_KEY].sort());
    expect(basicCredentials.map((b) => Buffer.from(b, 'base64').toString('utf8'))).toContain(`${DEMO_USER.username}:${DEMO_USER.password}`);
  });

  it('the password, plain or encoded, and the Basic credentials are held nowhere', () => {
    expect(placesHolding(DEMO_USER.password)).toEqual([]);
    expect(placesHolding(`${DEMO_USER.password}-wrong`)).toEqual([]);
    for (const credentials of basicCredentials) expect(placesHolding(credentials)).toEqual([]);
    expect(placesHolding(`${DEMO_USER.username}:${DEMO_USER.password}`)).toEqual([]);
  });

  it('no token, plain or encoded, is held anywhere after signing out', () => {
    for (const token of tokens) expect({ token, places: placesHolding(token) }).toEqual({ token, places: [] });
  });

  it("API keys are held only in their owner's settings, which the scan does see", () => {
    expect(placesHolding(DEMO_API_KEY.key)).toEqual([`user properties of ${OWNER}: engage.settings`]);
    expect(placesHolding(WRONG_API_KEY)).toEqual([`user properties of ${EDITOR}: engage.settings`]);
  });

  it('document and script properties hold the schedules and nothing from the user store', () => {
    expect(h.host.properties('script', OWNER).size).toBe(0);
    expect(h.host.properties('document', OWNER).has(SAVED_REPORTS_INDEX_KEY)).toBe(true);
    for (const key of h.host.properties('document', OWNER).keys()) expect(key).not.toMatch(/token|settings|password|key$/i);
  });

  it('the scan covered a session that failed in every listed way', () => {
    const all = messages.map((m) => m.message).join('\n');
    for (const expected of [
      /did not accept the sign-in/,
      /denied access/,
      /could not find/,
      /rate limit/,
      /took too long/,
      /unexpected form/,
      /Could not reach/,
      /did not accept the API key/,
      /HTTP 400/,
      /sign in again/,
    ]) {
      expect(all).toMatch(expected);
    }
    expect(h.host.state.caches.allEntries().length).toBeGreaterThan(0);
    // The scheduled runs that failed told the owner by email: those notices were scanned too.
    expect(h.host.mails.map((m) => String(m.subject))).toContainEqual(expect.stringMatching(/could not be refreshed/));
    // Cached formula results were read decompressed: the rows they hold were scanned too.
    expect(
      everythingHeld()
        .filter((x) => x.place.includes('compressed value'))
        .map((x) => x.text)
        .join('\n'),
    ).toMatch(/"revenue"/);
    expect(h.host.logText()).toMatch(/scheduled refresh/);
  });
});

/** The A1 address of row r, column c (0-based) of a range starting at `range`'s first cell, such as "B2". */
function cellAt(range: string, r: number, c: number): string {
  const [, letters, row] = /^([A-Z]+)(\d+)/.exec(range)!;
  let column = [...letters!].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) + c;
  let name = '';
  for (; column > 0; column = Math.floor((column - 1) / 26)) name = String.fromCharCode(65 + ((column - 1) % 26)) + name;
  return `${name}${Number(row) + r}`;
}

describe('formula-injection strings from the API land as text', () => {
  it('every cell written from API text holds a value, never a formula, and keeps the text exactly', () => {
    const seen = new Set<string>();
    for (const sheet of sheetsWithApiText) {
      const values = h.host.getValues(sheet);
      values.forEach((row, r) => {
        row.forEach((value, c) => {
          if (value === '') return;
          const a1 = cellAt('A1', r, c);
          const cell = h.host.getCell(sheet, a1);
          expect({ sheet, a1, formula: cell.formula }).toEqual({ sheet, a1, formula: '' });
          if (typeof value === 'string') seen.add(value);
        });
      });
    }
    const texts = [...seen];
    // Sections as given, from Run to sheet and from the incremental merge, which writes them back.
    for (const hostile of HOSTILE_STRINGS) expect(texts).toContain(hostile);
    // External IDs: each hostile string followed by an article number, still text (-2+3... is no number).
    for (const hostile of HOSTILE_STRINGS) expect(texts.some((t) => t.startsWith(hostile) && /\d+$/.test(t) && t !== hostile)).toBe(true);
    // Widget names with a formula and markup.
    expect(texts).toContain('=1+1');
    expect(texts).toContain('<b>Bold</b> Feed');
  });

  it('the incremental merge kept the hostile sections as text after reading them back', () => {
    // The block starts at B2.
    const values = h.host
      .getValues('Scheduled sections')
      .slice(1)
      .map((row) => row.slice(1));
    const header = values[0]!.map(String);
    const name = header.indexOf('section.name');
    expect(name).toBeGreaterThanOrEqual(0);
    const names = values
      .slice(1)
      .map((row) => row[name])
      .filter((v) => v !== '');
    expect(names.length).toBeGreaterThan(HOSTILE_STRINGS.length);
    for (const v of names) expect(HOSTILE_STRINGS as readonly unknown[]).toContain(v);
  });
});

describe('the urlFetchWhitelist for the real service', () => {
  it('lists https prefixes with a full domain and a non-empty path ending in /, one of them the /engage/v2/ base', () => {
    const entries = builtWhitelist();
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) {
      const url = new URL(entry);
      expect({
        entry,
        protocol: url.protocol,
        dotted: url.hostname.includes('.'),
        path: url.pathname.length > 0 && entry.endsWith('/'),
        query: url.search + url.hash,
      }).toEqual({ entry, protocol: 'https:', dotted: true, path: true, query: '' });
    }
    expect(entries.some((e) => /\/engage\/v2\/$/.test(e))).toBe(true);
  });

  it('is documented in docs/deploying.md: what to set, for which addresses, and why the emulator needs none', () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'docs', 'deploying.md'), 'utf8');
    expect(readme).toMatch(/`urlFetchWhitelist` is required for a published Editor add-on/);
    expect(readme).toMatch(/ending in `\/engage\/v2\/`/);
    expect(readme).toMatch(/recommendations endpoint's address/);
    expect(readme).toMatch(/impression pixel is fired by the\s+browser, so it needs no entry/);
  });
});
