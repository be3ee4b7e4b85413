/**
 * RunPlacer and reportAtCell: where a Run to sheet may write without asking, the question it asks
 * otherwise (the range, the cells in use, what holds them, the answers that fit), where "write below"
 * lands, what Insert formula asks before its result fills cells in use, and which report a cell of a
 * block leads back to. The sheet is a small grid of cells.
 */
import {
  checkFormulaOptions,
  checkWriteOptions,
  recordedReport,
  RunPlacer,
  type SavedReportBlocks,
} from '../../../../../src/core/addon/sidebar/run-placement';
import { freeSheetName } from '../../../../../src/core/util/sheet-names';
import { reportAtCell } from '../../../../../src/core/addon/sidebar/report-at-cell';
import type { CellsFound, SheetContents, WrittenBlock } from '../../../../../src/core/ports';
import type { RefreshStatus, SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { BlockRecords } from '../../../../../src/core/sheets/block-records';
import { FakeStore } from '../../../../support/fakes';

/** Cells holding something, by sheet, as "row,column". */
class FakeSheet implements SheetContents {
  readonly filled = new Map<string, Set<string>>();
  fill(sheetName: string, row: number, column: number, rows = 1, columns = 1): void {
    const cells = this.filled.get(sheetName) ?? new Set<string>();
    for (let r = row; r < row + rows; r++) for (let c = column; c < column + columns; c++) cells.add(`${r},${c}`);
    this.filled.set(sheetName, cells);
  }
  contentIn(area: WrittenBlock, except?: WrittenBlock): CellsFound | null {
    const inside = (b: WrittenBlock, r: number, c: number) => r >= b.row && r < b.row + b.rows && c >= b.column && c < b.column + b.columns;
    let count = 0;
    let top = Infinity;
    let left = Infinity;
    let bottom = 0;
    let right = 0;
    for (const key of this.filled.get(area.sheetName) ?? []) {
      const [r, c] = key.split(',').map(Number) as [number, number];
      if (!inside(area, r, c) || (except && except.sheetName === area.sheetName && inside(except, r, c))) continue;
      count++;
      top = Math.min(top, r);
      left = Math.min(left, c);
      bottom = Math.max(bottom, r);
      right = Math.max(right, c);
    }
    return count === 0
      ? null
      : { count, box: { sheetName: area.sheetName, row: top, column: left, rows: bottom - top + 1, columns: right - left + 1 } };
  }
}

const REPORT = { kind: 'main', entityId: 'p1', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day'], preset: 'last7' };
const block = (sheetName: string, row: number, column: number, rows: number, columns: number) => ({
  sheetName,
  row,
  column,
  rows,
  columns,
});

function setup(saved: Array<{ report: Partial<SavedReport>; status: RefreshStatus }> = []) {
  const sheet = new FakeSheet();
  const records = new BlockRecords(new FakeStore());
  const blocks: SavedReportBlocks = {
    list: () => saved.map((s) => s.report as SavedReport),
    status: (id) => saved.find((s) => s.report.id === id)?.status ?? {},
  };
  return { sheet, records, placer: new RunPlacer(sheet, records, blocks) };
}

describe('RunPlacer', () => {
  it('writes into empty cells without asking', () => {
    const { placer } = setup();
    const placement = { sheetName: 'Data', row: 3, column: 2 };
    expect(placer.beforeWrite(placement, 9, 8, REPORT, {})).toEqual({ placement });
  });

  it('asks before writing over another report and data, naming the range, the cells in use and where "below" is', () => {
    const { sheet, records, placer } = setup();
    sheet.fill('Data', 1, 1, 9, 8);
    records.remember(block('Data', 1, 1, 9, 8), 1, ['Data'], REPORT);
    sheet.fill('Data', 11, 4);
    const outcome = placer.beforeWrite({ sheetName: 'Data', row: 4, column: 3 }, 9, 8, REPORT, {});
    expect(outcome.question).toEqual({
      reason: 'occupied',
      range: 'Data!C4:J12',
      occupied: 'Data!C4:H11',
      nonEmpty: 37,
      holder: 'an earlier Engage report',
      choices: ['replace', 'append'],
      appendAt: 'Data!C13',
    });
    expect(placer.beforeWrite({ sheetName: 'Data', row: 4, column: 3 }, 9, 8, REPORT, { choice: 'append' }).placement).toEqual({
      sheetName: 'Data',
      row: 13,
      column: 3,
    });
    expect(placer.beforeWrite({ sheetName: 'Data', row: 4, column: 3 }, 9, 8, REPORT, { choice: 'replace' })).toEqual({
      placement: { sheetName: 'Data', row: 4, column: 3 },
    });
  });

  it("replaces the same report's earlier block at the same place unasked, but not another report's", () => {
    const { sheet, records, placer } = setup();
    sheet.fill('Data', 1, 1, 20, 8);
    records.remember(block('Data', 1, 1, 20, 8), 1, ['Data'], REPORT);
    const placement = { sheetName: 'Data', row: 1, column: 1 };
    // Another period or other metrics: the same report. A longer result is asked about only where it passes the block.
    expect(placer.beforeWrite(placement, 9, 8, { ...REPORT, preset: 'yesterday', metrics: ['revenue'] }, {}).question).toBeUndefined();
    sheet.fill('Data', 22, 1);
    expect(placer.beforeWrite(placement, 30, 8, REPORT, {}).question?.occupied).toBe('Data!A22');
    // Other breakdowns or another publisher: another report, asked about, unless the sidebar edits that block.
    const other = { ...REPORT, breakdowns: ['day', 'country'] };
    expect(placer.beforeWrite(placement, 9, 10, other, {}).question?.nonEmpty).toBe(9 * 8);
    expect(placer.beforeWrite(placement, 9, 10, other, { editing: true }).question).toBeUndefined();
    expect(placer.beforeWrite(placement, 9, 8, { ...REPORT, entityId: 'p2' }, {}).question).toBeDefined();
  });

  it("names a saved report's block, and takes it as the run's own when the sidebar edits it", () => {
    const written = block('Scheduled', 2, 2, 9, 8);
    const { sheet, placer } = setup([
      { report: { id: 's1', name: 'Daily revenue', ...REPORT } as Partial<SavedReport>, status: { written } },
    ]);
    sheet.fill('Scheduled', 2, 2, 9, 8);
    const placement = { sheetName: 'Scheduled', row: 2, column: 2 };
    expect(placer.beforeWrite(placement, 9, 10, { ...REPORT, breakdowns: ['country'] }, {}).question?.holder).toBe(
      'the saved report “Daily revenue”',
    );
    expect(placer.beforeWrite(placement, 9, 10, { ...REPORT, breakdowns: ['country'] }, { editing: true }).question).toBeUndefined();
    expect(placer.beforeWrite(placement, 9, 8, REPORT, {}).question).toBeUndefined();
  });

  it('asks before fetching when a new sheet’s name is taken by other data, and offers a free name', () => {
    const { sheet, records, placer } = setup();
    const placement = { sheetName: 'Weekly', row: 1, column: 1, newSheet: true };
    // No such sheet, or an empty one: nothing to ask.
    expect(placer.beforeFetch(placement, ['Sheet1'], REPORT, {})).toEqual({ placement });
    expect(placer.beforeFetch(placement, ['Weekly'], REPORT, {})).toEqual({ placement });
    sheet.fill('Weekly', 1, 1, 16, 8);
    records.remember(block('Weekly', 1, 1, 16, 8), 1, ['Weekly'], REPORT);
    // The same report's earlier block there: replaced.
    expect(placer.beforeFetch(placement, ['Weekly'], { ...REPORT, preset: 'last14' }, {}).question).toBeUndefined();
    const other = placer.beforeFetch(placement, ['Weekly', 'Weekly (2)'], { ...REPORT, breakdowns: ['day', 'country'] }, {});
    expect(other.question).toEqual({
      reason: 'sheetTaken',
      range: 'Weekly!A1',
      occupied: 'Weekly!A1:H16',
      nonEmpty: 128,
      holder: 'an earlier Engage report',
      choices: ['replace', 'newSheet'],
      newSheetName: 'Weekly (3)',
    });
    expect(placer.beforeFetch(placement, ['Weekly', 'Weekly (2)'], REPORT, { choice: 'newSheet' }).placement.sheetName).toBe('Weekly (3)');
  });

  it('takes a new sheet’s name as taken in any case, as Sheets does, and writes to that sheet under its own spelling', () => {
    const { sheet, records, placer } = setup();
    const placement = { sheetName: 'weekly', row: 1, column: 1, newSheet: true };
    // An empty "WEEKLY": the run writes there, not to a new "weekly" Sheets would refuse.
    expect(placer.beforeFetch(placement, ['WEEKLY'], REPORT, {})).toEqual({ placement: { ...placement, sheetName: 'WEEKLY' } });
    sheet.fill('WEEKLY', 1, 1, 16, 8);
    records.remember(block('WEEKLY', 1, 1, 16, 8), 1, ['WEEKLY'], REPORT);
    // Its own earlier block there is found under the sheet's spelling.
    expect(placer.beforeFetch(placement, ['WEEKLY'], REPORT, {})).toEqual({ placement: { ...placement, sheetName: 'WEEKLY' } });
    const other = placer.beforeFetch(placement, ['WEEKLY', 'Weekly (2)'], { ...REPORT, breakdowns: ['country'] }, {});
    expect(other.question).toMatchObject({
      reason: 'sheetTaken',
      range: 'WEEKLY!A1',
      occupied: 'WEEKLY!A1:H16',
      newSheetName: 'weekly (3)',
    });
    expect(placer.beforeFetch(placement, ['WEEKLY'], REPORT, { choice: 'replace' }).placement.sheetName).toBe('WEEKLY');
    expect(placer.beforeFetch(placement, ['WEEKLY', 'WEEKLY (2)'], REPORT, { choice: 'newSheet' }).placement.sheetName).toBe('weekly (3)');
  });
});

describe('RunPlacer.beforeFormula', () => {
  it('asks nothing when the columns the result fills are empty from the cell down', () => {
    const { sheet, placer } = setup();
    sheet.fill('Data', 1, 1, 40, 1);
    sheet.fill('Data', 2, 6);
    expect(placer.beforeFormula({ sheetName: 'Data', row: 3, column: 2 }, 4, undefined)).toEqual({});
  });

  it('asks when a cell there holds something, saying where the result fills, however far down', () => {
    const { sheet, placer } = setup([
      { report: { id: 'r1', name: 'Daily revenue', kind: 'main' }, status: { written: block('My data', 90, 3, 5, 2) } },
    ]);
    sheet.fill('My data', 90, 3, 5, 2);
    expect(placer.beforeFormula({ sheetName: 'My data', row: 3, column: 2 }, 3, undefined)).toEqual({
      question: {
        reason: 'formula',
        range: "'My data'!B3:D",
        occupied: "'My data'!C90:D94",
        nonEmpty: 10,
        choices: ['replace'],
        holder: 'the saved report “Daily revenue”',
      },
    });
    expect(placer.beforeFormula({ sheetName: 'My data', row: 90, column: 3 }, 1, undefined).question?.range).toBe("'My data'!C90:C");
  });

  it('answered "replace", gives the cells to clear', () => {
    const { sheet, placer } = setup();
    sheet.fill('Data', 1, 1);
    sheet.fill('Data', 5, 3);
    expect(placer.beforeFormula({ sheetName: 'Data', row: 1, column: 1 }, 8, 'replace')).toEqual({ clear: block('Data', 1, 1, 5, 3) });
  });
});

describe('checkFormulaOptions', () => {
  it("takes the answer 'replace' or none, and refuses anything else naming the argument", () => {
    expect(checkFormulaOptions(undefined)).toBeUndefined();
    expect(checkFormulaOptions({})).toBeUndefined();
    expect(checkFormulaOptions({ choice: 'replace' })).toBe('replace');
    expect(() => checkFormulaOptions({ choice: 'append' })).toThrow(/^choice: must be 'replace' for a formula$/);
    expect(() => checkFormulaOptions('replace')).toThrow(/^options: must be \{choice: 'replace'\} or left out$/);
    expect(() => checkFormulaOptions([])).toThrow(/^options: /);
  });
});

describe('checkWriteOptions', () => {
  it('takes the answers that fit the target, and refuses the others naming the argument', () => {
    const cell = { sheetName: 'Data', row: 1, column: 1 };
    const fresh = { ...cell, newSheet: true };
    expect(checkWriteOptions(undefined, cell)).toEqual({});
    expect(checkWriteOptions({ choice: 'append', editing: true }, cell)).toEqual({ choice: 'append', editing: true });
    expect(checkWriteOptions({ choice: 'newSheet' }, fresh)).toEqual({ choice: 'newSheet' });
    expect(() => checkWriteOptions({ choice: 'newSheet' }, cell)).toThrow(/^choice: 'newSheet' is only for a new sheet/);
    expect(() => checkWriteOptions({ choice: 'append' }, fresh)).toThrow(/^choice: 'append' is not for a new sheet/);
    expect(() => checkWriteOptions({ choice: 'overwrite' }, cell)).toThrow(/^choice: must be one of replace, append, newSheet/);
    expect(() => checkWriteOptions({ editing: 1 }, cell)).toThrow(/^editing: must be true or false/);
  });
});

describe('freeSheetName and recordedReport', () => {
  it('names a free sheet and keeps only the report’s own fields', () => {
    expect(freeSheetName(['Weekly'], 'Fresh')).toBe('Fresh');
    expect(freeSheetName(['Weekly', 'Weekly (2)'], ' Weekly ')).toBe('Weekly (3)');
    expect(freeSheetName(['ENGAGE REPORT', 'engage report (2)'], 'Engage report')).toBe('Engage report (3)');
    expect(recordedReport({ ...REPORT, token: 'secret', preset: 'someday', filter: '' })).toEqual({
      kind: 'main',
      entityId: 'p1',
      fromDate: '2026-11-01',
      toDate: '2026-11-07',
      breakdowns: ['day'],
    });
  });
});

describe('reportAtCell', () => {
  it('leads a cell back to the report whose block holds it, the most recent when blocks overlap', () => {
    const records = new BlockRecords(new FakeStore());
    records.remember(block('Data', 1, 1, 9, 8), Date.UTC(2026, 10, 20), ['Data'], REPORT);
    expect(reportAtCell({ sheetName: 'Data', row: 5, column: 3 }, records, undefined, null)).toEqual({
      source: 'run',
      range: 'Data!A1:H9',
      block: block('Data', 1, 1, 9, 8),
      report: REPORT,
      writtenAt: '2026-11-20T00:00:00.000Z',
    });
    expect(reportAtCell({ sheetName: 'Data', row: 10, column: 1 }, records, undefined, null)).toBeNull();

    const saved: SavedReportBlocks = {
      list: () => [{ id: 's1', name: 'Daily revenue', ownerId: 'u1', createdAtMs: 1, updatedAtMs: 1, ...REPORT } as unknown as SavedReport],
      status: () => ({ written: block('Data', 5, 3, 4, 4), lastSuccessAtMs: Date.UTC(2026, 10, 21) }),
    };
    expect(reportAtCell({ sheetName: 'Data', row: 5, column: 3 }, records, saved, 'u1')).toMatchObject({
      source: 'schedule',
      scheduleId: 's1',
      name: 'Daily revenue',
      mine: true,
      range: 'Data!C5:F8',
    });
    expect(reportAtCell({ sheetName: 'Data', row: 5, column: 3 }, records, saved, 'u2')).toMatchObject({ mine: false });
  });
});
