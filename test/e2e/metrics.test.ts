/**
 * End to end, choosing metrics in the built bundle against the emulator: the `metrics` argument of
 * the report formulas, Run to sheet, Insert formula (which makes the sheet wide enough first) and
 * saved reports refreshed by the trigger, including one saved before metrics could be chosen. The API
 * has no metrics parameter, so every case also checks that the request is the one the default
 * would send. The sheets are 26 columns wide, as a new Google Sheet.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, useScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
const P = MEDIUM_PUBLISHER_ID;
const NEW_SHEET_COLUMNS = 26;
let h: AddonHarness;

interface Block {
  sheetName: string;
  row: number;
  column: number;
  rows: number;
  columns: number;
}
interface Summary {
  block: Block;
  dataRows: number;
  header: string[];
}
interface List {
  reports: Array<{ id: string; name: string; status: { lastSuccess?: string; rows?: number } }>;
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
/** What a user does before a result wider than the sheet: insert columns. */
const insertColumns = (sheet: string, total: number) => void (h.host.state.spreadsheet.sheetByName(sheet)!.maxColumns = total);
const column = (n: number) => String.fromCharCode(64 + n);
const request = (extra: Record<string, unknown> = {}) => ({
  kind: 'main',
  entityId: P,
  fromDate: '2026-11-13',
  toDate: '2026-11-19',
  breakdowns: ['day'],
  ...extra,
});

async function reportQueries(): Promise<Array<Record<string, string>>> {
  return (await h.emulator.reportRequests()).map((r) => {
    const { limit: _limit, offset: _offset, ...rest } = r.query as Record<string, string>;
    return rest;
  });
}

useScheduledAddon(
  START,
  { maxColumns: NEW_SHEET_COLUMNS, sheets: ['Sheet1', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'Runs', 'Chart', 'Wide', 'Narrow'] },
  (harness) => {
    h = harness;
  },
);

describe('the metrics argument of the formulas', () => {
  it('shows the chosen metrics in the order given and in the API spelling, with their totals, from the same request', async () => {
    const chosen = h.host.evaluateFormula(
      'F1',
      'A1',
      `=ENGAGE_REPORT("${P}", "2026-11-13", "2026-11-19", "day", "RPMBYPVS, revenue,paidclicks")`,
    );
    // Every metric by day is 27 columns: a new sheet is one short, as Sheets would say.
    const allText = `=ENGAGE_REPORT("${P}", "2026-11-13", "2026-11-19", "day", "all")`;
    expect(h.host.evaluateFormula('F2', 'A1', allText)).toMatchObject({
      value: '#REF!',
      error: 'Result was not automatically expanded, please insert more columns.',
    });
    insertColumns('F2', 27);
    const all = h.host.evaluateFormula('F2', 'A1', allText);
    expect(chosen.error).toBeUndefined();
    const header = chosen.values![0]!;
    expect(header).toEqual(['day', 'rpmByPvs', 'revenue', 'paidClicks']);
    // Each column holds what the "all" formula shows under the same name, Total row included.
    const allHeader = all.values![0] as string[];
    expect(allHeader).toHaveLength(27);
    for (const [c, name] of header.entries()) {
      expect(chosen.values!.map((row) => row[c])).toEqual(all.values!.map((row) => row[allHeader.indexOf(name as string)]));
    }
    expect(chosen.values!.at(-1)![0]).toBe('Total');
    expect(typeof chosen.values!.at(-1)![2]).toBe('number');
    // The same query either way: the add-on keeps columns, the API has no metrics parameter.
    const [first, second] = await reportQueries();
    expect(first).toEqual(second);
    expect(Object.keys(first!)).not.toContain('metrics');
  });

  it('takes the metrics from a range, and "all" by widget shows request metrics, not page views', () => {
    h.host.setCell('F3', 'AA1', 'revenue');
    h.host.setCell('F3', 'AA2', 'reqsRpm');
    h.host.setCell('F3', 'AB1', 'paidReqs');
    const fromRange = h.host.evaluateFormula('F3', 'A1', `=ENGAGE_REPORT("${P}", "2026-11-13", "2026-11-19", "day,widget", AA1:AB2)`);
    expect(fromRange.values![0]).toEqual(['day', 'widget.id', 'widget.name', 'revenue', 'paidReqs', 'reqsRpm']);
    insertColumns('F4', 40);
    const all = h.host.evaluateFormula('F4', 'A1', `=ENGAGE_REPORT("${P}", "2026-11-13", "2026-11-13", "widget", "all")`);
    expect(all.values![0]).toContain('paidReqs');
    expect(all.values![0]).not.toContain('paidPvs');
  });

  it('does not serve one choice of metrics from the cached result of another', () => {
    const text = (metrics: string) => `=ENGAGE_EXTERNALID_REPORT("${P}", "2026111800", "2026111802", "externalId,widget", "${metrics}")`;
    const first = h.host.evaluateFormula('F5', 'A1', text('revenue'));
    const second = h.host.evaluateFormula('F6', 'A1', text('revenue,paidClicks'));
    expect(first.values![0]).toEqual(['externalId', 'widget.id', 'widget.name', 'revenue']);
    expect(second.values![0]).toEqual(['externalId', 'widget.id', 'widget.name', 'revenue', 'paidClicks']);
    expect(second.values!.map((row) => row[3])).toEqual(first.values!.map((row) => row[3]));
  });
});

