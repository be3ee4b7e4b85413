/**
 * End to end, issue 21 item 4: the owner decides what formulas in the spreadsheet may use. Formulas
 * read the owner's user properties, so an editor's =ENGAGE_REPORT(...) runs with the owner's sign-in;
 * the owner allows every publisher (the default), chosen publishers, or none, and only the owner can
 * change it. A formula for what is not allowed is refused before any request, with one sentence that
 * says who can allow it and where. The Account tab's server functions say whose sign-in formulas use,
 * show the choice (an editor read-only, from the owner's copy) and warn the owner of other editors.
 */
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_API_KEY, HOSTILE_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
const A = BIG_PUBLISHER_ID; // Daily Planet
const B = MEDIUM_PUBLISHER_ID; // Gotham Gazette
const PLACE = 'in the Engage sidebar, under Account > Formulas in this spreadsheet';
const SHEETS = Array.from({ length: 60 }, (_, i) => `S${i}`);
let h: AddonHarness;
let nextSheet = 0;

interface View {
  sentence: string;
  owner: string | null;
  youOwn: boolean;
  canChange: boolean;
  whoCanChange?: string;
  mode: string;
  publishers: Array<{ id: string; name: string }>;
  setBy?: string;
  setAt?: string;
  otherEditors: string[];
  editorsWarning?: string;
}

beforeAll(async () => {
  h = await startAddon({ clock: 'virtual', startTime: new Date(NOW), maxColumns: 40, sheets: SHEETS, editors: [EDITOR] });
  await h.emulator.setClock(NOW);
  h.signIn();
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key, widgetId: DEMO_API_KEY.widgetIds[0] }], { user: OWNER });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.emulator.clearRequests();
});

const access = (user = OWNER) => h.host.call('getFormulaAccess', [], { user }) as View;
const choose = (policy: unknown, user = OWNER) => h.host.call('setFormulaAccess', [policy], { user }) as View;
/** An editor types the formula into A1 of a sheet of its own (results spill) and it is evaluated. */
const typed = (text: string, user = EDITOR) => h.host.evaluateFormula(SHEETS[nextSheet++]!, 'A1', text, { user });
const reportPaths = async () => (await h.apiRequests()).map((r) => r.path).filter((p) => p.includes('/reports/'));

describe('whose sign-in formulas use', () => {
  it('is said in plain words, to the owner and to an editor', () => {
    const sentence = `Formulas in this spreadsheet use ${OWNER}'s Engage sign-in, also when an editor types them.`;
    expect(access()).toMatchObject({ sentence, owner: OWNER, youOwn: true, canChange: true, mode: 'all', publishers: [] });
    expect(access(EDITOR)).toMatchObject({
      sentence,
      youOwn: false,
      canChange: false,
      whoCanChange: `Only the owner, ${OWNER}, can change this, ${PLACE}.`,
      mode: 'all',
      otherEditors: [],
    });
  });

  it('warns the owner, and only the owner, of the other people who can edit', () => {
    expect(access().otherEditors).toEqual([EDITOR]);
    expect(access().editorsWarning).toBe(
      `One other person can edit this spreadsheet (${EDITOR}), and so can anyone its sharing settings let edit (by link or domain, which Engage cannot see): the formulas they type use your Engage sign-in, for what you allow below.`,
    );
    expect(access(EDITOR).editorsWarning).toBeUndefined();
    h.host.state.sharing.editors.add('third@example.com');
    try {
      expect(access().editorsWarning).toMatch(/^2 other people can edit this spreadsheet \(editor@example\.com, third@example\.com\)/);
    } finally {
      h.host.state.sharing.editors.delete('third@example.com');
    }
  });
});

describe('every publisher, the default', () => {
  it("keeps today's behaviour: an editor's formula reports on any publisher the owner sees", async () => {
    expect(typed(`=ENGAGE_REPORT("${B}", "2026-11-01", "2026-11-02")`).error).toBeUndefined();
    expect(await reportPaths()).toEqual(['/engage/v2/reports/main']);
  });
});

