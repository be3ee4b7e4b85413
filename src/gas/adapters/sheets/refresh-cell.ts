/**
 * The refresh cells over SpreadsheetApp (the core's RefreshCells port). ENGAGE_* formulas inserted by
 * the sidebar or the dashboard take a named refresh cell as their `refresh` argument: `EngageRefresh`,
 * `EngageRefresh2`, ..., one cell each on a hidden sheet, each serving at most a wave's worth of
 * formulas (src/core/sheets/refresh-waves.ts). Refresh all, the scheduled runs and the first open of
 * a new day change them through `touchRefreshCell`, whose waves the core drives
 * (src/core/sheets/refresh-driver.ts); here are the cells themselves: the named ranges, the hidden
 * sheet, the formulas found by a TextFinder over formula text, and the flush that starts each wave.
 */
import {
  driveRefreshWaves,
  freeSheetName,
  REFRESH_GROUP_BASE_NAME,
  REFRESH_WAVE_FORMULAS,
  type RefreshCell,
  type RefreshCells,
  refreshCellsFromAnotherDay,
  type RefreshDriving,
  type RefreshOutcome,
  refreshGroupNumber,
  refreshGroupWithRoom,
  refreshReferencePattern,
  withRefreshReference,
} from '../../../core';
import { blockingSleeper, systemClock } from '../system-time';
import { waveWatchOf } from './refresh-waves';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

/** Name of the first refresh cell, which every formula written before the groups references. */
export const REFRESH_RANGE_NAME = REFRESH_GROUP_BASE_NAME;
const REFRESH_SHEET_NAME = 'Engage refresh';

/** A refresh group with its cell; none yet for the first group before it is made (formulas may reference its name already). */
interface RefreshGroup {
  name: string;
  groupNumber: number;
  range: Range | undefined;
  /** When its cell was last changed (0: never, or not a time). */
  stampMs: number;
}

/** The hidden sheet of the refresh cells, made the first time (the user is kept on the sheet they were on). */
function refreshSheet(spreadsheet: Spreadsheet): GoogleAppsScript.Spreadsheet.Sheet {
  const group = spreadsheet.getNamedRanges().find((named) => refreshGroupNumber(named.getName()) !== undefined);
  if (group) return group.getRange().getSheet();
  const existing = spreadsheet.getSheetByName(REFRESH_SHEET_NAME);
  if (existing) return existing;
  // insertSheet makes the new sheet the active one: give the user back the sheet they were on.
  const active = spreadsheet.getActiveSheet();
  // A sheet of the user's named so in another case would make Sheets refuse the name: the next free one is taken.
  const names = spreadsheet.getSheets().map((s) => s.getName());
  const sheet = spreadsheet.insertSheet(freeSheetName(names, REFRESH_SHEET_NAME));
  sheet.hideSheet();
  if (active && active.getName() !== sheet.getName()) spreadsheet.setActiveSheet(active);
  return sheet;
}

/** Makes group `name`'s cell (on the hidden sheet, in the row of its number) holding the time `stampMs`. */
function createGroup(spreadsheet: Spreadsheet, name: string, stampMs: number): Range {
  const sheet = refreshSheet(spreadsheet);
  const row = refreshGroupNumber(name) ?? 1;
  if (row > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), row - sheet.getMaxRows());
  const range = sheet.getRange(row, 1);
  range.setValue(new Date(stampMs));
  spreadsheet.setNamedRange(name, range);
  return range;
}

/**
 * Every refresh group of the spreadsheet (named ranges EngageRefresh, EngageRefresh2, ...). The first
 * is listed even before its cell exists: formulas may reference its name already, and making the cell
 * starts them, so it is made as any group's cell changes, in its wave.
 */
function refreshGroups(spreadsheet: Spreadsheet): RefreshGroup[] {
  const groups: RefreshGroup[] = [];
  for (const named of spreadsheet.getNamedRanges()) {
    const groupNumber = refreshGroupNumber(named.getName());
    if (groupNumber === undefined) continue;
    const range = named.getRange();
    const value: unknown = range.getValue();
    groups.push({ name: named.getName(), groupNumber, range, stampMs: value instanceof Date ? value.getTime() : 0 });
  }
  if (!groups.some((g) => g.groupNumber === 1)) groups.push({ name: REFRESH_RANGE_NAME, groupNumber: 1, range: undefined, stampMs: 0 });
  return groups.sort((a, b) => a.groupNumber - b.groupNumber);
}

function refreshCell(group: RefreshGroup): RefreshCell {
  return { name: group.name, groupNumber: group.groupNumber, stampMs: group.stampMs, exists: group.range !== undefined };
}

/**
 * The ENGAGE_* formula cells that reference the group's cell, sheet by sheet, row by row: one
 * TextFinder over formula text, so a sheet of 100,000 report rows is searched where it is kept,
 * not read into the script.
 */
function formulasOf(spreadsheet: Spreadsheet, groupName: string): Range[] {
  return spreadsheet.createTextFinder(refreshReferencePattern(groupName)).useRegularExpression(true).matchFormulaText(true).findAll();
}

