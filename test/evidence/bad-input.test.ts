/**
 * Evidence for issue 8, bad input: a table of bad arguments for every ENGAGE_* custom function and
 * every sidebar server function that takes input, run through the built bundle in the local host
 * against a fresh emulator. For each case the test asserts three things: the message names the
 * argument at fault and states the rule; no request reached the emulator (and the add-on made no
 * UrlFetch at all); and nothing changed in the spreadsheet (every sheet's cells, formulas, notes and
 * charts, the sheets themselves, named ranges, triggers), in document properties or in the users'
 * own properties. Custom functions are typed into a cell as a user would; the only cell that may
 * differ afterwards is the formula's own, holding #ERROR! and nothing spilled. Issue 23 adds every
 * filter whose operator or value does not fit its field's type and every misspelt name (breakdown,
 * metric, operator, filter or sort field, each with its "did you mean"), in formulas, the builder and
 * saved reports; and a table that holds the README's word that only a publisher ID the user may not
 * see reaches Engage.
 *
 * Free text that is data rather than an instruction (keywords, a `contains` filter value, a saved
 * report's name) may hold `<script>` or `=HYPERLINK(...)`: the security suite proves such text stays
 * inert. Here such arguments are refused only for what makes them unusable (control characters,
 * lengths no request can carry).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/paths';
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_API_KEY } from '../support/emulator';
import { taggingProblems } from '../../src/core/builder/tagging-snippet';
import { BUILDER_FIELD_LABELS } from '../../src/core/builder/builder-request';
import { FETCH_COUNT_KEY } from '../../src/core/api/transport/daily-quota';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';

const NOW = '2026-11-20T12:00:00Z';
const P = BIG_PUBLISHER_ID;
const WIDGET = 'APP_12';

/** Strings a careless add-on would evaluate, render or pass on: each must be refused where text of its kind is not data. */
const INJECTIONS: Array<[string, string]> = [
  ['a formula', '=HYPERLINK("https://evil.example","click")'],
  ['a script element', '<script>alert(1)</script>'],
  ['an SQL fragment', "'; DROP TABLE reports; --"],
  ['a very long text', 'x'.repeat(5000)],
  ['control characters', 'ab\u0000\u0007\u001bcd'],
  ['unicode look-alikes', '\u202eдата😀'],
];
const LONG_111 = 'e'.repeat(111);

type CellInput = string | number | boolean | Date;
/** A formula argument: a literal, a date cell, a range of cells, or omitted (undefined). */
type Arg = CellInput | undefined | { range: CellInput[][] };

interface FormulaCase {
  title: string;
  fn: string;
  args: Arg[];
  /** The argument the message must name. */
  argument: string;
  /** The rule the message must state. */
  rule: RegExp;
}

interface CallCase {
  title: string;
  fn: string;
  /** Arguments, or a function of the fixture's ids. */
  args: unknown[] | (() => unknown[]);
  argument: string;
  rule: RegExp;
  user?: string;
  /** Extra checks on the message (secrets not echoed, ...). */
  also?: (message: string) => void;
}

let h: AddonHarness;
/** A saved report of the owner's and one of the editor's, for the id-taking schedule functions. */
let ownerReportId = '';
let editorReportId = '';
/** An appending report of the owner's that has kept rows in the sheet Kept. */
let appendReportId = '';

function savedReport(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Daily revenue',
    kind: 'main',
    entityId: P,
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    target: { sheetName: 'Data', cell: 'H1' },
    schedule: { every: 'day', hour: 6 },
    ...extra,
  };
}

const request = (extra: Record<string, unknown> = {}) => ({
  kind: 'main',
  entityId: P,
  fromDate: '2026-11-01',
  toDate: '2026-11-07',
  breakdowns: ['day'],
  ...extra,
});
const hourly = (kind: string, extra: Record<string, unknown> = {}) => ({
  kind,
  entityId: P,
  fromDate: '2026-11-20 00:00',
  toDate: '2026-11-20 10:00',
  breakdowns: ['externalId'],
  ...extra,
});
const TARGET = { type: 'newSheet', sheetName: 'Report' };
const RUN_ID = 'run-bad-input-1';

beforeAll(async () => {
  h = await startAddon({ clock: 'virtual', startTime: new Date(NOW), sheets: ['Data', 'Args', 'F'], maxColumns: 30, maxRows: 200 });
  await h.emulator.setClock(NOW);
  h.signIn();
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key, widgetId: WIDGET }], { user: OWNER });
  h.configure(EDITOR);
  // Data a bad input must leave alone: values, a formula's text, a note-free header.
  h.host.setCell('Data', 'A1', 'day');
  h.host.setCell('Data', 'B1', 'revenue');
  h.host.setCell('Data', 'A2', new Date('2026-11-01T00:00:00Z'));
  h.host.setCell('Data', 'B2', 12.5);
  h.host.setCell('Data', 'C1', '\'=HYPERLINK("x")');
  ownerReportId = (h.host.call('saveSchedule', [savedReport()], { user: OWNER }) as { reports: Array<{ id: string }> }).reports[0]!.id;
  const editorList = h.host.call('saveSchedule', [savedReport({ name: 'Editor report' })], { user: EDITOR }) as {
    reports: Array<{ id: string; name: string }>;
  };
  editorReportId = editorList.reports.find((r) => r.name === 'Editor report')!.id;
  const kept = savedReport({ name: 'Kept rows', writeMode: 'append', target: { sheetName: 'Kept', cell: 'A1' }, paused: true });
  const keptList = h.host.call('saveSchedule', [kept], { user: OWNER }) as { reports: Array<{ id: string; name: string }> };
  appendReportId = keptList.reports.find((r) => r.name === 'Kept rows')!.id;
  h.host.call('runScheduleNow', [appendReportId], { user: OWNER });
  h.host.setActiveRange('Data', 'E5');
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.emulator.clearRequests();
});

// ---------------------------------------------------------------- observing the spreadsheet and the stores

function shown(value: unknown): unknown {
  return value instanceof Date || Object.prototype.toString.call(value) === '[object Date]' ? `date:${(value as Date).getTime()}` : value;
}

/** Everything a bad input must not change, as plain data; `skip` leaves out one cell ("sheet!row:column"). */
function snapshot(skip?: string): unknown {
  const state = h.host.state;
  const sheets = state.spreadsheet.sheets.map((sheet) => ({
    name: sheet.name,
    hidden: sheet.hidden === true,
    size: [sheet.maxRows, sheet.maxColumns, sheet.frozenRows, sheet.frozenColumns],
    charts: JSON.stringify(sheet.charts),
    cells: [...sheet.cells]
      .filter(([key, c]) => `${sheet.name}!${key}` !== skip && (c.value !== '' || c.formula || c.note || c.numberFormat || c.error))
      .map(([key, c]) => [key, shown(c.value), c.formula ?? '', c.note ?? '', c.numberFormat ?? '', c.error ?? ''])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  }));
  // The user's count of URL fetches is compared on its own (fetchCount): it rises with every request sent.
  const props = (scope: 'user' | 'document' | 'script', user?: string) =>
    [...h.host.properties(scope, user).entries()].filter(([key]) => key !== FETCH_COUNT_KEY).sort();
  return {
    sheets,
    namedRanges: [...state.spreadsheet.namedRanges.entries()].map(([name, r]) => [name, JSON.stringify(r)]),
    triggers: h.host.triggers.map((t) => [t.id, t.user, t.handlerFunction]),
    document: props('document'),
    script: props('script'),
    owner: props('user', OWNER),
    editor: props('user', EDITOR),
  };
}

/** URL fetches counted against the owner's daily quota so far. */
function fetchCount(): number {
  const stored = h.host.properties('user', OWNER).get(FETCH_COUNT_KEY);
  return stored ? (JSON.parse(stored) as { n: number }).n : 0;
}

/** The message names the argument ("argument: rule", first or after an earlier problem) and states the rule. */
function expectNamed(message: string | undefined, argument: string, rule: RegExp): void {
  expect(message).toBeDefined();
  const escaped = argument.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(message).toMatch(new RegExp(`(^|; )${escaped}\\b`));
  expect(message).toMatch(rule);
  // One clear sentence: never a stack, an internal error or a raw 5000-character value.
  expect(message).not.toMatch(/failed unexpectedly|TypeError|undefined is not|\[object Object\]|Exception:/);
  expect(message!.length).toBeLessThan(1000);
}

async function expectNothingSent(fetchesBefore: number): Promise<void> {
  expect(await h.apiRequests()).toEqual([]);
  expect(h.host.fetchLog.length).toBe(fetchesBefore);
}

// ---------------------------------------------------------------- custom functions

/** Writes date and range arguments into the Args sheet and returns the formula text that refers to them. */
function typeArguments(fn: string, args: Arg[]): { text: string; used: string[] } {
  const used: string[] = [];
  const parts = args.map((arg, i) => {
    const column = String.fromCharCode(65 + i);
    if (arg === undefined) return '';
    if (typeof arg === 'string') return `"${arg.replace(/"/g, '""')}"`;
    if (typeof arg === 'number') return String(arg);
    if (typeof arg === 'boolean') return arg ? 'TRUE' : 'FALSE';
    const rows = arg instanceof Date ? [[arg]] : arg.range;
    rows.forEach((row, r) => {
      row.forEach((value, c) => {
        if (c > 0) throw new Error('test: ranges are one column wide');
        const a1 = `${column}${r + 1}`;
        used.push(a1);
        // A leading apostrophe keeps typed text as text, as in Sheets.
        h.host.setCell('Args', a1, typeof value === 'string' ? `'${value}` : value);
      });
    });
    if (arg instanceof Date) return `Args!${column}1`;
    return `Args!${column}1:${column}${rows.length}`;
  });
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return { text: `=${fn}(${parts.join(',')})`, used };
}

const FORMULA_CASES: FormulaCase[] = [];
const add = (fn: string, title: string, args: Arg[], argument: string, rule: RegExp) =>
  FORMULA_CASES.push({ fn, title, args, argument, rule });

