/**
 * The Account tab's "Formulas in this spreadsheet" (src/core/addon/formulas/formula-access.ts) with fakes:
 * whose sign-in the sentence names, who may change the choice (the owner; in a shared drive anyone,
 * for their own sign-in; nobody whose email Apps Script withholds), that a refused caller reads,
 * sends and writes nothing, that a choice is checked against the caller's publishers, and where it
 * is kept: the caller's user properties under the spreadsheet's ID, with a copy for editors.
 */
import { FORMULA_POLICY_COPY_KEY, FormulaAccess, type FormulaAccessDeps } from '../../../../../src/core/addon/formulas/formula-access';
import { formulaPolicyKey } from '../../../../../src/core/addon/formulas/formula-policy';
import { OwnerOnlyError, ValidationError } from '../../../../../src/core/errors';
import { FakeStore, ManualClock } from '../../../../support/fakes';

const A = '653e5ee6b140b03fae04134988786fe5';
const B = '089ff7bee9730601caec5cca961a3cbe';
const KEY = formulaPolicyKey('sheet-1');

function setup(over: { owner?: string | null; you?: string; editors?: string[] } = {}) {
  const calls = { publishers: 0, editors: 0 };
  const ownerStore = new FakeStore();
  const documentStore = new FakeStore();
  const deps: FormulaAccessDeps = {
    userStore: ownerStore,
    documentStore,
    spreadsheetId: 'sheet-1',
    owner: () => (over.owner === undefined ? 'Ann@example.com' : over.owner),
    you: () => over.you ?? 'ann@example.com',
    editors: () => (calls.editors++, over.editors ?? ['ann@example.com', 'bob@example.com']),
    publishers: () => (
      calls.publishers++,
      [
        { id: A, name: 'Daily Planet' },
        { id: B, name: 'Gotham Gazette' },
      ]
    ),
    clock: new ManualClock(Date.UTC(2026, 10, 20, 12)),
  };
  return { access: new FormulaAccess(deps), ownerStore, documentStore, calls };
}

describe('the view', () => {
  it("names the owner's sign-in, lets the owner change it, and warns of the other editors (email compared without case)", () => {
    const { access } = setup();
    expect(access.view()).toEqual({
      sentence: "Formulas in this spreadsheet use Ann@example.com's Engage sign-in, also when an editor types them.",
      owner: 'Ann@example.com',
      youOwn: true,
      canChange: true,
      mode: 'all',
      publishers: [],
      otherEditors: ['bob@example.com'],
      editorsWarning:
        'One other person can edit this spreadsheet (bob@example.com), and so can anyone its sharing settings let edit (by link or domain, which Engage cannot see): the formulas they type use your Engage sign-in, for what you allow below.',
    });
  });

  it('shows an editor the choice read-only, from the copy, and asks nobody else for the editors', () => {
    const { access, documentStore, calls } = setup({ you: 'bob@example.com' });
    documentStore.set(
      FORMULA_POLICY_COPY_KEY,
      JSON.stringify({ mode: 'chosen', publishers: [{ id: A, name: 'Daily Planet' }], by: 'ann@example.com', at: 0 }),
    );
    expect(access.view()).toMatchObject({
      youOwn: false,
      canChange: false,
      whoCanChange:
        'Only the owner, Ann@example.com, can change this, in the Engage sidebar, under Account > Formulas in this spreadsheet.',
      mode: 'chosen',
      publishers: [{ id: A, name: 'Daily Planet' }],
      setBy: 'ann@example.com',
      setAt: '1970-01-01T00:00:00.000Z',
      otherEditors: [],
    });
    expect(calls.editors).toBe(0);
  });

  it('says what is known when Apps Script withholds an email, or the file is in a shared drive', () => {
    expect(setup({ owner: '' }).access.view()).toMatchObject({
      sentence: "Formulas in this spreadsheet use its owner's Engage sign-in, also when an editor types them.",
      canChange: false,
    });
    expect(setup({ you: '' }).access.view().whoCanChange).toMatch(/Google did not give Engage your email address/);
    const shared = setup({ owner: null, you: 'bob@example.com' }).access.view();
    expect(shared).toMatchObject({ owner: null, canChange: true, youOwn: false, otherEditors: [] });
    expect(shared.sentence).toMatch(/^This spreadsheet is in a shared drive, so it has no owner/);
  });
});

