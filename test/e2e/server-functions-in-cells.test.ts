/**
 * End to end, issue 21 item 3: every top-level function of the built bundle that is not an ENGAGE_*
 * formula (the sidebar's server functions, the menu's, onOpen/onInstall and the trigger handler) is
 * typed into a cell by an editor, with plausible arguments, against an owner who is signed in and has
 * an API key and a saved report. In the strict reading (Google's only rule is that a custom function's
 * name does not end in "_") each runs, and must refuse: zero requests reach the emulator, the cell
 * shows the one sentence, no property, cache entry, cell, trigger or sheet changes, and the owner is
 * still signed in. The list comes from the bundle itself, so a server function added without the guard
 * fails here. In the kind reading (only @customfunction can be typed) the same cells show #NAME?.
 */
import fs from 'node:fs';
import * as acorn from 'acorn';
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { DEMO_API_KEY, MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { distCode } from '../support/paths';

const P = MEDIUM_PUBLISHER_ID;
const SENTENCE =
  /^This Engage function runs (from the Engage sidebar|from the Engage menu \(Extensions > Engage for Sheets\)|when the spreadsheet opens, to add the Engage menu|from the hourly trigger of Engage's scheduled refreshes) and cannot be used in a cell; in a cell, use the ENGAGE_ functions, such as ENGAGE_REPORT\.$/;

/** Every top-level function a cell could name: the bundle's stubs, one per export. */
function topLevelFunctions(): string[] {
  const program = acorn.parse(fs.readFileSync(distCode, 'utf8'), { ecmaVersion: 'latest' });
  return program.body.flatMap((node) => (node.type === 'FunctionDeclaration' && node.id ? [node.id.name] : []));
}

const SERVER_FUNCTIONS = topLevelFunctions().filter((name) => !name.startsWith('ENGAGE_'));

let savedId = '';
/** What an editor might type for each: arguments a careless cell could hold, the owner's real saved report id among them. */
function argumentsOf(name: string): string {
  const plausible: Record<string, string> = {
    signIn: '"demo@engage.example","demo-password"',
    signInAllowance: '"demo@engage.example"',
    signInWithToken: '"a-token"',
    saveSettings: '"https://elsewhere.example/engage/v2"',
    previewRecommendations: '"kw"',
    runReportToSheet: `"${P}","Sheet1","run-1"`,
    getRunProgress: '"run-1"',
    insertFormula: `"${P}"`,
    addChart: '"Sheet1"',
    createDashboard: '"all"',
    saveSchedule: `"${P}"`,
    updateSchedule: `"${savedId}","x"`,
    runScheduleNow: `"${savedId}"`,
    pauseSchedule: `"${savedId}",TRUE`,
    deleteSchedule: `"${savedId}"`,
    openReportInSheets: `"${savedId}"`,
    setFormulaAccess: '"all"',
    onScheduledRefresh: '"now"',
  };
  return plausible[name] ?? '';
}

/** Everything a refused formula must leave as it was: every store, cache entry, cell (but the formula's own), trigger and sheet. */
function snapshot(h: AddonHarness, formulaCell: string): string {
  const { state } = h.host;
  const props = (scope: 'user' | 'document' | 'script', user?: string) => [...h.host.properties(scope, user).entries()].sort();
  return JSON.stringify({
    owner: props('user', OWNER),
    editor: props('user', EDITOR),
    document: props('document'),
    script: props('script'),
    caches: state.caches
      .allEntries()
      .map((e) => [e.cache, e.key, e.value])
      .sort(),
    sheets: state.spreadsheet.sheets.map((s) => ({
      name: s.name,
      charts: s.charts.length,
      cells: [...s.cells].filter(([key]) => `${s.name}!${key}` !== formulaCell).map(([key, c]) => [key, String(c.value), c.formula ?? '']),
    })),
    named: [...state.spreadsheet.namedRanges.keys()],
    triggers: h.host.triggers.map((t) => [t.id, t.handlerFunction]),
    ui: [state.ui.sidebars.length, state.ui.alerts.length, state.ui.toasts.length],
  });
}

async function ownerWithEverything(strict: boolean): Promise<AddonHarness> {
  const h = await startAddon({ strict: { anyFunctionAsFormula: strict }, editors: [EDITOR], sheets: ['Sheet1', 'F'] });
  h.signIn();
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key, widgetId: DEMO_API_KEY.widgetIds[0] }], { user: OWNER });
  const list = h.host.call(
    'saveSchedule',
    [
      {
        name: 'Daily',
        kind: 'main',
        entityId: P,
        period: { type: 'lastDays', days: 7 },
        breakdowns: ['day'],
        target: { sheetName: 'Data', cell: 'A1' },
        schedule: { every: 'hour' },
      },
    ],
    { user: OWNER },
  ) as { reports: Array<{ id: string }> };
  savedId = list.reports[0]!.id;
  h.host.setCell('Sheet1', 'A1', 'kept');
  await h.emulator.clearRequests();
  return h;
}

