/**
 * ScriptApp: installable triggers (built with TriggerBuilder, kept and checked by the host state),
 * the enums scripts compare against, the script's identity and OAuth token, and what the user granted
 * (authorization.ts). The trigger methods need `script.scriptapp` when the manifest lists scopes.
 */
import type { TriggerRecord, TriggerSpec } from '../protocol/protocol';
import { authorizationMethods } from './authorization';
import type { Facade, FacadeKit } from './kit';

/** Google's ScriptApp reference: the trigger methods need this scope. */
const SCRIPTAPP = ['https://www.googleapis.com/auth/script.scriptapp'];

export function scriptAppService(kit: FacadeKit) {
  const { ops } = kit;
  const guard = (capability: 'triggers' | 'session', name: string) => {
    kit.guard(capability, name);
    if (capability === 'triggers') kit.requireScopes(name, SCRIPTAPP);
  };
  const trigger = (t: TriggerRecord) =>
    kit.api('Trigger', {
      getUniqueId: () => t.id,
      getHandlerFunction: () => t.handlerFunction,
      getEventType: () => t.eventType,
      getTriggerSource: () => (t.eventType === 'CLOCK' ? 'CLOCK' : 'SPREADSHEETS'),
      getTriggerSourceId: () => (t.eventType === 'CLOCK' ? null : t.documentId),
    });
  const newTrigger = (handlerFunction: string) => {
    const spec: TriggerSpec = { handlerFunction: String(handlerFunction) };
    const create = () => trigger(ops.triggerCreate(spec));
    const clockBuilder: Facade = kit.api('ClockTriggerBuilder', {
      everyMinutes: (n: number) => ((spec.everyMinutes = Number(n)), clockBuilder),
      everyHours: (n: number) => ((spec.everyHours = Number(n)), clockBuilder),
      everyDays: (n: number) => ((spec.everyDays = Number(n)), clockBuilder),
      everyWeeks: (n: number) => ((spec.everyWeeks = Number(n)), clockBuilder),
      atHour: (h: number) => ((spec.atHour = Number(h)), clockBuilder),
      nearMinute: () => clockBuilder,
      onWeekDay: (d: number) => ((spec.onWeekDay = d), clockBuilder),
      inTimezone: () => clockBuilder,
      at: (date: Date) => ((spec.at = new Date(date.getTime()).getTime()), clockBuilder),
      after: (ms: number) => ((spec.after = Number(ms)), clockBuilder),
      create,
    });
    const sheetBuilder: Facade = kit.api('SpreadsheetTriggerBuilder', {
      onOpen: () => ((spec.eventType = 'ON_OPEN'), sheetBuilder),
      onEdit: () => ((spec.eventType = 'ON_EDIT'), sheetBuilder),
      onChange: () => ((spec.eventType = 'ON_CHANGE'), sheetBuilder),
      onFormSubmit: () => ((spec.eventType = 'ON_FORM_SUBMIT'), sheetBuilder),
      create,
    });
    return kit.api('TriggerBuilder', {
      timeBased: () => ((spec.eventType = 'CLOCK'), clockBuilder),
      forSpreadsheet: () => sheetBuilder,
    });
  };
  return kit.api('ScriptApp', {
    AuthMode: { NONE: 'NONE', LIMITED: 'LIMITED', FULL: 'FULL', CUSTOM_FUNCTION: 'CUSTOM_FUNCTION' },
    EventType: { CLOCK: 'CLOCK', ON_OPEN: 'ON_OPEN', ON_EDIT: 'ON_EDIT', ON_CHANGE: 'ON_CHANGE', ON_FORM_SUBMIT: 'ON_FORM_SUBMIT' },
    WeekDay: { MONDAY: 1, TUESDAY: 2, WEDNESDAY: 3, THURSDAY: 4, FRIDAY: 5, SATURDAY: 6, SUNDAY: 7 },
    TriggerSource: { SPREADSHEETS: 'SPREADSHEETS', CLOCK: 'CLOCK' },
    AuthorizationStatus: { REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' },
    InstallationSource: {
      APPS_MARKETPLACE_DOMAIN_ADD_ON: 'APPS_MARKETPLACE_DOMAIN_ADD_ON',
      NONE: 'NONE',
      WEB_STORE_ADD_ON: 'WEB_STORE_ADD_ON',
    },
    newTrigger: (fn: string) => (guard('triggers', 'ScriptApp.newTrigger'), newTrigger(fn)),
    // "Gets all installable triggers owned by this user in the given document, for this script or add-on only."
    getUserTriggers: (document?: { getId(): string }) => {
      guard('triggers', 'ScriptApp.getUserTriggers');
      if (!document || typeof document.getId !== 'function') throw kit.realmError('Exception', 'Invalid argument: document');
      return ops.triggerList('user', String(document.getId())).map(trigger);
    },
    getProjectTriggers: () => (guard('triggers', 'ScriptApp.getProjectTriggers'), ops.triggerList('project').map(trigger)),
    deleteTrigger: (t: { getUniqueId(): string }) => {
      guard('triggers', 'ScriptApp.deleteTrigger');
      ops.triggerDelete(t.getUniqueId());
    },
    getOAuthToken: () => (guard('session', 'ScriptApp.getOAuthToken'), 'gas-host-oauth-token'),
    getScriptId: () => 'gas-host-script',
    ...authorizationMethods(kit),
  });
}
