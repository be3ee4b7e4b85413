/**
 * What formulas of a spreadsheet may use (src/core/addon/formulas/formula-policy.ts): the choice as the
 * sidebar sends it, checked; as stored, read back (nothing stored: every publisher; unreadable:
 * nothing); and the gate each formula passes before anything is sent, with its sentences. Then
 * EngageAddon with a stored choice: a refused formula sends nothing, and the allowed one fetches.
 */
import { EngageAddon } from '../../../../../src/core/addon/formulas/engage-addon';
import {
  EVERY_PUBLISHER,
  FormulaGate,
  formulaPolicyInput,
  formulaPolicyKey,
  MAX_CHOSEN_PUBLISHERS,
  parseStoredPolicy,
  readFormulaPolicy,
  storedPolicyText,
} from '../../../../../src/core/addon/formulas/formula-policy';
import { FormulaNotAllowedError, ValidationError } from '../../../../../src/core/errors';
import {
  FakeCache,
  FakeCompressor,
  FakeLock,
  FakeStore,
  FakeTransport,
  ManualClock,
  ManualSleeper,
  reportHandler,
} from '../../../../support/fakes';

const A = '653e5ee6b140b03fae04134988786fe5';
const B = '089ff7bee9730601caec5cca961a3cbe';
const PLACE = 'in the Engage sidebar, under Account > Formulas in this spreadsheet';

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('not refused');
}

describe('formulaPolicyInput', () => {
  it('takes the three modes, and for "chosen" distinct well-formed publisher IDs, trimmed', () => {
    expect(formulaPolicyInput({ mode: 'all' })).toEqual({ mode: 'all', publisherIds: [] });
    expect(formulaPolicyInput({ mode: 'none', publishers: [] })).toEqual({ mode: 'none', publisherIds: [] });
    expect(formulaPolicyInput({ mode: 'chosen', publishers: [` ${A} `, B] })).toEqual({ mode: 'chosen', publisherIds: [A, B] });
  });

  it.each([
    ['no object', 'all', 'policy', /must say what formulas may use/],
    ['an unknown mode', { mode: 'some' }, 'mode', /^mode: 'some' is not a choice: give "all" \(every publisher\), "chosen"/],
    ['no mode', {}, 'mode', /left out is not a choice/],
    ['a mode that is not text', { mode: 3 }, 'mode', /is not a choice/],
    ['chosen with none listed', { mode: 'chosen', publishers: [] }, 'publishers', /at least one publisher/],
    ['chosen with a malformed ID', { mode: 'chosen', publishers: ['a b'] }, 'publishers', /^publishers: 'a b' must not contain spaces$/],
    ['chosen with an ID twice', { mode: 'chosen', publishers: [A, A] }, 'publishers', /is listed twice/],
    ['chosen with a number', { mode: 'chosen', publishers: [7] }, 'publishers', /publisher IDs as text/],
    ['publishers not a list', { mode: 'chosen', publishers: A }, 'publishers', /must be a list/],
    ['publishers with "none"', { mode: 'none', publishers: [A] }, 'publishers', /only with mode "chosen", not "none"/],
    [
      'too many publishers',
      { mode: 'chosen', publishers: Array.from({ length: MAX_CHOSEN_PUBLISHERS + 1 }, (_, i) => `p${i}`) },
      'publishers',
      /lists 101 publishers; a choice lists at most 100/,
    ],
  ])('refuses %s, naming the field', (_title, raw, argument, rule) => {
    let error: unknown;
    try {
      formulaPolicyInput(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).argument).toBe(argument);
    expect((error as Error).message).toMatch(rule);
  });
});

describe('the stored choice', () => {
  it('reads back what was written; nothing stored is every publisher, with no read without a spreadsheet', () => {
    const policy = { mode: 'chosen' as const, publisherIds: [A], setBy: 'ann@example.com', setAtMs: 5 };
    expect(JSON.parse(storedPolicyText(policy))).toEqual({ mode: 'chosen', ids: [A], by: 'ann@example.com', at: 5 });
    expect(parseStoredPolicy(storedPolicyText(policy))).toEqual(policy);
    const store = new FakeStore();
    expect(readFormulaPolicy(store, 'sheet-1')).toEqual(EVERY_PUBLISHER);
    expect(store.gets).toBe(1);
    expect(readFormulaPolicy(store, undefined)).toEqual(EVERY_PUBLISHER);
    expect(store.gets).toBe(1);
    store.set(formulaPolicyKey('sheet-1'), storedPolicyText({ mode: 'none', publisherIds: [] }));
    expect(readFormulaPolicy(store, 'sheet-1').mode).toBe('none');
    expect(readFormulaPolicy(store, 'sheet-2')).toEqual(EVERY_PUBLISHER);
  });

  it.each(['not json', '{"mode":"some"}', '{"mode":"chosen"}', '{"mode":"chosen","ids":[1]}'])(
    'allows nothing when it cannot be read (%s), and says so',
    (text) => {
      const policy = parseStoredPolicy(text);
      expect(policy).toMatchObject({ mode: 'none', unreadable: true });
      expect(refusal(() => new FormulaGate(policy).signIn())).toBe(
        `Formulas in this spreadsheet may use nothing for now: the spreadsheet's owner chose what they may use, and that choice could not be read, so only the owner can choose again, ${PLACE}.`,
      );
    },
  );
});

