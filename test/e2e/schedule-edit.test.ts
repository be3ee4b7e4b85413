/**
 * End to end, editing a saved report through updateSchedule in the built bundle, as the Schedules
 * tab's edit form does: the name, schedule, paused and incremental options change while the report
 * keeps its id, owner and creation time; a new schedule takes effect from the last refresh; pausing
 * by an edit removes the trigger with the last active report; a bad edit is refused naming the field,
 * as is a name the owner already gave another saved report, and another editor's report cannot be edited. Nothing is sent to the API by an edit.
 */
import { EDITOR, OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, useScheduledAddon } from '../support/scheduled-host';

// A Friday, 13:00 in Berlin.
const START = '2026-11-20T12:00:00.000Z';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  paused: boolean;
  mine: boolean;
  scheduleText: string;
  target: string;
  definition: Record<string, unknown> & { name: string; schedule: unknown; destination: { incremental?: boolean }; paused?: boolean };
  status: { lastSuccess?: string; nextRun?: string; rows?: number };
}
interface List {
  reports: View[];
  triggerInstalled: boolean;
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const byId = (list: List, id: string) => list.reports.find((r) => r.id === id)!;
const stored = (id: string) => JSON.parse(h.host.properties('document').get(`engage.sr.def.${id}`)!) as Record<string, unknown>;

function report(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 7, endingYesterday: true },
    breakdowns: ['day'],
    target: { sheetName: name, cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
    ...extra,
  };
}

async function apiPaths() {
  return (await h.emulator.requests()).map((r) => r.path);
}

useScheduledAddon(START, {}, (harness) => {
  h = harness;
});

