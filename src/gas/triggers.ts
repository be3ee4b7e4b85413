/**
 * The one time-driven trigger of scheduled refreshes. An Editor add-on may have one trigger of each
 * type per user per document, at most hourly, so there is exactly one: hourly, for the user who saves
 * a schedule, in this document. It is installed with that user's first active schedule and removed
 * with the last; a trigger runs as its creator, so each user's saved reports run with their own
 * sign-in. A published add-on is one script, so each document with a schedule takes one of the
 * user's 20 triggers.
 */
import { TriggerQuotaError, TRIGGERS_PER_USER } from '../core';

/** The top-level function the trigger calls (exported from src/entrypoints/schedules.ts). */
export const SCHEDULED_REFRESH_HANDLER = 'onScheduledRefresh';

/** Installing and removing the current user's hourly trigger in the active document. */
export class HourlyTrigger {
  constructor(
    private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
    private readonly handler: string = SCHEDULED_REFRESH_HANDLER,
  ) {}

  private mine(): GoogleAppsScript.Script.Trigger[] {
    return ScriptApp.getUserTriggers(this.spreadsheet).filter((t) => t.getHandlerFunction() === this.handler);
  }

  isInstalled(): boolean {
    return this.mine().length > 0;
  }

  /**
   * Installs the trigger unless it exists; true when it was created now. A full trigger quota (the
   * user's triggers of this add-on in every document) throws TriggerQuotaError: counted first, and
   * Apps Script's own refusal ("This script has too many triggers. ...") read as the same.
   */
  ensure(): boolean {
    if (this.isInstalled()) return false;
    if (ScriptApp.getProjectTriggers().length >= TRIGGERS_PER_USER) throw new TriggerQuotaError(TRIGGERS_PER_USER);
    try {
      ScriptApp.newTrigger(this.handler).timeBased().everyHours(1).create();
    } catch (e) {
      if (/too many triggers/i.test(e instanceof Error ? e.message : String(e))) throw new TriggerQuotaError(TRIGGERS_PER_USER);
      throw e;
    }
    return true;
  }

  /** Removes the trigger; true when there was one. */
  remove(): boolean {
    const triggers = this.mine();
    for (const t of triggers) ScriptApp.deleteTrigger(t);
    return triggers.length > 0;
  }
}
