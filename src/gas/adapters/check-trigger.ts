/**
 * The installation check's one-off trigger over ScriptApp: its handler's name, installing it a minute
 * ahead (or leaving the word to the user's hourly run, where a document's one time-driven trigger per
 * user is already taken), removing it once it has run, and the note that the check now waits for the
 * hourly run's word (the hourly trigger's code, triggers.ts, leaves it when it takes the document's
 * place). Kept apart from the check, which builds the add-on's services, so the trigger code stays light.
 */
import { AWAITING_TRIGGER_KEY, type TriggerProbe } from '../../core';

/** The top-level function of the check's one-off trigger (src/entrypoints/installation-check.ts). */
export const CHECK_TRIGGER_HANDLER = 'onInstallationCheckTrigger';
/** A trigger installed a minute ahead: the shortest a one-off time-driven trigger is worth waiting for. */
const TRIGGER_AHEAD_MS = 60_000;

/** The check now waits for the hourly run's word on its context. */
export function awaitHourlyRunFinding(): void {
  PropertiesService.getUserProperties().setProperty(AWAITING_TRIGGER_KEY, String(Date.now()));
}

/**
 * Installs the one-off trigger a minute ahead. A document takes one time-driven trigger per user: where
 * the user's hourly one is already here, that run will tell instead. Any other refusal is the finding.
 */
export function installTriggerProbe(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): TriggerProbe {
  try {
    // Refused too, in Google's words, where the user withheld script.scriptapp.
    if (ScriptApp.getUserTriggers(spreadsheet).some((t) => t.getEventType() === ScriptApp.EventType.CLOCK)) {
      awaitHourlyRunFinding();
      return { ok: true, by: 'hourly run' };
    }
    ScriptApp.newTrigger(CHECK_TRIGGER_HANDLER).timeBased().after(TRIGGER_AHEAD_MS).create();
    return { ok: true, by: 'check' };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Removes the check's one-off trigger once it has run (the event's triggerUid names it). */
export function removeCheckTrigger(triggerUid: unknown): void {
  for (const trigger of ScriptApp.getProjectTriggers()) {
    if (trigger.getHandlerFunction() === CHECK_TRIGGER_HANDLER && (triggerUid === undefined || trigger.getUniqueId() === triggerUid)) {
      ScriptApp.deleteTrigger(trigger);
    }
  }
}
