/**
 * The planning of refresh waves: groups of at most 25 formulas per refresh cell, waves of at most 25
 * formulas (5 of Apps Script's 30 executions at once per user left), oldest groups first, an
 * overfull group's extras moved to new groups a wave at a time; the names, the formula rewrite, the
 * stamps and the texts Refresh all shows.
 */
import {
  nextRefreshStampMs,
  parseWaveCount,
  planRefreshWaves,
  refreshGroupName,
  refreshGroupNumber,
  refreshGroupWithRoom,
  refreshOutcomeText,
  refreshPlanText,
  refreshReferencePattern,
  refreshWaveKey,
  withRefreshReference,
} from '../../../../src/core/sheets/refresh-waves';

describe('refresh groups', () => {
  it('are EngageRefresh, then EngageRefresh2, 3, ...; no other name is one', () => {
    expect([1, 2, 12].map(refreshGroupName)).toEqual(['EngageRefresh', 'EngageRefresh2', 'EngageRefresh12']);
    expect(['EngageRefresh', 'EngageRefresh2', 'EngageRefresh12'].map(refreshGroupNumber)).toEqual([1, 2, 12]);
    expect(['EngageRefresh1', 'EngageRefresh02', 'EngageRefreshX', 'MyRefresh', 'engagerefresh'].map(refreshGroupNumber)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('give a new formula the fullest group with room, else the next new group', () => {
    const groups = [
      { name: 'EngageRefresh', formulas: 25 },
      { name: 'EngageRefresh2', formulas: 20 },
      { name: 'EngageRefresh3', formulas: 3 },
    ];
    expect(refreshGroupWithRoom(groups, 1, 25)).toBe('EngageRefresh2');
    // A dashboard's 5 formulas fit the group of 20 exactly; 6 do not.
    expect(refreshGroupWithRoom(groups, 5, 25)).toBe('EngageRefresh2');
    expect(refreshGroupWithRoom(groups, 6, 25)).toBe('EngageRefresh3');
    expect(refreshGroupWithRoom([{ name: 'EngageRefresh', formulas: 25 }], 1, 25)).toBe('EngageRefresh2');
  });
});

describe('the refresh argument in formula text', () => {
  const pattern = (name: string) => new RegExp(refreshReferencePattern(name), 'i');

  it('is found in an ENGAGE_* formula whatever its place and spacing, and only for that group', () => {
    const report = '=ENGAGE_REPORT("p1", "2026-11-01", "2026-11-02", , , , , , , , EngageRefresh)';
    expect(pattern('EngageRefresh').test(report)).toBe(true);
    expect(pattern('EngageRefresh2').test(report)).toBe(false);
    expect(pattern('EngageRefresh').test('=ENGAGE_REPORT("p1","2026-11-01","2026-11-02",,,,,,,,EngageRefresh2)')).toBe(false);
    expect(pattern('EngageRefresh').test('=engage_publishers( engagerefresh )')).toBe(true);
    expect(pattern('EngageRefresh').test('=IFERROR(ENGAGE_COUNTRIES(EngageRefresh), "")')).toBe(true);
    expect(pattern('EngageRefresh').test('=ENGAGE_REPORT("p1";"2026-11-01";"2026-11-02";;;;;;;;EngageRefresh)')).toBe(true);
    // Not an ENGAGE_* formula, or the name as text: Sheets starts no script for those.
    expect(pattern('EngageRefresh').test('=EngageRefresh')).toBe(false);
    expect(pattern('EngageRefresh').test('=SUM(A1, EngageRefresh)')).toBe(false);
  });

  it('is rewritten to another group, the rest of the formula as it was', () => {
    expect(withRefreshReference('=ENGAGE_REPORT("EngageRefresh", A1, , EngageRefresh )', 'EngageRefresh', 'EngageRefresh3')).toBe(
      '=ENGAGE_REPORT("EngageRefresh", A1, , EngageRefresh3 )',
    );
    expect(withRefreshReference('=ENGAGE_PUBLISHERS(EngageRefresh2)', 'EngageRefresh', 'EngageRefresh3')).toBe(
      '=ENGAGE_PUBLISHERS(EngageRefresh2)',
    );
  });
});

describe('planRefreshWaves', () => {
  it('puts groups of at most 25 together into waves of at most 25, the oldest first', () => {
    const waves = planRefreshWaves(
      [
        { name: 'EngageRefresh', formulas: 25, stampMs: 3000 },
        { name: 'EngageRefresh2', formulas: 10, stampMs: 1000 },
        { name: 'EngageRefresh3', formulas: 15, stampMs: 2000 },
        { name: 'EngageRefresh4', formulas: 0, stampMs: 500 },
      ],
      25,
    );
    expect(waves).toEqual([
      { kind: 'touch', groups: ['EngageRefresh4', 'EngageRefresh2', 'EngageRefresh3'], formulas: 25 },
      { kind: 'touch', groups: ['EngageRefresh'], formulas: 25 },
    ]);
  });

  it('moves the formulas of an overfull group past 25 to new groups first, a wave each, then changes its cell', () => {
    const waves = planRefreshWaves(
      [
        { name: 'EngageRefresh', formulas: 60, stampMs: 1000 },
        { name: 'EngageRefresh3', formulas: 4, stampMs: 2000 },
      ],
      25,
    );
    // Changing EngageRefresh's cell while it serves 60 would start all 60 at once.
    expect(waves).toEqual([
      { kind: 'move', from: 'EngageRefresh', to: 'EngageRefresh4', skip: 25, formulas: 25 },
      { kind: 'move', from: 'EngageRefresh', to: 'EngageRefresh5', skip: 50, formulas: 10 },
      { kind: 'touch', groups: ['EngageRefresh'], formulas: 25 },
      { kind: 'touch', groups: ['EngageRefresh3'], formulas: 4 },
    ]);
    expect(Math.max(...waves.map((w) => w.formulas))).toBeLessThanOrEqual(25);
    expect(waves.reduce((sum, w) => sum + w.formulas, 0)).toBe(64);
  });

  it('is one wave of no formula when no formula references a refresh cell', () => {
    expect(planRefreshWaves([{ name: 'EngageRefresh', formulas: 0, stampMs: 0 }], 25)).toEqual([
      { kind: 'touch', groups: ['EngageRefresh'], formulas: 0 },
    ]);
  });
});

describe('stamps and counts', () => {
  it('stamps a refresh with a whole second of its own, after the last one', () => {
    expect(nextRefreshStampMs(1_700_000_000_250, 0)).toBe(1_700_000_001_000);
    expect(nextRefreshStampMs(1_700_000_000_250, 1_700_000_001_000)).toBe(1_700_000_002_000);
    expect(refreshWaveKey(1_700_000_002_000)).toBe('engage.wave.1700000002');
  });

  it('reads a wave count back, and nothing from anything else', () => {
    expect(parseWaveCount('{"ended":3,"failed":1}')).toEqual({ ended: 3, failed: 1 });
    expect([null, '', 'x', '{"ended":25}', '{"ended":-1,"failed":0}'].map(parseWaveCount)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('what Refresh all says', () => {
  it('before it starts: how many formulas, in how many waves', () => {
    expect(refreshPlanText(60, 3, 25)).toBe(
      'Refreshing 60 Engage formulas in 3 waves of at most 25, one after another: Apps Script runs at most 30 scripts of a user at once.',
    );
    expect(refreshPlanText(1, 1, 25)).toBe('Refreshing 1 Engage formula: it shows fresh data in a few seconds.');
    expect(refreshPlanText(0, 1, 25)).toMatch(/^No Engage formula uses the refresh cell yet/);
  });

  it('when it ends: all, part of them for lack of time, or nothing because another refresh runs', () => {
    const all = { formulas: 60, waves: 3, refreshedFormulas: 60, startedWaves: 3, busy: false };
    expect(refreshOutcomeText(all)).toBe('Refreshed 60 Engage formulas in 3 waves; the last wave is computing now.');
    expect(refreshOutcomeText({ ...all, refreshedFormulas: 35, startedWaves: 2 })).toBe(
      'Refreshed 35 of 60 Engage formulas in 2 waves of 3 before time ran out: Refresh all again, or the hourly run, refreshes the other 25.',
    );
    expect(refreshOutcomeText({ ...all, busy: true })).toMatch(/^Refresh all is already running in this spreadsheet/);
  });
});