describe('chosen publishers', () => {
  beforeAll(() => {
    const view = choose({ mode: 'chosen', publishers: [A] });
    expect(view).toMatchObject({ mode: 'chosen', publishers: [{ id: A, name: 'Daily Planet' }], setBy: OWNER });
  });

  it("refuses an editor's formula for another publisher before any request, saying who can allow it and where", async () => {
    const refused = typed(`=ENGAGE_REPORT("${B}", "2026-11-01", "2026-11-02")`);
    expect(refused.value).toBe('#ERROR!');
    expect(refused.error).toBe(
      `Formulas in this spreadsheet may not report on publisher '${B}': the spreadsheet's owner (${OWNER}) chose the publishers formulas may use, and only the owner can allow it, ${PLACE}.`,
    );
    expect(await h.apiRequests()).toEqual([]);
  });

  it('lets the chosen publisher through', async () => {
    const allowed = typed(`=ENGAGE_REPORT("${A}", "2026-11-01", "2026-11-02")`);
    expect(allowed.error).toBeUndefined();
    expect(allowed.values![0]![0]).toBe('day');
    expect(await reportPaths()).toEqual(['/engage/v2/reports/main']);
  });

  it('refuses a list naming any publisher not chosen, naming those, and the comparison and the hourly reports alike', async () => {
    expect(typed(`=ENGAGE_REPORT("${A},${B},${HOSTILE_PUBLISHER_ID}", "2026-11-01", "2026-11-02")`).error).toMatch(
      new RegExp(
        `^Formulas in this spreadsheet may not report on publishers '${B}', '${HOSTILE_PUBLISHER_ID}': .* allow them, ${PLACE}\\.$`,
      ),
    );
    expect(typed(`=ENGAGE_COMPARE("${B}", "2026-11-08", "2026-11-14", "previous")`).error).toMatch(/may not report on publisher/);
    expect(typed(`=ENGAGE_EXTERNALID_REPORT("${B}", "2026111900", "2026111910")`).error).toMatch(/may not report on publisher/);
    expect(typed(`=ENGAGE_REALTIME_REPORT("${B}", "2026111900", "2026111910")`).error).toMatch(/may not report on publisher/);
    expect(typed(`=ENGAGE_WIDGETS("${B}")`).error).toMatch(/may not report on publisher/);
    expect(typed(`=ENGAGE_NATIVEAPPS("${B}")`).error).toMatch(/may not report on publisher/);
    expect(await h.apiRequests()).toEqual([]);
  });

  it('reads "all" as the chosen publishers the sign-in sees, and ENGAGE_PUBLISHERS lists only those', async () => {
    const all = typed('=ENGAGE_REPORT("all", "2026-11-01", "2026-11-02")');
    expect(all.error).toBeUndefined();
    const publishers = new Set(all.values!.slice(1, -1).map((row) => row[0]));
    expect([...publishers]).toEqual([A]);
    expect((await h.apiRequests()).filter((r) => r.path.includes('/reports/')).map((r) => r.path)).toEqual(['/engage/v2/reports/main']);
    const listed = typed('=ENGAGE_PUBLISHERS()');
    expect(listed.values!.slice(1).map((row) => row[0])).toEqual([A]);
    expect(typed(`=ENGAGE_WIDGETS("${A}")`).error).toBeUndefined();
  });

  it('never serves a result cached under another choice', () => {
    choose({ mode: 'chosen', publishers: [B] });
    try {
      expect(
        typed('=ENGAGE_PUBLISHERS()')
          .values!.slice(1)
          .map((row) => row[0]),
      ).toEqual([B]);
      expect(typed(`=ENGAGE_REPORT("${A}", "2026-11-01", "2026-11-02")`).error).toMatch(/may not report on publisher/);
    } finally {
      choose({ mode: 'chosen', publishers: [A] });
    }
  });

  it('binds the owner’s own formulas too, and leaves recommendations (no publisher) allowed', () => {
    expect(typed(`=ENGAGE_REPORT("${B}", "2026-11-01", "2026-11-02")`, OWNER).error).toMatch(/may not report on publisher/);
    expect(typed('=ENGAGE_RECOMMENDATIONS("running", "IAB17", "https://news.example/story", "")').error).toBeUndefined();
  });

  it('is shown to an editor read-only, with the names, as the owner chose it', () => {
    expect(access(EDITOR)).toMatchObject({
      canChange: false,
      mode: 'chosen',
      publishers: [{ id: A, name: 'Daily Planet' }],
      setBy: OWNER,
      setAt: NOW.replace('Z', '.000Z'),
    });
  });
});