/** One refresh's view of the spreadsheet's refresh cells: its groups and their formulas are looked up once. */
class SpreadsheetRefreshCells implements RefreshCells {
  private found: RefreshGroup[] | undefined;
  private readonly cells = new Map<string, Range[]>();

  constructor(private readonly spreadsheet: Spreadsheet) {}

  groups(): RefreshCell[] {
    this.found ??= refreshGroups(this.spreadsheet);
    return this.found.map(refreshCell);
  }

  formulas(group: string): number {
    return this.formulaCells(group).length;
  }

  touch(groups: readonly string[], stampMs: number): void {
    for (const group of this.found ?? []) {
      if (!groups.includes(group.name)) continue;
      if (group.range) group.range.setValue(new Date(stampMs));
      else group.range = createGroup(this.spreadsheet, group.name, stampMs);
    }
    // The changes apply now, not when the execution ends: the wave's formulas start here.
    SpreadsheetApp.flush();
  }

  move(from: string, to: string, skip: number, count: number, stampMs: number): void {
    createGroup(this.spreadsheet, to, stampMs);
    for (const cell of this.formulaCells(from).slice(skip, skip + count))
      cell.setFormula(withRefreshReference(cell.getFormula(), from, to));
    SpreadsheetApp.flush();
  }

  private formulaCells(group: string): Range[] {
    let cells = this.cells.get(group);
    if (!cells) {
      cells = formulasOf(this.spreadsheet, group);
      this.cells.set(group, cells);
    }
    return cells;
  }
}

/**
 * Makes every ENGAGE_* formula that references a refresh cell compute again, in waves
 * (src/core/sheets/refresh-driver.ts), watching their count where this execution reaches the
 * spreadsheet's document cache. Without a deadline it takes at most 25 s (an open's simple trigger has 30).
 */
export function touchRefreshCell(spreadsheet: Spreadsheet, options: RefreshDriving = {}): RefreshOutcome {
  const driver = {
    cells: new SpreadsheetRefreshCells(spreadsheet),
    watch: waveWatchOf(spreadsheet),
    clock: systemClock,
    sleeper: blockingSleeper,
  };
  return driveRefreshWaves(driver, options);
}

/** How many ENGAGE_* formulas reference each refresh group (no refresh cell yet: none). */
function groupCounts(spreadsheet: Spreadsheet): Array<{ name: string; formulas: number }> {
  if (!spreadsheet.getRangeByName(REFRESH_RANGE_NAME)) return [];
  return refreshGroups(spreadsheet).map((g) => ({ name: g.name, formulas: formulasOf(spreadsheet, g.name).length }));
}

/**
 * The refresh cell a new formula should reference (Insert formula), once Refresh all or a dashboard
 * has made the first: a group with room for one more, else the next new one. Nothing is written:
 * `ensureRefreshGroup` makes a new group once the formula is known to be written.
 */
export function refreshCellReference(spreadsheet: Spreadsheet): string | undefined {
  const counts = groupCounts(spreadsheet);
  return counts.length === 0 ? undefined : refreshGroupWithRoom(counts, 1, REFRESH_WAVE_FORMULAS);
}

/** The refresh cell `formulas` new formulas at once should reference (a dashboard's): nothing is written. */
export function refreshGroupFor(spreadsheet: Spreadsheet, formulas: number): string {
  const counts = groupCounts(spreadsheet);
  return counts.length === 0 ? REFRESH_RANGE_NAME : refreshGroupWithRoom(counts, formulas, REFRESH_WAVE_FORMULAS);
}

/** Makes the refresh group's cell if it does not exist yet (the first one on its hidden sheet); an existing one keeps its value. */
export function ensureRefreshGroup(spreadsheet: Spreadsheet, name: string): string {
  if (!spreadsheet.getRangeByName(name)) createGroup(spreadsheet, name, Date.now());
  return name;
}

/**
 * True when the day has changed on the spreadsheet's clock since a refresh cell was last changed. The
 * refresh cells are their own record: each holds the time it was changed, which every path that
 * reaches the spreadsheet can read (the open, Refresh all, the hourly run, with a document or with one
 * opened by ID), where document properties would need the active document. False without a refresh
 * cell: no formula of ours takes one.
 */
export function refreshCellIsFromAnotherDay(spreadsheet: Spreadsheet): boolean {
  if (!spreadsheet.getRangeByName(REFRESH_RANGE_NAME)) return false;
  const now = Date.now();
  const timeZone = spreadsheet.getSpreadsheetTimeZone();
  return refreshCellsFromAnotherDay(refreshGroups(spreadsheet).map(refreshCell), now, timeZone);
}

/**
 * Changes the refresh cells, in waves until `deadlineAtMs` (default: 25 s from now), when the day has
 * changed since one was last changed; true when it did.
 */
export function touchRefreshCellOnNewDay(spreadsheet: Spreadsheet, deadlineAtMs?: number): boolean {
  if (!refreshCellIsFromAnotherDay(spreadsheet)) return false;
  touchRefreshCell(spreadsheet, deadlineAtMs === undefined ? {} : { deadlineAtMs });
  return true;
}
