/**
 * The installation check's findings: each probe's outcome becomes what was seen and what it means for
 * the deployer, and the sentence changes with the outcome (a reachable host or a refused one, a trigger
 * run with or without a document under each spreadsheetAccess, a name kept or changed...).
 */
import {
  cacheFinding,
  cacheProbe,
  checkOwnerMayCheck,
  concurrencyFinding,
  sidebarInCellFinding,
  findingRows,
  hostFinding,
  textFinding,
  todayFinding,
  triggerFinding,
} from '../../../../../src/core/addon/stores/installation-check';
import type { Clock } from '../../../../../src/core/ports';
import { FakeCache, FakeCompressor, ManualClock } from '../../../../support/fakes';

describe('hostFinding', () => {
  it('takes any HTTP answer as reachable, and says a 401 without a sign-in is expected', () => {
    const finding = hostFinding('reporting API', 'https://api.example/engage/v2/publishers', { status: 401 });
    expect(finding.status).toBe('ok');
    expect(finding.result).toBe('https://api.example/engage/v2/publishers answered HTTP 401 (no sign-in was sent, as expected).');
  });

  it.each([
    ['not-allowed', /urlFetchWhitelist\. Put the right address in your deploy config/],
    ['dns', /does not resolve from Google's servers/],
    ['connection', /No answer came back/],
  ] as const)('says what to do when the fetch failed with %s', (failure, meaning) => {
    const finding = hostFinding('reporting API', 'https://api.example/x', { failure, message: 'Exception: something' });
    expect(finding.status).toBe('attention');
    expect(finding.result).toBe('https://api.example/x: Exception: something');
    expect(finding.meaning).toMatch(meaning);
  });
});

describe('triggerFinding', () => {
  const started = 1_000;
  it('is pending until a trigger run after the check has said what it saw', () => {
    expect(triggerFinding(undefined, 'all', started).status).toBe('pending');
    expect(triggerFinding({ hadDocument: true, atMs: started - 1, by: 'schedule' }, 'all', started).status).toBe('pending');
  });

  it('calls "current" safe when trigger runs have a document', () => {
    const finding = triggerFinding({ hadDocument: true, atMs: started + 60_000, by: 'check' }, 'current', started);
    expect(finding).toMatchObject({ status: 'ok', result: "The check's trigger ran with this spreadsheet as its document." });
    expect(finding.meaning).toBe('Trigger runs have a document: spreadsheetAccess "current" is safe on this deployment.');
  });

  it('asks for "all" when trigger runs have no document and the deployment has "current"', () => {
    const current = triggerFinding({ hadDocument: false, atMs: started + 1, by: 'schedule' }, 'current', started);
    expect(current.status).toBe('attention');
    expect(current.meaning).toMatch(/set spreadsheetAccess "all" in the deploy config/);
    const all = triggerFinding({ hadDocument: false, atMs: started + 1, by: 'schedule' }, 'all', started);
    expect(all).toMatchObject({ status: 'ok', result: 'An hourly run of your saved reports ran without a document.' });
    expect(all.meaning).toMatch(/Keep "all"/);
  });
});

describe('textFinding', () => {
  it('is ok when the name came back as written, and says whether plain writing would have changed it', () => {
    const kept = textFinding('1/2', '1/2', new Date(Date.UTC(2026, 0, 2)));
    expect(kept.status).toBe('ok');
    expect(kept.result).toMatch(
      /came back as the text "1\/2"\. Written plainly it became the date 2026-01-02: the add-on's protection is needed here\./,
    );
    expect(textFinding('1/2', '1/2', '1/2').result).toMatch(/Written plainly it stayed text too/);
  });

  it('needs attention when the name changed despite the protection', () => {
    const changed = textFinding('1/2', 0.5, 0.5);
    expect(changed.status).toBe('attention');
    expect(changed.result).toMatch(/came back as 0\.5/);
  });
});

describe('todayFinding', () => {
  it('tells a formula that ran from one left loading', () => {
    expect(todayFinding('value', 1_000)).toMatchObject({ status: 'ok', result: '=ENGAGE_VERSION(TODAY()) computed.' });
    const loading = todayFinding('loading', 20_000);
    expect(loading).toMatchObject({ status: 'attention', result: '=ENGAGE_VERSION(TODAY()) still showed Loading... after 20 s.' });
    expect(loading.meaning).toMatch(/write relative dates instead \("7daysAgo", "yesterday"/);
  });
});

describe('cacheFinding', () => {
  it('gives the times, entries and size, and the share of 30 s', () => {
    const quick = cacheFinding({ rows: 20_000, bytes: 1_234_000, entries: 14, writeMs: 2_400, readMs: 600 });
    expect(quick.status).toBe('ok');
    expect(quick.check).toBe('Caching a 20,000-row formula result');
    expect(quick.result).toBe('Compressing and caching it took 2.4 s (14 cache entries, 1,234 KB), reading it back 0.6 s.');
    expect(quick.meaning).toBe("That is 10% of a formula's 30 s: large results fit in time.");
    expect(cacheFinding({ rows: 20_000, bytes: 1, entries: 1, writeMs: 9_000, readMs: 3_000 }).status).toBe('attention');
  });
});

describe('concurrencyFinding', () => {
  it('is ok when every formula computed, and explains the 30-at-once rule when some failed', () => {
    expect(concurrencyFinding({ formulas: 40, values: 40, errors: 0, loading: 0, waitedMs: 5_000 }).status).toBe('ok');
    const refused = concurrencyFinding({ formulas: 40, values: 29, errors: 11, loading: 0, waitedMs: 5_000 });
    expect(refused).toMatchObject({ status: 'attention', result: '29 computed, 11 ended in error.' });
    expect(refused.meaning).toMatch(/at most 25 at a time/);
  });
});

describe('findingRows', () => {
  it('writes a header and one row per finding with its status in words', () => {
    const rows = findingRows([todayFinding('value', 0)], '2026-11-26 10:00 (Europe/Berlin)');
    expect(rows[0]).toEqual(['Check', 'Status', 'What was seen', 'What it means', 'Checked']);
    expect(rows[1]!.slice(0, 3)).toEqual(['TODAY() is accepted as an argument', 'OK', '=ENGAGE_VERSION(TODAY()) computed.']);
    expect(rows[1]![4]).toBe('2026-11-26 10:00 (Europe/Berlin)');
  });
});

describe('cacheProbe', () => {
  it('caches a 20,000-row result as a formula does (one write, one read of several entries), times both, and removes it', () => {
    const clock = new ManualClock(0);
    const cache = new FakeCache(clock);
    // Each call of the clock moves it 5 ms, so the times are those of the calls between the readings.
    const ticking: Clock = {
      now: () => {
        clock.advance(5);
        return clock.now();
      },
    };
    const probe = cacheProbe(cache, new FakeCompressor(), ticking);
    expect(probe.rows).toBe(20_000);
    expect(probe.entries).toBeGreaterThan(1);
    expect(cache.putAlls).toBe(1);
    expect(cache.getAlls).toBe(1);
    expect(probe.bytes).toBeGreaterThan(96_000);
    expect(probe.writeMs).toBeGreaterThan(0);
    expect(probe.readMs).toBeGreaterThan(0);
    expect(cache.keys()).toEqual([]);
  });
});

describe('checkOwnerMayCheck', () => {
  it("lets the owner check (whatever the case of the address), and a shared drive file's user", () => {
    expect(() => checkOwnerMayCheck('Ann@Example.com', 'ann@example.com')).not.toThrow();
    expect(() => checkOwnerMayCheck(null, 'bob@example.com')).not.toThrow();
  });

  it('refuses anyone else, naming the owner and what to ask', () => {
    expect(() => checkOwnerMayCheck('ann@example.com', 'bob@example.com')).toThrow(
      "Only the owner of this spreadsheet, ann@example.com, can check this installation (the check writes a sheet of findings, sets off formulas that use the owner's sign-in and installs a trigger): ask the owner to run Check this installation from the Engage menu.",
    );
    expect(() => checkOwnerMayCheck('ann@example.com', '')).toThrow(/Google did not give Engage your email address/);
  });
});

describe('sidebarInCellFinding', () => {
  it('is ok for an error or #NAME?, and needs attention for anything a sidebar function returned', () => {
    expect(sidebarInCellFinding('#ERROR!').status).toBe('ok');
    expect(sidebarInCellFinding('#NAME?').status).toBe('ok');
    const ran = sidebarInCellFinding('signedIn');
    expect(ran.status).toBe('attention');
    expect(ran.meaning).toMatch(/A sidebar function ran in a cell/);
  });
});
