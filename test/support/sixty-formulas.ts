/**
 * Sixty ENGAGE_* formulas for the refresh tests and the bench: 8 distinct reports (two publishers x
 * two breakdowns x two metric sets) typed seven or eight times each, all ending on the same day as the
 * emulator's clock, so a later clock shows more of that day's data (fresh data differs from stale).
 * Each result spills into a block of its own (two columns of 30 formulas, 16 rows apart). The helpers
 * compute them a batch at a time (so the strict reading's 30 at once is never passed while arranging),
 * read each formula's block, and fetch the same report afresh into a scratch sheet to compare with.
 * Each publisher's distinct reports (4) keep a test's requests under Engage's 30 a minute per
 * publisher: arranging, two refreshes and two fresh fetches are 20.
 */
import type { CellValue } from '../../dev/gas-host/protocol/protocol';
import type { GasHost } from '../../dev/gas-host';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from './emulator';

export const FORMULA_SHEET = 'Data';
export const SCRATCH_SHEET = 'Scratch';
/** The emulator's clock when the formulas are first computed: 20 November is 9 of its 24 hours in (the data is 3 hours late). */
export const FIRST_CLOCK = '2026-11-20T12:00:00Z';
const ROWS_APART = 16;
const COLUMNS = [1, 13];

export interface PlacedFormula {
  sheet: string;
  a1: string;
  row: number;
  column: number;
  /** Which of the 8 distinct reports. */
  report: number;
  /** The formula without its refresh argument. */
  body: string;
}

function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The 12 distinct reports, as formula text up to the refresh argument (filter, sort, maxRows, currency and decimals left out). */
function distinctReports(): string[] {
  const out: string[] = [];
  for (const publisher of [BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID])
    for (const breakdowns of ['day', 'day,platform'])
      for (const metrics of ['revenue,rpmByPvs', 'totalPvs'])
        out.push(`=ENGAGE_REPORT("${publisher}", "2026-11-19", "2026-11-20", "${breakdowns}", "${metrics}", , , , , , `);
  return out;
}

/** Where the `count` formulas go and what each is (report i mod 8: copies are spread over every wave). */
export function placeFormulas(count = 60): PlacedFormula[] {
  const reports = distinctReports();
  const perColumn = Math.ceil(count / COLUMNS.length);
  return Array.from({ length: count }, (_, i) => {
    const column = COLUMNS[Math.floor(i / perColumn)]!;
    const row = 1 + (i % perColumn) * ROWS_APART;
    return {
      sheet: FORMULA_SHEET,
      a1: `${columnLetters(column)}${row}`,
      row,
      column,
      report: i % reports.length,
      body: reports[i % reports.length]!,
    };
  });
}

/** Types every formula with `refresh` as its refresh argument, as a user typing or copying them would. */
export function typeFormulas(host: GasHost, formulas: PlacedFormula[], refresh: string): void {
  for (const f of formulas) host.setCell(f.sheet, f.a1, `${f.body}${refresh})`);
}

/** Computes the formulas 20 at a time (never more than 30 at once), failing on any error; each report's result. */
export async function computeInBatches(host: GasHost, formulas: PlacedFormula[], user: string): Promise<Map<number, CellValue[][]>> {
  const reports = new Map<number, CellValue[][]>();
  for (let i = 0; i < formulas.length; i += 20) {
    const results = await host.recalculate(
      formulas.slice(i, i + 20).map((f) => ({ sheet: f.sheet, a1: f.a1 })),
      { user },
    );
    const failed = results.filter((r) => r.error !== undefined);
    if (failed.length > 0) throw new Error(`arranging the formulas failed: ${failed.map((r) => `${r.a1}: ${r.error}`).join('; ')}`);
    for (const [index, result] of results.entries()) reports.set(formulas[i + index]!.report, result.values);
  }
  return reports;
}

/** The block a formula's result fills, `height` x `width` from its cell. */
export function blockOf(host: GasHost, f: PlacedFormula, height: number, width: number): CellValue[][] {
  return host.getValues(f.sheet, `${f.a1}:${columnLetters(f.column + width - 1)}${f.row + height - 1}`);
}

let freshness = 0;

/** Each distinct report fetched now, afresh (a refresh argument of its own, so no cached result), in the scratch sheet. */
export function freshReports(host: GasHost, formulas: PlacedFormula[], user: string): Map<number, CellValue[][]> {
  const fresh = new Map<number, CellValue[][]>();
  freshness++;
  for (const f of formulas) {
    if (fresh.has(f.report)) continue;
    const result = host.evaluateFormula(SCRATCH_SHEET, 'A1', `${f.body}"fresh ${freshness}")`, { user });
    if (result.error !== undefined) throw new Error(`the fresh report ${f.report} failed: ${result.error}`);
    fresh.set(f.report, result.values);
    host.setCell(SCRATCH_SHEET, 'A1', '');
  }
  return fresh;
}

/** Every formula's block, keyed by its cell, as large as its report's result `reports` (a report's size does not change with the clock). */
export function blocksOf(host: GasHost, formulas: PlacedFormula[], reports: Map<number, CellValue[][]>): Map<string, CellValue[][]> {
  return new Map(
    formulas.map((f) => {
      const like = reports.get(f.report)!;
      return [f.a1, blockOf(host, f, like.length, like[0]!.length)];
    }),
  );
}
