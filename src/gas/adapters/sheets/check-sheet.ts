/**
 * The installation check's sheet over SpreadsheetApp: the sheet "Engage installation check" (cleared,
 * or made), its findings' rows written as the add-on writes API text, and the cell probes to the right
 * of the findings: a date-like name written as the add-on writes text and written plainly,
 * `=GETSIDEBARSTATE()`, `=ENGAGE_VERSION(TODAY())` and 40 formulas written at once, flushed, then read
 * until each shows something (the core's awaitFormulaProbes) and cleared.
 */
import {
  asTypedInput,
  awaitFormulaProbes,
  type Cell,
  type Clock,
  CONCURRENCY_PROBE_FORMULAS,
  DATE_LIKE_NAME,
  type Finding,
  formulaFindings,
  freeSheetName,
  INSTALLATION_CHECK_SHEET,
  type Sleeper,
  WRITE_NUMBER_FORMAT,
} from '../../../core';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The probes' cells, to the right of the findings (which take A to E). */
const PROBE_COLUMN = 8;

/** The check's sheet, emptied; made (under a free name) when there is none. */
export function checkSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Sheet {
  const found = spreadsheet.getSheetByName(INSTALLATION_CHECK_SHEET);
  if (found) {
    found.clear();
    return found;
  }
  const names = spreadsheet.getSheets().map((s) => s.getName());
  return spreadsheet.insertSheet(freeSheetName(names, INSTALLATION_CHECK_SHEET));
}

/** The check's sheet rows at `row` (a header first): plain text, as API text is written. */
export function writeCheckRows(sheet: Sheet, row: number, rows: Cell[][]): void {
  const range = sheet.getRange(row, 1, rows.length, rows[0]!.length);
  range.setNumberFormat(WRITE_NUMBER_FORMAT);
  range.setValues(asTypedInput(rows));
}

/** Writes the cell probes, makes Sheets compute them, and reads them until each shows something or the time is up. */
export function cellProbes(sheet: Sheet, clock: Clock, sleeper: Sleeper): Finding[] {
  const text = sheet.getRange(1, PROBE_COLUMN, 2, 1);
  // As the add-on writes API text (a number format first, then the text with its apostrophe); then plainly, into a cleared cell.
  sheet.getRange(1, PROBE_COLUMN).setNumberFormat(WRITE_NUMBER_FORMAT);
  text.setValues([asTypedInput([[DATE_LIKE_NAME]])[0]!, [DATE_LIKE_NAME]]);
  sheet.getRange(3, PROBE_COLUMN).setFormula('=GETSIDEBARSTATE()');
  sheet.getRange(4, PROBE_COLUMN).setFormula('=ENGAGE_VERSION(TODAY())');
  const many = sheet.getRange(1, PROBE_COLUMN + 1, CONCURRENCY_PROBE_FORMULAS, 1);
  // One write: Sheets starts all of them at once.
  many.setFormulas(Array.from({ length: CONCURRENCY_PROBE_FORMULAS }, (_, i) => [`=ENGAGE_VERSION(${i + 1})`]));
  SpreadsheetApp.flush();
  const firstOf = (values: unknown[][]) => values.map((row) => row[0]);
  const formulas = awaitFormulaProbes(
    () => ({ single: firstOf(sheet.getRange(3, PROBE_COLUMN, 2, 1).getValues()), together: firstOf(many.getValues()) }),
    clock,
    sleeper,
  );
  const [asTheAddonWrites, plainly] = firstOf(text.getValues());
  const findings = formulaFindings({ asTheAddonWrites, plainly, timeZone: sheet.getParent().getSpreadsheetTimeZone() }, formulas);
  sheet.getRange(1, PROBE_COLUMN, CONCURRENCY_PROBE_FORMULAS, 2).clear();
  return findings;
}