describe('Run to sheet', () => {
  it("writes the chosen metrics with API names and notes, and a narrower run clears the wider one's columns", async () => {
    const wide = call<Summary>(
      'runReportToSheet',
      request({ breakdowns: ['day', 'platform'] }),
      { type: 'existingSheet', sheetName: 'Runs' },
      'metrics-run-1',
    );
    // The default set: day, platform id and name, seven metrics.
    expect(wide.header).toEqual([
      'day',
      'platform.id',
      'platform.name',
      'paidPvs',
      'totalPvs',
      'revenue',
      'rpmByPvs',
      'paidClicks',
      'paidCtrByPvs',
      'viewabilityRate',
    ]);
    expect(h.host.getCell('Runs', 'G1').note).toBe('RPM (page views): (revenue / paidPvs) * 1000');
    expect(h.host.getCell('Runs', 'A1').note).toBe('');

    const narrow = call<Summary>(
      'runReportToSheet',
      request({ breakdowns: ['day', 'platform'], metrics: ['revenue', 'paidClicks'] }),
      { type: 'existingSheet', sheetName: 'Runs' },
      'metrics-run-2',
    );
    expect(narrow.header).toEqual(['day', 'platform.id', 'platform.name', 'revenue', 'paidClicks']);
    const grid = h.host.getValues('Runs', `A1:J${narrow.dataRows + 2}`);
    expect(grid[0]).toEqual(['day', 'platform.id', 'platform.name', 'revenue', 'paidClicks', '', '', '', '', '']);
    expect(grid.at(-1)!.slice(0, 5)).toEqual(['Total', '', '', expect.any(Number), expect.any(Number)]);
    expect(h.host.getCell('Runs', 'D1').note).toBe('Revenue: total revenue');
    expect(h.host.getCell('Runs', 'G1').note).toBe('');
    const [first, second] = await reportQueries();
    expect(first).toEqual(second);
  });

  it('leaves Add chart to say which metric it misses, and draws nothing', () => {
    const summary = call<Summary>(
      'runReportToSheet',
      request({ metrics: ['revenue', 'paidClicks'] }),
      { type: 'existingSheet', sheetName: 'Chart' },
      'metrics-run-3',
    );
    expect(() => call('addChart', summary.block)).toThrow(
      /^The chart draws revenue and RPM, and this report has no RPM column: choose the Revenue and RPM metrics and run it again\.$/,
    );
    expect(h.host.state.spreadsheet.sheetByName('Chart')!.charts).toHaveLength(0);
  });
});