describe('strict reading: any top-level function can be typed into a cell', () => {
  let h: AddonHarness;
  beforeAll(async () => {
    h = await ownerWithEverything(true);
  });
  afterAll(async () => {
    await h.close();
  });
  // Each case starts from an empty sheet F: a function that wrongly ran may have spilled a result there.
  afterEach(() => h.host.state.spreadsheet.sheetByName('F')!.cells.clear());

  it('finds the server functions in the bundle: the sidebar, the menu, onOpen/onInstall and the trigger handler', () => {
    expect(SERVER_FUNCTIONS).toEqual(
      expect.arrayContaining([
        'onOpen',
        'onInstall',
        'showSidebar',
        'refreshAll',
        'signOutFromMenu',
        'createDashboardFromMenu',
        'signIn',
        'getSidebarState',
        'listPublishers',
        'previewRecommendations',
        'runReportToSheet',
        'insertFormula',
        'addChart',
        'createDashboard',
        'runScheduleNow',
        'onScheduledRefresh',
      ]),
    );
  });

  it.each(SERVER_FUNCTIONS)('=%s(...) typed by an editor sends nothing, changes nothing and shows the one sentence', async (name) => {
    const formula = `=${name.toUpperCase()}(${argumentsOf(name)})`;
    const before = snapshot(h, 'F!1:1');
    const fetchesBefore = h.host.fetchLog.length;
    const cell = h.host.evaluateFormula('F', 'A1', formula, { user: EDITOR });
    expect({ formula, value: cell.value, error: cell.error }).toEqual({
      formula,
      value: '#ERROR!',
      error: expect.stringMatching(SENTENCE),
    });
    expect(cell.values).toEqual([['#ERROR!']]);
    expect(await h.apiRequests()).toEqual([]);
    expect(h.host.fetchLog.length).toBe(fetchesBefore);
    expect(snapshot(h, 'F!1:1')).toBe(before);
  });

  it('leaves the owner signed in, the API key and the saved report in place, and the ENGAGE_ formulas working', async () => {
    const state = h.host.call('getSidebarState', [], { user: OWNER }) as {
      session: { signedIn: boolean };
      settings: { hasApiKey: boolean };
    };
    expect(state.session.signedIn).toBe(true);
    expect(state.settings.hasApiKey).toBe(true);
    const list = h.host.call('listSchedules', [], { user: OWNER }) as { reports: Array<{ id: string }> };
    expect(list.reports.map((r) => r.id)).toEqual([savedId]);
    expect(h.host.evaluateFormula('F', 'B1', '=ENGAGE_COUNTRIES()', { user: EDITOR }).value).toBe('id');
  });

  it('costs a sidebar call one SpreadsheetApp.getUi() and nothing else', () => {
    h.host.resetCounters();
    h.host.call('getRunProgress', ['run-unknown'], { user: OWNER });
    expect(h.host.counters['SpreadsheetApp.getUi']).toBe(1);
  });
});

describe('kind reading: only a @customfunction can be typed into a cell', () => {
  let h: AddonHarness;
  beforeAll(async () => {
    h = await ownerWithEverything(false);
  });
  afterAll(async () => {
    await h.close();
  });

  it.each(SERVER_FUNCTIONS)('=%s(...) shows #NAME? and runs nothing', async (name) => {
    const formula = `=${name.toUpperCase()}(${argumentsOf(name)})`;
    const before = snapshot(h, 'F!1:1');
    h.host.resetCounters();
    const cell = h.host.evaluateFormula('F', 'A1', formula, { user: EDITOR });
    expect({ formula, value: cell.value, error: cell.error }).toEqual({
      formula,
      value: '#NAME?',
      error: `Unknown function: '${name.toUpperCase()}'.`,
    });
    expect(h.host.counters['Properties.reads'] ?? 0).toBe(0);
    expect(await h.apiRequests()).toEqual([]);
    expect(snapshot(h, 'F!1:1')).toBe(before);
  });
});
