/**
 * The hourly trigger's install when Apps Script itself refuses it. HourlyTrigger.ensure counts the
 * user's triggers first (ScriptApp.getProjectTriggers: this add-on's, in every document), but a count
 * can be short of what Apps Script holds: two documents installing at once both see 19. Apps Script
 * then throws its own refusal, which must give the same one sentence as the count. ScriptApp here is
 * a stand-in that counts 19 and throws the local host's words for a 21st trigger.
 */
import { GasException } from '../../../dev/gas-host/protocol';
import { TOO_MANY_TRIGGERS_MESSAGE } from '../../../dev/gas-host/state/triggers';
import { TriggerQuotaError, userMessage } from '../../../src/core';
import { HourlyTrigger } from '../../../src/gas/triggers';

const ONE_SENTENCE =
  'You already have 20 Engage triggers, the most Apps Script allows one Google account (one for each spreadsheet with an active Engage schedule): ' +
  'pause or delete your schedules in a spreadsheet you no longer need, then save this schedule again.';

const scope = globalThis as unknown as { ScriptApp?: unknown };
let created: string[];

/** ScriptApp with `elsewhere` triggers of the user in other documents, whose create() throws `refusal` (or installs). */
function fakeScriptApp(elsewhere: number, refusal?: Error) {
  const trigger = (handler: string) => ({ getHandlerFunction: () => handler });
  return {
    getUserTriggers: () => [],
    getProjectTriggers: () => Array.from({ length: elsewhere }, () => trigger('onScheduledRefresh')),
    newTrigger: (handler: string) => ({
      timeBased: () => ({
        everyHours: (hours: number) => ({
          create: () => {
            if (refusal) throw refusal;
            created.push(`${handler} every ${hours} h`);
            return trigger(handler);
          },
        }),
      }),
    }),
    deleteTrigger: () => undefined,
  };
}

const spreadsheet = {} as GoogleAppsScript.Spreadsheet.Spreadsheet;

beforeEach(() => {
  created = [];
});
afterEach(() => {
  delete scope.ScriptApp;
});

describe('HourlyTrigger.ensure', () => {
  it("turns Apps Script's own 'too many triggers' refusal into the one sentence, though the count said 19", () => {
    scope.ScriptApp = fakeScriptApp(19, new GasException(TOO_MANY_TRIGGERS_MESSAGE));
    let thrown: unknown;
    try {
      new HourlyTrigger(spreadsheet).ensure();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(TriggerQuotaError);
    expect(userMessage(thrown)).toBe(ONE_SENTENCE);
    expect(created).toEqual([]);
  });

  it('refuses from the count alone at 20, without asking Apps Script', () => {
    scope.ScriptApp = fakeScriptApp(20);
    expect(() => new HourlyTrigger(spreadsheet).ensure()).toThrow(TriggerQuotaError);
    expect(created).toEqual([]);
  });

  it('installs the hourly trigger at 19, and passes any other failure on as it is', () => {
    scope.ScriptApp = fakeScriptApp(19);
    expect(new HourlyTrigger(spreadsheet).ensure()).toBe(true);
    expect(created).toEqual(['onScheduledRefresh every 1 h']);
    scope.ScriptApp = fakeScriptApp(3, new GasException('Service unavailable: Triggers'));
    expect(() => new HourlyTrigger(spreadsheet).ensure()).toThrow('Service unavailable: Triggers');
  });
});
