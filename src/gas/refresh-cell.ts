/**
 * The named refresh cell. ENGAGE_* formulas inserted by the sidebar take it as their `refresh`
 * argument, so writing a new value into it makes every such formula fetch again. The menu's Refresh
 * all and every scheduled run that refreshed something change it through this one function.
 */
import { freeSheetName } from '../core';

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

/** The refresh cell as a formula's refresh argument, once Refresh all (or a scheduled run) has created it. */
export function refreshCellReference(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string | undefined {
  return spreadsheet.getRangeByName(REFRESH_RANGE_NAME) ? REFRESH_RANGE_NAME : undefined;
}
