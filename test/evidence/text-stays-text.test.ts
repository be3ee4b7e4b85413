/**
 * Evidence (issue 21, "Text stays text"): names that Sheets reads as values when they are typed,
 * `1/2`, `March 2024`, `12:30`, `$5`, `(7)`, `50%`, `1 1/2`, `TRUE` and `=1+2`, come back from the
 * cells exactly as the API sent them (getValues returns the identical strings, getFormulas no formula)
 * through every path that writes report data, in this order: (1) Run to sheet (sections, widgets,
 * referrers, several publishers, a comparison, external IDs, and an existing sheet whose cells a user
 * formatted as plain text), (2) scheduled refreshes, one incremental and one upserted, merged a day
 * later with the rows they read back from the sheet, and one appended, which writes those rows again,
 * (3) the dashboard, whose formulas return them.
 *
 * The emulator's typed-names user sees two publishers named `1/2` and `(7)` whose sections, widgets,
 * referrers and external IDs are these names (dev/emulator/model/seed.ts, TYPED_LOOKING_NAMES). Each
 * sequence runs in the host's reading of the environment (the kind one, or the strict one under
 * GAS_HOST_STRICT=1), and again with the strict switch `textParsedAsTyped` forced on, in en_US and in
 * de_DE (a comma-decimal locale). The last part shows that the host's strict reading does change these
 * names when they are written as they are, so this evidence can fail.
 */
import { createGasHost } from '../../dev/gas-host';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { TYPED_LOOKING_NAMES, TYPED_NAMES_PUBLISHER_ID, TYPED_NAMES_SECOND_PUBLISHER_ID, TYPED_NAMES_USER } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(240_000);

/** Friday 20 November 2026, 13:00 in Berlin (the harness's zone). */
const START = '2026-11-20T12:00:00.000Z';
const ZONE = 'Europe/Berlin';
const NAMES: readonly string[] = TYPED_LOOKING_NAMES;
const PUBLISHER_NAMES = ['1/2', '(7)'];
const BOTH = `${TYPED_NAMES_PUBLISHER_ID},${TYPED_NAMES_SECOND_PUBLISHER_ID}`;
const PLATFORM_NAMES = ['Desktop', 'Smartphone', 'Tablet'];

type Cell = string | number | boolean | Date;

/** A cell of API text that did not come back as the API's string. */
interface Changed {
  sheet: string;
  a1: string;
  value: unknown;
  formula: string;
}

function a1Of(row: number, column: number): string {
  let name = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return `${name}${row}`;
}

/** Columns of API text by their header: an entity's id and name, the publisher's, an external ID. */
const isTextHeader = (header: unknown) =>
  typeof header === 'string' && (/\.(id|name)(\.previous)?$/.test(header) || header === 'externalId');

interface BlockCheck {
  changed: Changed[];
  /** Every string of a `.name` column, once each. */
  names: Set<string>;
  externalIds: string[];
  rows: number;
  /** The calendar days (yyyy-mm-dd, in the harness's zone) of a `day` column, once each. */
  days: Set<string>;
}

/**
 * Reads the block whose header row is at (row, column), 1-based, down to its first empty row, and
 * finds every cell of a text column that is not a string or holds a formula, and every cell of the
 * block that holds a formula (the anchor of a dashboard's formula excepted).
 */
function checkBlock(h: AddonHarness, sheet: string, row: number, column: number, anchorFormula = false): BlockCheck {
  const allowed = new Set([...NAMES, ...PUBLISHER_NAMES, ...PLATFORM_NAMES]);
  const values = h.host.getValues(sheet) as Cell[][];
  const header = values[row - 1]!.slice(column - 1);
  const width = header.indexOf('') < 0 ? header.length : header.indexOf('');
  const check: BlockCheck = { changed: [], names: new Set(), externalIds: [], rows: 0, days: new Set() };
  for (let r = row; r <= values.length; r++) {
    const cells = values[r - 1]!.slice(column - 1, column - 1 + width);
    if (r > row && cells.every((v) => v === '')) break;
    const total = cells[0] === 'Total';
    if (r > row && !total) check.rows++;
    cells.forEach((value, c) => {
      const a1 = a1Of(r, column + c);
      const { formula } = h.host.getCell(sheet, a1);
      const anchor = anchorFormula && r === row && c === 0;
      if (formula !== '' && !anchor) check.changed.push({ sheet, a1, value, formula });
      if (r > row && header[c] === 'day' && value instanceof Date)
        check.days.add(new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(value));
      if (r === row || total || !isTextHeader(header[c])) return;
      if (typeof value !== 'string' || value === '') {
        check.changed.push({ sheet, a1, value: value instanceof Date ? `Date ${value.toISOString()}` : value, formula });
        return;
      }
      // A string that is not the API's: an apostrophe kept, say.
      const name = String(header[c]).includes('.name');
      const externalId = header[c] === 'externalId';
      if ((name && !allowed.has(value)) || (externalId && !NAMES.some((n) => value.startsWith(n) && /^\d+$/.test(value.slice(n.length))))) {
        check.changed.push({ sheet, a1, value, formula });
        return;
      }
      if (name) check.names.add(value);
      if (externalId) check.externalIds.push(value);
    });
  }
  return check;
}