describe('updateSchedule', () => {
  it('changes the name, schedule and incremental option, keeping the id, owner and creation time, and sends nothing', async () => {
    const id = call<List>('saveSchedule', report('Daily revenue')).reports.at(-1)!.id;
    const before = stored(id);
    h.host.advanceTime(MINUTE_MS);

    const edited = {
      ...report('Weekly revenue'),
      target: { sheetName: 'Daily revenue', cell: 'A1' },
      schedule: { every: 'week', weekday: 'monday', hour: 7 },
      incremental: true,
    };
    const list = call<List>('updateSchedule', id, edited);

    expect(list.reports.filter((r) => r.id === id)).toHaveLength(1);
    const view = byId(list, id);
    expect(view).toMatchObject({
      name: 'Weekly revenue',
      scheduleText: 'weekly on Monday at 07:00 (Europe/Berlin)',
      target: "'Daily revenue'!A1",
      mine: true,
      paused: false,
    });
    expect(view.definition).toMatchObject({ destination: { incremental: true }, schedule: { every: 'week', weekday: 'monday', hour: 7 } });
    const after = stored(id);
    expect(after).toMatchObject({ id, ownerId: before.ownerId, createdAtMs: before.createdAtMs, name: 'Weekly revenue' });
    expect(after.updatedAtMs as number).toBeGreaterThan(before.updatedAtMs as number);
    expect(await apiPaths()).toEqual([]);
    call('deleteSchedule', id);
  });

  it("takes a new schedule from the last refresh: an hourly report made daily waits for the next day's hour", async () => {
    const id = call<List>('saveSchedule', report('Hourly', { schedule: { every: 'hour' } })).reports.at(-1)!.id;
    const ran = byId(call<{ list: List }>('runScheduleNow', id).list, id);
    expect(ran.status.rows).toBe(7);
    expect(Date.parse(ran.status.nextRun!) - h.host.now().getTime()).toBeLessThanOrEqual(HOUR_MS);

    const daily = byId(call<List>('updateSchedule', id, report('Hourly', { schedule: { every: 'day', hour: 6 } })), id);
    // 06:00 in Berlin the next morning is 05:00 UTC.
    expect(daily.status.nextRun).toBe('2026-11-21T05:00:00.000Z');

    // The hourly trigger's runs before then leave it alone.
    await h.emulator.clearRequests();
    h.host.advanceTime(3 * HOUR_MS);
    expect(await apiPaths()).toEqual([]);
    call('deleteSchedule', id);
  });

  it('pauses and resumes through an edit, removing the trigger with the last active report and installing it again', () => {
    const id = call<List>('saveSchedule', report('Pausable')).reports.at(-1)!.id;
    expect(h.host.triggers.filter((t) => t.user === OWNER)).toHaveLength(1);
    const paused = call<List>('updateSchedule', id, report('Pausable', { paused: true }));
    expect(byId(paused, id).paused).toBe(true);
    expect(byId(paused, id).status.nextRun).toBeUndefined();
    expect(paused.triggerInstalled).toBe(false);
    expect(h.host.triggers.filter((t) => t.user === OWNER)).toHaveLength(0);
    const resumed = call<List>('updateSchedule', id, report('Pausable'));
    expect(byId(resumed, id).paused).toBe(false);
    expect(resumed.triggerInstalled).toBe(true);
    expect(h.host.triggers.filter((t) => t.user === OWNER)).toHaveLength(1);
    call('deleteSchedule', id);
  });

  it('refuses a bad edit with a message naming the field, and leaves the saved report as it was', async () => {
    const id = call<List>('saveSchedule', report('Strict')).reports.at(-1)!.id;
    const before = stored(id);
    expect(() => call('updateSchedule', id, report('Strict', { schedule: { every: 'hours', hours: 1 } }))).toThrow(
      /schedule\.hours: must be a whole number of hours from 2 to 12/,
    );
    expect(() => call('updateSchedule', id, report('', {}))).toThrow(/name: is required/);
    expect(() => call('updateSchedule', id, report('Strict', { breakdowns: ['country'], incremental: true }))).toThrow(
      /incremental: needs the general report broken down by day/,
    );
    expect(() => call('updateSchedule', 'no-such-id', report('Strict'))).toThrow(/id: "no-such-id" is not a saved report/);
    expect(stored(id)).toEqual(before);
    expect(await apiPaths()).toEqual([]);
    call('deleteSchedule', id);
  });

  it('refuses a name the owner already gave another saved report, naming the field, before anything is saved or sent', async () => {
    const first = call<List>('saveSchedule', report('Named once')).reports.at(-1)!.id;
    const documentBefore = [...h.host.properties('document').entries()];
    const taken = /^Name: “NAMED once” is already used by another saved report; choose another$/;
    expect(() => call('saveSchedule', report('NAMED once', { target: { sheetName: 'Elsewhere', cell: 'A1' } }))).toThrow(taken);
    expect([...h.host.properties('document').entries()]).toEqual(documentBefore);
    expect(call<List>('listSchedules').reports.map((r) => r.name)).toEqual(['Named once']);

    // Another name is saved; renamed to the first one's, it is refused and stays as it was.
    const second = call<List>('saveSchedule', report('Named twice')).reports.at(-1)!.id;
    const secondBefore = stored(second);
    expect(() => call('updateSchedule', second, report('Named once', { target: { sheetName: 'Named twice', cell: 'A1' } }))).toThrow(
      /^Name: “Named once” is already used by another saved report; choose another$/,
    );
    expect(stored(second)).toEqual(secondBefore);
    // A report keeps its own name through an edit.
    expect(byId(call<List>('updateSchedule', first, report('Named once', { paused: true })), first).paused).toBe(true);
    expect(await apiPaths()).toEqual([]);
    call('deleteSchedule', first);
    call('deleteSchedule', second);
  });

  it('lets only the editor who saved a report change it', () => {
    const id = call<List>('saveSchedule', report('Owned')).reports.at(-1)!.id;
    h.configure(EDITOR);
    const seen = h.host.call('listSchedules', [], { user: EDITOR }) as List;
    expect(byId(seen, id).mine).toBe(false);
    expect(() => h.host.call('updateSchedule', [id, report('Taken over')], { user: EDITOR })).toThrow(
      /"Owned" was saved by another editor: only they can change, run or delete it/,
    );
    expect(stored(id).name).toBe('Owned');
    call('deleteSchedule', id);
  });
});
