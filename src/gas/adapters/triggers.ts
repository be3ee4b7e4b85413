/**
 * The time-driven trigger of scheduled refreshes, hourly (an Editor add-on's time-driven triggers run
 * at most hourly), as the user who saves a schedule: a trigger runs as its creator, so each user's
 * saved reports run with their own sign-in. How many depends on the deployment's spreadsheetAccess:
 *   - "all": ONE per user, whichever spreadsheet it was installed from. Its run opens each of the
 *     user's spreadsheets by ID, so the 20 triggers a user may have no longer limit how many
 *     spreadsheets have schedules. Should the spreadsheet it lives in go away, the next Schedules tab
 *     of another spreadsheet with schedules installs it again there. Extra ones (from an installation
 *     of one trigger per spreadsheet) retire themselves, each from a run that has its own document and
 *     so has just put that spreadsheet's reports in the registry: a trigger is never removed from
 *     elsewhere, where its spreadsheet's reports may not be registered yet.
 *   - "current": one per user per spreadsheet (an Editor add-on may have one trigger of each type per
 *     user per document), so each spreadsheet with a schedule takes one of the user's 20.
 */
import { type SpreadsheetAccess, type TriggerPort, TriggerQuotaError, TRIGGERS_PER_USER } from '../../core';
import { awaitHourlyRunFinding, CHECK_TRIGGER_HANDLER } from './check-trigger';

/** The top-level function the trigger calls (exported from src/entrypoints/schedules.ts). */
export const SCHEDULED_REFRESH_HANDLER = 'onScheduledRefresh';

/** Installing and removing the current user's hourly trigger. */
export class HourlyTrigger implements TriggerPort {
  constructor(
    /** The spreadsheet the execution runs in; null in a trigger's run without a document. */
    private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet | null,
    private readonly access: SpreadsheetAccess = 'all',
    private readonly handler: string = SCHEDULED_REFRESH_HANDLER,
  ) {}

  /** With "all", the user's triggers of this add-on in every spreadsheet; with "current", in this one. */
  private mine(): GoogleAppsScript.Script.Trigger[] {
    if (this.access === 'current' && !this.spreadsheet) return [];
    const triggers = this.access === 'all' ? ScriptApp.getProjectTriggers() : ScriptApp.getUserTriggers(this.spreadsheet!);
    return triggers.filter((t) => t.getHandlerFunction() === this.handler);
  }

  /** False too where the user withheld `script.scriptapp`: Apps Script then refuses to list triggers, and none can be made. */
  isInstalled(): boolean {
    try {
      return this.mine().length > 0;
    } catch (error) {
      if (/Required permissions: \S*script\.scriptapp/.test(error instanceof Error ? error.message : String(error))) return false;
      throw error;
    }
  }

  uniqueId(): string | undefined {
    return this.mine()[0]?.getUniqueId();
  }

  /**
   * Installs the trigger unless it exists; true when it was created now. A full trigger quota (the
   * user's triggers of this add-on in every document) throws TriggerQuotaError: counted first, and
   * Apps Script's own refusal ("This script has too many triggers. ...") read as the same. Without a
   * document nothing can be installed (a trigger lives in a document): false.
   */
  ensure(): boolean {
    if (this.mine().length > 0 || !this.spreadsheet) return false;
    // The installation check's one-off trigger takes this document's one time-driven trigger for a
    // minute: it gives way, and the hourly run says what the check wanted to know.
    for (const t of ScriptApp.getUserTriggers(this.spreadsheet)) {
      if (t.getHandlerFunction() !== CHECK_TRIGGER_HANDLER) continue;
      ScriptApp.deleteTrigger(t);
      awaitHourlyRunFinding();
    }
    if (ScriptApp.getProjectTriggers().length >= TRIGGERS_PER_USER) throw new TriggerQuotaError(TRIGGERS_PER_USER);
    try {
      ScriptApp.newTrigger(this.handler).timeBased().everyHours(1).create();
    } catch (e) {
      if (/too many triggers/i.test(e instanceof Error ? e.message : String(e))) throw new TriggerQuotaError(TRIGGERS_PER_USER);
      throw e;
    }
    return true;
  }

  /**
   * Removes the user's trigger in this spreadsheet; true when there was one. Never one elsewhere: the
   * reports it serves there may not be in the registry yet (saved before it), and that trigger's own
   * run, with its document, removes it when nothing there is active. Without a document, nothing.
   */
  remove(): boolean {
    if (!this.spreadsheet) return false;
    const triggers = ScriptApp.getUserTriggers(this.spreadsheet).filter((t) => t.getHandlerFunction() === this.handler);
    for (const t of triggers) ScriptApp.deleteTrigger(t);
    return triggers.length > 0;
  }

  /**
   * With "all", a run's own trigger (`uid`, from its event) when the user has another: that one serves
   * this spreadsheet by ID from now on (the run has just registered its reports). True when removed.
   */
  retire(uid: string): boolean {
    if (this.access !== 'all') return false;
    const mine = this.mine();
    const own = mine.find((t) => t.getUniqueId() === uid);
    if (!own || mine.length < 2) return false;
    ScriptApp.deleteTrigger(own);
    return true;
  }
}