/** The header cell's position of a block on a sheet: the first cell holding `header`. */
function find(h: AddonHarness, sheet: string, header: string): { row: number; column: number } {
  const values = h.host.getValues(sheet) as Cell[][];
  for (let r = 0; r < values.length; r++) {
    const c = values[r]!.indexOf(header);
    if (c >= 0) return { row: r + 1, column: c + 1 };
  }
  throw new Error(`no ${header} on ${sheet}`);
}

const CONFIGURATIONS: Array<{ label: string; options: Record<string, unknown> }> = [
  { label: "the host's reading of the environment", options: {} },
  { label: 'text parsed as typed, en_US', options: { strict: { textParsedAsTyped: true }, locale: 'en_US' } },
  { label: 'text parsed as typed, de_DE', options: { strict: { textParsedAsTyped: true }, locale: 'de_DE' } },
];

describe.each(CONFIGURATIONS)('API text comes back exactly as written: $label', ({ options }) => {
  let h: AddonHarness;
  const call = <T>(fn: string, args: unknown[] = []) => h.host.call(fn, args, { user: OWNER }) as T;

  beforeAll(async () => {
    h = await startScheduledAddon(START, options);
    h.configure();
    call('signIn', [TYPED_NAMES_USER.username, TYPED_NAMES_USER.password]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('(1) Run to sheet: sections, widgets, referrers, several publishers, a comparison, external IDs, a plain-text sheet', () => {
    const period = { kind: 'main', fromDate: '2026-11-01', toDate: '2026-11-19' };
    const runs: Array<{ sheet: string; request: Record<string, unknown>; existing?: boolean }> = [
      { sheet: 'Sections', request: { ...period, entityId: TYPED_NAMES_PUBLISHER_ID, breakdowns: ['section'] } },
      { sheet: 'Widgets', request: { ...period, entityId: TYPED_NAMES_PUBLISHER_ID, breakdowns: ['widget'] } },
      { sheet: 'Referrers', request: { ...period, entityId: TYPED_NAMES_PUBLISHER_ID, breakdowns: ['referrer', 'platform'] } },
      { sheet: 'Both publishers', request: { ...period, entityId: 'all', breakdowns: ['section'] } },
      {
        sheet: 'Compared',
        request: { ...period, fromDate: '2026-11-13', entityId: BOTH, breakdowns: ['section'], compareWith: 'previous' },
      },
      {
        sheet: 'External IDs',
        request: {
          kind: 'externalId',
          entityId: TYPED_NAMES_PUBLISHER_ID,
          fromDate: '2026-11-19 00:00',
          toDate: '2026-11-20 00:00',
          breakdowns: ['externalId', 'widget'],
        },
      },
      // A sheet whose cells its user formatted as plain text (@) before: what Sheets does there with a
      // leading apostrophe, or with "=...", is not documented; the add-on must not depend on it.
      { sheet: 'Plain text', request: { ...period, entityId: TYPED_NAMES_PUBLISHER_ID, breakdowns: ['section'] }, existing: true },
    ];
    const plain = h.host.state.spreadsheet.addSheet('Plain text', undefined, { rows: 1000, columns: 26 });
    for (let r = 1; r <= 200; r++) for (let c = 1; c <= 26; c++) h.host.state.spreadsheet.mutableCell(plain, r, c).numberFormat = '@';

    const changed: Changed[] = [];
    const namesBySheet: Record<string, string[]> = {};
    const expectedNames: Record<string, string[]> = {};
    for (const [i, run] of runs.entries()) {
      const target = run.existing ? { type: 'existingSheet', sheetName: run.sheet } : { type: 'newSheet', sheetName: run.sheet };
      const summary = call<{ block: { sheetName: string }; dataRows: number }>('runReportToSheet', [run.request, target, `names-${i}`]);
      expect([run.sheet, summary.block.sheetName, summary.dataRows > 0]).toEqual([run.sheet, run.sheet, true]);
      const check = checkBlock(h, run.sheet, 1, 1);
      changed.push(...check.changed);
      if (run.sheet === 'External IDs') {
        // Each ID is a name followed by an article number ("1/23", "$54", "=1+27"...), text all the same.
        namesBySheet[run.sheet] = [...new Set(check.externalIds.map((id) => NAMES.find((n) => id.startsWith(n))!))].sort();
        expectedNames[run.sheet] = [...NAMES].sort();
        continue;
      }
      namesBySheet[run.sheet] = [...check.names].sort();
      const publishers = run.sheet === 'Both publishers' || run.sheet === 'Compared' ? PUBLISHER_NAMES : [];
      const platforms = run.sheet === 'Referrers' ? PLATFORM_NAMES : [];
      expectedNames[run.sheet] = [...new Set([...NAMES, ...publishers, ...platforms])].sort();
    }
    // Not one cell of API text changed (its count is what a reading that parses text would have changed)...
    expect(changed).toEqual([]);
    // ...and each sheet holds every name, exactly as the API sent it (external IDs: each a name and a number).
    expect(namesBySheet).toEqual(expectedNames);
  });

  it('(2) scheduled refreshes: an incremental one and an upsert merged a day later with the rows they read back, and an append', async () => {
    const save = (report: Record<string, unknown>) =>
      call<{ reports: Array<{ id: string; name: string }> }>('saveSchedule', [report]).reports.find((r) => r.name === report.name)!.id;
    const daily = { every: 'day', hour: 12 };
    const merged = save({
      name: 'Sections by day',
      kind: 'main',
      entityId: TYPED_NAMES_PUBLISHER_ID,
      period: { type: 'lastDays', days: 7 },
      breakdowns: ['day', 'section'],
      target: { sheetName: 'Scheduled sections', cell: 'B2' },
      schedule: daily,
      incremental: true,
    });
    // Upserted by publisher and widget: a key read back that no longer equalled the API's would be kept twice.
    const widgets = save({
      name: 'Widgets of both',
      kind: 'main',
      entityId: 'all',
      period: { type: 'lastDays', days: 7, endingYesterday: true },
      breakdowns: ['widget'],
      target: { sheetName: 'Scheduled widgets', cell: 'A1' },
      schedule: daily,
      writeMode: 'upsert',
    });
    // Appended: each run writes the rows it reads back again, under a snapshotAt.
    const appended = save({
      name: 'External IDs appended',
      kind: 'externalId',
      entityId: TYPED_NAMES_PUBLISHER_ID,
      period: { type: 'lastHours', hours: 24 },
      breakdowns: ['externalId'],
      target: { sheetName: 'Appended IDs', cell: 'A1' },
      schedule: daily,
      writeMode: 'append',
    });
    for (const id of [merged, widgets, appended])
      expect(call<{ summary: { refreshed: string[] } }>('runScheduleNow', [id]).summary.refreshed).toEqual([id]);
    const first = checkBlock(h, 'Scheduled sections', 2, 2);
    const firstWidgets = checkBlock(h, 'Scheduled widgets', 1, 1);
    const firstIds = checkBlock(h, 'Appended IDs', 1, 1);
    await h.emulator.clearRequests();

    // A day later, the hourly trigger refreshes them all, merging and appending with what the sheet holds.
    h.host.advanceTime(24 * HOUR_MS + 5 * MINUTE_MS);
    const sections = checkBlock(h, 'Scheduled sections', 2, 2);
    const widgetBlock = checkBlock(h, 'Scheduled widgets', 1, 1);
    const idBlock = checkBlock(h, 'Appended IDs', 1, 1);
    expect([...first.changed, ...sections.changed, ...widgetBlock.changed, ...firstWidgets.changed, ...idBlock.changed]).toEqual([]);
    // The same widgets, each once; the first run's external IDs, read back and written again, then the second's.
    expect(widgetBlock.rows).toBe(firstWidgets.rows);
    expect(firstIds.externalIds.length).toBeGreaterThan(0);
    expect(idBlock.externalIds.slice(0, firstIds.externalIds.length)).toEqual(firstIds.externalIds);
    expect(idBlock.rows).toBeGreaterThan(firstIds.rows);

    const list = call<{ reports: Array<{ name: string; status: { rows?: number; failures: number } }> }>('listSchedules');
    for (const view of list.reports)
      expect({ name: view.name, rows: (view.status.rows ?? 0) > 0, failures: view.status.failures }).toEqual({
        name: view.name,
        rows: true,
        failures: 0,
      });
    const sectionRequests = (await h.emulator.requests()).filter((r) => r.query.breakdowns === 'day,section');
    // Incremental: it asked only for the last days (the 3 before the last one fetched, and after), not the 7.
    expect(sectionRequests.map((r) => r.query.fromDate)).toEqual(['20261117']);
    // The merged block holds the 7 days to Saturday 21 November, more than the 5 fetched: the rows of
    // the 15th and 16th came back from the sheet, compared and written again.
    expect([...sections.days].sort()).toEqual([
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
    ]);
    expect(sections.rows).toBeGreaterThan(7 * 5);
    expect([...sections.names].sort()).toEqual([...NAMES].sort());
    expect([...widgetBlock.names].sort()).toEqual([...new Set([...NAMES, ...PUBLISHER_NAMES])].sort());
  });

  it('(3) the dashboard: its title and the names its formulas return', async () => {
    const created = call<{ sheetName: string }>('createDashboard', [BOTH]);
    const results = await h.host.recalculate(undefined, { user: OWNER });
    for (const r of results) expect([r.a1, r.error]).toEqual([r.a1, undefined]);
    const title = h.host.getCell(created.sheetName, 'A1');
    expect([title.value, title.formula]).toEqual(['Engage dashboard: 2 publishers: 1/2, (7)', '']);
    const at = find(h, created.sheetName, 'widget.id');
    // The widgets block of several publishers starts with their id and name.
    const widgetBlock = checkBlock(h, created.sheetName, at.row, at.column - 2, true);
    expect([...widgetBlock.names].sort()).toEqual([...new Set([...NAMES, ...PUBLISHER_NAMES])].sort());
    expect(widgetBlock.changed).toEqual([]);
  });
});

describe('the strict reading would change these names if they were written as they are', () => {
  const BUNDLE = `
function writeAsTheyAre(names) { SpreadsheetApp.getActiveSheet().getRange(1, 1, names.length, 1).setValues(names.map(function (n) { return [n]; })); }
function writeWithApostrophe(names) { SpreadsheetApp.getActiveSheet().getRange(1, 2, names.length, 1).setValues(names.map(function (n) { return ["'" + n]; })); }
function readBack(column, count) {
  var range = SpreadsheetApp.getActiveSheet().getRange(1, column, count, 1);
  var formulas = range.getFormulas();
  return range.getValues().map(function (row, i) { return { value: row[0] instanceof Date ? 'a Date' : row[0], formula: formulas[i][0] }; });
}`;
  /** The names that did not come back as written, each with what the cell held instead. */
  const changedBy = (locale: string, fn: string, column: number): Array<[string, { value: unknown; formula: string }]> => {
    const host = createGasHost({ strict: { textParsedAsTyped: true }, locale });
    host.load(BUNDLE);
    host.call(fn, [NAMES]);
    const back = host.call('readBack', [column, NAMES.length]) as Array<{ value: unknown; formula: string }>;
    return NAMES.map((name, i): [string, { value: unknown; formula: string }] => [name, back[i]!]).filter(
      ([name, cell]) => cell.value !== name || cell.formula !== '',
    );
  };

  it('en_US: written as they are, all nine change (dates, a time, numbers, a boolean, a formula); with the apostrophe none', () => {
    const changed = changedBy('en_US', 'writeAsTheyAre', 1);
    expect(changed.map(([name]) => name)).toEqual([...NAMES]);
    expect(Object.fromEntries(changed)).toMatchObject({
      '1/2': { value: 'a Date' },
      'March 2024': { value: 'a Date' },
      '12:30': { value: 'a Date' },
      $5: { value: 5 },
      '(7)': { value: -7 },
      '50%': { value: 0.5 },
      '1 1/2': { value: 1.5 },
      TRUE: { value: true },
      '=1+2': { formula: '=1+2' },
    });
    expect(changedBy('en_US', 'writeWithApostrophe', 2)).toEqual([]);
  });

  it('de_DE: written as they are, all but "$5" change; with the apostrophe none', () => {
    expect(changedBy('de_DE', 'writeAsTheyAre', 1).map(([name]) => name)).toEqual(NAMES.filter((n) => n !== '$5'));
    expect(changedBy('de_DE', 'writeWithApostrophe', 2)).toEqual([]);
  });

  it('the kind reading changes only TRUE and the formula: why no test saw the others', () => {
    const host = createGasHost({ strict: { textParsedAsTyped: false } });
    host.load(BUNDLE);
    host.call('writeAsTheyAre', [NAMES]);
    const back = host.call('readBack', [1, NAMES.length]) as Array<{ value: unknown; formula: string }>;
    expect(NAMES.filter((name, i) => back[i]!.value !== name || back[i]!.formula !== '')).toEqual(['TRUE', '=1+2']);
  });
});