describe('setting the choice', () => {
  it("keeps it in the owner's store under the spreadsheet's ID, and a named copy for editors", () => {
    const { access, ownerStore, documentStore } = setup();
    const view = access.set({ mode: 'chosen', publishers: [B] });
    expect(view).toMatchObject({ mode: 'chosen', publishers: [{ id: B, name: 'Gotham Gazette' }], setBy: 'ann@example.com' });
    expect(JSON.parse(ownerStore.values.get(KEY)!)).toEqual({
      mode: 'chosen',
      ids: [B],
      by: 'ann@example.com',
      at: Date.UTC(2026, 10, 20, 12),
    });
    expect(JSON.parse(documentStore.values.get(FORMULA_POLICY_COPY_KEY)!).publishers).toEqual([{ id: B, name: 'Gotham Gazette' }]);
    access.set({ mode: 'all' });
    expect(ownerStore.values.has(KEY)).toBe(false);
    expect(JSON.parse(documentStore.values.get(FORMULA_POLICY_COPY_KEY)!).mode).toBe('all');
  });

  it.each([
    ['an editor', { you: 'bob@example.com' }, false],
    ['a caller whose email Apps Script withholds', { you: '' }, true],
  ])('refuses %s before anything is read, sent or written', (_title, over, unknown) => {
    const { access, ownerStore, documentStore, calls } = setup(over);
    let error: unknown;
    try {
      access.set({ mode: 'none' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OwnerOnlyError);
    expect((error as Error).message).toBe(
      `Only the owner of this spreadsheet, Ann@example.com, can choose what its formulas may use, because they use the owner's Engage sign-in${unknown ? ' (Google did not give Engage your email address, so it cannot tell whether that is you)' : ''}: ask the owner to change it in the Engage sidebar, under Account > Formulas in this spreadsheet.`,
    );
    expect([ownerStore.gets, ownerStore.sets, documentStore.gets, documentStore.sets, calls.publishers]).toEqual([0, 0, 0, 0, 0]);
  });

  it('lets anyone choose for their own sign-in in a shared drive', () => {
    const { access, ownerStore } = setup({ owner: null, you: 'bob@example.com' });
    expect(access.set({ mode: 'none' }).mode).toBe('none');
    expect(JSON.parse(ownerStore.values.get(KEY)!)).toMatchObject({ mode: 'none', by: 'bob@example.com' });
  });

  it('refuses bad input, and a publisher the sign-in does not see (one lookup), naming the field and saving nothing', () => {
    const { access, ownerStore, documentStore, calls } = setup();
    expect(() => access.set({ mode: 'most' })).toThrow(/^mode: 'most' is not a choice/);
    expect(calls.publishers).toBe(0);
    let error: unknown;
    try {
      access.set({ mode: 'chosen', publishers: [A, 'ffffffffffffffffffffffffffffffff'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe(
      "publishers: 'ffffffffffffffffffffffffffffffff' is not one of the 2 publishers your Engage sign-in sees: choose among those",
    );
    expect(calls.publishers).toBe(1);
    expect([ownerStore.sets, documentStore.sets]).toEqual([0, 0]);
  });

  it('drops the names from the copy rather than pass a property’s 9 KB', () => {
    const documentStore = new FakeStore();
    const many = Array.from({ length: 100 }, (_, i) => ({ id: `p${String(i).padStart(3, '0')}`, name: 'N'.repeat(80) }));
    const wide = new FormulaAccess({
      userStore: new FakeStore(),
      documentStore,
      spreadsheetId: 'sheet-1',
      owner: () => 'ann@example.com',
      you: () => 'ann@example.com',
      editors: () => [],
      publishers: () => many,
      clock: new ManualClock(0),
    });
    wide.set({ mode: 'chosen', publishers: many.map((p) => p.id) });
    const copy = JSON.parse(documentStore.values.get(FORMULA_POLICY_COPY_KEY)!) as { publishers: Array<{ id: string; name: string }> };
    expect(copy.publishers).toHaveLength(100);
    expect(copy.publishers.every((p) => p.name === '')).toBe(true);
  });
});