// ENGAGE_REPORT: entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, currencyCode, decDigits, refresh.
{
  const R = 'ENGAGE_REPORT';
  /** The breakdowns, then the arguments after metrics (which `metrics` below gives). */
  const base = (breakdowns?: Arg, ...rest: Arg[]): Arg[] => [P, '2026-11-01', '2026-11-07', breakdowns, undefined, ...rest];
  const metrics = (list: Arg, breakdowns: Arg = undefined): Arg[] => [P, '2026-11-01', '2026-11-07', breakdowns, list];
  const filter = (f: Arg, breakdowns: Arg = undefined) => base(breakdowns, f);
  add(R, 'no arguments at all', [], 'entityId', /is required/);
  add(R, 'an empty entityId', ['', '2026-11-01', '2026-11-07'], 'entityId', /is required/);
  add(R, 'a boolean entityId', [true, '2026-11-01', '2026-11-07'], 'entityId', /must be text, not the boolean TRUE/);
  add(R, 'a date cell as entityId', [new Date('2026-11-01T00:00:00Z'), '2026-11-01', '2026-11-07'], 'entityId', /must be text, not a date/);
  // Several publishers: a comma list, a range of ID cells, or "all".
  const G = '089ff7bee9730601caec5cca961a3cbe';
  add(R, 'an empty item in a list of publishers', [`${P},,${G}`, '2026-11-01', '2026-11-07'], 'entityId', /item 2 of 3 is empty/);
  add(R, 'a trailing comma after a publisher', [`${P},`, '2026-11-01', '2026-11-07'], 'entityId', /item 2 of 2 is empty/);
  add(R, 'a publisher listed twice', [`${P},${G},${P}`, '2026-11-01', '2026-11-07'], 'entityId', /is listed twice/);
  add(R, '"all" with publisher IDs', [`all,${P}`, '2026-11-01', '2026-11-07'], 'entityId', /"all" cannot be combined with publisher IDs/);
  add(R, 'a list with an ID with spaces', [`${P},ab cd`, '2026-11-01', '2026-11-07'], 'entityId', /'ab cd' must not contain spaces/);
  add(R, 'a list with a formula', [`${P},${INJECTIONS[0]![1]}`, '2026-11-01', '2026-11-07'], 'entityId', /is not a publisher ID/);
  add(
    R,
    '51 publishers',
    [Array.from({ length: 51 }, (_, i) => `p${i}`).join(','), '2026-11-01', '2026-11-07'],
    'entityId',
    /lists 51 publishers; a report covers at most 50/,
  );
  add(
    R,
    'a range of publishers holding a date',
    [{ range: [[P], [new Date('2026-11-01T00:00:00Z')]] }, '2026-11-01', '2026-11-07'],
    'entityId',
    /cell 2 of the range holds a date: publisher IDs are text/,
  );
  add(
    R,
    'a range of publishers holding a boolean',
    [{ range: [[true], [P]] }, '2026-11-01', '2026-11-07'],
    'entityId',
    /cell 1 of the range holds the boolean TRUE/,
  );
  add(
    R,
    'a range of publishers listing one twice',
    [{ range: [[P], [G], [P]] }, '2026-11-01', '2026-11-07'],
    'entityId',
    /is listed twice/,
  );
  add(R, 'a range of "all" and an ID', [{ range: [['all'], [G]] }, '2026-11-01', '2026-11-07'], 'entityId', /"all" cannot be combined/);
  add(R, '"all" with a bad fromDate', ['all', '2026-13-01', '2026-11-07'], 'fromDate', /is not a date/);
  // "-publisher" adds several publishers' rows together: it needs several.
  add(
    R,
    '"-publisher" with one publisher',
    [P, '2026-11-01', '2026-11-07', 'day,-publisher'],
    'breakdowns',
    /entityId names one publisher/,
  );
  add(R, '"-publisher" listed twice', ['all', '2026-11-01', '2026-11-07', '-publisher,day,-PUBLISHER'], 'breakdowns', /is listed twice/);
  add(
    R,
    '"-publisher" with a forbidden pair',
    ['all', '2026-11-01', '2026-11-07', 'day,month,-publisher'],
    'breakdowns',
    /cannot be combined/,
  );
  add(R, 'an entityId with spaces', ['653e5ee6 b140b03f', '2026-11-01', '2026-11-07'], 'entityId', /must not contain spaces/);
  for (const [what, text] of INJECTIONS)
    add(R, `${what} as entityId`, [text, '2026-11-01', '2026-11-07'], 'entityId', /publisher ID|spaces/);
  add(R, 'no fromDate', [P], 'fromDate', /is required/);
  add(R, 'no toDate', [P, '2026-11-01'], 'toDate', /is required/);
  add(R, 'a thirteenth month', [P, '2026-13-01', '2026-11-07'], 'fromDate', /is not a date/);
  add(R, 'the 30th of February', [P, '2026-02-30', '2026-03-02'], 'fromDate', /is not a date/);
  add(R, 'a word as fromDate', [P, 'tomorrow', '2026-11-07'], 'fromDate', /is not a date/);
  add(R, 'a boolean fromDate', [P, true, '2026-11-07'], 'fromDate', /must be a date, not the boolean TRUE/);
  add(R, 'a bare number as fromDate', [P, 45000, '2026-11-07'], 'fromDate', /is not a date/);
  add(
    R,
    'a range of dates as fromDate',
    [P, { range: [[new Date('2026-11-01T00:00:00Z')], [new Date('2026-11-02T00:00:00Z')]] }, '2026-11-07'],
    'fromDate',
    /must be one value/,
  );
  add(R, 'a year before 1900', [P, '1899-12-31', '2026-11-07'], 'fromDate', /is not a date/);
  add(R, 'a formula as fromDate', [P, INJECTIONS[0]![1], '2026-11-07'], 'fromDate', /is not a date/);
  add(R, 'a script element as toDate', [P, '2026-11-01', INJECTIONS[1]![1]], 'toDate', /is not a date/);
  add(R, 'a control character after toDate', [P, '2026-11-01', '2026-11-07\u0000'], 'toDate', /is not a date/);
  add(R, 'toDate before fromDate', [P, '2026-11-07', '2026-11-01'], 'toDate', /is before fromDate/);
  add(R, 'an impossible toDate', [P, '2026-11-01', '20261301'], 'toDate', /is not a date/);
  add(R, 'day with month', base('day,month'), 'breakdowns', /'day' and 'month' cannot be combined/);
  add(R, 'referrer with country', base('referrer,country'), 'breakdowns', /'referrer' and 'country' cannot be combined/);
  add(R, 'referrer with doc', base('referrer,doc'), 'breakdowns', /'referrer' and 'doc' cannot be combined/);
  add(R, 'country with doc', base('country,doc'), 'breakdowns', /'country' and 'doc' cannot be combined/);
  add(
    R,
    'a fifth breakdown',
    base('day,platform,country,section,widget'),
    'breakdowns',
    /has 5 breakdowns; the general report allows at most 4/,
  );
  add(
    R,
    'a fifth breakdown from a range',
    base({ range: [['day'], ['platform'], ['country'], ['section'], ['partnerApp']] }),
    'breakdowns',
    /at most 4/,
  );
  add(R, 'an unknown breakdown', base('hour'), 'breakdowns', /'hour' is not a breakdown of the general report/);
  add(
    R,
    'an external-ID breakdown on the general report',
    base('externalId'),
    'breakdowns',
    /'externalId' is not a breakdown of the general report/,
  );
  add(R, 'a breakdown twice', base('day,day'), 'breakdowns', /'day' is listed twice/);
  add(R, 'a boolean in the breakdowns range', base({ range: [['day'], [true]] }), 'breakdowns', /must be text .* not the boolean TRUE/);
  add(R, 'a date in the breakdowns range', base({ range: [['day'], [new Date('2026-11-01T00:00:00Z')]] }), 'breakdowns', /not a date/);
  add(
    R,
    'doc breakdown more than 12 months back',
    [P, '2025-10-01', '2025-10-07', 'doc'],
    'fromDate',
    /more than 12 months ago.*'doc' breakdown/,
  );
  for (const [what, text] of INJECTIONS)
    add(R, `${what} as breakdowns`, base(text), 'breakdowns', /is not a breakdown of the general report|must be/);
  // Metrics: names of the report, each once, available with the breakdowns; an explicit list names one at least.
  add(
    R,
    'an unknown metric',
    metrics('revenue,popularity'),
    'metrics',
    /'popularity' is not a metric of the general report \(use paidPvs, totalPvs/,
  );
  add(R, 'a misspelt metric', metrics('revnue'), 'metrics', /'revnue' is not a metric of the general report \(did you mean 'revenue'\?\)/);
  add(
    R,
    'an external-ID metric on the general report',
    metrics('widgetViewableImpressions'),
    'metrics',
    /'widgetViewableImpressions' is not a metric of the general report/,
  );
  add(R, 'a breakdown as a metric', metrics('country'), 'metrics', /'country' is not a metric of the general report/);
  add(R, 'a metric listed twice', metrics('revenue,rpmByPvs,revenue'), 'metrics', /'revenue' is listed twice/);
  add(R, 'a metric listed twice in another case', metrics('paidClicks,PAIDCLICKS'), 'metrics', /'paidClicks' is listed twice/);
  add(
    R,
    'a metric listed twice in a range',
    metrics({ range: [['revenue'], ['rpmByPvs'], ['revenue']] }),
    'metrics',
    /'revenue' is listed twice/,
  );
  add(
    R,
    'an empty metric list',
    metrics(','),
    'metrics',
    /lists no metric: name at least one .* write "all", or leave it empty for the default set/,
  );
  add(R, 'a metric list of blanks and commas', metrics(' , ,  '), 'metrics', /lists no metric/);
  add(R, 'all with other metrics', metrics('all,revenue'), 'metrics', /"all" already means every metric: write it alone/);
  add(
    R,
    'a page-view metric by widget',
    metrics('paidPvs', 'day,widget'),
    'metrics',
    /'paidPvs' is not available with the 'widget' breakdown/,
  );
  add(
    R,
    'a request metric without the widget breakdown',
    metrics('revenue,paidReqs'),
    'metrics',
    /'paidReqs' is only available with the 'widget' breakdown/,
  );
  add(
    R,
    'an opt-in rate by doc',
    metrics('optInRateByPvs', 'doc'),
    'metrics',
    /'optInRateByPvs' is not available with the 'doc' breakdown/,
  );
  add(
    R,
    'a boolean metrics argument',
    metrics(true),
    'metrics',
    /must be text such as "revenue,rpmByPvs" or a range of text cells, not the boolean TRUE/,
  );
  add(R, 'a date among the metrics', metrics({ range: [['revenue'], [new Date('2026-11-01T00:00:00Z')]] }), 'metrics', /not a date/);
  for (const [what, text] of INJECTIONS) add(R, `${what} as metrics`, metrics(text), 'metrics', /is not a metric of the general report/);
  // Filters: each operator with a value of the wrong form, then the syntax around them.
  add(R, 'eq with a word', filter('revenue:eq:abc'), 'filter', /'abc' is not a number \(eq compares numbers\)/);
  add(R, 'gt with nothing after it', filter('revenue:gt:'), 'filter', /missing value after 'revenue:gt:'/);
  add(R, 'lt with a list', filter('revenue:lt:1,2'), 'filter', /is not a number \(lt compares numbers\)/);
  add(R, 'between with one number', filter('revenue:between:5'), 'filter', /between needs two numbers separated by a comma/);
  add(R, 'between with three numbers', filter('revenue:between:1,2,3'), 'filter', /between needs two numbers/);
  add(R, 'between high before low', filter('revenue:between:9,1'), 'filter', /lower number first/);
  add(R, 'between with a word', filter('revenue:between:1,x'), 'filter', /'x' is not a number/);
  add(R, 'in with an empty item', filter('country.id:in:US,,DE', 'country'), 'filter', /empty item in the in list/);
  add(R, 'not_in with nothing', filter('country.id:not_in:', 'country'), 'filter', /missing value/);
  add(R, 'contains with nothing', filter('section.name:contains:', 'section'), 'filter', /missing value/);
  add(R, 'not_contains with blanks', filter('section.name:not_contains:   ', 'section'), 'filter', /missing value/);
  add(R, 'an empty field', filter(':eq:1'), 'filter', /':eq:1' has no field name, as in "revenue:eq:1"/);
  add(R, 'an unknown operator', filter('revenue:gte:1'), 'filter', /unknown operator 'gte' \(did you mean 'gt'\?\)/);
  add(R, 'no operator', filter('revenue'), 'filter', /is not <field>:<operator>:<value>/);
  // Said once, with the condition to write instead, and no "at character 1" that would add nothing.
  add(
    R,
    'a comparison sign instead of colons',
    filter('revenue>100'),
    'filter',
    /^filter: 'revenue>100' is not <field>:<operator>:<value>: write "revenue:gt:100"$/,
  );
  add(R, 'a dangling ;', filter('revenue:gt:1;'), 'filter', /empty condition \(a ';' with nothing after it\)/);
  add(R, 'a leading ;', filter(';revenue:gt:1'), 'filter', /empty condition before ';'/);
  add(R, 'two ;; in a row', filter('revenue:gt:1;;paidClicks:gt:2'), 'filter', /empty condition/);
  add(R, 'a misspelt field', filter('revenu:gt:1'), 'filter', /did you mean 'revenue'/);
  add(R, 'an entity field without its breakdown', filter('country.id:in:US'), 'filter', /needs the 'country' breakdown/);
  add(
    R,
    'a widget-only metric without the widget breakdown',
    filter('paidReqs:gt:1'),
    'filter',
    /only available with the 'widget' breakdown/,
  );
  add(
    R,
    'an external-ID filter on the general report',
    filter('externalId:in:a'),
    'filter',
    /is not a metric or field of the general report/,
  );
  add(R, 'a boolean filter', filter(true), 'filter', /must be text, not the boolean TRUE/);
  add(R, 'a range of two filters', filter({ range: [['revenue:gt:1'], ['paidClicks:gt:1']] }), 'filter', /must be one value/);
  for (const [what, text] of INJECTIONS)
    add(R, `${what} as filter`, filter(text), 'filter', /is not <field>|invalid field name|control character|characters/);
  add(R, 'a control character in a contains value', filter('section.name:contains:sp\u0007orts', 'section'), 'filter', /control character/);
  add(
    R,
    'a contains value too long for a request address',
    filter(`section.name:contains:${'s'.repeat(3000)}`, 'section'),
    'filter',
    /request address|characters/,
  );
  add(
    R,
    'an in list too long for a request address',
    filter(`country.id:in:${Array.from({ length: 700 }, () => 'US').join(',')}`, 'country'),
    'filter',
    /request address/,
  );
  add(
    R,
    'an unknown sort field',
    base(undefined, undefined, 'nonsense'),
    'sort',
    /'nonsense' is not a metric or field of the general report/,
  );
  add(
    R,
    'a sort direction that is not one',
    base(undefined, undefined, 'revenue upwards'),
    'sort',
    /is not a field with an optional direction/,
  );
  add(R, 'two sort directions', base(undefined, undefined, '-revenue asc'), 'sort', /two different directions/);
  add(
    R,
    'sorting on an entity field without its breakdown',
    base(undefined, undefined, 'country.name'),
    'sort',
    /needs the 'country' breakdown/,
  );
  add(R, 'a boolean sort', base(undefined, undefined, false), 'sort', /must be text, not the boolean FALSE/);
  for (const [what, text] of INJECTIONS)
    add(R, `${what} as sort`, base(undefined, undefined, text), 'sort', /is not a field with an optional direction|is not a metric/);
  add(R, 'maxRows of 0', base(undefined, undefined, undefined, 0), 'maxRows', /0 must be from 1 to 100000/);
  add(R, 'a negative maxRows', base(undefined, undefined, undefined, -5), 'maxRows', /-5 must be from 1 to 100000/);
  add(R, 'a huge maxRows', base(undefined, undefined, undefined, 1e12), 'maxRows', /must be from 1 to 100000/);
  add(R, 'a fractional maxRows', base(undefined, undefined, undefined, 2.5), 'maxRows', /must be a whole number/);
  add(R, 'a word as maxRows', base(undefined, undefined, undefined, 'many'), 'maxRows', /'many' must be a whole number/);
  add(R, 'a boolean maxRows', base(undefined, undefined, undefined, true), 'maxRows', /must be a whole number/);
  add(R, 'a four-letter currency', base(undefined, undefined, undefined, undefined, 'EURO'), 'currencyCode', /three-letter currency code/);
  add(R, 'a two-letter currency', base(undefined, undefined, undefined, undefined, 'US'), 'currencyCode', /three-letter currency code/);
  add(
    R,
    'a currency that does not exist',
    base(undefined, undefined, undefined, undefined, 'XYZ'),
    'currencyCode',
    /not an ISO 4217 currency code/,
  );
  add(
    R,
    'a real currency Engage does not report in',
    base(undefined, undefined, undefined, undefined, 'CHF'),
    'currencyCode',
    /'CHF' is not a currency Engage reports in \(use USD, EUR, GBP, JPY, CAD, AUD, BRL, INR, ILS\)/,
  );
  add(R, 'a currency with symbols', base(undefined, undefined, undefined, undefined, '€$£'), 'currencyCode', /three-letter currency code/);
  add(R, 'a boolean currency', base(undefined, undefined, undefined, undefined, true), 'currencyCode', /must be text/);
  add(
    R,
    'a script element as currency',
    base(undefined, undefined, undefined, undefined, INJECTIONS[1]![1]),
    'currencyCode',
    /three-letter currency code/,
  );
  add(R, 'decDigits of 7', base(undefined, undefined, undefined, undefined, undefined, 7), 'decDigits', /from 0 to 6/);
  add(R, 'decDigits of -1', base(undefined, undefined, undefined, undefined, undefined, -1), 'decDigits', /from 0 to 6/);
  add(R, 'fractional decDigits', base(undefined, undefined, undefined, undefined, undefined, 2.5), 'decDigits', /whole number from 0 to 6/);
  add(
    R,
    'decDigits as a word',
    base(undefined, undefined, undefined, undefined, undefined, 'two'),
    'decDigits',
    /whole number from 0 to 6/,
  );
  add(R, 'boolean decDigits', base(undefined, undefined, undefined, undefined, undefined, true), 'decDigits', /whole number from 0 to 6/);
  add(
    R,
    'a date as decDigits',
    base(undefined, undefined, undefined, undefined, undefined, new Date('2026-11-01T00:00:00Z')),
    'decDigits',
    /whole number from 0 to 6/,
  );
  add(
    R,
    'a range as refresh',
    base(undefined, undefined, undefined, undefined, undefined, undefined, { range: [['a'], ['b']] }),
    'refresh',
    /must be one value/,
  );
}

// ENGAGE_EXTERNALID_REPORT: entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, currencyCode, refresh.
{
  const X = 'ENGAGE_EXTERNALID_REPORT';
  const base = (breakdowns?: Arg, ...rest: Arg[]): Arg[] => [P, '2026111900', '2026112000', breakdowns, undefined, ...rest];
  const metrics = (list: Arg): Arg[] => [P, '2026111900', '2026112000', undefined, list];
  add(X, 'a general-report metric', metrics('revenue,rpmByPvs'), 'metrics', /'rpmByPvs' is not a metric of the external-ID report/);
  add(X, 'a metric listed twice', metrics('revenue,reqsRpm,Revenue'), 'metrics', /'revenue' is listed twice/);
  add(X, 'an empty metric list', metrics(','), 'metrics', /lists no metric/);
  add(X, 'a range over 24 hours', [P, '2026111900', '2026112001'], 'toDate', /is 25 hours after fromDate.*at most 24 hours/);
  add(X, 'two whole days', [P, '2026-11-18', '2026-11-19'], 'toDate', /48 hours after fromDate.*at most 24 hours/);
  add(X, 'toDate before fromDate', [P, '2026112000', '2026111900'], 'toDate', /must be after fromDate/);
  add(X, 'toDate equal to fromDate', [P, '2026111905', '2026111905'], 'toDate', /must be after fromDate/);
  add(X, 'hour 25', [P, '2026111925', '2026112000'], 'fromDate', /is not a date or hour/);
  add(X, 'an entityId with spaces', ['653e5ee6 b140', '2026111900', '2026112000'], 'entityId', /must not contain spaces/);
  add(X, 'a formula as entityId', [INJECTIONS[0]![1], '2026111900', '2026112000'], 'entityId', /publisher ID/);
  add(X, 'a publisher listed twice', [`${P},${P}`, '2026111900', '2026112000'], 'entityId', /is listed twice/);
  add(X, '"all" over 24 hours', ['all', '2026111900', '2026112001'], 'toDate', /at most 24 hours/);
  add(X, 'a general-report breakdown', base('country'), 'breakdowns', /'country' is not a breakdown of the external-ID report/);
  add(X, 'the day breakdown', base('day'), 'breakdowns', /'day' is not a breakdown/);
  add(X, 'externalId twice', base('externalId,externalId'), 'breakdowns', /listed twice/);
  add(
    X,
    'a 111-character externalId in an in list',
    base(undefined, `externalId:in:abc,${LONG_111}`),
    'filter',
    /is 111 characters long; externalId values have at most 110/,
  );
  add(
    X,
    'a 111-character externalId to contain',
    base(undefined, `externalId:contains:${LONG_111}`),
    'filter',
    /111 characters long; externalId values have at most 110/,
  );
  add(
    X,
    'a 111-character externalSecondaryId',
    base('externalSecondaryId', `externalSecondaryId:not_in:${LONG_111}`),
    'filter',
    /111 characters long; externalSecondaryId values have at most 110/,
  );
  add(
    X,
    'a secondary-ID filter without its breakdown',
    base(undefined, 'externalSecondaryId:in:a'),
    'filter',
    /needs the 'externalSecondaryId' breakdown/,
  );
  add(X, 'a page-view metric', base(undefined, 'paidPvs:gt:1'), 'filter', /is not a metric or field of the external-ID report/);
  add(
    X,
    'a sort on a general-report metric',
    base(undefined, undefined, 'rpmByPvs'),
    'sort',
    /is not a metric or field of the external-ID report/,
  );
  add(X, 'a five-letter currency', base(undefined, undefined, undefined, undefined, 'EUROS'), 'currencyCode', /three-letter currency code/);
  add(X, 'maxRows above 100000', base(undefined, undefined, undefined, 100001), 'maxRows', /must be from 1 to 100000/);
  add(X, 'a control character in externalId filter', base(undefined, 'externalId:in:a\u0001b'), 'filter', /control character/);
}

// ENGAGE_REALTIME_REPORT: entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, refresh.
{
  const T = 'ENGAGE_REALTIME_REPORT';
  const base = (breakdowns?: Arg, ...rest: Arg[]): Arg[] => [P, '2026112000', '2026112010', breakdowns, undefined, ...rest];
  const metrics = (list: Arg): Arg[] => [P, '2026112000', '2026112010', undefined, list];
  add(
    T,
    'a metric the realtime report lacks',
    metrics('revenue,videoPlays'),
    'metrics',
    /'videoPlays' is not a metric of the realtime external-ID report/,
  );
  add(T, 'a metric listed twice', metrics({ range: [['paidClicks'], ['paidclicks']] }), 'metrics', /'paidClicks' is listed twice/);
  add(T, 'an empty metric list', metrics(' , '), 'metrics', /lists no metric/);
  add(T, 'IDs with "ALL"', [`${P},ALL`, '2026112000', '2026112010'], 'entityId', /"all" cannot be combined/);
  add(
    T,
    'a start before the 48-hour window',
    [P, '2026111700', '2026111710'],
    'fromDate',
    /older than the realtime window of the last 48 hours/,
  );
  add(
    T,
    'a start a week back, as a date cell',
    [P, new Date('2026-11-13T00:00:00Z'), '2026111310'],
    'fromDate',
    /older than the realtime window/,
  );
  add(T, 'a start in the future', [P, '2026112200', '2026112210'], 'fromDate', /is in the future/);
  add(T, 'an hourly range over 24 hours', [P, '2026111900', '2026112001'], 'toDate', /25 hours after fromDate.*at most 24 hours/);
  add(T, 'toDate before fromDate', [P, '2026112010', '2026112000'], 'toDate', /must be after fromDate/);
  add(T, 'a general-report breakdown', base('country'), 'breakdowns', /'country' is not a breakdown of the realtime external-ID report/);
  add(T, 'between with one number', base(undefined, 'revenue:between:1'), 'filter', /between needs two numbers/);
  add(T, 'a 111-character externalId filter', base(undefined, `externalId:in:${LONG_111}`), 'filter', /111 characters long/);
  add(
    T,
    'a sort on a metric the realtime report lacks',
    base(undefined, undefined, 'totalReqs'),
    'sort',
    /is not a metric or field of the realtime external-ID report/,
  );
  add(T, 'a negative maxRows', base(undefined, undefined, undefined, -1), 'maxRows', /must be from 1 to 100000/);
  add(T, 'an SQL fragment as entityId', [INJECTIONS[2]![1], '2026112000', '2026112010'], 'entityId', /publisher ID|spaces/);
  add(T, 'a boolean toDate', [P, '2026112000', false], 'toDate', /must be a date, not the boolean FALSE/);
}

// Lookups.
for (const fn of ['ENGAGE_WIDGETS', 'ENGAGE_NATIVEAPPS']) {
  add(fn, 'no publisherId', [], 'publisherId', /is required/);
  add(fn, 'an empty publisherId', [''], 'publisherId', /is required/);
  add(fn, 'a boolean publisherId', [true], 'publisherId', /must be text/);
  add(fn, 'a date publisherId', [new Date('2026-11-01T00:00:00Z')], 'publisherId', /must be text, not a date/);
  add(fn, 'a range of publishers', [{ range: [[P], ['089ff7bee9730601caec5cca961a3cbe']] }], 'publisherId', /must be one value/);
  add(fn, 'a publisherId with spaces', ['653e5ee6 b140'], 'publisherId', /publisher ID|spaces/);
}
for (const [what, text] of INJECTIONS) add('ENGAGE_WIDGETS', `${what} as publisherId`, [text], 'publisherId', /publisher ID|spaces/);
for (const [what, text] of INJECTIONS.slice(0, 3))
  add('ENGAGE_NATIVEAPPS', `${what} as publisherId`, [text], 'publisherId', /publisher ID|spaces/);
for (const fn of ['ENGAGE_PUBLISHERS', 'ENGAGE_COUNTRIES', 'ENGAGE_TIMEZONES']) {
  add(fn, 'a range as refresh', [{ range: [['a'], ['b']] }], 'refresh', /must be one value, not a range of 2 cells/);
}

// ENGAGE_RECOMMENDATIONS: keywords, iabCategories, contentUrl, widgetJSId, testMode, refresh.
{
  const C = 'ENGAGE_RECOMMENDATIONS';
  const url = 'https://news.example/story';
  add(C, 'a boolean keyword', [true, '', url], 'keywords', /must be text or a range of text cells, not the boolean TRUE/);
  add(C, 'a date among the keywords', [{ range: [['running'], [new Date('2026-11-01T00:00:00Z')]] }, '', url], 'keywords', /not a date/);
  add(
    C,
    '101 keywords',
    [Array.from({ length: 101 }, (_, i) => `k${i}`).join(','), '', url],
    'keywords',
    /101 keywords are more than the 100 allowed/,
  );
  add(C, 'a 201-character keyword', ['k'.repeat(201), '', url], 'keywords', /longer than 200 characters/);
  add(C, 'a keyword with control characters', ['run\u0000ning', '', url], 'keywords', /control character/);
  add(C, 'a word as category', ['', 'sports', url], 'iabCategories', /'SPORTS' is not an IAB category code/);
  add(C, 'a boolean category', ['', false, url], 'iabCategories', /must be text/);
  add(
    C,
    '51 categories',
    ['', Array.from({ length: 51 }, (_, i) => `IAB${i + 1}`).join(','), url],
    'iabCategories',
    /51 categories are more than the 50 allowed/,
  );
  add(C, 'a script element as category', ['', INJECTIONS[1]![1], url], 'iabCategories', /is not an IAB category code/);
  add(C, 'no contentUrl', ['shoes', ''], 'contentUrl', /is required/);
  add(C, 'a sentence as contentUrl', ['shoes', '', 'not an address'], 'contentUrl', /must be an http\(s\) address or a domain/);
  add(C, 'a javascript: address', ['shoes', '', 'javascript:alert(1)'], 'contentUrl', /must be an http\(s\) address or a domain/);
  add(C, 'an ftp address', ['shoes', '', 'ftp://files.example/x'], 'contentUrl', /must be an http\(s\) address/);
  add(
    C,
    'a 1001-character contentUrl',
    ['shoes', '', `https://news.example/${'p'.repeat(990)}`],
    'contentUrl',
    /longer than 1000 characters/,
  );
  add(
    C,
    'a contentUrl too long for a request address',
    ['shoes', '', `https://news.example/${'é'.repeat(330)}`],
    'contentUrl',
    /request address longer than the 2000 characters/,
  );
  add(C, 'a boolean contentUrl', ['shoes', '', true], 'contentUrl', /must be text/);
  add(C, 'a formula as contentUrl', ['shoes', '', INJECTIONS[0]![1]], 'contentUrl', /must be an http\(s\) address/);
  add(
    C,
    'control characters in contentUrl',
    ['shoes', '', 'https://news.example/a\u0000b'],
    'contentUrl',
    /contains a control character \(U\+0000\)/,
  );
  add(C, 'a widget with spaces', ['shoes', '', url, 'APP 12'], 'widgetJSId', /must be a widget ID such as APP_12/);
  add(C, 'a script element as widget', ['shoes', '', url, INJECTIONS[1]![1]], 'widgetJSId', /must be a widget ID/);
  add(C, 'a 111-character widget', ['shoes', '', url, 'W'.repeat(111)], 'widgetJSId', /at most 110 characters/);
  add(C, 'a boolean widget', ['shoes', '', url, true], 'widgetJSId', /must be text/);
  add(C, 'testMode as a word', ['shoes', '', url, WIDGET, 'maybe'], 'testMode', /'maybe' must be TRUE or FALSE/);
  add(C, 'testMode as a number', ['shoes', '', url, WIDGET, 2], 'testMode', /must be TRUE or FALSE/);
  add(C, 'testMode as a date', ['shoes', '', url, WIDGET, new Date('2026-11-01T00:00:00Z')], 'testMode', /must be TRUE or FALSE/);
  add(C, 'a range as refresh', ['shoes', '', url, WIDGET, true, { range: [['a'], ['b']] }], 'refresh', /must be one value/);
}

// ENGAGE_EXPLAIN: entityId, fromDate, toDate, compareWith, metric, breakdowns, topN, filter, refresh.
{
  const X = 'ENGAGE_EXPLAIN';
  const explain = (...rest: Arg[]): Arg[] => [P, '2026-11-01', '2026-11-07', 'previous', ...rest];
  add(
    X,
    'a misspelt metric',
    explain('revnue', 'widget'),
    'metric',
    /"revnue" is not a metric of the general report \(did you mean 'revenue'\?\)/,
  );
  add(
    X,
    'a ratio whose parts the API does not send',
    explain('viewabilityRate', 'widget'),
    'metric',
    /is a ratio whose parts the API does not send/,
  );
  add(
    X,
    'a ratio whose denominator the breakdown lacks',
    explain('rpmByPvs', 'widget'),
    'metric',
    /is not available with the 'widget' breakdown/,
  );
  add(X, 'two metrics', explain('revenue,paidClicks', 'widget'), 'metric', /one metric/);
  add(X, 'a topN of 0', explain('revenue', 'widget', 0), 'topN', /0 must be a whole number from 1 to 1000/);
  add(X, 'a topN of 1001', explain('revenue', 'widget', 1001), 'topN', /1001 must be a whole number from 1 to 1000/);
  add(X, 'a fractional topN', explain('revenue', 'widget', 2.5), 'topN', /must be a whole number from 1 to 1000/);
  add(X, 'a day breakdown', explain('revenue', 'day,widget'), 'breakdowns', /day is a change over time, which ENGAGE_COMPARE shows/);
  add(X, 'an unknown breakdown', explain('revenue', 'colour'), 'breakdowns', /colour/);
  add(X, 'no breakdowns', explain('revenue', ''), 'breakdowns', /is required/);
  add(X, 'no compareWith', [P, '2026-11-01', '2026-11-07', '', 'revenue', 'widget'], 'compareWith', /is required/);
}

// ENGAGE_COMPARE: entityId, fromDate, toDate, compareWith, breakdowns, metrics, filter, sort, maxRows, currencyCode, decDigits, refresh.
{
  const K = 'ENGAGE_COMPARE';
  const compare = (compareWith: Arg, ...rest: Arg[]): Arg[] => [P, '2026-11-01', '2026-11-07', compareWith, ...rest];
  const cell = (text: string) => new Date(`${text}T00:00:00Z`);
  add(
    K,
    'no compareWith',
    [P, '2026-11-01', '2026-11-07'],
    'compareWith',
    /is required: "previous", "year", "yearWeekday", or an earlier period/,
  );
  add(K, 'an empty compareWith', compare(''), 'compareWith', /is required/);
  add(
    K,
    'a word compareWith does not know',
    compare('last week'),
    'compareWith',
    /'last week' must be "previous", "year", "yearWeekday", or an earlier period/,
  );
  add(K, 'a number as compareWith', compare(7), 'compareWith', /7 must be "previous", "year"/);
  add(K, 'a boolean compareWith', compare(true), 'compareWith', /true must be "previous", "year"/);
  add(
    K,
    'one date cell as compareWith',
    compare(cell('2026-10-01')),
    'compareWith',
    /is one date: give two, the earlier period's first and last day/,
  );
  add(
    K,
    'three date cells as compareWith',
    compare({ range: [[cell('2026-10-01')], [cell('2026-10-02')], [cell('2026-10-03')]] }),
    'compareWith',
    /is a range of 3 cells: give two dates/,
  );
  add(
    K,
    'a custom period with its days reversed',
    compare('2026-10-07..2026-10-01'),
    'compareWith',
    /last day 2026-10-01 is before its first day 2026-10-07/,
  );
  add(
    K,
    'two date cells in reverse order',
    compare({ range: [[cell('2026-10-07')], [cell('2026-10-01')]] }),
    'compareWith',
    /is before its first day/,
  );
  add(
    K,
    'a custom period with a thirteenth month',
    compare('2026-10-01..2026-13-01'),
    'compareWith',
    /the last day of the earlier period, is not a date/,
  );
  add(
    K,
    'a custom period without its last day',
    compare('2026-10-01..'),
    'compareWith',
    /the last day of the earlier period, is not a date/,
  );
  add(
    K,
    'a custom period written with a dash',
    compare('2026-10-01 - 2026-10-07'),
    'compareWith',
    /must be "previous", "year", "yearWeekday", or an earlier period as "2026-10-01\.\.2026-10-07"/,
  );
  add(
    K,
    'a custom period that overlaps the report',
    compare('2026-10-30..2026-11-02'),
    'compareWith',
    /the earlier period \(2026-10-30 to 2026-11-02\) must end before the report's first day 2026-11-01: the two periods may not share a day/,
  );
  add(K, 'a custom period after the report', compare('2026-11-08..2026-11-14'), 'compareWith', /must end before the report's first day/);
  add(
    K,
    'a year over a period longer than a year',
    [P, '2025-06-01', '2026-11-07', 'year'],
    'compareWith',
    /must end before the report's first day 2025-06-01/,
  );
  add(
    K,
    "a year before, beyond the doc breakdown's 12 months",
    compare('year', 'doc'),
    'compareWith',
    /the earlier period \(2025-11-01 to 2025-11-07\) cannot be asked for: .*the 'doc' breakdown only covers the last 12 months/,
  );
  add(
    K,
    "the same weekdays a year before, beyond the doc breakdown's 12 months",
    compare('yearWeekday', 'doc'),
    'compareWith',
    /the earlier period \(2025-11-02 to 2025-11-08\) cannot be asked for: .*the 'doc' breakdown only covers the last 12 months/,
  );
  add(K, 'the same weekdays a year before by month', compare('yearWeekday', 'month'), 'compareWith', /the month breakdown does not show/);
  add(
    K,
    'the same weekdays over a period longer than 52 weeks',
    [P, '2025-11-01', '2026-11-07', 'yearWeekday'],
    'compareWith',
    /the earlier period \(2024-11-02 to 2025-11-08\) must end before the report's first day 2025-11-01/,
  );
  add(K, 'a formula as compareWith', compare(INJECTIONS[0]![1]), 'compareWith', /must be "previous", "year"/);
  add(K, 'a control character in compareWith', compare('2026-10-01..2026-10-07\u0000'), 'compareWith', /is not a date/);
  add(
    K,
    'day with month, and a bad compareWith: both named',
    compare('soon', 'day,month'),
    'breakdowns',
    /'day' and 'month' cannot be combined; compareWith: 'soon' must be/,
  );
  add(K, 'no fromDate', [P, undefined, '2026-11-07', 'previous'], 'fromDate', /is required/);
  add(K, 'toDate before fromDate', [P, '2026-11-07', '2026-11-01', 'previous'], 'toDate', /is before fromDate/);
  add(K, 'an unknown metric', compare('previous', 'day', 'rpm'), 'metrics', /'rpm' is not a metric of the general report/);
  // maxRows 0 is the Total row alone (the dashboard's KPI row); below it is refused.
  add(K, 'a negative maxRows', compare('previous', 'day', undefined, undefined, undefined, -1), 'maxRows', /-1 must be from 0 to 100000/);
  // Several publishers, as ENGAGE_REPORT takes them.
  const G = '089ff7bee9730601caec5cca961a3cbe';
  add(K, 'a publisher listed twice', [`${P},${G},${P}`, '2026-11-01', '2026-11-07', 'previous'], 'entityId', /is listed twice/);
  add(K, '"all" with a publisher ID', [`all,${G}`, '2026-11-01', '2026-11-07', 'previous'], 'entityId', /"all" cannot be combined/);
  add(
    K,
    'a range of publishers holding a date',
    [{ range: [[P], [new Date('2026-11-01T00:00:00Z')]] }, '2026-11-01', '2026-11-07', 'previous'],
    'entityId',
    /cell 2 of the range holds a date: publisher IDs are text/,
  );
  add(K, '"ALL," with a trailing comma', ['ALL,', '2026-11-01', '2026-11-07', 'previous'], 'entityId', /entityId: item 2 of 2 is empty/);
  add(
    K,
    '"all" with an earlier period that overlaps',
    ['all', '2026-11-01', '2026-11-07', '2026-10-30..2026-11-02'],
    'compareWith',
    /must end before the report's first day 2026-11-01/,
  );
  add(K, '"-publisher" with one publisher', compare('previous', 'day,-publisher'), 'breakdowns', /entityId names one publisher/);
  add(
    K,
    'a range as refresh',
    [...compare('previous'), undefined, undefined, undefined, undefined, undefined, undefined, undefined, { range: [['a'], ['b']] }],
    'refresh',
    /must be one value/,
  );
}

// Days relative to today ("today", "yesterday", "NdaysAgo", the month bounds), read on the spreadsheet's
// clock (Europe/Berlin, 20 November): text that is almost one, and ones the reports' rules refuse.
{
  const R = 'ENGAGE_REPORT';
  const K = 'ENGAGE_COMPARE';
  const X = 'ENGAGE_EXTERNALID_REPORT';
  const T = 'ENGAGE_REALTIME_REPORT';
  /** The rule lists every form a date may take. */
  const FORMS =
    /is not a date: write yyyy-MM-dd, yyyyMMdd, a date cell, today, yesterday, NdaysAgo such as 7daysAgo, startOfMonth, startOfLastMonth or endOfLastMonth/;
  const HOUR_FORMS =
    /is not a date or hour: write yyyyMMddHH in UTC, yyyy-MM-dd, yyyyMMdd, a date cell, today, yesterday, NdaysAgo such as 7daysAgo/;
  for (const [what, text] of [
    ['a singular day ago', '7dayago'],
    ['"day" for "days"', '7dayAgo'],
    ['a space inside', '7 daysAgo'],
    ['a negative number of days', '-1daysAgo'],
    ['a fraction of days', '1.5daysAgo'],
    ['no number of days', 'daysAgo'],
    ['days from now', '7daysFromNow'],
    ['weeks ago', '2weeksAgo'],
    ['a preset name', 'last7'],
    ['a start of year', 'startOfYear'],
    ['"to day" in two words', 'to day'],
  ] as const)
    add(R, `${what} as fromDate ('${text}')`, [P, text, 'yesterday'], 'fromDate', FORMS);
  add(R, 'tomorrow as toDate', [P, '7daysAgo', 'tomorrow'], 'toDate', FORMS);
  add(
    R,
    'more than 36,500 days ago',
    [P, '36501daysAgo', 'yesterday'],
    'fromDate',
    /counts back more than 36,500 days \(NdaysAgo takes N from 0 to 36500\)/,
  );
  add(
    R,
    'relative days the wrong way round',
    [P, 'yesterday', '7daysAgo'],
    'toDate',
    /'7daysAgo' \(2026-11-13\) is before fromDate 'yesterday' \(2026-11-19\)/,
  );
  add(
    R,
    'last month ending before this month starts',
    [P, 'startOfMonth', 'endOfLastMonth'],
    'toDate',
    /'endOfLastMonth' \(2026-10-31\) is before fromDate 'startOfMonth' \(2026-11-01\)/,
  );
  add(
    R,
    'days ago beyond the doc breakdown',
    [P, '400daysAgo', 'yesterday', 'doc'],
    'fromDate',
    /'400daysAgo' \(2025-10-16\) is more than 12 months ago/,
  );
  add(K, 'a singular day ago', [P, '7dayago', 'yesterday', 'previous'], 'fromDate', FORMS);
  add(
    K,
    'relative days the wrong way round',
    [P, 'today', '2daysAgo', 'previous'],
    'toDate',
    /'2daysAgo' \(2026-11-18\) is before fromDate 'today' \(2026-11-20\)/,
  );
  add(X, 'a misspelt yesterday', [P, 'yesterdy', 'yesterday'], 'fromDate', HOUR_FORMS);
  add(
    X,
    'yesterday to today: 48 hours',
    [P, 'yesterday', 'today'],
    'toDate',
    /'today' \(2026-11-21 00:00 UTC\) is 48 hours after fromDate 'yesterday' \(2026-11-19 00:00 UTC\)/,
  );
  add(T, 'a day ago in the singular', [P, '1dayAgo', 'today'], 'fromDate', HOUR_FORMS);
  add(
    T,
    'days before the realtime window',
    [P, '3daysAgo', '3daysAgo'],
    'fromDate',
    /'3daysAgo' \(2026-11-17 00:00 UTC\) is older than the realtime window of the last 48 hours/,
  );
}

// Issue 23: every filter that does not fit its field's type (number, date, text, ID: filter-fields.ts), and every
// misspelt name (breakdown, metric, operator, filter field, sort field) with its "did you mean", in every report's formula.
/** Filters that do not fit their field: [title, breakdowns, filter, rule], for the general report. */
const TYPE_MISMATCHES: Array<[string, string, string, RegExp]> = [
  ...['contains', 'not_contains'].map((op): [string, string, string, RegExp] => [
    `${op} on a number`,
    'day',
    `revenue:${op}:abc`,
    new RegExp(`${op} does not apply to revenue, a number: use eq, gt, lt, between, in or not_in, as in "revenue:gt:100"`),
  ]),
  ...['contains', 'not_contains'].map((op): [string, string, string, RegExp] => [
    `${op} on a date`,
    'day',
    `day:${op}:2026`,
    new RegExp(`${op} does not apply to day, a date: use eq, gt, lt, between, in or not_in, as in "day:between:20261101,20261107"`),
  ]),
  ...['eq', 'gt', 'lt', 'between'].map((op): [string, string, string, RegExp] => [
    `${op} on text`,
    'day,country',
    `country.name:${op}:${op === 'between' ? '1,2' : '1'}`,
    new RegExp(`${op} does not apply to country.name, text: use in, not_in, contains or not_contains`),
  ]),
  ...['eq', 'gt', 'lt', 'between', 'contains', 'not_contains'].map((op): [string, string, string, RegExp] => [
    `${op} on an ID`,
    'day,country',
    `country.id:${op}:${op === 'between' ? '1,2' : '1'}`,
    new RegExp(`${op} does not apply to country.id, an ID: use in or not_in, as in "country.id:in:US,DE"`),
  ]),
  ['contains on a bare entity (its ID)', 'day,country', 'country:contains:U', /contains does not apply to country, an ID/],
  ['a word in a number list', 'day', 'revenue:in:10,abc', /revenue is a number and 'abc' is not, as in "revenue:in:10,20"/],
  ['a day not written yyyyMMdd', 'day', 'day:in:2026-11-01', /'2026-11-01' is not a day written yyyyMMdd/],
  ['a day that does not exist', 'day', 'day:eq:20261131', /'20261131' is not a day written yyyyMMdd/],
  ['a month not written yyyyMM', 'month', 'month:gt:2026', /'2026' is not a month written yyyyMM, as in "month:eq:202611"/],
  [
    'a second condition that does not fit',
    'day,country',
    'revenue:gt:1;country.name:lt:5',
    /lt does not apply to country.name, text: .* at character 14 of 'revenue:gt:1;country.name:lt:5'/,
  ],
];
{
  const R = 'ENGAGE_REPORT';
  const report = (breakdowns: Arg, metrics: Arg, filter?: Arg, sort?: Arg): Arg[] => [
    P,
    '2026-11-01',
    '2026-11-07',
    breakdowns,
    metrics,
    filter,
    sort,
  ];
  for (const [title, breakdowns, filter, rule] of TYPE_MISMATCHES)
    add(R, `a filter of ${title}`, report(breakdowns, undefined, filter), 'filter', rule);
  add(
    R,
    'a misspelt breakdown',
    report('day,contry', undefined),
    'breakdowns',
    /'contry' is not a breakdown of the general report \(did you mean 'country'\?\)/,
  );
  add(
    R,
    'a misspelt operator (lte)',
    report('day', undefined, 'revenue:lte:5'),
    'filter',
    /unknown operator 'lte' \(did you mean 'lt'\?\)/,
  );
  add(
    R,
    'a misspelt operator (notin)',
    report('day', undefined, 'revenue:notin:5'),
    'filter',
    /unknown operator 'notin' \(did you mean 'not_in'\?\)/,
  );
  add(
    R,
    'a misspelt entity field',
    report('day,country', undefined, 'contry.id:in:US'),
    'filter',
    /'contry.id' is not a field of the general report \(did you mean 'country.id'\?\)/,
  );
  add(
    R,
    'a misspelt sort field',
    report('day', undefined, undefined, 'revenu desc'),
    'sort',
    /'revenu' is not a metric or field of the general report \(did you mean 'revenue'\?\)/,
  );
  add(
    R,
    'a metric typed without its capital',
    report('day', 'paidclick'),
    'metrics',
    /'paidclick' is not a metric of the general report \(did you mean 'paidClicks'\?\)/,
  );
}
{
  const X = 'ENGAGE_EXTERNALID_REPORT';
  const report = (breakdowns: Arg, metrics: Arg, filter?: Arg): Arg[] => [P, '2026111900', '2026112000', breakdowns, metrics, filter];
  add(
    X,
    'gt on the external ID (text)',
    report(undefined, undefined, 'externalId:gt:5'),
    'filter',
    /gt does not apply to externalId, text/,
  );
  add(
    X,
    'contains on a widget ID',
    report('externalId,widget', undefined, 'widget.id:contains:APP'),
    'filter',
    /contains does not apply to widget.id, an ID: use in or not_in/,
  );
  add(
    X,
    'contains on a number',
    report(undefined, undefined, 'paidClicks:contains:1'),
    'filter',
    /contains does not apply to paidClicks, a number/,
  );
  add(
    X,
    'a misspelt breakdown',
    report('externalId,widgt', undefined),
    'breakdowns',
    /'widgt' is not a breakdown of the external-ID report \(did you mean 'widget'\?\)/,
  );
  add(
    X,
    'a misspelt metric',
    report(undefined, 'reqsRpn'),
    'metrics',
    /'reqsRpn' is not a metric of the external-ID report \(did you mean 'reqsRpm'\?\)/,
  );
  add(
    X,
    'a misspelt operator',
    report(undefined, undefined, 'paidClicks:gte:3'),
    'filter',
    /unknown operator 'gte' \(did you mean 'gt'\?\)/,
  );
  add(
    X,
    'a misspelt filter field',
    report(undefined, undefined, 'extrnalId:in:a'),
    'filter',
    /'extrnalId' is not a metric or field of the external-ID report \(did you mean 'externalId'\?\)/,
  );
}
{
  const T = 'ENGAGE_REALTIME_REPORT';
  const report = (breakdowns: Arg, metrics: Arg, filter?: Arg): Arg[] => [P, '2026112000', '2026112010', breakdowns, metrics, filter];
  add(
    T,
    'between on the secondary ID (text)',
    report('externalId,externalSecondaryId', undefined, 'externalSecondaryId:between:1,2'),
    'filter',
    /between does not apply to externalSecondaryId, text/,
  );
  add(
    T,
    'not_contains on a number',
    report(undefined, undefined, 'revenue:not_contains:1'),
    'filter',
    /not_contains does not apply to revenue, a number/,
  );
  add(
    T,
    'a misspelt breakdown',
    report('widgets', undefined),
    'breakdowns',
    /'widgets' is not a breakdown of the realtime external-ID report \(did you mean 'widget'\?\)/,
  );
  add(
    T,
    'a misspelt metric',
    report(undefined, 'revenu'),
    'metrics',
    /'revenu' is not a metric of the realtime external-ID report \(did you mean 'revenue'\?\)/,
  );
  add(
    T,
    'a misspelt operator',
    report(undefined, undefined, 'revenue:betwen:1,2'),
    'filter',
    /unknown operator 'betwen' \(did you mean 'between'\?\)/,
  );
  add(
    T,
    'a misspelt filter field',
    report(undefined, undefined, 'paidClick:gt:1'),
    'filter',
    /'paidClick' is not a metric or field of the realtime external-ID report \(did you mean 'paidClicks'\?\)/,
  );
}
{
  const K = 'ENGAGE_COMPARE';
  const compare = (breakdowns: Arg, metrics: Arg, filter?: Arg): Arg[] => [
    P,
    '2026-11-01',
    '2026-11-07',
    'previous',
    breakdowns,
    metrics,
    filter,
  ];
  add(
    K,
    'contains on a number',
    compare('day', undefined, 'revenue:contains:abc'),
    'filter',
    /contains does not apply to revenue, a number/,
  );
  add(K, 'gt on an ID', compare('day,country', undefined, 'country.id:gt:1'), 'filter', /gt does not apply to country.id, an ID/);
  add(
    K,
    'a misspelt breakdown',
    compare('day,contry', undefined),
    'breakdowns',
    /'contry' is not a breakdown of the general report \(did you mean 'country'\?\)/,
  );
  add(
    K,
    'a misspelt metric',
    compare('day', 'revnue'),
    'metrics',
    /'revnue' is not a metric of the general report \(did you mean 'revenue'\?\)/,
  );
  add(K, 'a misspelt operator', compare('day', undefined, 'revenue:gte:1'), 'filter', /did you mean 'gt'\?/);
  add(K, 'a misspelt filter field', compare('day', undefined, 'revnue:gt:1'), 'filter', /did you mean 'revenue'\?/);
}

describe('custom functions refuse bad arguments before any request, changing no cell but their own', () => {
  it.each(FORMULA_CASES.map((c) => [`${c.fn}: ${c.title}`, c] as const))('%s', async (_name, c) => {
    const { text, used } = typeArguments(c.fn, c.args);
    const fetchesBefore = h.host.fetchLog.length;
    const before = snapshot('F!1:1');
    const result = h.host.evaluateFormula('F', 'A1', text, { user: OWNER });
    try {
      expect(result.value).toBe('#ERROR!');
      expectNamed(result.error, c.argument, c.rule);
      expect(snapshot('F!1:1')).toEqual(before);
      expect(h.host.getCell('F', 'A1').formula).toBe(text);
      await expectNothingSent(fetchesBefore);
    } finally {
      h.host.setCell('F', 'A1', '');
      for (const a1 of used) h.host.setCell('Args', a1, '');
    }
  });
});

// ---------------------------------------------------------------- sidebar server functions

const CALL_CASES: CallCase[] = [];
const call = (fn: string, title: string, args: CallCase['args'], argument: string, rule: RegExp, extra: Partial<CallCase> = {}) =>
  CALL_CASES.push({ fn, title, args, argument, rule, ...extra });

// signIn(username, password), signInAllowance(username) and signInWithToken(token).
call('signIn', 'no arguments', [], 'username', /must be text/);
call('signIn', 'a number as user name', [42, 'pw'], 'username', /must be text/);
call('signIn', 'an object as user name', [{ user: 'demo' }, 'pw'], 'username', /must be text/);
call('signIn', 'an empty user name', ['', 'pw'], 'username', /is required/);
call('signIn', 'a blank user name', ['   ', 'pw'], 'username', /is required/);
call('signIn', 'a user name with a colon', ['demo:admin', 'pw'], 'username', /must not contain ':'/);
call('signIn', 'a user name with control characters', ['demo\u0000@engage.example', 'pw'], 'username', /control character/);
call('signIn', 'a 5000-character user name', ['u'.repeat(5000), 'pw'], 'username', /is 5000 characters long; a user name has at most 256/);
call('signIn', 'no password', ['demo@engage.example'], 'password', /must be text/);
call('signIn', 'an empty password', ['demo@engage.example', ''], 'password', /is required/);
call('signIn', 'a number as password', ['demo@engage.example', 1234], 'password', /must be text/);
call(
  'signIn',
  'a 5000-character password',
  ['demo@engage.example', 'p'.repeat(5000)],
  'password',
  /is 5000 characters long; a password has at most 1024/,
);
call('signInAllowance', 'a number as username', [42], 'username', /must be text/);
call('signInAllowance', 'a list as username', [['demo@engage.example']], 'username', /must be text/);
call('signInWithToken', 'no token', [], 'token', /one piece of text without spaces/);
call('signInWithToken', 'an empty token', [''], 'token', /one piece of text without spaces/);
call('signInWithToken', 'a token with spaces', ['abc def'], 'token', /without spaces/);
call('signInWithToken', 'a number as token', [12345], 'token', /one piece of text/);
call('signInWithToken', 'an object as token', [{ token: 'x' }], 'token', /one piece of text/);
call('signInWithToken', 'a 5000-character token', ['t'.repeat(5000)], 'token', /longer than 4096 characters/);
call('signInWithToken', 'a token with control characters', ['abc\u0007def'], 'token', /control character|printable/);
call('signInWithToken', 'a token with non-ASCII letters', ['tökén😀'], 'token', /printable/);

// saveSettings(settings): the API key is never echoed back.
const noKeyEcho = (secret: string) => (message: string) => expect(message).not.toContain(secret);
call('saveSettings', 'no settings', [], 'settings', /must be an object of settings/);
call('saveSettings', 'text instead of settings', ['https://x.example/engage/v2'], 'settings', /must be an object/);
call('saveSettings', 'a list instead of settings', [[1, 2]], 'settings', /must be an object/);
call('saveSettings', 'an unknown setting', [{ colour: 'red' }], 'colour', /is not a setting/);
call(
  'saveSettings',
  'an ftp base address',
  [{ reportingBaseUrl: 'ftp://x.example/engage/v2' }],
  'reportingBaseUrl',
  /must be an http\(s\) address/,
);
call(
  'saveSettings',
  'a base address without /engage/v2',
  [{ reportingBaseUrl: 'https://x.example/api' }],
  'reportingBaseUrl',
  /must end with \/engage\/v2/,
);
call(
  'saveSettings',
  'a base address with a query',
  [{ reportingBaseUrl: 'https://x.example/engage/v2?key=1' }],
  'reportingBaseUrl',
  /must be an http\(s\) address/,
);
call(
  'saveSettings',
  'a javascript: base address',
  [{ reportingBaseUrl: 'javascript:alert(1)' }],
  'reportingBaseUrl',
  /must be an http\(s\) address/,
);
call(
  'saveSettings',
  'a base address with a space',
  [{ reportingBaseUrl: 'https://x example/engage/v2' }],
  'reportingBaseUrl',
  /must be an http\(s\) address/,
);
call('saveSettings', 'a number as base address', [{ reportingBaseUrl: 42 }], 'reportingBaseUrl', /must be (text|an http)/);
call(
  'saveSettings',
  'a formula as base address',
  [{ reportingBaseUrl: INJECTIONS[0]![1] }],
  'reportingBaseUrl',
  /must be an http\(s\) address/,
);
call(
  'saveSettings',
  'a mailto: recommendations address',
  [{ recommendationsUrl: 'mailto:ads@x.example' }],
  'recommendationsUrl',
  /must be an http\(s\) address/,
);
call(
  'saveSettings',
  'a script element as recommendations address',
  [{ recommendationsUrl: INJECTIONS[1]![1] }],
  'recommendationsUrl',
  /must be an http\(s\) address/,
);
call(
  'saveSettings',
  'a 3000-character recommendations address',
  [{ recommendationsUrl: `https://x.example/${'r'.repeat(3000)}` }],
  'recommendationsUrl',
  /at most \d+ characters/,
);
call('saveSettings', 'an API key with spaces', [{ apiKey: 'secret key 123' }], 'apiKey', /must not contain spaces/, {
  also: noKeyEcho('secret key 123'),
});
call('saveSettings', 'a 513-character API key', [{ apiKey: 'K'.repeat(513) }], 'apiKey', /at most 512 characters/, {
  also: noKeyEcho('K'.repeat(100)),
});
call('saveSettings', 'an API key with control characters', [{ apiKey: 'secret\u0000key' }], 'apiKey', /control character|spaces/, {
  also: noKeyEcho('secret'),
});
call('saveSettings', 'a number as API key', [{ apiKey: 123456 }], 'apiKey', /must be text/, { also: noKeyEcho('123456') });
call('saveSettings', 'a widget ID with spaces', [{ widgetId: 'APP 12' }], 'widgetId', /may hold only letters, digits/);
call('saveSettings', 'a script element as widget ID', [{ widgetId: INJECTIONS[1]![1] }], 'widgetId', /may hold only letters/);
call('saveSettings', 'a 111-character widget ID', [{ widgetId: 'W'.repeat(111) }], 'widgetId', /at most 110 characters/);
call('saveSettings', 'a widget ID with an SQL fragment', [{ widgetId: "APP_12';DROP" }], 'widgetId', /may hold only letters/);
call('saveSettings', 'a number as widget ID', [{ widgetId: 12 }], 'widgetId', /must be text/);
call(
  'saveSettings',
  'one good and one bad setting',
  [{ widgetId: 'APP_99', reportingBaseUrl: 'nope' }],
  'reportingBaseUrl',
  /must be an http\(s\) address/,
);

// runReportToSheet(request, target, runId, options), getRunProgress(runId), insertFormula(request), addChart(block).
const run = (title: string, req: unknown, argument: string, rule: RegExp, target: unknown = TARGET, runId: unknown = RUN_ID) =>
  call('runReportToSheet', title, [req, target, runId], argument, rule);
run('no request', null, 'request', /must be a report built in the sidebar/);
run('text instead of a request', 'ENGAGE_REPORT', 'request', /must be a report/);
run('an unknown report kind', request({ kind: 'weekly' }), 'kind', /must be one of main, externalId, realtime/);
run('no report kind', request({ kind: undefined }), 'kind', /must be one of/);
run('a number as entityId', request({ entityId: 653 }), 'entityId', /must be text/);
run('an object as entityId', request({ entityId: { id: P } }), 'entityId', /must be text/);
run('no entityId', request({ entityId: '' }), 'entityId', /is required/);
run('a script element as entityId', request({ entityId: INJECTIONS[1]![1] }), 'entityId', /publisher ID/);
run('an empty item in a list of publishers', request({ entityId: `${P},` }), 'entityId', /item 2 of 2 is empty/);
run('"all" with a publisher ID', request({ entityId: `${P},all` }), 'entityId', /"all" cannot be combined/);
run('a publisher ticked twice', request({ entityId: `${P},${P}` }), 'entityId', /is listed twice/);
run('an object as fromDate', request({ fromDate: { day: 1 } }), 'fromDate', /must be text/);
run('an impossible fromDate', request({ fromDate: '2026-02-30' }), 'fromDate', /is not a date/);
run(
  'a singular day ago as fromDate',
  request({ fromDate: '7dayago' }),
  'fromDate',
  /is not a date: write yyyy-MM-dd.*NdaysAgo such as 7daysAgo/,
);
run(
  'relative days the wrong way round',
  request({ fromDate: 'yesterday', toDate: '7daysAgo' }),
  'toDate',
  /is before fromDate 'yesterday'/,
);
run('toDate before fromDate', request({ fromDate: '2026-11-07', toDate: '2026-11-01' }), 'toDate', /is before fromDate/);
run('breakdowns as text instead of a list', request({ breakdowns: 'day,month' }), 'breakdowns', /must be a list/);
run('day with month', request({ breakdowns: ['day', 'month'] }), 'breakdowns', /'day' and 'month' cannot be combined/);
run('a fifth breakdown', request({ breakdowns: ['day', 'platform', 'country', 'section', 'widget'] }), 'breakdowns', /at most 4/);
run('an unknown breakdown', request({ breakdowns: ['day', 'hour'] }), 'breakdowns', /'hour' is not a breakdown/);
run(
  'doc breakdown more than 12 months back',
  request({ fromDate: '2025-01-01', toDate: '2025-01-07', breakdowns: ['doc'] }),
  'fromDate',
  /12 months/,
);
run('a malformed filter', request({ filter: 'revenue:gt:lots' }), 'filter', /'lots' is not a number/);
run('an object as filter', request({ filter: { revenue: 1 } }), 'filter', /must be text/);
run('an unknown sort field', request({ sort: 'popularity' }), 'sort', /'popularity' is not a metric/);
run('an unknown metric', request({ metrics: ['revenue', 'popularity'] }), 'metrics', /'popularity' is not a metric of the general report/);
run('a metric listed twice', request({ metrics: ['revenue', 'revenue'] }), 'metrics', /'revenue' is listed twice/);
run('an empty metric list', request({ metrics: [] }), 'metrics', /lists no metric/);
run('metrics as text instead of a list', request({ metrics: 'revenue,rpmByPvs' }), 'metrics', /must be a list of metric names/);
run(
  'a page-view metric by widget',
  request({ breakdowns: ['widget'], metrics: ['paidPvs'] }),
  'metrics',
  /not available with the 'widget' breakdown/,
);
run('an order that is not asc or desc', request({ sort: 'revenue', order: 'sideways' }), 'order', /must be 'asc' or 'desc'/);
run('a row limit of 0', request({ maxRows: 0 }), 'maxRows', /must be a whole number from 1 to 100,000/);
run('a row limit as text', request({ maxRows: '10' }), 'maxRows', /must be a whole number from 1 to 100,000/);
run('a fractional row limit', request({ maxRows: 2.5 }), 'maxRows', /must be a whole number/);
run('an unknown preset', request({ preset: 'someday' }), 'preset', /must be one of today, yesterday, last7/);
run(
  'a day preset for the realtime report',
  hourly('realtime', { preset: 'last7' }),
  'preset',
  /must be one of last24h, previous24h, custom for this report/,
);
run('an unknown currency', request({ currencyCode: 'ABC' }), 'currencyCode', /ISO 4217/);
run('decDigits of 9', request({ decDigits: 9 }), 'decDigits', /from 0 to 6/);
run('decDigits as a word', request({ decDigits: 'two' }), 'decDigits', /whole number/);
run(
  'an external-ID range over 24 hours',
  hourly('externalId', { fromDate: '2026-11-19 00:00', toDate: '2026-11-20 01:00' }),
  'toDate',
  /at most 24 hours/,
);
run('a 111-character externalId filter', hourly('externalId', { filter: `externalId:in:${LONG_111}` }), 'filter', /111 characters long/);
run(
  'a realtime start outside the window',
  hourly('realtime', { fromDate: '2026-11-10 00:00', toDate: '2026-11-10 05:00' }),
  'fromDate',
  /realtime window/,
);
run('no target', request(), 'target', /must be a new sheet, an existing sheet or the active cell/, null);
run('an unknown target type', request(), 'target', /must be a new sheet, an existing sheet or the active cell/, { type: 'elsewhere' });
run('a sheet that does not exist', request(), 'target', /the sheet 'Nope' does not exist/, { type: 'existingSheet', sheetName: 'Nope' });
run('an existing-sheet target without a name', request(), 'target', /sheet/, { type: 'existingSheet' });
run('a number as new sheet name', request(), 'target', /sheet name must be text/, { type: 'newSheet', sheetName: 42 });
run('a new sheet name with control characters', request(), 'target', /control character/, { type: 'newSheet', sheetName: 'Rep\u0000ort' });
run('a 500-character new sheet name', request(), 'target', /at most 100 characters/, { type: 'newSheet', sheetName: 'S'.repeat(500) });
run('a first cell that is a range', request(), 'target', /one cell such as A1/, {
  type: 'existingSheet',
  sheetName: 'Sheet1',
  cell: 'B3:C4',
});
run('a first cell in row 0', request(), 'target', /one cell such as A1/, { type: 'existingSheet', sheetName: 'Data', cell: 'A0' });
const answered = (title: string, options: unknown, argument: string, rule: RegExp, target: unknown = TARGET) =>
  call('runReportToSheet', title, [request(), target, RUN_ID, options], argument, rule);
answered('an answer that is not one of the choices', { choice: 'overwrite' }, 'choice', /must be one of replace, append, newSheet/);
answered('a new sheet as the answer for a cell', { choice: 'newSheet' }, 'choice', /only for a new sheet/, {
  type: 'existingSheet',
  sheetName: 'Data',
});
answered('writing below as the answer for a new sheet', { choice: 'append' }, 'choice', /not for a new sheet/, {
  type: 'newSheet',
  sheetName: 'Fresh',
});
answered('editing as text', { editing: 'yes' }, 'editing', /must be true or false/);
answered('text instead of options', 'replace', 'options', /must be \{choice, editing\}/);
call('runReportToSheet', 'no runId', [request(), TARGET], 'runId', /must be 6 to 64 letters/);
run('a short runId', request(), 'runId', /must be 6 to 64 letters/, TARGET, 'r1');
run('a runId with spaces', request(), 'runId', /must be 6 to 64 letters/, TARGET, 'run id 123');
run('a script element as runId', request(), 'runId', /must be 6 to 64 letters/, TARGET, INJECTIONS[1]![1]);
run('a number as runId', request(), 'runId', /must be 6 to 64 letters/, TARGET, 12345678);
for (const [title, runId] of [
  ['no runId', undefined],
  ['a path as runId', '../../etc/passwd'],
  ['a 100-character runId', 'r'.repeat(100)],
  ['an object as runId', { id: 'run-abcdef' }],
] as const) {
  call('getRunProgress', title, [runId], 'runId', /must be 6 to 64 letters/);
}
// createDashboard(entityId): the publisher choice of the sidebar's Create dashboard.
call('createDashboard', 'no publisher choice', [], 'entityId', /must be text/);
call('createDashboard', 'an empty choice', [''], 'entityId', /is required: choose a publisher, several publishers, or all/);
call('createDashboard', 'a blank choice', ['   '], 'entityId', /is required/);
call('createDashboard', 'a number as the choice', [653], 'entityId', /must be text/);
call('createDashboard', 'an object as the choice', [{ id: P }], 'entityId', /must be text/);
call('createDashboard', 'an ID with spaces', ['653e5ee6 b140'], 'entityId', /must not contain spaces/);
call('createDashboard', 'a formula as the ID', [INJECTIONS[0]![1]], 'entityId', /is not a publisher ID/);
call('createDashboard', 'a 200-character ID', ['a'.repeat(200)], 'entityId', /longer than 128 characters/);
call('createDashboard', 'an empty item in a list', [`${P},`], 'entityId', /item 2 of 2 is empty/);
call('createDashboard', '"all" with an ID', [`all,${P}`], 'entityId', /"all" cannot be combined/);
call('createDashboard', 'a publisher listed twice', [`${P},${P}`], 'entityId', /is listed twice/);
call('insertFormula', 'no request', [undefined], 'request', /must be a report built in the sidebar/);
call('insertFormula', 'an unknown report kind', [request({ kind: 'hourly' })], 'kind', /must be one of/);
call('insertFormula', 'breakdowns as text', [request({ breakdowns: 'day' })], 'breakdowns', /must be a list/);
call('insertFormula', 'referrer with country', [request({ breakdowns: ['referrer', 'country'] })], 'breakdowns', /cannot be combined/);
call('insertFormula', 'a formula as entityId', [request({ entityId: INJECTIONS[0]![1] })], 'entityId', /publisher ID/);
call(
  'insertFormula',
  'a list of publishers with a script element',
  [request({ entityId: `${P},<b>` })],
  'entityId',
  /is not a publisher ID/,
);
call(
  'insertFormula',
  'a realtime range over 24 hours',
  [hourly('realtime', { fromDate: '2026-11-19 00:00', toDate: '2026-11-20 10:00' })],
  'toDate',
  /at most 24 hours/,
);
call('insertFormula', 'a malformed filter', [request({ filter: 'revenue:between:1' })], 'filter', /between needs two numbers/);
call('insertFormula', 'an order that is not asc or desc', [request({ sort: 'revenue', order: 'up' })], 'order', /must be 'asc' or 'desc'/);
call('insertFormula', 'an unknown metric', [request({ metrics: ['rpm'] })], 'metrics', /'rpm' is not a metric of the general report/);
call(
  'insertFormula',
  'a metric listed twice',
  [request({ metrics: ['paidClicks', 'paidClicks'] })],
  'metrics',
  /'paidClicks' is listed twice/,
);
call('insertFormula', 'an empty metric list', [request({ metrics: [] })], 'metrics', /lists no metric/);
call('insertFormula', 'a row limit over 100,000', [request({ maxRows: 100_001 })], 'maxRows', /from 1 to 100,000/);
call('insertFormula', 'a preset as a number', [request({ preset: 7 })], 'preset', /must be one of/);
call('addChart', 'no block', [undefined], 'block', /Run a report to the sheet first/);
call('addChart', 'text instead of a block', ['Data!A1:B2'], 'block', /Run a report to the sheet first/);
call(
  'addChart',
  'a block on a sheet that does not exist',
  [{ sheetName: 'Nope', row: 1, column: 1, rows: 3, columns: 2 }],
  'block',
  /Run a report to the sheet first/,
);
call('addChart', 'a block at row 0', [{ sheetName: 'Data', row: 0, column: 1, rows: 3, columns: 2 }], 'block', /not where it was/);
call(
  'addChart',
  'a block at a negative column',
  [{ sheetName: 'Data', row: 1, column: -2, rows: 3, columns: 2 }],
  'block',
  /not where it was/,
);
call(
  'addChart',
  'a block beyond the sheet',
  [{ sheetName: 'Data', row: 1, column: 1, rows: 1e9, columns: 2 }],
  'block',
  /no longer fits inside the sheet 'Data'/,
);
call(
  'addChart',
  'a block with text for numbers',
  [{ sheetName: 'Data', row: '1', column: '1', rows: '3', columns: '2' }],
  'block',
  /not where it was/,
);
call(
  'addChart',
  'a block of data that is not a daily report',
  [{ sheetName: 'Data', row: 1, column: 2, rows: 2, columns: 2 }],
  'block',
  /general report broken down by day/,
);

// previewRecommendations(request).
const preview = (title: string, req: unknown, argument: string, rule: RegExp) =>
  call('previewRecommendations', title, [req], argument, rule);
preview('no request', undefined, 'contentUrl', /is required/);
preview('text instead of a request', 'shoes', 'contentUrl', /is required/);
preview('a sentence as contentUrl', { contentUrl: 'not an address' }, 'contentUrl', /must be an http\(s\) address or a domain/);
preview('a javascript: address', { contentUrl: 'javascript:alert(1)' }, 'contentUrl', /must be an http\(s\) address/);
preview('an object as keywords', { contentUrl: 'news.example', keywords: { a: 1 } }, 'keywords', /must be text/);
preview(
  '101 keywords',
  { contentUrl: 'news.example', keywords: Array.from({ length: 101 }, (_, i) => `k${i}`) },
  'keywords',
  /more than the 100 allowed/,
);
preview('a word as category', { contentUrl: 'news.example', iabCategories: ['sports'] }, 'iabCategories', /is not an IAB category code/);
preview('a script element as widget', { contentUrl: 'news.example', widgetJSId: INJECTIONS[1]![1] }, 'widgetJSId', /must be a widget ID/);
preview('testMode as a word', { contentUrl: 'news.example', testMode: 'perhaps' }, 'testMode', /must be TRUE or FALSE/);
preview('testMode as a number', { contentUrl: 'news.example', testMode: 1 }, 'testMode', /must be TRUE or FALSE/);

// saveSchedule(report), updateSchedule(id, report), runScheduleNow(id), pauseSchedule(id, paused), deleteSchedule(id).
const save = (title: string, extra: Record<string, unknown>, argument: string, rule: RegExp) =>
  call('saveSchedule', title, [savedReport(extra)], argument, rule);
call('saveSchedule', 'no report', [undefined], 'report', /must be a saved report/);
call('saveSchedule', 'text instead of a report', ['Daily revenue'], 'report', /must be a saved report/);
save('an unknown field', { colour: 'red' }, 'colour', /is not a field of a saved report/);
// The tests' default build has no "bigquery": true, so a BigQuery destination is refused first of all.
save(
  'a BigQuery destination in an installation without BigQuery',
  { bigquery: { projectId: 'engage-tests-1', datasetId: 'engage_reports', tableId: 'daily', location: 'EU' } },
  'bigquery',
  /this installation of Engage does not load into BigQuery/,
);
save('no name', { name: undefined }, 'name', /is required/);
save('an empty name', { name: '   ' }, 'name', /is required/);
save('a 101-character name', { name: 'n'.repeat(101) }, 'name', /at most 100 characters/);
save('a name with control characters', { name: 'Daily\u0000revenue' }, 'name', /control character/);
save('a number as name', { name: 7 }, 'name', /is required|must be text/);
save('an unknown kind', { kind: 'weekly' }, 'kind', /must be 'main', 'externalId' or 'realtime'/);
save('no entityId', { entityId: '' }, 'entityId', /is required/);
save('a script element as entityId', { entityId: INJECTIONS[1]![1] }, 'entityId', /publisher ID/);
save('"all" with a publisher ID', { entityId: `all,${P}` }, 'entityId', /"all" cannot be combined/);
save('an empty item in a list of publishers', { entityId: `${P},,${P}` }, 'entityId', /is empty/);
save('no period', { period: undefined }, 'period', /must be a period/);
save('an unknown period', { period: { type: 'weekly' } }, 'period', /must be a period/);
save('zero days', { period: { type: 'lastDays', days: 0 } }, 'period.days', /at least 1 day/);
save('400 days', { period: { type: 'lastDays', days: 400 } }, 'period.days', /at most 366 days/);
save('hours on the general report', { period: { type: 'lastHours', hours: 5 } }, 'period', /the general report covers days/);
save(
  'days on the realtime report',
  { kind: 'realtime', breakdowns: undefined, period: { type: 'lastDays', days: 1 } },
  'period',
  /covers hours: use 'lastHours'/,
);
save(
  '25 hours on the external-ID report',
  { kind: 'externalId', breakdowns: undefined, period: { type: 'lastHours', hours: 25 } },
  'period.hours',
  /at most 24 hours/,
);
save('an impossible since day', { period: { type: 'since', fromDate: '20261301' } }, 'fromDate', /is not a date/);
save('a fixed range backwards', { period: { type: 'fixed', fromDate: '20261110', toDate: '20261101' } }, 'toDate', /is before fromDate/);
save(
  'a doc breakdown over a range older than 12 months',
  { breakdowns: ['doc'], period: { type: 'fixed', fromDate: '20250101', toDate: '20250107' } },
  'fromDate',
  /12 months/,
);
save('day with month', { breakdowns: ['day', 'month'] }, 'breakdowns', /cannot be combined/);
save('a fifth breakdown', { breakdowns: ['day', 'platform', 'country', 'section', 'widget'] }, 'breakdowns', /at most 4/);
save('breakdowns as text', { breakdowns: 'day' }, 'breakdowns', /must be a list/);
save('a malformed filter', { filter: 'revenue:gt:' }, 'filter', /missing value/);
save('a 2001-character filter', { filter: `section.name:contains:${'s'.repeat(1980)}` }, 'filter', /at most 2000 characters/);
save('an unknown sort field', { sort: 'popularity' }, 'sort', /is not a metric/);
save('an unknown metric', { metrics: ['revenue', 'popularity'] }, 'metrics', /'popularity' is not a metric of the general report/);
save('a metric listed twice', { metrics: ['revenue', 'revenue'] }, 'metrics', /'revenue' is listed twice/);
save('an empty metric list', { metrics: [] }, 'metrics', /lists no metric/);
save('metrics as text instead of a list', { metrics: 'revenue' }, 'metrics', /must be a list of metric names/);
save('a request metric without the widget breakdown', { metrics: ['totalReqs'] }, 'metrics', /only available with the 'widget' breakdown/);
save('a four-letter currency', { currencyCode: 'EURO' }, 'currencyCode', /three-letter currency code/);
save('decDigits of 7', { decDigits: 7 }, 'decDigits', /from 0 to 6/);
save('a page size of 0', { pageSize: 0 }, 'pageSize', /from 1 to 10000/);
save('a page size above the report maximum', { pageSize: 20000 }, 'pageSize', /from 1 to 10000/);
save('maxRows of 0', { maxRows: 0 }, 'maxRows', /from 1 to 100000/);
save('no target', { target: undefined }, 'target', /sheet name and a cell/);
save('a target without a sheet name', { target: { sheetName: '', cell: 'A1' } }, 'target.sheetName', /needs a sheet name/);
save('a target cell in row 0', { target: { sheetName: 'Data', cell: 'A0' } }, 'target.cell', /must be one cell such as A1/);
save('a target range instead of a cell', { target: { sheetName: 'Data', cell: 'A1:B2' } }, 'target.cell', /must be one cell/);
save(
  'a target sheet name with control characters',
  { target: { sheetName: 'Da\u0007ta', cell: 'A1' } },
  'target.sheetName',
  /control character/,
);
save('no schedule', { schedule: undefined }, 'schedule', /must say how often/);
save('every minute', { schedule: { every: 'minute' } }, 'schedule', /must say how often/);
save('every hour with hours', { schedule: { every: 'hours', hours: 1 } }, 'schedule.hours', /from 2 to 12/);
save('daily at hour 24', { schedule: { every: 'day', hour: 24 } }, 'schedule.hour', /from 0 to 23/);
save('daily without an hour', { schedule: { every: 'day' } }, 'schedule.hour', /from 0 to 23/);
save('weekly on a made-up day', { schedule: { every: 'week', weekday: 'funday', hour: 6 } }, 'schedule.weekday', /must be one of sunday/);
// Monthly: a day of the month from 1 to 31 (31 is every month's last day) at a whole hour.
const monthly = (day: unknown, hour: unknown = 6) => ({ schedule: { every: 'month', day, hour } });
save('monthly on day 0', monthly(0), 'schedule.day', /must be a whole day of the month from 1 to 31/);
save('monthly on day 32', monthly(32), 'schedule.day', /must be a whole day of the month from 1 to 31/);
save('monthly on day 1.5', monthly(1.5), 'schedule.day', /must be a whole day of the month from 1 to 31/);
save('monthly on day "15" as text', monthly('15'), 'schedule.day', /must be a whole day of the month/);
save('monthly without a day', { schedule: { every: 'month', hour: 6 } }, 'schedule.day', /must be a whole day of the month/);
save('monthly at hour 24', monthly(15, 24), 'schedule.hour', /from 0 to 23/);
save('monthly at hour 6.5', monthly(15, 6.5), 'schedule.hour', /from 0 to 23/);
save('monthly with a weekday', { schedule: { every: 'month', day: 1, hour: 6, weekday: 'monday' } }, 'schedule.weekday', /is not a field/);
save(
  'incremental on the external-ID report',
  { kind: 'externalId', breakdowns: undefined, period: { type: 'lastHours', hours: 3 }, incremental: true },
  'incremental',
  /needs the general report broken down by day/,
);
save(
  'incremental over a fixed range',
  { incremental: true, period: { type: 'fixed', fromDate: '20261101', toDate: '20261107' } },
  'incremental',
  /needs a period that moves/,
);
save('incremental with maxRows', { incremental: true, maxRows: 10 }, 'incremental', /cannot be combined with maxRows/);
save('totals with incremental', { incremental: true, totals: true }, 'totals', /cannot be combined with incremental/);
save('paused as text', { paused: 'yes' }, 'paused', /must be true or false/);
save('an unknown write mode', { writeMode: 'merge' }, 'writeMode', /must be 'replace', 'append' or 'upsert'/);
save('a write mode in capitals', { writeMode: 'APPEND' }, 'writeMode', /must be 'replace', 'append' or 'upsert'/);
save('a list as write mode', { writeMode: ['append'] }, 'writeMode', /must be 'replace', 'append' or 'upsert'/);
save('a row cap of 0', { writeMode: 'append', maxStoredRows: 0 }, 'maxStoredRows', /whole number from 1 to 1000000/);
save('a row cap that is not whole', { writeMode: 'upsert', maxStoredRows: 2.5 }, 'maxStoredRows', /whole number from 1 to 1000000/);
save('a row cap above a million', { writeMode: 'append', maxStoredRows: 1_000_001 }, 'maxStoredRows', /whole number from 1 to 1000000/);
save('a row cap as text', { writeMode: 'append', maxStoredRows: '5000' }, 'maxStoredRows', /whole number from 1 to 1000000/);
save('a row cap on a replace', { maxStoredRows: 5000 }, 'maxStoredRows', /applies to writeMode 'append' or 'upsert' only/);
save(
  'an upsert of a comparison',
  { writeMode: 'upsert', compareWith: 'previous' },
  'writeMode',
  /'upsert' cannot take a comparison: .*'append'/,
);
save('an append that is incremental', { writeMode: 'append', incremental: true }, 'writeMode', /cannot be combined with incremental/);
save('a Total row in an append', { writeMode: 'append', totals: true }, 'totals', /cannot be combined with writeMode 'append'/);
save('a closed month that is no month', { closedThrough: '2026-13' }, 'closedThrough', /must be a month as yyyy-MM/);
save('a day as the closed month', { closedThrough: '2026-10-31' }, 'closedThrough', /must be a month as yyyy-MM/);
save('a closed month not over yet', { closedThrough: '2026-11' }, 'closedThrough', /2026-11 has not ended yet/);
save('closed months of a report by month', { breakdowns: ['month'], closedThrough: '2026-10' }, 'closedThrough', /of a daily report only/);
// Notices and alerts (issue 22): a webhook outside the deployment's webhookPrefixes, unknown settings,
// rules on unknown metrics and thresholds no figure can reach; the webhook's key is never echoed.
const noSecret = (message: string) => expect(message).not.toContain('SECRET-W');
call(
  'saveSchedule',
  'a webhook outside the whitelist',
  [savedReport({ notices: { webhook: 'https://hooks.example.org/notify?key=SECRET-W' } })],
  'notices.webhook',
  /^notices\.webhook: \('https:\/\/hooks\.example\.org\/…'\) must start with https:\/\/chat\.googleapis\.com\/v1\/spaces\/ or https:\/\/hooks\.slack\.com\/services\//,
  { also: noSecret },
);
call(
  'saveSchedule',
  'a plain-http webhook',
  [savedReport({ notices: { webhook: 'http://hooks.slack.com/services/T/B/SECRET-W' } })],
  'notices.webhook',
  /must be an https address/,
  { also: noSecret },
);
call(
  'updateSchedule',
  'a good id with a webhook outside the whitelist',
  () => [ownerReportId, savedReport({ notices: { webhook: 'https://chat.example.net/v1/spaces/A/messages?key=SECRET-W' } })],
  'notices.webhook',
  /the webhook addresses this installation of Engage may post to/,
  { also: noSecret },
);
save('an unknown notice setting', { notices: { when: 'failure', sms: true } }, 'notices.sms', /is not a field of a saved report/);
save('notices when "sometimes"', { notices: { when: 'sometimes' } }, 'notices.when', /must be 'failure' .*'always' .* or 'never'/);
save('notices by email as text', { notices: { email: 'yes' } }, 'notices.email', /must be true or false/);
save('notices as text', { notices: 'on failure' }, 'notices', /must be the notice settings/);
save(
  'an alert on an unknown metric',
  { alerts: [{ kind: 'below', metric: 'popularity', value: 5 }] },
  'alerts.0.metric',
  /'popularity' is not a metric of the general report/,
);
save(
  'an alert below 0',
  { alerts: [{ kind: 'below', metric: 'revenue', value: -5 }] },
  'alerts.0.value',
  /-5 can never be reached: Revenue is never below 0/,
);
save(
  'an alert on a drop of more than 100%',
  { alerts: [{ kind: 'change', metric: 'revenue', against: 'previousDay', percent: 120 }] },
  'alerts.0.percent',
  /cannot drop by more than 100%/,
);
save(
  'a viewability alert above 100',
  { metrics: ['revenue', 'viewabilityRate'], alerts: [{ kind: 'above', metric: 'viewabilityRate', value: 101 }] },
  'alerts.0.value',
  /101 can never be passed: Viewability is a percentage of at most 100/,
);
save('an alert threshold as text', { alerts: [{ kind: 'above', metric: 'revenue', value: 'lots' }] }, 'alerts.0.value', /must be a number/);
save(
  'a drop-to-0 alert on a key the report lacks',
  { alerts: [{ kind: 'zero', metric: 'revenue', key: 'widget' }] },
  'alerts.0.key',
  /needs the report broken down by day and by a key/,
);
save('an alert of an unknown kind', { alerts: [{ kind: 'whenever', metric: 'revenue' }] }, 'alerts.0.kind', /must be an alert rule/);
call('updateSchedule', 'no id', [undefined, savedReport()], 'id', /must be the id of a saved report/);
call('updateSchedule', 'an unknown id', ['nope', savedReport()], 'id', /is not a saved report/);
call('updateSchedule', "another editor's report", () => [editorReportId, savedReport()], 'id', /was saved by another editor/);
call(
  'updateSchedule',
  'a good id with day and month',
  () => [ownerReportId, savedReport({ breakdowns: ['day', 'month'] })],
  'breakdowns',
  /cannot be combined/,
);
call(
  'updateSchedule',
  'a good id with an unknown metric',
  () => [ownerReportId, savedReport({ metrics: ['nope'] })],
  'metrics',
  /'nope' is not a metric/,
);
call(
  'updateSchedule',
  'a good id with a bad schedule',
  () => [ownerReportId, savedReport({ schedule: { every: 'fortnight' } })],
  'schedule',
  /must say how often/,
);
call('updateSchedule', 'a good id with no report', () => [ownerReportId, null], 'report', /must be a saved report/);
call(
  'updateSchedule',
  'a good id with an unknown write mode',
  () => [ownerReportId, savedReport({ writeMode: 'overwrite' })],
  'writeMode',
  /must be 'replace', 'append' or 'upsert'/,
);
call(
  'updateSchedule',
  'an appending report made a replace where its rows are kept',
  () => [appendReportId, savedReport({ name: 'Kept rows', target: { sheetName: 'Kept', cell: 'A1' }, paused: true })],
  'writeMode',
  /cannot turn 'append' into 'replace' at Kept!A1: the next run would write over the 7 rows it kept there/,
);
call('runScheduleNow', 'no id', [undefined], 'id', /must be the id of a saved report/);
call('runScheduleNow', 'an unknown id', ['nope'], 'id', /is not a saved report/);
call('runScheduleNow', 'a number as id', [42], 'id', /must be the id of a saved report/);
call('runScheduleNow', "another editor's report", () => [editorReportId], 'id', /was saved by another editor/);
call('pauseSchedule', 'an unknown id', ['nope', true], 'id', /is not a saved report/);
call('pauseSchedule', 'paused as text', () => [ownerReportId, 'yes'], 'paused', /must be true or false/);
call('pauseSchedule', 'paused as a number', () => [ownerReportId, 1], 'paused', /must be true or false/);
call('pauseSchedule', 'paused left out', () => [ownerReportId], 'paused', /must be true or false/);
call('pauseSchedule', "another editor's report", () => [editorReportId, true], 'id', /was saved by another editor/);
call('deleteSchedule', 'no id', [undefined], 'id', /must be the id of a saved report/);
call('deleteSchedule', 'an unknown id', ['nope'], 'id', /is not a saved report/);
call('deleteSchedule', 'a list as id', [['a']], 'id', /must be the id of a saved report/);
call('deleteSchedule', "another editor's report", () => [editorReportId], 'id', /was saved by another editor/);
call('deleteSchedule', "the owner's report, by the editor", () => [ownerReportId], 'id', /was saved by another editor/, { user: EDITOR });

// setFormulaAccess(policy): what formulas in the spreadsheet may use, by its owner (issue 21).
call('setFormulaAccess', 'no policy', [], 'policy', /must say what formulas may use/);
call('setFormulaAccess', 'a policy that is text', ['chosen'], 'policy', /must say what formulas may use: \{mode, publishers\}/);
call('setFormulaAccess', 'an unknown mode', [{ mode: 'some' }], 'mode', /'some' is not a choice: give "all" \(every publisher\), "chosen"/);
call('setFormulaAccess', 'a mode in capitals', [{ mode: 'ALL' }], 'mode', /'ALL' is not a choice/);
call('setFormulaAccess', 'no mode', [{ publishers: [P] }], 'mode', /left out is not a choice/);
call('setFormulaAccess', 'a mode that is a list', [{ mode: ['all'] }], 'mode', /is not a choice/);
call('setFormulaAccess', 'chosen with no publisher', [{ mode: 'chosen', publishers: [] }], 'publishers', /at least one publisher/);
call('setFormulaAccess', 'chosen with publishers left out', [{ mode: 'chosen' }], 'publishers', /at least one publisher/);
call('setFormulaAccess', 'publishers as one text', [{ mode: 'chosen', publishers: P }], 'publishers', /must be a list of publisher IDs/);
call(
  'setFormulaAccess',
  'an unknown publisher ID that breaks the ID rule',
  [{ mode: 'chosen', publishers: ['no such publisher'] }],
  'publishers',
  /'no such publisher' must not contain spaces/,
);
call(
  'setFormulaAccess',
  'a publisher ID with markup',
  [{ mode: 'chosen', publishers: ['<script>alert(1)</script>'] }],
  'publishers',
  /is not a publisher ID/,
);
call('setFormulaAccess', 'a publisher listed twice', [{ mode: 'chosen', publishers: [P, P] }], 'publishers', /is listed twice/);
call('setFormulaAccess', 'a publisher as a number', [{ mode: 'chosen', publishers: [653] }], 'publishers', /publisher IDs as text/);
call(
  'setFormulaAccess',
  'publishers with "none"',
  [{ mode: 'none', publishers: [P] }],
  'publishers',
  /only with mode "chosen", not "none"/,
);
call(
  'setFormulaAccess',
  '101 publishers',
  [{ mode: 'chosen', publishers: Array.from({ length: 101 }, (_, i) => `p${i}`) }],
  'publishers',
  /lists 101 publishers; a choice lists at most 100/,
);

// "Compare with" in runReportToSheet, insertFormula and saveSchedule.
{
  const target = { type: 'existingSheet', sheetName: 'Data' };
  call(
    'runReportToSheet',
    'a compareWith it does not know',
    [request({ compareWith: 'last week' }), target, RUN_ID],
    'compareWith',
    /'last week' must be "previous", "year"/,
  );
  call(
    'runReportToSheet',
    'a compareWith that is not text',
    [request({ compareWith: 7 }), target, RUN_ID],
    'compareWith',
    /must be text such as "previous"/,
  );
  call(
    'runReportToSheet',
    'a comparison of an hourly report',
    [hourly('externalId', { compareWith: 'previous' }), target, RUN_ID],
    'compareWith',
    /compares the general report only/,
  );
  call(
    'runReportToSheet',
    'a custom period that overlaps the report',
    [request({ compareWith: '2026-11-05..2026-11-12' }), target, RUN_ID],
    'compareWith',
    /must end before the report's first day 2026-11-01/,
  );
  call(
    'insertFormula',
    'a custom period with its days reversed',
    [request({ compareWith: '2026-10-07..2026-10-01' })],
    'compareWith',
    /is before its first day/,
  );
  call('insertFormula', 'a malformed custom period', [request({ compareWith: '2026-10-01...2026-10-07' })], 'compareWith', /is not a date/);
  call(
    'saveSchedule',
    'a compareWith it does not know',
    [savedReport({ compareWith: 'sometime' })],
    'compareWith',
    /must be "previous", "year", "yearWeekday" or an earlier period/,
  );
  call('saveSchedule', 'a compareWith that is not text', [savedReport({ compareWith: ['previous'] })], 'compareWith', /must be text/);
  call(
    'saveSchedule',
    'the same weekdays a year earlier by month',
    [savedReport({ breakdowns: ['month'], compareWith: 'yearWeekday' })],
    'compareWith',
    /"yearWeekday" lines up each day with the same weekday a year earlier, which the month breakdown does not show: use "year"/,
  );
  call(
    'runReportToSheet',
    'the same weekdays a year earlier by month',
    [request({ breakdowns: ['month'], compareWith: 'yearWeekday' }), target, RUN_ID],
    'compareWith',
    /"yearWeekday" lines up each day with the same weekday/,
  );
  call(
    'insertFormula',
    'the same weekdays a year earlier, written with a space',
    [request({ compareWith: 'year weekday' })],
    'compareWith',
    /'year weekday' must be "previous", "year", "yearWeekday"/,
  );
  call(
    'saveSchedule',
    'a comparison refreshed incrementally',
    [savedReport({ compareWith: 'previous', incremental: true })],
    'incremental',
    /cannot be combined with a comparison: both periods are fetched whole at each refresh/,
  );
  call(
    'saveSchedule',
    'a comparison of the external-ID report',
    [savedReport({ kind: 'externalId', period: { type: 'lastHours', hours: 24 }, breakdowns: ['externalId'], compareWith: 'previous' })],
    'compareWith',
    /compares the general report only/,
  );
  call(
    'saveSchedule',
    'a fixed custom period that overlaps the saved period',
    [savedReport({ period: { type: 'fixed', fromDate: '20261101', toDate: '20261107' }, compareWith: '2026-11-07..2026-11-08' })],
    'compareWith',
    /must end before the report's first day 2026-11-01/,
  );
  call(
    'updateSchedule',
    'a compareWith it does not know',
    () => [ownerReportId, savedReport({ compareWith: 'yesteryear' })],
    'compareWith',
    /must be "previous", "year"/,
  );
}
// Issue 23 in the report builder (Run to sheet, Insert formula) and in saved reports: the filter types and the misspelt names.
for (const [title, breakdowns, filter, rule] of TYPE_MISMATCHES.filter((_, i) => i % 3 === 0)) {
  run(`a filter of ${title}`, request({ breakdowns: breakdowns.split(','), filter }), 'filter', rule);
  call('insertFormula', `a filter of ${title}`, [request({ breakdowns: breakdowns.split(','), filter })], 'filter', rule);
  save(`a filter of ${title}`, { breakdowns: breakdowns.split(','), filter }, 'filter', rule);
}
run(
  'the issue’s revenue contains abc',
  request({ filter: 'revenue:contains:abc' }),
  'filter',
  /contains does not apply to revenue, a number/,
);
save('revenue contains abc', { filter: 'revenue:contains:abc' }, 'filter', /contains does not apply to revenue, a number/);
run('a misspelt breakdown', request({ breakdowns: ['day', 'contry'] }), 'breakdowns', /did you mean 'country'\?/);
run('a misspelt metric', request({ metrics: ['revnue'] }), 'metrics', /did you mean 'revenue'\?/);
run('a misspelt operator', request({ filter: 'revenue:gte:1' }), 'filter', /did you mean 'gt'\?/);
run('a misspelt filter field', request({ filter: 'revnue:gt:1' }), 'filter', /did you mean 'revenue'\?/);
run('a misspelt sort field', request({ sort: 'revenu' }), 'sort', /did you mean 'revenue'\?/);
call('insertFormula', 'a misspelt breakdown', [request({ breakdowns: ['day', 'contry'] })], 'breakdowns', /did you mean 'country'\?/);
call('insertFormula', 'a misspelt operator', [request({ filter: 'revenue:gte:1' })], 'filter', /did you mean 'gt'\?/);
// Explain the change: its run to a sheet, and its formula beside a comparison that is no longer there.
const explained = (explain: unknown, extra: Record<string, unknown> = { compareWith: 'previous' }) => request({ ...extra, explain });
call('runExplanationToSheet', 'no explain', [request({ compareWith: 'previous' }), TARGET], 'explain', /is required/);
call(
  'runExplanationToSheet',
  'no comparison',
  [explained({ metric: 'revenue', breakdowns: ['widget'] }, {}), TARGET],
  'explain',
  /compare with/,
);
call('runExplanationToSheet', 'an unknown metric', [explained({ metric: 'revnue', breakdowns: ['widget'] }), TARGET], 'metric', /revenue/);
call(
  'runExplanationToSheet',
  'a date breakdown',
  [explained({ metric: 'revenue', breakdowns: ['day'] }), TARGET],
  'breakdowns',
  /change over time/,
);
call(
  'insertFormula',
  'ENGAGE_EXPLAIN beside a sheet that is gone',
  [explained({ metric: 'revenue', breakdowns: ['widget'] }), { at: { sheetName: 'Gone', cell: 'H40' } }],
  'target',
  /not there any more/,
);
save('a misspelt breakdown', { breakdowns: ['day', 'contry'] }, 'breakdowns', /did you mean 'country'\?/);
save('a misspelt metric', { metrics: ['revnue'] }, 'metrics', /did you mean 'revenue'\?/);
save('a misspelt operator', { filter: 'revenue:gte:1' }, 'filter', /did you mean 'gt'\?/);
save('a misspelt filter field', { filter: 'revnue:gt:1' }, 'filter', /did you mean 'revenue'\?/);
save('a misspelt sort field', { sort: 'revenu' }, 'sort', /did you mean 'revenue'\?/);
const BUILDER_FUNCTIONS = new Set(['runReportToSheet', 'runExplanationToSheet', 'insertFormula', 'addChart']);

describe('sidebar server functions refuse bad input before any request, changing nothing', () => {
  it.each(CALL_CASES.map((c) => [`${c.fn}: ${c.title}`, c] as const))('%s', async (_name, c) => {
    const args = typeof c.args === 'function' ? c.args() : c.args;
    const fetchesBefore = h.host.fetchLog.length;
    const before = snapshot();
    const outcome = h.host.run(c.fn, args, { user: c.user ?? OWNER });
    expect(outcome.ok).toBe(false);
    const message = outcome.error?.message;
    // The report builder's functions name a field by its label in the sidebar; the chart's block by no name at all.
    if (c.argument === 'block') {
      expect(message).toMatch(c.rule);
      expect(message).not.toMatch(/\bblock\b/);
    } else expectNamed(message, BUILDER_FUNCTIONS.has(c.fn) ? (BUILDER_FIELD_LABELS[c.argument] ?? c.argument) : c.argument, c.rule);
    c.also?.(message!);
    expect(snapshot()).toEqual(before);
    await expectNothingSent(fetchesBefore);
  });
});

// ---------------------------------------------------------------- what only the service can know

/**
 * One input is well formed and yet wrong, and only the service knows it: which publishers the
 * signed-in user may see. It costs exactly one request, and the service's answer still names the
 * argument. (Which real currencies Engage converts into is the add-on's one list,
 * SUPPORTED_CURRENCY_CODES, so a currency outside it is refused above without a request.)
 */
describe('inputs only the service can refuse cost one request and still name the argument', () => {
  it.each([
    [
      'a well-formed publisher ID the user may not see',
      ['ffffffffffffffffffffffffffffffff', '2026-11-01', '2026-11-07'],
      'entityId',
      /Engage denied access .*entityId/,
    ],
  ] as const)('%s', async (_title, args, argument, rule) => {
    const { text } = typeArguments('ENGAGE_REPORT', [...args]);
    const before = snapshot('F!1:1');
    const countBefore = fetchCount();
    const result = h.host.evaluateFormula('F', 'A1', text, { user: OWNER });
    try {
      expect(result.value).toBe('#ERROR!');
      expect(result.error).toContain(argument);
      expect(result.error).toMatch(rule);
      expect(result.error).toMatch(/\[trace ID [\w-]+\]/);
      expect((await h.apiRequests()).map((r) => r.path)).toEqual(['/engage/v2/reports/main']);
      expect(snapshot('F!1:1')).toEqual(before);
      expect(fetchCount()).toBe(countBefore + 1);
    } finally {
      h.host.setCell('F', 'A1', '');
    }
  });
});

describe("a publisher the owner's sign-in does not see, in the formulas choice", () => {
  it('costs the one publishers lookup, names publishers, and saves nothing', async () => {
    const before = snapshot();
    const outcome = h.host.run('setFormulaAccess', [{ mode: 'chosen', publishers: [P, 'ffffffffffffffffffffffffffffffff'] }], {
      user: OWNER,
    });
    expect(outcome.ok).toBe(false);
    expectNamed(
      outcome.error?.message,
      'publishers',
      /'ffffffffffffffffffffffffffffffff' is not one of the 3 publishers your Engage sign-in sees/,
    );
    expect((await h.apiRequests()).map((r) => r.path)).toEqual(['/engage/v2/publishers']);
    expect(snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------- the tagging helper (in the sidebar page, no server call)

describe('the tagging helper refuses IDs Engage cannot keep', () => {
  it.each([
    ['a 111-character externalId', { externalId: LONG_111 }, 'externalId', /is 111 characters long; Engage keeps at most 110/],
    [
      'a 111-character externalSecondaryId',
      { externalId: 'story-1', externalSecondaryId: LONG_111 },
      'externalSecondaryId',
      /is 111 characters long/,
    ],
    ['an empty externalId', { externalId: '  ' }, 'externalId', /is required/],
    ['control characters in an externalId', { externalId: 'story\u0000-1' }, 'externalId', /control character/],
  ] as const)('%s', (_title, ids, argument, rule) => {
    const problems = taggingProblems(ids);
    expectNamed(problems.map((p) => p.message).join('; '), argument, rule);
  });
});

// ---------------------------------------------------------------- what reaches Engage, as the README says

/**
 * The README: "Only one kind of bad input reaches Engage, because only it knows it: a publisher ID you
 * have no access to". A table of bad inputs of every kind, through a formula, the builder and a saved
 * report, each refused; the emulator counts what reached it, and only the unknown publisher ID did.
 */
describe('only a publisher ID the user may not see reaches Engage', () => {
  const formula = (args: Arg[]) => () => {
    const result = h.host.evaluateFormula('F', 'A1', typeArguments('ENGAGE_REPORT', args).text, { user: OWNER });
    h.host.setCell('F', 'A1', '');
    return result.value === '#ERROR!';
  };
  const server = (fn: string, args: unknown[]) => () => !h.host.run(fn, args, { user: OWNER }).ok;
  const dates = [P, '2026-11-01', '2026-11-07'];
  const table: Array<[string, () => boolean]> = [
    ['formula: revenue contains abc', formula([...dates, 'day', undefined, 'revenue:contains:abc'])],
    ['formula: gt on a country ID', formula([...dates, 'day,country', undefined, 'country.id:gt:1'])],
    ['formula: contains on a day', formula([...dates, 'day', undefined, 'day:contains:2026'])],
    ['formula: a day not written yyyyMMdd', formula([...dates, 'day', undefined, 'day:in:2026-11-01'])],
    ['formula: revenue>100', formula([...dates, 'day', undefined, 'revenue>100'])],
    ['formula: breakdown contry', formula([...dates, 'day,contry'])],
    ['formula: metric revnue', formula([...dates, 'day', 'revnue'])],
    ['formula: operator gte', formula([...dates, 'day', undefined, 'revenue:gte:1'])],
    ['formula: field revnue', formula([...dates, 'day', undefined, 'revnue:gt:1'])],
    ['formula: a currency Engage does not report in', formula([...dates, 'day', undefined, undefined, undefined, undefined, 'XAU'])],
    ['builder: revenue contains abc', server('runReportToSheet', [request({ filter: 'revenue:contains:abc' }), TARGET, RUN_ID])],
    ['builder: breakdown contry', server('runReportToSheet', [request({ breakdowns: ['day', 'contry'] }), TARGET, RUN_ID])],
    [
      'builder: text compared as a number',
      server('insertFormula', [request({ breakdowns: ['day', 'country'], filter: 'country.name:gt:1' })]),
    ],
    ['saved report: revenue contains abc', server('saveSchedule', [savedReport({ filter: 'revenue:contains:abc' })])],
    ['saved report: operator gte', server('saveSchedule', [savedReport({ filter: 'revenue:gte:1' })])],
    ['formula: a well-formed publisher ID the user may not see', formula(['ffffffffffffffffffffffffffffffff', '2026-11-01', '2026-11-07'])],
  ];

  it('of a table of bad inputs, each refused, only the unknown publisher ID sent a request', async () => {
    const refused: Record<string, boolean> = {};
    const sent: Record<string, number> = {};
    for (const [title, act] of table) {
      await h.emulator.clearRequests();
      refused[title] = act();
      sent[title] = (await h.apiRequests()).length;
    }
    expect(Object.values(refused).every(Boolean)).toBe(true);
    expect(sent).toEqual(Object.fromEntries(table.map(([title]) => [title, title.endsWith('may not see') ? 1 : 0])));
  });
});

describe('the table', () => {
  it('holds at least 150 bad inputs over every custom function and every sidebar function that takes input', () => {
    const total = FORMULA_CASES.length + CALL_CASES.length + 4;
    console.log(`bad inputs: ${total}`);
    expect(total).toBeGreaterThanOrEqual(150);
    // The formulas page says how many this file proves.
    const page = readFileSync(path.join(repoRoot, 'docs/formulas.md'), 'utf8');
    expect(/proves this for ([\d,]+) bad inputs/.exec(page)?.[1]).toBe(total.toLocaleString('en-US'));
    expect(new Set(FORMULA_CASES.map((c) => c.fn))).toEqual(
      new Set([
        'ENGAGE_REPORT',
        'ENGAGE_EXTERNALID_REPORT',
        'ENGAGE_REALTIME_REPORT',
        'ENGAGE_PUBLISHERS',
        'ENGAGE_WIDGETS',
        'ENGAGE_NATIVEAPPS',
        'ENGAGE_COUNTRIES',
        'ENGAGE_TIMEZONES',
        'ENGAGE_RECOMMENDATIONS',
        'ENGAGE_COMPARE',
        'ENGAGE_EXPLAIN',
      ]),
    );
    expect(new Set(CALL_CASES.map((c) => c.fn))).toEqual(
      new Set([
        'signIn',
        'signInAllowance',
        'signInWithToken',
        'saveSettings',
        'runReportToSheet',
        'runExplanationToSheet',
        'getRunProgress',
        'insertFormula',
        'createDashboard',
        'addChart',
        'previewRecommendations',
        'saveSchedule',
        'updateSchedule',
        'runScheduleNow',
        'pauseSchedule',
        'deleteSchedule',
        'setFormulaAccess',
      ]),
    );
  });
});

// ---------------------------------------------------------------- BigQuery destinations

/**
 * A saved report into BigQuery, in a build with "bigquery": true whose BigQuery calls go to the
 * emulator's stand-in. Names BigQuery refuses and a missing project are refused before anything is
 * sent (no request to Engage or BigQuery). Where the dataset is and what an existing table holds only
 * BigQuery knows: the save asks it (datasets.get, then tables.get) and sends nothing else, creates
 * nothing, loads nothing. Either way nothing is saved: no saved report, no property, no trigger.
 */
describe('a BigQuery destination is refused naming the field, nothing saved', () => {
  let hb: AddonHarness;
  let bq: BigQueryHandle;
  const PROJECT = 'engage-tests-1';
  const destination = (extra: Record<string, unknown> = {}) => ({
    projectId: PROJECT,
    datasetId: 'engage_eu',
    tableId: 'daily_docs',
    location: 'EU',
    ...extra,
  });
  const bigQueryReport = (bigquery: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    savedReport({ breakdowns: ['day', 'doc'], metrics: ['totalPvs', 'revenue'], bigquery, ...extra });
  const saved = () => ({
    document: [...hb.host.properties('document').entries()].sort(),
    owner: [...hb.host.properties('user', OWNER).entries()].filter(([key]) => key !== FETCH_COUNT_KEY).sort(),
    triggers: hb.host.triggers.length,
  });

  beforeAll(async () => {
    hb = await startAddon({ clock: 'virtual', startTime: new Date(NOW) }, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
    await hb.emulator.setClock(NOW);
    bq = bigQueryOf(hb.emulator);
    await bq.createDataset(PROJECT, 'engage_eu', 'EU');
    await bq.createDataset(PROJECT, 'engage_us', 'US');
    // A table already there, made by someone else: its revenue is text, not NUMERIC.
    const made = await fetch(`${bq.rootUrl}/bigquery/v2/projects/${PROJECT}/datasets/engage_eu/tables`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        tableReference: { projectId: PROJECT, datasetId: 'engage_eu', tableId: 'theirs' },
        schema: {
          fields: [
            { name: 'day', type: 'DATE' },
            { name: 'publisher_id', type: 'STRING' },
            { name: 'doc_id', type: 'STRING' },
            { name: 'doc_name', type: 'STRING' },
            { name: 'totalPvs', type: 'INTEGER' },
            { name: 'revenue', type: 'STRING' },
          ],
        },
        timePartitioning: { type: 'DAY', field: 'day' },
      }),
    });
    expect(made.status).toBe(200);
    hb.signIn();
  });
  afterAll(async () => {
    await hb.close();
  });

  it('a webhook outside the whitelist on a BigQuery report: refused before BigQuery is asked anything', async () => {
    const before = saved();
    const fetchesBefore = hb.host.fetchLog.length;
    await hb.emulator.clearRequests();
    const report = bigQueryReport(destination({ tableId: 'with_webhook' }), { notices: { webhook: 'https://hooks.example.org/notify' } });
    const outcome = hb.host.run('saveSchedule', [report], { user: OWNER });
    expect(outcome.ok).toBe(false);
    expectNamed(outcome.error?.message, 'notices.webhook', /must start with https:\/\/chat\.googleapis\.com\/v1\/spaces\//);
    expect(saved()).toEqual(before);
    expect(hb.host.fetchLog.length).toBe(fetchesBefore);
    expect(await hb.apiRequests()).toEqual([]);
  });

  it.each([
    [
      'a table name BigQuery refuses',
      destination({ tableId: 'daily$20261101' }),
      'bigquery.tableId',
      /is not a table name: .*'\$' \(it marks a partition/,
    ],
    ['a missing project', destination({ projectId: '' }), 'bigquery.projectId', /is missing: give the ID of your Google Cloud project/],
    ['a project name instead of its ID', destination({ projectId: 'My Project' }), 'bigquery.projectId', /is not a project ID/],
    ['a dataset name with a dash', destination({ datasetId: 'engage-eu' }), 'bigquery.datasetId', /may hold only letters .* not '-'/],
  ] as const)('%s: refused before anything is sent', async (_title, bigquery, argument, rule) => {
    const before = saved();
    const fetchesBefore = hb.host.fetchLog.length;
    await hb.emulator.clearRequests();
    const outcome = hb.host.run('saveSchedule', [bigQueryReport(bigquery)], { user: OWNER });
    expect(outcome.ok).toBe(false);
    expectNamed(outcome.error?.message, argument, rule);
    expect(saved()).toEqual(before);
    expect(hb.host.fetchLog.length).toBe(fetchesBefore);
    expect(await hb.apiRequests()).toEqual([]);
  });

  it.each([
    [
      'a dataset in another location than the one chosen',
      destination({ datasetId: 'engage_us' }),
      'bigquery.location',
      /the dataset engage-tests-1\.engage_us is in US, not EU: choose US as the location/,
      ['GET /bigquery/v2/projects/engage-tests-1/datasets/engage_us'],
    ],
    [
      "a report whose columns do not fit the existing table's",
      destination({ tableId: 'theirs' }),
      'bigquery.tableId',
      /column 'revenue' is STRING in the table engage-tests-1\.engage_eu\.theirs, but this report writes NUMERIC/,
      [
        'GET /bigquery/v2/projects/engage-tests-1/datasets/engage_eu',
        'GET /bigquery/v2/projects/engage-tests-1/datasets/engage_eu/tables/theirs',
      ],
    ],
  ] as const)('%s: refused at save, after asking BigQuery only', async (_title, bigquery, argument, rule, asked) => {
    const before = saved();
    await hb.emulator.clearRequests();
    const logged = (await bq.requests()).length;
    const outcome = hb.host.run('saveSchedule', [bigQueryReport(bigquery)], { user: OWNER });
    expect(outcome.ok).toBe(false);
    expectNamed(outcome.error?.message, argument, rule);
    expect(saved()).toEqual(before);
    expect(await hb.apiRequests()).toEqual([]);
    expect((await bq.requests()).slice(logged).map((r) => `${r.method} ${r.path}`)).toEqual(asked);
    expect(await bq.table(PROJECT, 'engage_us', 'daily_docs')).toBeNull();
  });

  it.each([
    ["a BigQuery report without the 'day' breakdown", { breakdowns: ['doc'] }, 'breakdowns', /is broken down by 'day'/],
    ['a BigQuery report with a write mode', { writeMode: 'append' }, 'writeMode', /applies to a sheet only/],
    ['a BigQuery report by month', { breakdowns: ['day', 'month'] }, 'breakdowns', /month/],
  ] as const)('%s: refused before anything is sent', async (_title, extra, argument, rule) => {
    const before = saved();
    const fetchesBefore = hb.host.fetchLog.length;
    const outcome = hb.host.run('saveSchedule', [bigQueryReport(destination(), extra)], { user: OWNER });
    expect(outcome.ok).toBe(false);
    expectNamed(outcome.error?.message, argument, rule);
    expect(saved()).toEqual(before);
    expect(hb.host.fetchLog.length).toBe(fetchesBefore);
  });

  it('a fitting report is saved after the same two questions, and nothing is created until its first run', async () => {
    const logged = (await bq.requests()).length;
    const list = hb.host.call('saveSchedule', [bigQueryReport(destination())], { user: OWNER }) as {
      reports: Array<{ target: string; status: { progress?: string } }>;
    };
    expect(list.reports.at(-1)).toMatchObject({
      target: 'BigQuery engage-tests-1.engage_eu.daily_docs (status in Data!H1)',
      status: { progress: 'BigQuery: no day loaded yet' },
    });
    expect((await bq.requests()).slice(logged).map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(await bq.table(PROJECT, 'engage_eu', 'daily_docs')).toBeNull();
  });
});
