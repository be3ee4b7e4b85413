/**
 * End to end, a new user's first formula: each report formula with its default arguments (only the
 * breakdowns given) typed at A1 of a new sheet, for every breakdown combination the report allows.
 * A new Google Sheet has 26 columns (A to Z), and an array result that passes the right edge shows
 * "#REF! Result was not automatically expanded, please insert more columns": Sheets adds rows for a
 * result, never columns, and a custom function cannot add them (shared/platform/apps-script.md,
 * "At the scale of a published add-on"). The local host models exactly that; this test keeps its
 * sheets at 26 columns on purpose, where the other end-to-end tests widen theirs.
 *
 * ENGAGE_COMPARE, four columns a metric, is checked the same way with its own default set of four metrics.
 *
 * Some 170 formulas for one publisher would pass the 30 report requests a minute, so the host runs
 * on a virtual clock with the emulator's clock moved in step, two seconds between formulas.
 */
import { compareDefaultMetrics } from '../../src/core/api/requests/compare-periods';
import { effectiveBreakdowns } from '../../src/core/api/requests/report-fields';
import { defaultMetrics } from '../../src/core/api/requests/report-metrics';
import { compareColumnCount } from '../../src/core/sheets/compare-table';
import { reportColumnCount } from '../../src/core/sheets/report-table';
import type { ReportKind } from '../../src/core/spec';
import type { AddonHarness } from '../support/addon-host';
import { allowedBreakdownCombinations } from '../support/breakdown-combinations';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(300_000);

const NOW = '2026-11-20T12:00:00Z';
/** Columns of a new Google Sheet. */
const NEW_SHEET_COLUMNS = 26;
/** 30 report requests a minute per publisher: one formula every 2.1 virtual seconds stays below. */
const BETWEEN_FORMULAS_MS = 2_100;

const FORMULAS: Record<ReportKind, { name: string; from: string; to: string }> = {
  main: { name: 'ENGAGE_REPORT', from: '2026-11-18', to: '2026-11-18' },
  externalId: { name: 'ENGAGE_EXTERNALID_REPORT', from: '2026111800', to: '2026111802' },
  realtime: { name: 'ENGAGE_REALTIME_REPORT', from: '2026112000', to: '2026112002' },
};

let h: AddonHarness;
let sheetNumber = 0;

beforeAll(async () => {
  h = await startScheduledAddon(NOW, { maxColumns: NEW_SHEET_COLUMNS, sheets: ['Sheet1'] });
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

describe.each(['main', 'externalId', 'realtime'] as const)('a default %s formula at A1 of a new 26-column sheet', (kind) => {
  it('fits for every allowed breakdown combination: no #REF!, the planned width, the data from A1', () => {
    const { name, from, to } = FORMULAS[kind];
    const failures: string[] = [];
    const widths: number[] = [];
    for (const combination of allowedBreakdownCombinations(kind)) {
      h.host.advanceTime(BETWEEN_FORMULAS_MS);
      const sheet = `New ${++sheetNumber}`;
      h.host.state.spreadsheet.addSheet(sheet);
      expect(h.host.state.spreadsheet.sheetByName(sheet)!.maxColumns).toBe(NEW_SHEET_COLUMNS);
      const breakdowns = combination.length > 0 ? `, "${combination.join(',')}"` : '';
      const text = `=${name}("${BIG_PUBLISHER_ID}", "${from}", "${to}"${breakdowns})`;
      const result = h.host.evaluateFormula(sheet, 'A1', text);
      const header = (result.values?.[0] ?? []) as string[];
      const effective = effectiveBreakdowns(kind, combination);
      const planned = reportColumnCount(kind, effective, defaultMetrics(kind, effective));
      if (result.value === '#REF!' || result.error !== undefined) failures.push(`${text}: ${String(result.value)} ${result.error ?? ''}`);
      else if (header.length > NEW_SHEET_COLUMNS || header.length > planned)
        failures.push(`${text}: ${header.length} columns, planned ${planned}`);
      else {
        // What the sheet shows: the header from A1, the Total row last.
        expect(h.host.getCell(sheet, 'A1').value).toBe(header[0]);
        expect(result.values!.at(-1)![0]).toBe('Total');
        widths.push(header.length);
      }
    }
    expect(failures).toEqual([]);
    expect(widths).toHaveLength(allowedBreakdownCombinations(kind).length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(NEW_SHEET_COLUMNS);
  });
});

describe('a default ENGAGE_COMPARE at A1 of a new 26-column sheet', () => {
  it('fits for every breakdown combination of the general report: four columns a metric, four default metrics, at most 24 columns', () => {
    const failures: string[] = [];
    const widths: number[] = [];
    for (const combination of allowedBreakdownCombinations('main')) {
      // Two requests a formula: twice the spacing of the reports above.
      h.host.advanceTime(2 * BETWEEN_FORMULAS_MS);
      const sheet = `Compare ${++sheetNumber}`;
      h.host.state.spreadsheet.addSheet(sheet);
      const breakdowns = combination.length > 0 ? `, "${combination.join(',')}"` : '';
      // The medium publisher: the width is the same, the rows fewer (a day has at most 160 of them).
      const text = `=ENGAGE_COMPARE("${MEDIUM_PUBLISHER_ID}", "2026-11-18", "2026-11-18", "previous"${breakdowns})`;
      const result = h.host.evaluateFormula(sheet, 'A1', text);
      const header = (result.values?.[0] ?? []) as string[];
      const effective = effectiveBreakdowns('main', combination);
      const planned = compareColumnCount(effective, compareDefaultMetrics(effective));
      if (result.value === '#REF!' || result.error !== undefined) failures.push(`${text}: ${String(result.value)} ${result.error ?? ''}`);
      else if (header.length !== planned) failures.push(`${text}: ${header.length} columns, planned ${planned}`);
      else {
        expect(result.values!.at(-1)![0]).toBe('Total');
        widths.push(header.length);
      }
    }
    expect(failures).toEqual([]);
    expect(widths).toHaveLength(allowedBreakdownCombinations('main').length);
    expect(Math.max(...widths)).toBe(24);
  });
});