describe('none', () => {
  beforeAll(() => {
    choose({ mode: 'none' });
  });
  afterAll(() => {
    choose({ mode: 'all' });
  });

  it("refuses every formula that would use the owner's sign-in or API key, before any request", async () => {
    const signIn = `Formulas in this spreadsheet may not use its owner's Engage sign-in: the spreadsheet's owner (${OWNER}) allows formulas no publisher, and only the owner can change that, ${PLACE}.`;
    for (const formula of [
      `=ENGAGE_REPORT("${A}", "2026-11-01", "2026-11-02")`,
      '=ENGAGE_REPORT("all", "2026-11-01", "2026-11-02")',
      `=ENGAGE_COMPARE("${A}", "2026-11-08", "2026-11-14", "previous")`,
      `=ENGAGE_EXTERNALID_REPORT("${A}", "2026111900", "2026111910")`,
      `=ENGAGE_REALTIME_REPORT("${A}", "2026111900", "2026111910")`,
      '=ENGAGE_PUBLISHERS()',
      `=ENGAGE_WIDGETS("${A}")`,
      `=ENGAGE_NATIVEAPPS("${A}")`,
      '=ENGAGE_COUNTRIES()',
      '=ENGAGE_TIMEZONES()',
    ])
      expect({ formula, error: typed(formula).error }).toEqual({ formula, error: signIn });
    expect(typed('=ENGAGE_RECOMMENDATIONS("running", "IAB17", "https://news.example/story", "")').error).toBe(
      signIn.replace("its owner's Engage sign-in", "its owner's recommendations API key"),
    );
    expect(await h.apiRequests()).toEqual([]);
  });
});

describe('only the owner can change it', () => {
  it("refuses an editor's call before anything is read, sent or written", async () => {
    const before = [...h.host.properties('document').entries()];
    const ownerBefore = [...h.host.properties('user', OWNER).entries()];
    const outcome = h.host.run('setFormulaAccess', [{ mode: 'all' }], { user: EDITOR });
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.message).toBe(
      `Only the owner of this spreadsheet, ${OWNER}, can choose what its formulas may use, because they use the owner's Engage sign-in: ask the owner to change it ${PLACE}.`,
    );
    expect([...h.host.properties('document').entries()]).toEqual(before);
    expect([...h.host.properties('user', OWNER).entries()]).toEqual(ownerBefore);
    expect([...h.host.properties('user', EDITOR).entries()].filter(([k]) => k.startsWith('engage.formulas.'))).toEqual([]);
    expect(await h.apiRequests()).toEqual([]);
  });

  it("keeps the choice in the owner's user properties under the spreadsheet's ID, and the display copy in the document's", () => {
    choose({ mode: 'chosen', publishers: [A] });
    try {
      const stored = JSON.parse(h.host.properties('user', OWNER).get('engage.formulas.gas-host-spreadsheet')!);
      expect(stored).toEqual({ mode: 'chosen', ids: [A], by: OWNER, at: Date.parse(NOW) });
      const copy = JSON.parse(h.host.properties('document').get('engage.formulas.copy')!);
      expect(copy).toEqual({ mode: 'chosen', publishers: [{ id: A, name: 'Daily Planet' }], by: OWNER, at: Date.parse(NOW) });
      // Every publisher is the default: nothing is kept in the owner's store for it.
      choose({ mode: 'all' });
      expect(h.host.properties('user', OWNER).has('engage.formulas.gas-host-spreadsheet')).toBe(false);
    } finally {
      choose({ mode: 'all' });
    }
  });
});

describe('a spreadsheet in a shared drive', () => {
  it('has no owner: the sidebar says what is known, and each user chooses for their own sign-in', async () => {
    const shared = await startAddon({ sharedDrive: true, editors: [OWNER, EDITOR] });
    try {
      const view = shared.host.call('getFormulaAccess', [], { user: EDITOR }) as View;
      expect(view).toMatchObject({ owner: null, youOwn: false, canChange: true, otherEditors: [] });
      expect(view.sentence).toBe(
        'This spreadsheet is in a shared drive, so it has no owner, and Google does not say whose Engage sign-in its formulas then use: what you choose below applies to your own sign-in, should they use it.',
      );
      expect((shared.host.call('setFormulaAccess', [{ mode: 'none' }], { user: EDITOR }) as View).mode).toBe('none');
      expect(shared.host.properties('user', EDITOR).get('engage.formulas.gas-host-spreadsheet')).toMatch(/"mode":"none"/);
    } finally {
      await shared.close();
    }
  });
});
