/**
 * End to end, the report builder's server side in the built bundle: "Run to sheet" of a report that
 * needs three pages reports "pages fetched of pages" through getRunProgress while it runs (the
 * sidebar polls it from a second call, as google.script.run cannot stream), and "Add chart" draws a
 * native line chart of revenue and RPM by day beside the block it wrote. "Insert formula" over cells
 * its result would fill writes nothing and asks, and with the answer "replace" clears them first.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
let h: AddonHarness;

interface Progress {
  state: 'running' | 'done' | 'failed';
  pagesFetched: number;
  pagesPlanned: number;
}
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
  pages: number;
  header: string[];
  partialNote?: string;
}

beforeAll(async () => {
  h = await startAddon({ maxColumns: 60, maxRows: 20000, sheets: ['Sheet1', 'Big', 'Daily', 'Limit'] });
  await h.emulator.setClock(NOW);
  h.signIn();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.emulator.clearFaults();
  await h.emulator.clearRequests();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Run to sheet', () => {
  it('reports the pages fetched of the pages planned while a three-page report runs', async () => {
    // The external-ID report pages at 5,000 rows: over 10,000 rows take three pages. Each page after
    // the first is slowed down so that the polls see the run between pages.
    const request = {
      kind: 'externalId',
      entityId: BIG_PUBLISHER_ID,
      fromDate: '2026-11-19 00:00',
      toDate: '2026-11-20 00:00',
      breakdowns: ['externalId', 'widget', 'externalSecondaryId'],
    };
    await h.emulator.setFaults([{ match: 'reports/externalId.*offset=[1-9]', latencyMs: 1200, times: 2 }]);
    const runId = 'progress-test-1';
    const running = h.host.callConcurrently([
      { functionName: 'runReportToSheet', args: [request, { type: 'existingSheet', sheetName: 'Big' }, runId], options: { user: OWNER } },
    ]);
    let finished = false;
    void running.then(() => (finished = true));
    const seen: Progress[] = [];
    while (!finished) {
      const progress = h.host.call('getRunProgress', [runId], { user: OWNER }) as Progress | null;
      if (progress && JSON.stringify(progress) !== JSON.stringify(seen.at(-1))) seen.push(progress);
      await sleep(100);
    }
    const [outcome] = await running;
    expect(outcome!.ok).toBe(true);
    const summary = outcome!.value as Summary;
    expect(summary.dataRows).toBeGreaterThan(10_000);
    expect(summary.pages).toBe(3);
    const pages = (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/externalId'));
    expect(pages).toHaveLength(3);

    // The polls saw the run part-way, "1 of 3" at least, and the progress only ever moved forward.
    const midRun = seen.filter((p) => p.state === 'running' && p.pagesPlanned === 3);
    expect(midRun.map((p) => p.pagesFetched)).toContain(1);
    const fetched = seen.map((p) => p.pagesFetched);
    expect(fetched).toEqual([...fetched].sort((a, b) => a - b));
    expect(h.host.call('getRunProgress', [runId], { user: OWNER })).toEqual({ state: 'done', pagesFetched: 3, pagesPlanned: 3 });
    // Every row is in the sheet: the last data row, then the Total row.
    const tail = h.host.getValues('Big', `A${summary.dataRows + 1}:A${summary.dataRows + 2}`).map((row) => row[0]);
    expect(tail[0]).toMatch(/\S/);
    expect(tail[1]).toBe('Total');
  });

  it("keeps a failed run's message in the progress, for the poll that comes after it", async () => {
    await h.emulator.setFaults([{ match: 'reports/main', status: 500, times: 1 }]);
    const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-13', toDate: '2026-11-19', breakdowns: ['day'] };
    expect(() =>
      h.host.call('runReportToSheet', [request, { type: 'existingSheet', sheetName: 'Daily' }, 'progress-test-2'], { user: OWNER }),
    ).toThrow();
    const progress = h.host.call('getRunProgress', ['progress-test-2'], { user: OWNER }) as Progress & { message?: string };
    expect(progress.state).toBe('failed');
    expect(progress.message).toBeTruthy();
  });
});

describe('the row limit', () => {
  it('keeps the first rows in the sort order, says so, and the inserted formula takes the same maxRows and gives the same rows', async () => {
    const request = {
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      fromDate: '2026-11-13',
      toDate: '2026-11-19',
      breakdowns: ['day', 'country'],
      maxRows: 5,
    };
    const summary = h.host.call('runReportToSheet', [request, { type: 'newSheet', sheetName: 'Top five' }, 'limit-test-1'], {
      user: OWNER,
    }) as Summary;
    expect(summary.dataRows).toBe(5);
    expect(summary.partialNote).toMatch(/^The row limit kept the first 5 of \d{1,3}(,\d{3})* rows\.$/);
    const reports = (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/main'));
    expect(reports.map((r) => r.query.limit)).toEqual(['5']);

    h.host.setActiveRange('Limit', 'A1');
    const inserted = h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string };
    expect(inserted.formula).toBe(
      `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}","2026-11-13","2026-11-19","day,country","","","",5,"","",EngageRefresh)`,
    );
    const result = h.host.evaluateFormula('Limit', 'A1');
    const comparable = (values: unknown[][]) => values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : String(v))));
    expect(comparable(result.values!)).toEqual(
      comparable(h.host.getValues('Top five', `A1:Z${summary.block.rows}`).map((r) => r.slice(0, summary.block.columns))),
    );
    expect(result.values).toHaveLength(1 + 5 + 1);
  });
});

describe('Insert formula', () => {
  const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-13', toDate: '2026-11-19', breakdowns: ['day'] };
  interface Asked {
    question: { reason: string; range: string; occupied: string; nonEmpty: number; choices: string[] };
  }

  it('writes nothing over cells its result would fill, asks where it fills, and with the answer clears them and writes', () => {
    h.host.call('runReportToSheet', [request, { type: 'newSheet', sheetName: 'Filled' }, 'formula-over-1'], { user: OWNER });
    // A note two rows below the report, in a column the formula's result fills.
    h.host.setCell('Filled', 'B12', 'kept?');
    const before = h.host.getValues('Filled', 'A1:Z20');
    h.host.setActiveRange('Filled', 'A1');
    const asked = h.host.call('insertFormula', [request], { user: OWNER }) as Asked;
    expect(asked.question).toEqual({
      reason: 'formula',
      range: 'Filled!A1:H',
      occupied: 'Filled!A1:H12',
      nonEmpty: expect.any(Number),
      choices: ['replace'],
      holder: 'an earlier Engage report',
    });
    expect(h.host.getValues('Filled', 'A1:Z20')).toEqual(before);
    expect(h.host.getCell('Filled', 'A1').formula).toBe('');
    expect(() => h.host.call('insertFormula', [request, { choice: 'append' }], { user: OWNER })).toThrow(
      /^choice: must be 'replace' for a formula$/,
    );
    expect(() => h.host.call('insertFormula', [request, 'replace'], { user: OWNER })).toThrow(
      /^options: must be \{choice: 'replace'\} or left out$/,
    );
    expect(h.host.getValues('Filled', 'A1:Z20')).toEqual(before);

    const inserted = h.host.call('insertFormula', [request, { choice: 'replace' }], { user: OWNER }) as { formula: string; cell: string };
    expect(inserted.cell).toBe('Filled!A1');
    expect(h.host.getCell('Filled', 'B12').value).toBe('');
    const result = h.host.evaluateFormula('Filled', 'A1');
    expect(result.values).toHaveLength(1 + 7 + 1);
    expect(result.values![0]![0]).toBe('day');
  });
});

describe('Add chart', () => {
  it('draws revenue and RPM by day as a line chart one column right of the data', async () => {
    const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-13', toDate: '2026-11-19', breakdowns: ['day'] };
    h.host.setActiveRange('Daily', 'C4');
    const summary = h.host.call('runReportToSheet', [request, { type: 'activeCell' }, 'chart-test-1'], { user: OWNER }) as Summary;
    expect(summary.block).toMatchObject({ sheetName: 'Daily', row: 4, column: 3 });
    expect(summary.dataRows).toBe(7);

    const added = h.host.call('addChart', [summary.block], { user: OWNER }) as { chartTitle: string };
    expect(added.chartTitle).toBe('Revenue and RPM by day');
    const charts = h.host.state.spreadsheet.sheetByName('Daily')!.charts;
    expect(charts).toHaveLength(1);
    const chart = charts[0]!;
    expect(chart.type).toBe('LINE');
    // Beside the data: anchored on the block's first row, one empty column right of its last column.
    expect(chart.position).toEqual({ row: 4, column: 3 + summary.block.columns + 1 });

    // Three columns of the header row plus the seven days: the day, revenue and RPM, and no Total row.
    const column = (name: string) => String.fromCharCode(64 + 3 + summary.header.indexOf(name));
    expect(chart.ranges).toEqual(['day', 'revenue', 'rpmByPvs'].map((name) => `Daily!${column(name)}4:${column(name)}11`));
    expect(h.host.getValues('Daily', `${column('day')}12:${column('day')}12`)[0]![0]).toBe('Total');
    expect(chart.options).toMatchObject({
      title: 'Revenue and RPM by day',
      series: { 0: { targetAxisIndex: 0 }, 1: { targetAxisIndex: 1 } },
    });
  });

  it('refuses a report broken down by more than the day, naming the other breakdown, and draws nothing', () => {
    const request = {
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      fromDate: '2026-11-13',
      toDate: '2026-11-19',
      breakdowns: ['day', 'platform'],
    };
    const summary = h.host.call('runReportToSheet', [request, { type: 'existingSheet', sheetName: 'Sheet1' }, 'chart-test-2'], {
      user: OWNER,
    }) as Summary;
    expect(() => h.host.call('addChart', [summary.block], { user: OWNER })).toThrow(/also broken down by platform/);
    expect(h.host.state.spreadsheet.sheetByName('Sheet1')!.charts).toHaveLength(0);
  });
});

describe('a new sheet whose name another sheet has in another case', () => {
  const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-13', toDate: '2026-11-19', breakdowns: ['day'] };
  const sheetNames = () => h.host.state.spreadsheet.sheets.map((s) => s.name);
  const run = (sheetName: string, runId: string, options?: unknown) =>
    h.host.call('runReportToSheet', [request, { type: 'newSheet', sheetName }, runId, ...(options ? [options] : [])], {
      user: OWNER,
    }) as Summary & { question?: { reason: string; range: string; newSheetName?: string } };

  it('is asked about before fetching, as Sheets refuses the name, and "new sheet" takes a name free in any case', async () => {
    h.host.setCell('Limit', 'A1', 'data of the user');
    const asked = run('LIMIT', 'case-run-1');
    expect(asked.question).toMatchObject({ reason: 'sheetTaken', range: 'Limit!A1', newSheetName: 'LIMIT (2)' });
    expect(await h.apiRequests()).toEqual([]);
    const written = run('LIMIT', 'case-run-2', { choice: 'newSheet' });
    expect(written.block.sheetName).toBe('LIMIT (2)');
    expect(sheetNames().filter((name) => name.toLowerCase().startsWith('limit'))).toEqual(['Limit', 'LIMIT (2)']);
  });

  it('writes over the sheet under its own spelling when the answer is "replace"', () => {
    const written = run('limit', 'case-run-3', { choice: 'replace' });
    expect(written.block).toMatchObject({ sheetName: 'Limit', row: 1, column: 1 });
    expect(h.host.getValues('Limit', 'A1:B1')).toEqual([['day', 'paidPvs']]);
    expect(sheetNames().filter((name) => name.toLowerCase() === 'limit')).toEqual(['Limit']);
  });
});