describe('Insert formula', () => {
  it('writes the metrics argument, and widens the sheet first when the result needs more columns', () => {
    h.host.setActiveRange('Wide', 'T3');
    const inserted = call<{ formula: string; cell: string; columnsAdded: number }>(
      'insertFormula',
      request({
        metrics: ['revenue', 'rpmByPvs', 'paidClicks', 'totalClicks', 'videoPlays', 'viewableRpm', 'optInRateByPvs', 'organicPvs'],
      }),
    );
    expect(inserted.formula).toBe(
      `=ENGAGE_REPORT("${P}","2026-11-13","2026-11-19","day","revenue,rpmByPvs,paidClicks,totalClicks,videoPlays,viewableRpm,optInRateByPvs,organicPvs","","","","","",EngageRefresh)`,
    );
    // T is column 20: day and eight metrics end at column 28, two past Z.
    expect(inserted).toMatchObject({ cell: 'Wide!T3', columnsAdded: 2 });
    expect(h.host.state.spreadsheet.sheetByName('Wide')!.maxColumns).toBe(28);
    const result = h.host.evaluateFormula('Wide', 'T3');
    expect(result.error).toBeUndefined();
    expect(h.host.getCell('Wide', `${column(20)}3`).value).toBe('day');
    expect(h.host.getValues('Wide', 'AB3:AB3')[0]![0]).toBe('organicPvs');
  });

  it('widens for "all" and leaves a sheet that is wide enough as it is', () => {
    h.host.setActiveRange('Narrow', 'A1');
    const fits = call<{ formula: string; columnsAdded: number }>('insertFormula', request({ breakdowns: ['day', 'country'] }));
    expect(fits.formula).toBe(`=ENGAGE_REPORT("${P}","2026-11-13","2026-11-19","day,country","","","","","","",EngageRefresh)`);
    expect(fits.columnsAdded).toBe(0);
    expect(h.host.state.spreadsheet.sheetByName('Narrow')!.maxColumns).toBe(NEW_SHEET_COLUMNS);
    expect(h.host.evaluateFormula('Narrow', 'A1').error).toBeUndefined();

    h.host.setActiveRange('Sheet1', 'A1');
    const everything = request({ breakdowns: ['day', 'country'] });
    const all = call<{ formula: string; columnsAdded: number }>('insertFormula', {
      ...everything,
      metrics: [
        'paidPvs',
        'totalPvs',
        'organicPvs',
        'revenue',
        'rpmByPvs',
        'reqsRpm',
        'paidClicks',
        'organicClicks',
        'totalClicks',
        'paidCtrByPvs',
        'totalCtrByPvs',
        'organicCtrByPvs',
        'reqsPaidCtr',
        'reqsTotalCtr',
        'reqsOrganicCtr',
        'videoRevenue',
        'videoPlays',
        'viewabilityRate',
        'paidViewabilityRate',
        'organicViewabilityRate',
        'viewableCtr',
        'viewableOrganicCtr',
        'viewablePaidCtr',
        'viewableRpm',
        'optInRateByReqs',
        'optInRateByPvs',
      ],
    });
    expect(all.formula).toContain('"day,country","all"');
    // day, country id and name, 26 metrics: 29 columns.
    expect(all.columnsAdded).toBe(3);
    const result = h.host.evaluateFormula('Sheet1', 'A1');
    expect(result.value).not.toBe('#REF!');
    expect(result.values![0]).toHaveLength(29);
  });
});

describe('saved reports', () => {
  function saved(name: string, extra: Record<string, unknown>) {
    return {
      name,
      kind: 'main',
      entityId: P,
      period: { type: 'lastDays', days: 7 },
      breakdowns: ['day'],
      target: { sheetName: name, cell: 'A1' },
      schedule: { every: 'hour' },
      ...extra,
    };
  }

  it('refresh with their metrics on the trigger, and one saved without metrics keeps every metric', () => {
    h.host.state.spreadsheet.addSheet('Chosen');
    h.host.state.spreadsheet.addSheet('Older');
    call<List>('saveSchedule', saved('Chosen', { metrics: ['revenue', 'rpmByPvs'] }));
    // As a report saved before metrics could be chosen: no metrics field at all.
    const list = call<List>('saveSchedule', saved('Older', {}));
    const older = list.reports.find((r) => r.name === 'Older')!;
    const stored = JSON.parse(h.host.properties('document').get(`engage.sr.def.${older.id}`)!) as Record<string, unknown>;
    expect(stored).not.toHaveProperty('metrics');

    h.host.advanceTime(HOUR_MS);
    const after = call<List>('listSchedules');
    for (const name of ['Chosen', 'Older']) expect(after.reports.find((r) => r.name === name)!.status.lastSuccess).toBeDefined();
    const rows = after.reports.find((r) => r.name === 'Chosen')!.status.rows!;
    expect(h.host.getValues('Chosen', 'A1:D1')[0]).toEqual(['day', 'revenue', 'rpmByPvs', '']);
    expect(h.host.getValues('Chosen', `A${rows + 2}:A${rows + 2}`)[0]![0]).toBe('Total');
    // Every metric by day: 27 columns, the writer adds the one a new sheet lacks.
    const olderHeader = h.host.getValues('Older', 'A1:AA1')[0]!;
    expect(olderHeader).toEqual(
      expect.arrayContaining(['day', 'paidPvs', 'organicPvs', 'videoRevenue', 'viewableRpm', 'optInRateByReqs', 'optInRateByPvs']),
    );
    expect(olderHeader.filter((v) => v !== '')).toHaveLength(1 + 26);
  });
});
