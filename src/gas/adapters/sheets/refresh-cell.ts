/**
 * The refresh cells. ENGAGE_* formulas inserted by the sidebar or the dashboard take a named refresh
 * cell as their `refresh` argument: `EngageRefresh`, `EngageRefresh2`, ..., one cell each on a hidden
 * sheet, each serving at most a wave's worth of formulas (src/core/sheets/refresh-waves.ts). The
 * menu's Refresh all, every scheduled run that refreshed something, and the first open and the first
 * hourly run of a new day (which moves the formulas' relative days, "7daysAgo", "yesterday", to the day
 * it is then) change them through `touchRefreshCell`, a wave at a time, so that no more formulas compute at once than
 * Apps Script runs for one user (30): each wave starts once the formulas of the one before have
 * counted their ends in the document cache (refresh-waves.ts), or, where that cache is out of reach,
 * once a wave's whole time has passed.
 */
import {
  freeSheetName,
  isAnotherDay,
  nextRefreshStampMs,
  planRefreshWaves,
  REFRESH_DEFAULT_BUDGET_MS,
  REFRESH_GROUP_BASE_NAME,
  REFRESH_WAVE_FORMULAS,
  REFRESH_WAVE_LIMIT_MS,
  type RefreshOutcome,
  type RefreshWave,
  refreshGroupNumber,
  refreshGroupWithRoom,
  refreshReferencePattern,
  withRefreshReference,
} from '../../../core';
import { WaveWatch } from './refresh-waves';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

/** Name of the first refresh cell, which every formula written before the groups references. */
export const REFRESH_RANGE_NAME = REFRESH_GROUP_BASE_NAME;
const REFRESH_SHEET_NAME = 'Engage refresh';
/** A wave is not started this close to the deadline: its cells and formulas take writes. */
const WAVE_START_MARGIN_MS = 2000;

interface RefreshGroup {
  name: string;
  groupNumber: number;
  /** Its cell; none yet for the first group before it is made (formulas may reference its name already). */
  range: Range | undefined;
  /** When its cell was last changed (0: never, or not a time). */
  stampMs: number;
}

