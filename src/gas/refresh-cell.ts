/**
 * The named refresh cell. ENGAGE_* formulas inserted by the sidebar and the dashboard take it as their
 * `refresh` argument, so writing a new value into it makes every such formula fetch again, and moves
 * their relative days ("7daysAgo", "yesterday") to the day it is then. The menu's Refresh all and every
 * scheduled run that refreshed something change it through touchRefreshCell; the first open of a new
 * day, and the first hourly run of one, change it when the day has changed since it was last changed.
 */
import { freeSheetName, isAnotherDay } from '../core';

/** Name of the cell whose change makes every ENGAGE_* formula that references it fetch again. */
export const REFRESH_RANGE_NAME = 'EngageRefresh';
const REFRESH_SHEET_NAME = 'Engage refresh';

/** Writes the current time into the refresh cell, creating it (on a hidden sheet) the first time. */
export function touchRefreshCell(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  let range = spreadsheet.getRangeByName(REFRESH_RANGE_NAME);
  if (!range) {
    // insertSheet makes the new sheet the active one: give the user back the sheet they were on.
    const active = spreadsheet.getActiveSheet();
    // A sheet of the user's named so in another case would make Sheets refuse the name: the next free one is taken.
    const names = spreadsheet.getSheets().map((s) => s.getName());
    const sheet = spreadsheet.getSheetByName(REFRESH_SHEET_NAME) ?? spreadsheet.insertSheet(freeSheetName(names, REFRESH_SHEET_NAME));
    range = sheet.getRange(1, 1);
    spreadsheet.setNamedRange(REFRESH_RANGE_NAME, range);
    sheet.hideSheet();
    if (active && active.getName() !== sheet.getName()) spreadsheet.setActiveSheet(active);
  }
  range.setValue(new Date());
}

/** The refresh cell's name, after creating the cell if there is none yet; an existing one keeps its value (nothing is fetched again). */
export function ensureRefreshCell(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  if (!spreadsheet.getRangeByName(REFRESH_RANGE_NAME)) touchRefreshCell(spreadsheet);
  return REFRESH_RANGE_NAME;
}

/**
 * True when the day has changed on the spreadsheet's clock since the refresh cell was last changed,
 * so that the relative days of the formulas that take it now name other days. The refresh cell is its
 * own record: it holds the time it was changed, which every path that reaches the spreadsheet can
 * read (the open, Refresh all, the hourly run, with a document or with one opened by ID), where
 * document properties would need the active document. False without a refresh cell: no formula of
 * ours takes one. A cell that holds no time (someone typed into it) counts as changed on another day,
 * so the one change writes a time again.
 */
export function refreshCellIsFromAnotherDay(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): boolean {
  const range = spreadsheet.getRangeByName(REFRESH_RANGE_NAME);
  if (!range) return false;
  const changedAt: unknown = range.getValue();
  if (!(changedAt instanceof Date) || Number.isNaN(changedAt.getTime())) return true;
  return isAnotherDay(changedAt.getTime(), Date.now(), spreadsheet.getSpreadsheetTimeZone());
}

/** Changes the refresh cell when the day has changed since it was last changed; true when it did. */
export function touchRefreshCellOnNewDay(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): boolean {
  if (!refreshCellIsFromAnotherDay(spreadsheet)) return false;
  touchRefreshCell(spreadsheet);
  return true;
}
