/**
 * The installation check's trigger, as the hourly trigger's code needs to know it (triggers.ts): its
 * handler's name, and the note that the check now waits for the hourly run's word instead of its own
 * one-off trigger's (a document takes one time-driven trigger per user). Kept apart from the check,
 * which builds the add-on's services, so the trigger code stays light.
 */

/** The top-level function of the check's one-off trigger (src/entrypoints/installation-check.ts). */
export const CHECK_TRIGGER_HANDLER = 'onInstallationCheckTrigger';
/** Set when the one-off trigger could not be there (the user's hourly one is): that run says instead. */
export const AWAITING_TRIGGER_KEY = 'engage.check.awaitingTrigger';

/** The check now waits for the hourly run's word on its context. */
export function awaitHourlyRunFinding(): void {
  PropertiesService.getUserProperties().setProperty(AWAITING_TRIGGER_KEY, String(Date.now()));
}