export interface TouchOptions {
  /** When the caller's execution must be done with the waves (default: 25 s from now, what an open's simple trigger allows). */
  deadlineAtMs?: number;
  /** Told, before any cell changes, how many formulas and waves there are (Refresh all shows it). */
  onPlan?: (plan: { formulas: number; waves: number }) => void;
  /**
   * Wait for the last wave too (its count, or its whole time), within the deadline: a scheduled run
   * that goes on to another spreadsheet's formulas must not start them while these still compute.
   */
  awaitLastWave?: boolean;
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

/**
 * The ENGAGE_* formula cells that reference the group's cell, sheet by sheet, row by row: one
 * TextFinder over formula text, so a sheet of 100,000 report rows is searched where it is kept,
 * not read into the script.
 */
function formulasOf(spreadsheet: Spreadsheet, groupName: string): Range[] {
  return spreadsheet.createTextFinder(refreshReferencePattern(groupName)).useRegularExpression(true).matchFormulaText(true).findAll();
}

/** Changes the wave's cells (or makes its group and moves its formulas there): its formulas start computing. */
function applyWave(
  spreadsheet: Spreadsheet,
  wave: RefreshWave,
  stampMs: number,
  groups: RefreshGroup[],
  found: Map<string, Range[]>,
): void {
  if (wave.kind === 'touch') {
    for (const group of groups) {
      if (!wave.groups.includes(group.name)) continue;
      if (group.range) group.range.setValue(new Date(stampMs));
      else group.range = createGroup(spreadsheet, group.name, stampMs);
    }
    return;
  }
  createGroup(spreadsheet, wave.to, stampMs);
  for (const cell of (found.get(wave.from) ?? []).slice(wave.skip, wave.skip + wave.formulas)) {
    cell.setFormula(withRefreshReference(cell.getFormula(), wave.from, wave.to));
  }
}

/**
 * Makes every ENGAGE_* formula that references a refresh cell compute again, a wave of at most 25 at
 * a time, moving formulas to new groups where a group holds more. Without a deadline it takes at most
 * 25 s (an open's simple trigger has 30). The last wave started computes after this returns; waves it
 * had no time for are left for the next refresh, which takes the oldest groups first.
 */
export function touchRefreshCell(spreadsheet: Spreadsheet, options: TouchOptions = {}): RefreshOutcome {
  const deadlineAtMs = options.deadlineAtMs ?? Date.now() + REFRESH_DEFAULT_BUDGET_MS;
  // Another execution driving waves here first: then nothing is looked at or changed.
  const watch = WaveWatch.of(spreadsheet);
  if (watch?.claim(deadlineAtMs) === 'busy') return { formulas: 0, waves: 0, refreshedFormulas: 0, startedWaves: 0, busy: true };
  try {
    const groups = refreshGroups(spreadsheet);
    const found = new Map(groups.map((g) => [g.name, formulasOf(spreadsheet, g.name)]));
    const waves = planRefreshWaves(
      groups.map((g) => ({ name: g.name, formulas: found.get(g.name)!.length, stampMs: g.stampMs })),
      REFRESH_WAVE_FORMULAS,
    );
    const formulas = [...found.values()].reduce((sum, cells) => sum + cells.length, 0);
    const outcome: RefreshOutcome = { formulas, waves: waves.length, refreshedFormulas: 0, startedWaves: 0, busy: false };
    options.onPlan?.({ formulas, waves: waves.length });
    if (watch && !watch.waitForPrevious(deadlineAtMs)) return outcome;
    // One stamp for every wave: identical formulas of different groups share the result the first fetched.
    const stampMs = nextRefreshStampMs(Date.now(), Math.max(0, ...groups.map((g) => g.stampMs)));
    watch?.open(stampMs);
    for (const [index, wave] of waves.entries()) {
      // No wave starts without time to change its cells, the first not either (a run whose reports took it all).
      if (Date.now() > deadlineAtMs - WAVE_START_MARGIN_MS) break;
      // Every wave before is over (counted or out of time): this one is over at this count plus its formulas.
      const target = (watch?.ended(stampMs).ended ?? 0) + wave.formulas;
      applyWave(spreadsheet, wave, stampMs, groups, found);
      // The changes apply now, not when the execution ends: the wave's formulas start here.
      SpreadsheetApp.flush();
      const waveUntilMs = Date.now() + REFRESH_WAVE_LIMIT_MS;
      watch?.started(stampMs, target, deadlineAtMs, waveUntilMs);
      outcome.startedWaves++;
      outcome.refreshedFormulas += wave.formulas;
      // The last wave computes on its own once this execution ends (unless asked to wait); a wave of no formula needs no wait.
      if ((index === waves.length - 1 && !options.awaitLastWave) || wave.formulas === 0) continue;
      const ended = watch ? watch.waitFor(stampMs, target, waveUntilMs, deadlineAtMs) : sleepUntil(waveUntilMs, deadlineAtMs);
      if (ended === 'deadline') break;
    }
    return outcome;
  } finally {
    watch?.release();
  }
}

/** Without a count to read: waits the wave's whole time ('timed out'), or until the deadline when it comes first. */
function sleepUntil(waveUntilMs: number, deadlineAtMs: number): 'timed out' | 'deadline' {
  const untilMs = Math.min(waveUntilMs, deadlineAtMs);
  for (let left = untilMs - Date.now(); left > 0; left = untilMs - Date.now()) Utilities.sleep(Math.min(left, 60_000));
  return Date.now() >= waveUntilMs ? 'timed out' : 'deadline';
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
 * True when the day has changed on the spreadsheet's clock since a refresh cell was last changed, so
 * that the relative days of the formulas that take it now name other days. The refresh cells are their
 * own record: each holds the time it was changed, which every path that reaches the spreadsheet can
 * read (the open, Refresh all, the hourly run, with a document or with one opened by ID), where
 * document properties would need the active document. False without a refresh cell: no formula of
 * ours takes one. A cell that holds no time (someone typed into it) counts as changed on another day,
 * so the next change writes a time again.
 */
export function refreshCellIsFromAnotherDay(spreadsheet: Spreadsheet): boolean {
  if (!spreadsheet.getRangeByName(REFRESH_RANGE_NAME)) return false;
  const now = Date.now();
  const timeZone = spreadsheet.getSpreadsheetTimeZone();
  return refreshGroups(spreadsheet).some((g) => g.range !== undefined && (g.stampMs === 0 || isAnotherDay(g.stampMs, now, timeZone)));
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
