/**
 * The add-on menu, the sidebar opener and the menu's own actions. onOpen may run in AuthMode.NONE,
 * where only menus are allowed, so it reads the sign-in state and the refresh cell only in other
 * modes, and never fails because of them: the menu must always appear. It is a simple trigger, with
 * 30 seconds in all: after the menu it reads the refresh cells, and on the first open of a day changes
 * them, a wave at a time, within 25 seconds.
 * Each function here refuses to run typed into a cell (outside-cells.ts), taking the UI it needs from
 * that one check.
 */
import { createSession } from '../gas/wiring/addon-services';
import {
  EXECUTION_LIMIT_MS,
  REFRESH_END_MARGIN_MS,
  REFRESH_WAVE_FORMULAS,
  refreshOutcomeText,
  refreshPlanText,
  REFRESH_SIGNED_OUT_TEXT,
  TOKEN_LIFETIME_DAYS,
  userMessage,
} from '../core';
import { touchRefreshCell, touchRefreshCellOnNewDay } from '../gas/adapters/sheets/refresh-cell';
import { finishTriggerFinding } from '../gas/wiring/installation-check';
import { outsideCells } from './outside-cells';

/**
 * How long after an open began its formula waves may go on: a simple trigger has 30 s in all, and the
 * last wave's cells and the execution's end come after.
 */
const OPEN_FORMULAS_UNTIL_MS = 20_000;

/**
 * Adds the Engage menu when a spreadsheet opens. Works in every auth mode, NONE included. On the first
 * open of a new day (LIMITED or FULL), changes the refresh cell, so formulas with relative dates
 * ("7daysAgo", "yesterday") move to the new day.
 * @param {GoogleAppsScript.Events.SheetsOnOpen} e The open event.
 */
export function onOpen(e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  const startedAtMs = Date.now();
  const menu = outsideCells('open').createAddonMenu();
  const documentAccess = e !== undefined && e.authMode !== undefined && String(e.authMode) !== 'NONE';
  const warning = documentAccess ? signInWarning() : undefined;
  if (warning) menu.addItem(`⚠ ${warning}`, 'showSidebar').addSeparator();
  menu
    .addItem('Open sidebar', 'showSidebar')
    .addItem('Refresh all', 'refreshAll')
    .addItem('Create dashboard (all publishers)', 'createDashboardFromMenu')
    .addSeparator()
    .addItem('Check this installation', 'checkInstallation')
    .addItem('Sign out', 'signOutFromMenu')
    .addToUi();
  if (documentAccess) moveFormulasToToday(startedAtMs + OPEN_FORMULAS_UNTIL_MS);
}

/**
 * The open's part in rolling dates (the refresh cells change once a day, after the menu is shown) and
 * in the installation check (a trigger's finding the check waits for goes into its sheet); neither
 * ever fails the open.
 */
function moveFormulasToToday(untilMs: number): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  try {
    finishTriggerFinding(spreadsheet);
  } catch (error) {
    console.error(`Engage could not write the installation check's trigger finding: ${userMessage(error)}`);
  }
  try {
    touchRefreshCellOnNewDay(spreadsheet, untilMs);
  } catch (error) {
    console.error(`Engage could not move the formulas to today: ${userMessage(error)}`);
  }
}

function signInWarning(): string | undefined {
  try {
    const session = createSession().state();
    if (session.rejected) return 'Sign in again';
    if (session.warning && session.signedIn)
      return `Sign-in ends in ${Math.max(0, TOKEN_LIFETIME_DAYS - (session.tokenAgeDays ?? 0))} days`;
  } catch {
    // LIMITED mode or a missing setting: the plain menu is enough.
  }
  return undefined;
}

/**
 * Runs when the add-on is installed: builds the menu as onOpen does.
 * @param {GoogleAppsScript.Events.AddonOnInstall} e The install event.
 */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}

/**
 * Opens the Engage sidebar.
 */
export function showSidebar(): void {
  const ui = outsideCells('menu');
  ui.showSidebar(HtmlService.createHtmlOutputFromFile('sidebar').setTitle('Engage for Sheets'));
}

/**
 * Refresh all: changes the named refresh cells, so every ENGAGE_* formula that references one as its
 * refresh argument fetches fresh data, at most 25 at once, a wave after another, within this
 * execution's 6 minutes; says first what it does, then what it did. When the sign-in the formulas use
 * is missing, it says so and changes nothing.
 */
export function refreshAll(): void {
  const ui = outsideCells('menu');
  const startedAtMs = Date.now();
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  try {
    // Before any cell changes: each changed formula would fetch without a sign-in and show #ERROR!.
    if (formulasUseYourSignIn(spreadsheet) && !createSession().isSignedIn()) {
      spreadsheet.toast(REFRESH_SIGNED_OUT_TEXT, 'Engage for Sheets');
      return;
    }
    const outcome = touchRefreshCell(spreadsheet, {
      deadlineAtMs: startedAtMs + EXECUTION_LIMIT_MS - REFRESH_END_MARGIN_MS,
      onPlan: ({ formulas, waves }) => spreadsheet.toast(refreshPlanText(formulas, waves, REFRESH_WAVE_FORMULAS), 'Engage for Sheets'),
    });
    // One wave's plan said it all; several end with what was done; a refresh already running says so alone.
    if (outcome.busy || outcome.waves > 1) spreadsheet.toast(refreshOutcomeText(outcome), 'Engage for Sheets');
  } catch (e) {
    ui.alert(userMessage(e));
  }
}

/**
 * Whether the spreadsheet's formulas use the sign-in of the user at the keyboard: they use the owner's
 * (formula-access.ts), so an editor's Refresh all goes ahead on the owner's sign-in, which an editor's
 * execution cannot read. A file in a shared drive has no owner, and an email Apps Script withholds
 * cannot be compared: both count as the user's own, so a missing sign-in there is said rather than
 * turned into errors.
 */
function formulasUseYourSignIn(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): boolean {
  const owner = spreadsheet.getOwner()?.getEmail() ?? '';
  const you = Session.getEffectiveUser().getEmail();
  return owner === '' || you === '' || owner.toLowerCase() === you.toLowerCase();
}

/**
 * Sign out from the menu: forgets the stored token.
 */
export function signOutFromMenu(): void {
  const ui = outsideCells('menu');
  try {
    createSession().signOut();
    SpreadsheetApp.getActiveSpreadsheet().toast('Signed out of Engage.', 'Engage for Sheets');
  } catch (e) {
    ui.alert(userMessage(e));
  }
}
