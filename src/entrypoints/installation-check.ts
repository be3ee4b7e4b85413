/**
 * "Check this installation": the owner's menu item that tests, on the live platform, what no page of
 * Google's settles (shared/platform/apps-script.md, "Readings Google leaves open"), and writes what it
 * found, each with what it means for the deployer, to the sheet "Engage installation check". Its one-off
 * trigger's handler is here too. Both refuse to run typed into a cell (outside-cells.ts).
 */
import { userMessage } from '../core';
import { CHECK_TRIGGER_HANDLER, removeCheckTrigger } from '../gas/adapters/check-trigger';
import { recordTriggerContext, runInstallationCheck } from '../gas/wiring/installation-check';
import { outsideCells, triggeredOutsideCells } from './outside-cells';
import { withUserMessage } from './user-errors';

/**
 * Checks this installation on the live platform (the spreadsheet's owner only): URL Fetch to each
 * configured address, whether a trigger's run has its document, whether a date-like name stays text,
 * whether Sheets accepts TODAY() as an argument, 40 formulas at once, and caching a 20,000-row result.
 * The findings go to the sheet "Engage installation check"; the trigger's comes a minute or so later.
 */
export function checkInstallation(): void {
  const ui = outsideCells('menu');
  try {
    const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    spreadsheet.toast('Checking this installation: this takes up to a minute.', 'Engage for Sheets');
    const { findings, sheetName } = withUserMessage(() => runInstallationCheck(spreadsheet));
    const attention = findings.filter((f) => f.status === 'attention').length;
    const pending = findings.filter((f) => f.status === 'pending').length;
    spreadsheet.toast(
      `${findings.length} checks written to '${sheetName}': ${attention} need${attention === 1 ? 's' : ''} attention` +
        (pending > 0 ? `, ${pending} will be filled in after a trigger's run (open the spreadsheet again in a few minutes).` : '.'),
      'Engage for Sheets',
    );
  } catch (error) {
    // withUserMessage has made it the one sentence already.
    ui.alert(error instanceof Error ? error.message : userMessage(error));
  }
}

/**
 * The installation check's one-off trigger: records whether its run has a document, writes it into the
 * check's sheet when it has, and removes itself.
 * @param {Object} e The time-driven trigger event.
 */
export function onInstallationCheckTrigger(e?: unknown): void {
  triggeredOutsideCells(e);
  try {
    recordTriggerContext('check');
  } catch (error) {
    console.error(`Engage installation check: the trigger's finding could not be recorded: ${userMessage(error)}`);
  }
  try {
    removeCheckTrigger((e as { triggerUid?: unknown }).triggerUid);
  } catch (error) {
    console.error(`Engage installation check: its trigger (${CHECK_TRIGGER_HANDLER}) could not be removed: ${userMessage(error)}`);
  }
}
