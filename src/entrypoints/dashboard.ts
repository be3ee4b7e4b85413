/**
 * "Create dashboard": a new sheet "Engage dashboard" of ENGAGE_* formulas and a native chart for the
 * publishers chosen in the sidebar's picker, or, from the menu (which cannot ask), for all the
 * publishers the user sees. Thin: the core checks the choice and the sign-in and lays the sheet out
 * before anything is written; src/gas writes it.
 */
import { DASHBOARD_FORMULAS, FETCH_PERMISSION, requirePermissions, userMessage } from '../core';
import { scriptConsent } from '../gas/adapters/consent';
import { writeDashboard } from '../gas/adapters/sheets/dashboard-sheet';
import { ensureRefreshGroup, refreshGroupFor } from '../gas/adapters/sheets/refresh-cell';
import { createSidebarReports } from '../gas/wiring/sidebar-report-services';
import { outsideCells } from './outside-cells';
import { withUserMessage } from './user-errors';

function create(entityId: unknown): { sheetName: string; subject: string; formulas: number; charts: number } {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  // A refresh cell with room for every formula of the dashboard (Refresh all refreshes at most 25 a cell at once).
  const refreshCell = refreshGroupFor(ss, DASHBOARD_FORMULAS);
  // The permission, the choice, the sign-in and the publishers lookup first: a refusal changes nothing.
  requirePermissions(scriptConsent, [FETCH_PERMISSION], 'create the dashboard');
  const layout = createSidebarReports().dashboard(entityId, refreshCell);
  ensureRefreshGroup(ss, refreshCell);
  return writeDashboard(ss, layout);
}

/**
 * Creates the sheet "Engage dashboard" (or "Engage dashboard (2)", ...) for the chosen publishers.
 * @param {string} entityId A publisher ID, several joined with commas, or "all".
 * @return {Object} {sheetName, subject, formulas, charts}.
 */
export function createDashboard(entityId: unknown): { sheetName: string; subject: string; formulas: number; charts: number } {
  return withUserMessage(() => create(entityId));
}

/**
 * Menu: creates the dashboard of all the publishers you see; the sidebar's button makes one for the publisher chosen there.
 */
export function createDashboardFromMenu(): void {
  const ui = outsideCells('menu');
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  try {
    const created = withUserMessage(() => create('all'));
    ss.toast(`Created '${created.sheetName}' for all publishers: its figures load in a few seconds.`, 'Engage for Sheets');
  } catch (e) {
    // withUserMessage has made it the one sentence already.
    ui.alert(e instanceof Error ? e.message : userMessage(e));
  }
}