describe('FormulaGate', () => {
  const chosen = new FormulaGate({ mode: 'chosen', publisherIds: [A], setBy: 'ann@example.com' });
  const none = new FormulaGate({ mode: 'none', publisherIds: [], setBy: 'ann@example.com' });
  const every = new FormulaGate(EVERY_PUBLISHER);

  it('lets everything through with every publisher', () => {
    expect(() => every.publishers({ type: 'list', ids: [A, B] })).not.toThrow();
    expect(() => every.publisher(B)).not.toThrow();
    expect(() => every.apiKey()).not.toThrow();
    expect(every.listed([{ id: A, name: 'a' }])).toEqual([{ id: A, name: 'a' }]);
    expect(every.fingerprint()).toBe('all');
  });

  it('with chosen publishers refuses any other, one or several, naming them, who can allow them and where', () => {
    expect(() => chosen.publishers({ type: 'one', id: ` ${A}` })).not.toThrow();
    expect(() => chosen.publishers({ type: 'all' })).not.toThrow();
    expect(() => chosen.apiKey()).not.toThrow();
    expect(refusal(() => chosen.publisher(B))).toBe(
      `Formulas in this spreadsheet may not report on publisher '${B}': the spreadsheet's owner (ann@example.com) chose the publishers formulas may use, and only the owner can allow it, ${PLACE}.`,
    );
    expect(refusal(() => chosen.publishers({ type: 'list', ids: [A, B, 'c'] }))).toMatch(
      /^Formulas in this spreadsheet may not report on publishers '089ff7bee9730601caec5cca961a3cbe', 'c': .* allow them, in the Engage sidebar/,
    );
  });

  it('lists only the chosen publishers, and says so when the sign-in sees none of them', () => {
    expect(
      chosen.listed([
        { id: B, name: 'b' },
        { id: A, name: 'a' },
      ]),
    ).toEqual([{ id: A, name: 'a' }]);
    expect(refusal(() => chosen.listed([{ id: B, name: 'b' }]))).toBe(
      `None of the publishers the spreadsheet's owner (ann@example.com) allows formulas to use is among those the owner's Engage sign-in sees: only the owner can change which, ${PLACE}.`,
    );
    expect(chosen.listed([])).toEqual([]);
  });

  it('with none refuses the sign-in and the API key alike', () => {
    expect(() => none.publishers({ type: 'all' })).toThrow(FormulaNotAllowedError);
    expect(refusal(() => none.signIn())).toBe(
      `Formulas in this spreadsheet may not use its owner's Engage sign-in: the spreadsheet's owner (ann@example.com) allows formulas no publisher, and only the owner can change that, ${PLACE}.`,
    );
    expect(refusal(() => none.apiKey())).toMatch(/^Formulas in this spreadsheet may not use its owner's recommendations API key: /);
  });

  it('gives each choice its own fingerprint, the same for the same publishers in any order', () => {
    const ab = new FormulaGate({ mode: 'chosen', publisherIds: [A, B] }).fingerprint();
    expect(new FormulaGate({ mode: 'chosen', publisherIds: [B, A] }).fingerprint()).toBe(ab);
    expect(new Set([ab, chosen.fingerprint(), none.fingerprint(), every.fingerprint()]).size).toBe(4);
  });
});

describe('EngageAddon with a stored choice', () => {
  function setup(policy?: string) {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const userStore = new FakeStore();
    const transport = new FakeTransport(reportHandler(3));
    const addon = new EngageAddon({
      transport,
      userStore,
      documentCache: new FakeCache(clock),
      compressor: new FakeCompressor(),
      userLock: new FakeLock(),
      documentLock: new FakeLock(),
      clock,
      sleeper: new ManualSleeper(clock),
      random: () => 0.5,
      timeZone: 'Europe/Berlin',
      inCustomFunction: true,
      spreadsheetId: 'sheet-1',
    });
    userStore.set('engage.settings', JSON.stringify({ reportingBaseUrl: 'https://api.example.com/engage/v2' }));
    userStore.set('engage.token', JSON.stringify({ token: 'tok', source: 'pasted', obtainedAtMs: clock.now() }));
    if (policy) userStore.set(formulaPolicyKey('sheet-1'), policy);
    return { addon, transport, clock, userStore };
  }
  const input = (entityId: string) => ({ entityId, fromDate: '20261101', toDate: '20261107' });

  it('refuses a publisher not chosen before any request, and fetches the chosen one', () => {
    const { addon, transport, clock } = setup(storedPolicyText({ mode: 'chosen', publisherIds: [A] }));
    expect(() => addon.formulaReport('main', input(B), { deadlineAtMs: clock.now() + 25_000 })).toThrow(FormulaNotAllowedError);
    expect(() => addon.formulaLookup('widgets', B, { deadlineAtMs: clock.now() + 25_000 })).toThrow(FormulaNotAllowedError);
    expect(transport.requestCount).toBe(0);
    expect(addon.formulaReport('main', input(A), { deadlineAtMs: clock.now() + 25_000 }).length).toBe(5);
    expect(transport.requestCount).toBe(1);
  });

  it('reads the choice once per execution, however many formulas it computes', () => {
    const { addon, clock, userStore } = setup(storedPolicyText({ mode: 'none', publisherIds: [] }));
    const before = userStore.gets;
    for (let i = 0; i < 3; i++) expect(() => addon.formulaLookup('countries', undefined, { deadlineAtMs: clock.now() + 25_000 })).toThrow();
    expect(userStore.gets - before).toBe(1);
  });
});
