/**
 * One run of the installation check without the platform: the addresses it fetches and how each answer
 * reads, the trigger's finding before any run has spoken, the formula probes read until each shows
 * something or 30 s pass, and the records that carry a trigger run's word to the check's sheet.
 */
import {
  AWAITING_TRIGGER_KEY,
  awaitFormulaProbes,
  awaitTriggerRun,
  finishTriggerFinding,
  formulaFindings,
  hostFindings,
  pendingTriggerFinding,
  recordTriggerContext,
} from '../../../../../src/core/addon/stores/installation-check-run';
import type { Finding } from '../../../../../src/core/addon/stores/installation-check';
import { TransportError } from '../../../../../src/core/errors';
import { FakeStore, FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../../support/fakes';

const VERSION = 'Engage for Sheets 0.1.0';

describe('hostFindings', () => {
  it('fetches the reporting API’s publishers and the recommendations endpoint once each, without a sign-in', () => {
    const transport = new FakeTransport(() => jsonResponse(401, {}));
    const findings = hostFindings(
      { reportingBaseUrl: 'https://api.example/engage/v2//', recommendationsUrl: 'https://recs.example/v1/' },
      transport,
    );
    expect(transport.requests).toEqual([
      { url: 'https://api.example/engage/v2/publishers', method: 'get' },
      { url: 'https://recs.example/v1/', method: 'get' },
    ]);
    expect(findings.map((f) => [f.check, f.status])).toEqual([
      ['URL Fetch reaches the reporting API', 'ok'],
      ['URL Fetch reaches the recommendations endpoint', 'ok'],
    ]);
  });

  it('skips an address that is not set, and reads a refused fetch by its kind', () => {
    const transport = new FakeTransport().enqueue(new TransportError('DNS error: https://api.example', { kind: 'dns' }));
    const findings = hostFindings({ reportingBaseUrl: 'https://api.example', recommendationsUrl: '' }, transport);
    expect(transport.requestCount).toBe(1);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.status).toBe('attention');
    expect(findings[0]!.meaning).toMatch(/does not resolve from Google's servers/);
  });
});

describe('pendingTriggerFinding', () => {
  it('waits for the check’s own trigger, or says the hourly run will tell, or why the trigger is missing', () => {
    expect(pendingTriggerFinding({ ok: true, by: 'check' }, 'all', 0)).toMatchObject({
      status: 'pending',
      result: 'No trigger run since the check started.',
    });
    expect(pendingTriggerFinding({ ok: true, by: 'hourly run' }, 'all', 0)).toMatchObject({
      status: 'pending',
      result: 'No trigger run since the check started (your hourly trigger is in this spreadsheet: its next run will tell).',
    });
    expect(pendingTriggerFinding({ ok: false, error: 'This script has too many triggers.' }, 'current', 0)).toMatchObject({
      status: 'attention',
      result: 'The check could not install its trigger: This script has too many triggers.',
      meaning: 'Whether a scheduled run has its spreadsheet stays unknown: run the check again later, or report this.',
    });
  });
});

describe('awaitFormulaProbes', () => {
  it('reads every 500 ms until each cell shows something, and says how long it waited', () => {
    const clock = new ManualClock();
    const sleeper = new ManualSleeper(clock);
    const shown = [
      { single: ['', 'Loading...'], together: ['Loading...'] },
      { single: ['#ERROR!', 'Loading...'], together: [VERSION] },
      { single: ['#ERROR!', VERSION], together: [VERSION] },
    ];
    let reads = 0;
    const readings = awaitFormulaProbes(() => shown[reads++]!, clock, sleeper);
    expect(reads).toBe(3);
    expect(sleeper.sleeps).toEqual([500, 500]);
    expect(readings).toEqual({ single: ['#ERROR!', VERSION], together: [VERSION], waitedMs: 1000 });
  });

  it('stops after 30 s, leaving what still computes undefined', () => {
    const clock = new ManualClock();
    const sleeper = new ManualSleeper(clock);
    const readings = awaitFormulaProbes(() => ({ single: ['#ERROR!', 'Loading...'], together: [VERSION, ''] }), clock, sleeper);
    expect(sleeper.totalMs).toBe(30_000);
    expect(readings).toEqual({ single: ['#ERROR!', undefined], together: [VERSION, undefined], waitedMs: 30_000 });
  });
});

describe('formulaFindings', () => {
  it('reads the text probe, TODAY(), the sidebar function in a cell and the formulas set off together', () => {
    const findings = formulaFindings(
      { asTheAddonWrites: '1/2', plainly: new Date(Date.UTC(2026, 0, 2)), timeZone: 'UTC' },
      { single: [undefined, undefined], together: [VERSION, '#ERROR!', undefined], waitedMs: 30_000 },
    );
    expect(findings.map((f) => [f.check, f.status])).toEqual([
      ['Names that look like dates stay text', 'ok'],
      ['TODAY() is accepted as an argument', 'attention'],
      ['Sidebar functions refuse to run in a cell', 'attention'],
      ['40 formulas recalculating at once', 'attention'],
    ]);
    expect(findings[1]!.result).toBe('=ENGAGE_VERSION(TODAY()) still showed Loading... after 30 s.');
    expect(findings[2]!.result).toBe('=GETSIDEBARSTATE() typed in a cell shows "Loading...".');
    expect(findings[3]!.result).toBe('1 computed, 1 ended in error, 1 still loading after 30 s.');
  });
});

describe('a trigger run’s word, carried to the check’s sheet', () => {
  const context =
    (by: 'check' | 'schedule', atMs: number, hadDocument = true) =>
    () => ({ hadDocument, atMs, by });

  it('is recorded from the check’s trigger always, from an hourly run only while the check waits for it', () => {
    const store = new FakeStore();
    expect(recordTriggerContext(store, 'schedule', context('schedule', 5))).toBeUndefined();
    expect(store.sets).toBe(0);
    store.set(AWAITING_TRIGGER_KEY, '1');
    expect(recordTriggerContext(store, 'schedule', context('schedule', 5))).toEqual({ hadDocument: true, atMs: 5, by: 'schedule' });
    expect(store.get(AWAITING_TRIGGER_KEY)).toBeNull();
    expect(recordTriggerContext(store, 'check', context('check', 6, false))).toEqual({ hadDocument: false, atMs: 6, by: 'check' });
  });

  it('is written once, into the row the check left for it, in the spreadsheet that was checked, by a run after the check', () => {
    const store = new FakeStore();
    const written: Array<[number, Finding, number]> = [];
    const write = (row: number, finding: Finding, atMs: number) => written.push([row, finding, atMs]);
    expect(finishTriggerFinding(store, 'sheet-1', 'all', write)).toBe(false);
    expect(store.gets).toBe(1);
    awaitTriggerRun(store, { spreadsheetId: 'sheet-1', startedAtMs: 100, row: 4 });
    recordTriggerContext(store, 'check', context('check', 50));
    expect(finishTriggerFinding(store, 'sheet-1', 'all', write)).toBe(false);
    recordTriggerContext(store, 'check', context('check', 160, false));
    expect(finishTriggerFinding(store, 'sheet-2', 'all', write)).toBe(false);
    expect(finishTriggerFinding(store, 'sheet-1', 'all', write)).toBe(true);
    expect(written).toHaveLength(1);
    expect(written[0]![0]).toBe(4);
    expect(written[0]![1]).toMatchObject({ status: 'ok', result: "The check's trigger ran without a document." });
    expect(written[0]![2]).toBe(160);
    expect(finishTriggerFinding(store, 'sheet-1', 'all', write)).toBe(false);
  });

  it('ends a wait whose record cannot be read, writing nothing', () => {
    const store = new FakeStore();
    store.set('engage.check.run', '{not json');
    const write = jest.fn();
    expect(finishTriggerFinding(store, 'sheet-1', 'all', write)).toBe(false);
    expect(write).not.toHaveBeenCalled();
    expect(store.get('engage.check.run')).toBeNull();
  });
});
