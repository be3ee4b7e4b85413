/**
 * Which functions a cell may call, in the host's two readings (strict.ts `anyFunctionAsFormula`).
 * Google's only rule is "The name of a custom function can't end with an underscore", so in the strict
 * reading a sidebar's server function typed into a cell runs; in the kind reading only a function whose
 * JSDoc in the loaded script says `@customfunction` can be typed, and any other shows #NAME? as an
 * unknown function does. Either way a formula has no UI, and neither has a trigger's run.
 */
import fs from 'node:fs';
import { createGasHost } from '../../../dev/gas-host';
import { customFunctionNames } from '../../../dev/gas-host/formulas/formula-functions';
import { distCode } from '../../support/paths';

const BUNDLE = `
/**
 * Doubles a number.
 * @param {number} n The number.
 * @customfunction
 */
function DOUBLE(n) { return n * 2; }

/**
 * A server function of the sidebar: it reads the user's token.
 * @return {string} What it did.
 */
function listPublishers() { return 'listed with ' + PropertiesService.getUserProperties().getProperty('token'); }

/** @customfunction */
var notADeclaration = function () { return 1; };

/** Not the JSDoc of the function below: a statement sits between. @customfunction */
var gap = 1;
function gapped() { return 'gapped'; }

// @customfunction in a line comment is no JSDoc.
function lineCommented() { return 'line'; }

/** @customfunction */
function private_() { return 'hidden'; }

function hasUi() { try { SpreadsheetApp.getUi(); return 'ui'; } catch (e) { return String(e); } }
`;

describe('the functions the loaded script declares @customfunction', () => {
  it('are the top-level declarations whose JSDoc, right above them, carries the tag', () => {
    expect([...customFunctionNames(BUNDLE)].sort()).toEqual(['DOUBLE', 'PRIVATE_']);
  });

  it("are the built bundle's ENGAGE_* stubs and nothing else", () => {
    expect([...customFunctionNames(fs.readFileSync(distCode, 'utf8'))].sort()).toEqual([
      'ENGAGE_COMPARE',
      'ENGAGE_COUNTRIES',
      'ENGAGE_EXPLAIN',
      'ENGAGE_EXTERNALID_REPORT',
      'ENGAGE_NATIVEAPPS',
      'ENGAGE_PUBLISHERS',
      'ENGAGE_REALTIME_REPORT',
      'ENGAGE_RECOMMENDATIONS',
      'ENGAGE_REPORT',
      'ENGAGE_TIMEZONES',
      'ENGAGE_VERSION',
      'ENGAGE_WIDGETS',
    ]);
  });
});

describe('kind reading (anyFunctionAsFormula off)', () => {
  const host = createGasHost({ strict: { anyFunctionAsFormula: false } });
  host.load(BUNDLE);
  host.properties('user').set('token', 'owner-token');

  it('runs a @customfunction, typed in any case', () => {
    expect(host.evaluateFormula(undefined, 'A1', '=DOUBLE(21)').value).toBe(42);
    expect(host.evaluateFormula(undefined, 'A2', '=double(4)').value).toBe(8);
  });

  it('shows #NAME? for any other function, as for an unknown one, and runs nothing', () => {
    for (const [a1, formula, name] of [
      ['B1', '=LISTPUBLISHERS()', 'LISTPUBLISHERS'],
      ['B2', '=gapped()', 'gapped'],
      ['B3', '=LINECOMMENTED()', 'LINECOMMENTED'],
      ['B4', '=NOTADECLARATION()', 'NOTADECLARATION'],
      ['B5', '=NOSUCH()', 'NOSUCH'],
      ['B6', '=PRIVATE_()', 'PRIVATE_'],
    ] as const) {
      expect(host.evaluateFormula(undefined, a1, formula)).toMatchObject({ value: '#NAME?', error: `Unknown function: '${name}'.` });
    }
    // Nothing ran: not one property read.
    expect(host.counters['Properties.reads'] ?? 0).toBe(0);
  });

  it('does the same in a concurrent recalculation', async () => {
    host.setCell(undefined, 'C1', '=LISTPUBLISHERS()');
    host.setCell(undefined, 'C2', '=DOUBLE(5)');
    const results = await host.recalculate([{ a1: 'C1' }, { a1: 'C2' }]);
    expect(results.map((r) => r.value)).toEqual(['#NAME?', 10]);
    expect(host.counters['Properties.reads'] ?? 0).toBe(0);
  });

  afterAll(() => host.close());
});

describe('strict reading (anyFunctionAsFormula on)', () => {
  const host = createGasHost({ strict: { anyFunctionAsFormula: true } });
  host.load(BUNDLE);
  host.properties('user').set('token', 'owner-token');

  it('runs any top-level function typed in a cell, with the owner’s properties, as Google allows', () => {
    // An editor types the sidebar's function: it runs with the owner's properties.
    expect(host.evaluateFormula(undefined, 'A1', '=LISTPUBLISHERS()', { user: 'editor@example.com' }).value).toBe(
      'listed with owner-token',
    );
    expect(host.evaluateFormula(undefined, 'A2', '=GAPPED()').value).toBe('gapped');
    expect(host.evaluateFormula(undefined, 'A3', '=DOUBLE(2)').value).toBe(4);
  });

  it('still refuses a name ending in _ and a name the script lacks', () => {
    expect(host.evaluateFormula(undefined, 'B1', '=PRIVATE_()')).toMatchObject({ value: '#NAME?', error: "Unknown function: 'PRIVATE_'." });
    expect(host.evaluateFormula(undefined, 'B2', '=NOSUCH()')).toMatchObject({ value: '#NAME?', error: "Unknown function: 'NOSUCH'." });
  });

  it('gives a formula no UI: SpreadsheetApp.getUi() fails with the words users report', () => {
    expect(host.evaluateFormula(undefined, 'C1', '=HASUI()').value).toBe(
      'Exception: Cannot call SpreadsheetApp.getUi() from this context.',
    );
    // The same function from the sidebar or a menu (FULL) has the UI.
    expect(host.call('hasUi')).toBe('ui');
  });

  afterAll(() => host.close());
});

describe('a trigger run', () => {
  it('has no UI either, in a worker or on the calling thread, while the same handler called from a menu has', async () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.parse('2026-11-20T10:00:00Z') });
    host.load(`${BUNDLE}
      function install() { ScriptApp.newTrigger('hourly').timeBased().everyHours(1).create(); }
      function hourly(e) { PropertiesService.getUserProperties().setProperty('ui', hasUi() + ' / ' + (e && e.triggerUid ? 'event' : 'none')); }`);
    host.call('install');
    const noUi = 'Exception: Cannot call SpreadsheetApp.getUi() from this context. / event';
    host.clock.advance(3_600_000);
    const [run] = await host.runDueTriggersConcurrently();
    expect(run?.ok).toBe(true);
    expect(host.properties('user').get('ui')).toBe(noUi);
    host.properties('user').delete('ui');
    expect(host.advanceTime(3_600_000)).toHaveLength(1);
    expect(host.properties('user').get('ui')).toBe(noUi);
    host.call('hourly');
    expect(host.properties('user').get('ui')).toBe('ui / none');
    await host.close();
  });
});
