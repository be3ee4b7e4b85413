/**
 * Explain the change run to a sheet (explain-run.ts): the block of ENGAGE_EXPLAIN's table (keys as
 * text, the metric's columns in its number format, the share in %, the header's note on the metric,
 * the Total row as totals), written where Run to sheet writes; the same explanation again replaces
 * its own table without asking, another explanation or a report there is asked about before anything
 * is fetched, and the block is no report the builder offers to reopen.
 */
import { explanationBlock, runExplanationToSheet } from '../../../../../src/core/addon/sidebar/explain-run';
import { reportAtCell } from '../../../../../src/core/addon/sidebar/report-at-cell';
import type { SidebarReportsDeps } from '../../../../../src/core/addon/sidebar/sidebar-reports';
import type { BlockPlacement, Cell, CellsFound, SheetBlock, SheetContents, SheetWriter, WrittenBlock } from '../../../../../src/core/ports';
import { BlockRecords } from '../../../../../src/core/sheets/block-records';
import { FakeStore, ManualClock } from '../../../../support/fakes';

const RATIO: Cell[][] = [
  ['platform', 'rpmByPvs', 'rpmByPvs.previous', 'rpmByPvs.change', 'rpmByPvs.share%', 'rpmByPvs.mix', 'rpmByPvs.rate'],
  ['Smartphone', 1.8306, 1.7793, 0.0168, 56, -0.0003, 0.0171],
  ['Other', 1.7, 1.69, 0.0132, 44, -0.0001, 0.0133],
  ['Total', 1.78, 1.75, 0.03, 100, -0.0004, 0.0304],
];
const ADDITIVE: Cell[][] = [
  ['widget.id', 'widget.name', 'revenue', 'revenue.previous', 'revenue.change', 'revenue.share%'],
  ['APP_13', '=HYPERLINK("x")', 2015.18, 1650.08, 365.1, 79],
  ['Other', '', 100, 200, -100, -21],
  ['Total', '', 2115.18, 1850.08, 265.1, 100],
];

/** A sheet writer over a grid of filled cells. */
class FakeSheets implements SheetWriter, SheetContents {
  readonly names = new Set(['Sheet1']);
  readonly filled: WrittenBlock[] = [];
  readonly writes: Array<{ placement: BlockPlacement; block: SheetBlock }> = [];
  write(placement: BlockPlacement, block: SheetBlock): WrittenBlock {
    this.names.add(placement.sheetName);
    const written = { ...placement, rows: block.values.length, columns: block.values[0]!.length };
    this.writes.push({ placement, block });
    this.filled.push(written);
    return written;
  }
  sheetNames(): string[] {
    return [...this.names];
  }
  contentIn(area: WrittenBlock, except?: WrittenBlock): CellsFound | null {
    const overlap = (a: WrittenBlock, b: WrittenBlock) =>
      a.sheetName === b.sheetName &&
      a.row < b.row + b.rows &&
      b.row < a.row + a.rows &&
      a.column < b.column + b.columns &&
      b.column < a.column + a.columns;
    const found = this.filled.filter((b) => overlap(b, area) && !(except && overlap(b, except) && b.rows <= except.rows));
    return found.length === 0 ? null : { count: found.length, box: found[0]! };
  }
}

function setup() {
  const sheets = new FakeSheets();
  const documentStore = new FakeStore();
  const deps = {
    documentStore,
    contents: sheets,
    writer: sheets,
    clock: new ManualClock(),
    timeZone: 'UTC',
  } as unknown as SidebarReportsDeps;
  let fetched = 0;
  const run = (explain: { metric: string; breakdowns: string[] }, options?: unknown) =>
    runExplanationToSheet(
      deps,
      { kind: 'main', entityId: 'p1', fromDate: '7daysAgo', toDate: 'yesterday', breakdowns: [], compareWith: 'previous', explain },
      { sheetName: `Explain ${explain.metric} by ${explain.breakdowns.join(', ')}`, row: 1, column: 1, newSheet: true },
      () => {
        fetched++;
        return ADDITIVE;
      },
      options,
    );
  return { sheets, documentStore, run, fetches: () => fetched };
}

describe('explanationBlock', () => {
  it('formats the metric’s columns as a report’s, the share in %, and the keys as text', () => {
    const block = explanationBlock(RATIO);
    expect(block.numberFormats).toEqual([
      null,
      '#,##0.00 "USD"',
      '#,##0.00 "USD"',
      '#,##0.00 "USD"',
      '0.00"%"',
      '#,##0.00 "USD"',
      '#,##0.00 "USD"',
    ]);
    expect(block.headerNotes![1]).toMatch(/^RPM/);
    expect(block.headerNotes!.filter((n) => n !== '')).toHaveLength(1);
    expect(block).toMatchObject({ dataRows: 2, hasTotals: true, values: RATIO });
    const additive = explanationBlock(ADDITIVE);
    expect(additive.numberFormats).toEqual([null, null, '#,##0.00 "USD"', '#,##0.00 "USD"', '#,##0.00 "USD"', '0.00"%"']);
  });
});

describe('runExplanationToSheet', () => {
  it('writes the formula’s table, then replaces its own table there without asking', () => {
    const { sheets, documentStore, run, fetches } = setup();
    const first = run({ metric: 'revenue', breakdowns: ['widget'] });
    expect('question' in first).toBe(false);
    expect(sheets.writes[0]!.block.values).toEqual(ADDITIVE);
    expect(sheets.writes[0]!.placement).toEqual({ sheetName: 'Explain revenue by widget', row: 1, column: 1 });
    expect(first).toMatchObject({ dataRows: 2, header: ADDITIVE[0], preview: ADDITIVE.slice(1) });
    // No report the builder would reopen.
    expect(
      reportAtCell({ sheetName: 'Explain revenue by widget', row: 2, column: 2 }, new BlockRecords(documentStore), undefined, null),
    ).toBeNull();
    const again = run({ metric: 'revenue', breakdowns: ['widget'] });
    expect(again).toMatchObject({ replaced: true });
    expect(fetches()).toBe(2);
  });

  it('asks before writing over a sheet another explanation or report holds, before fetching', () => {
    const { sheets, run, fetches } = setup();
    run({ metric: 'revenue', breakdowns: ['widget'] });
    sheets.names.add('Explain revenue by platform');
    sheets.filled.push({ sheetName: 'Explain revenue by platform', row: 2, column: 2, rows: 1, columns: 1 });
    const asked = run({ metric: 'revenue', breakdowns: ['platform'] });
    expect(asked).toEqual({
      question: expect.objectContaining({
        reason: 'sheetTaken',
        choices: ['replace', 'newSheet'],
        newSheetName: 'Explain revenue by platform (2)',
      }),
    });
    expect(fetches()).toBe(1);
    expect(sheets.writes).toHaveLength(1);
    const elsewhere = run({ metric: 'revenue', breakdowns: ['platform'] }, { choice: 'newSheet' });
    expect(elsewhere).toMatchObject({ block: { sheetName: 'Explain revenue by platform (2)' } });
  });
});
