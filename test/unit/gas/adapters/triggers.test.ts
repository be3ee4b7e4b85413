/**
 * The hourly trigger's install. With spreadsheetAccess "current" (one per spreadsheet) and Apps
 * Script itself refusing it: HourlyTrigger.ensure counts the user's triggers first
 * (ScriptApp.getProjectTriggers: this add-on's, in every document), but a count can be short of what
 * Apps Script holds: two documents installing at once both see 19. Apps Script then throws its own
 * refusal, which must give the same one sentence as the count. With "all" (one per user), a trigger in
 * any spreadsheet is the user's one: none is installed beside it, and a run without a document installs
 * none. A trigger is only ever removed from its own spreadsheet: remove() takes this spreadsheet's, and
 * an extra one retires itself from its own run. ScriptApp here is a stand-in that counts the triggers elsewhere and throws
 * the local host's words for a 21st trigger.
 */
import { GasException } from '../../../../dev/gas-host/protocol/protocol';
import { TOO_MANY_TRIGGERS_MESSAGE } from '../../../../dev/gas-host/state/triggers';
import { TriggerQuotaError, userMessage } from '../../../../src/core';
import { HourlyTrigger } from '../../../../src/gas/adapters/triggers';

const ONE_SENTENCE =
  'You already have 20 Engage triggers, the most Apps Script allows one Google account (one for each spreadsheet with an active Engage schedule): ' +
  'pause or delete your schedules in a spreadsheet you no longer need, then save this schedule again.';

const scope = globalThis as unknown as { ScriptApp?: unknown };
let created: string[];

let deleted: string[];

/**
 * ScriptApp with `elsewhere` triggers of the user in other documents and `inHere` in this one, whose
 * create() throws `refusal` (or installs).
 */
function fakeScriptApp(elsewhere: number, refusal?: Error, inHere = 0) {
  const trigger = (handler: string, id = `new-${created.length}`) => ({ getHandlerFunction: () => handler, getUniqueId: () => id });
  const here = Array.from({ length: inHere }, (_, i) => trigger('onScheduledRefresh', `here-${i}`));
  const others = [...Array.from({ length: elsewhere }, (_, i) => trigger('onScheduledRefresh', `elsewhere-${i}`)), ...here];
  return {
    getUserTriggers: () => here.filter((t) => !deleted.includes(t.getUniqueId())),
    getProjectTriggers: () => others.filter((t) => !deleted.includes(t.getUniqueId())),
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
    deleteTrigger: (t: { getUniqueId(): string }) => void deleted.push(t.getUniqueId()),
  };
}

const spreadsheet = {} as GoogleAppsScript.Spreadsheet.Spreadsheet;

beforeEach(() => {
  created = [];
  deleted = [];
});
afterEach(() => {
  delete scope.ScriptApp;
});

describe('HourlyTrigger.ensure with spreadsheetAccess "current": one per spreadsheet', () => {
  it("turns Apps Script's own 'too many triggers' refusal into the one sentence, though the count said 19", () => {
    scope.ScriptApp = fakeScriptApp(19, new GasException(TOO_MANY_TRIGGERS_MESSAGE));
    let thrown: unknown;
    try {
      new HourlyTrigger(spreadsheet, 'current').ensure();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(TriggerQuotaError);
    expect(userMessage(thrown)).toBe(ONE_SENTENCE);
    expect(created).toEqual([]);
  });

  it('refuses from the count alone at 20, without asking Apps Script', () => {
    scope.ScriptApp = fakeScriptApp(20);
    expect(() => new HourlyTrigger(spreadsheet, 'current').ensure()).toThrow(TriggerQuotaError);
    expect(created).toEqual([]);
  });

  it('installs the hourly trigger at 19, and passes any other failure on as it is', () => {
    scope.ScriptApp = fakeScriptApp(19);
    expect(new HourlyTrigger(spreadsheet, 'current').ensure()).toBe(true);
    expect(created).toEqual(['onScheduledRefresh every 1 h']);
    scope.ScriptApp = fakeScriptApp(3, new GasException('Service unavailable: Triggers'));
    expect(() => new HourlyTrigger(spreadsheet, 'current').ensure()).toThrow('Service unavailable: Triggers');
  });
});

describe('HourlyTrigger with spreadsheetAccess "all": one per user', () => {
  it("takes a trigger in any spreadsheet as the user's one, installs none beside it, and removes none elsewhere", () => {
    scope.ScriptApp = fakeScriptApp(3);
    const trigger = new HourlyTrigger(spreadsheet, 'all');
    expect(trigger.isInstalled()).toBe(true);
    expect(trigger.ensure()).toBe(false);
    expect(created).toEqual([]);
    // Those elsewhere may serve reports the registry does not know yet: they retire from their own runs.
    expect(deleted).toEqual([]);
    expect(trigger.uniqueId()).toBe('elsewhere-0');
  });

  it("retires a run's own trigger only when another one is there to serve its spreadsheet", () => {
    scope.ScriptApp = fakeScriptApp(1, undefined, 1);
    expect(new HourlyTrigger(spreadsheet, 'all').retire('here-0')).toBe(true);
    expect(deleted).toEqual(['here-0']);
    // The last one stays.
    expect(new HourlyTrigger(spreadsheet, 'all').retire('elsewhere-0')).toBe(false);
    expect(new HourlyTrigger(spreadsheet, 'current').retire('elsewhere-0')).toBe(false);
    expect(deleted).toEqual(['here-0']);
  });

  it('installs it when the user has none, and never from a run without a document', () => {
    scope.ScriptApp = fakeScriptApp(0);
    expect(new HourlyTrigger(null, 'all').ensure()).toBe(false);
    expect(created).toEqual([]);
    expect(new HourlyTrigger(spreadsheet, 'all').ensure()).toBe(true);
    expect(created).toEqual(['onScheduledRefresh every 1 h']);
  });

  it('removes the one in this spreadsheet only, and nothing from a run without a document', () => {
    scope.ScriptApp = fakeScriptApp(2, undefined, 1);
    expect(new HourlyTrigger(null, 'all').remove()).toBe(false);
    expect(deleted).toEqual([]);
    expect(new HourlyTrigger(spreadsheet, 'all').remove()).toBe(true);
    expect(deleted).toEqual(['here-0']);
  });
});
