import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function install() { return ScriptApp.newTrigger('hourly').timeBased().everyHours(1).create().getUniqueId(); }
function installDaily() { return ScriptApp.newTrigger('hourly').timeBased().atHour(6).everyDays(1).create().getUniqueId(); }
function tooOften() { ScriptApp.newTrigger('hourly').timeBased().everyMinutes(30).create(); }
function halfHour() { ScriptApp.newTrigger('hourly').timeBased().everyHours(0.5).create(); }
function list() { return ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).map(function (t) { return t.getHandlerFunction() + ':' + t.getEventType(); }); }
function removeAll() { ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); }); }
function hourly(e) {
  var p = PropertiesService.getUserProperties();
  p.setProperty('runs', String(Number(p.getProperty('runs') || 0) + 1));
  p.setProperty('mode', String(e.authMode));
  p.setProperty('who', Session.getEffectiveUser().getEmail());
}
function now() { return new Date().getTime(); }
function onOpen(e) { var p = PropertiesService.getDocumentProperties(); p.setProperty('opened', 'yes'); Utilities.sleep(Number(p.getProperty('napMs') || 0)); p.setProperty('after', 'yes'); }
function threeNaps() { for (var i = 0; i < 3; i++) Utilities.sleep(60000); return 'rested'; }
function longJob() { for (var i = 0; i < 10; i++) Utilities.sleep(60000); return 'finished'; }
function stamp(d) { return Utilities.formatDate(d, 'Asia/Tokyo', "yyyy-MM-dd'T'HH:mm:ss EEE a XXX"); }
function encode() { var b = Utilities.base64Encode('héllo'); return [b, Utilities.newBlob(Utilities.base64Decode(b)).getDataAsString()]; }
`;

describe('onTimeAdvance', () => {
  it('hears every move of virtual time: sleeps of an execution and advanceTime', () => {
    const moves: number[] = [];
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), onTimeAdvance: (ms) => moves.push(ms) });
    host.load(BUNDLE);
    expect(host.call('threeNaps')).toBe('rested');
    host.advanceTime(1500);
    expect(moves).toEqual([60000, 60000, 60000, 1500]);
    expect(host.now().toISOString()).toBe('2026-11-20T12:03:01.500Z');
  });
});

describe('a shifted clock (the playground: real time moved forward on demand)', () => {
  it('runs with the wall clock, and advanceTime moves it forward, in workers too, running the triggers that fall due and telling onTimeAdvance', async () => {
    const moves: number[] = [];
    const host = createGasHost({ clock: 'shifted', onTimeAdvance: (ms) => moves.push(ms) });
    try {
      host.load(BUNDLE);
      const before = Date.now();
      const read = host.call('now') as number;
      expect(read).toBeGreaterThanOrEqual(before);
      expect(read).toBeLessThanOrEqual(Date.now());
      host.call('install');
      // Sleeps take real time and are not heard: the offset stays where it was.
      const slept = Date.now();
      expect(host.run('threeNaps', [], { limitMs: 1_000 }).exceededTime).toBe(true);
      expect(Date.now() - slept).toBeGreaterThanOrEqual(900);
      expect(moves).toEqual([]);
      const runs = host.advanceTime(2 * 3_600_000 + 60_000);
      expect(runs.map((r) => [r.handlerFunction, r.ok])).toEqual([
        ['hourly', true],
        ['hourly', true],
      ]);
      // What onTimeAdvance heard is the offset added: the wall time the runs took is not in it.
      const heard = moves.reduce((a, b) => a + b, 0);
      expect(heard).toBeLessThanOrEqual(2 * 3_600_000 + 60_000);
      expect(Math.abs(host.now().getTime() - Date.now() - heard)).toBeLessThan(50);
      const [inWorker] = await host.callConcurrently([{ functionName: 'now', args: [] }]);
      expect((inWorker!.value as number) - Date.now()).toBeGreaterThan(2 * 3_600_000 + 59_000);
      expect(host.now().getTime() - Date.now()).toBeGreaterThan(2 * 3_600_000 + 59_000);
    } finally {
      await host.close();
    }
  });
});

describe('onOpen, a simple trigger', () => {
  it('has 30 seconds ("Simple triggers": "They cannot run for longer than 30 seconds"), whatever the auth mode', () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12) });
    host.load(BUNDLE);
    host.properties('document').set('napMs', '29000');
    expect(host.open().ok).toBe(true);
    expect(host.properties('document').get('after')).toBe('yes');
    host.properties('document').delete('after');
    host.properties('document').set('napMs', '31000');
    for (const authMode of ['LIMITED', 'FULL'] as const) {
      const outcome = host.open({ authMode });
      expect([outcome.ok, outcome.exceededTime]).toEqual([false, true]);
      expect(host.properties('document').get('after')).toBeUndefined();
    }
  });
});

describe('triggers', () => {
  it('allows one time-driven trigger per user per document', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('install', [], { user: 'alice@example.com' });
    expect(() => host.call('install', [], { user: 'alice@example.com' })).toThrow(
      'This add-on has created too many time-based triggers in this document for this Google user account.',
    );
    host.call('install', [], { user: 'bob@example.com' });
    expect(host.call('list', [], { user: 'alice@example.com' })).toEqual(['hourly:CLOCK']);
  });

  it('refuses triggers that run more often than hourly', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('tooOften')).toThrow('Add-ons can not create time-based triggers to run more frequently than once an hour.');
    expect(() => host.call('halfHour')).toThrow(/more frequently than once an hour/);
  });

  it('cannot create triggers outside FULL', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('install', [], { authMode: 'LIMITED' })).toThrow('You do not have permission to call ScriptApp.newTrigger');
  });

  it('fires due triggers on the virtual clock, in FULL, as the user who created them', () => {
    const host = createGasHost({ clock: 'virtual' });
    host.load(BUNDLE);
    host.call('install', [], { user: 'alice@example.com' });
    expect(host.advanceTime(59 * 60_000)).toEqual([]);
    const runs = host.advanceTime(3 * 60 * 60_000);
    expect(runs).toHaveLength(3);
    expect(runs[0]).toMatchObject({ handlerFunction: 'hourly', user: 'alice@example.com', ok: true });
    const props = host.properties('user', 'alice@example.com');
    expect(props.get('runs')).toBe('3');
    expect(props.get('mode')).toBe('FULL');
    expect(props.get('who')).toBe('alice@example.com');
    host.call('removeAll', [], { user: 'alice@example.com' });
    expect(host.advanceTime(5 * 60 * 60_000)).toEqual([]);
  });

  it('schedules a daily trigger at its hour in the script time zone', () => {
    const host = createGasHost({ clock: 'virtual', startTime: new Date('2024-01-01T00:30:00Z'), scriptTimeZone: 'UTC' });
    host.load(BUNDLE);
    host.call('installDaily');
    expect(host.triggers[0]!.nextRunAt).toBe(new Date('2024-01-01T06:00:00Z').getTime());
  });
});

describe('time', () => {
  it('shows the virtual clock to the script through Date', () => {
    const start = new Date('2030-06-01T00:00:00Z');
    const host = createGasHost({ clock: 'virtual', startTime: start });
    host.load(BUNDLE);
    expect(host.call('now')).toBe(start.getTime());
    host.advanceTime(1000);
    expect(host.call('now')).toBe(start.getTime() + 1000);
  });

  it('ends an execution at 6 minutes', () => {
    const host = createGasHost({ clock: 'virtual' });
    host.load(BUNDLE);
    expect(() => host.call('longJob')).toThrow('Exceeded maximum execution time');
    expect(host.run('longJob').exceededTime).toBe(true);
  });

  it('ends a script that spins without calling services (real-time backstop)', () => {
    const host = createGasHost({ executionLimitMs: 200 });
    host.load('function spin() { for (;;) {} }');
    expect(() => host.call('spin')).toThrow('Exceeded maximum execution time');
  });

  it('blocks for real in Utilities.sleep on the real clock', () => {
    const host = createGasHost();
    host.load('function nap() { Utilities.sleep(120); }');
    const started = Date.now();
    host.call('nap');
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('formats dates and encodes base64 as Utilities does', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('stamp', [new Date('2024-03-01T15:04:05Z')])).toBe('2024-03-02T00:04:05 Sat AM +09:00');
    expect(host.call('encode')).toEqual(['aMOpbGxv', 'héllo']);
  });
});

describe('logs', () => {
  it('captures Logger and console output for inspection', () => {
    const host = createGasHost();
    host.load(`function talk() { Logger.log('token length %s', 3); console.log('plain', { a: 1 }); console.error('bad'); }`);
    host.call('talk');
    expect(host.logText()).toBe('token length 3\nplain {"a":1}\nbad');
    expect(host.logs.map((l) => `${l.source}.${l.level}`)).toEqual(['Logger.log', 'console.log', 'console.error']);
  });
});

describe('a test deployment (installationSource NONE)', () => {
  // "Test deployments ... have limitations such as not supporting installable triggers"
  // (developers.google.com/workspace/add-ons/how-tos/testing-editor-addons): the host creates the trigger
  // and never runs it, the harder of the two cases no page settles.
  it('creates a time-driven trigger and never runs it; an installed add-on runs the same trigger', () => {
    const runs = (installationSource: 'NONE' | 'WEB_STORE_ADD_ON') => {
      const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), installationSource });
      host.load(BUNDLE);
      host.call('install');
      expect(host.call('list')).toEqual(['hourly:CLOCK']);
      for (let hour = 0; hour < 3; hour++) {
        host.advanceTime(3_600_000);
        host.runDueTriggers();
      }
      return host.properties('user').get('runs') ?? '0';
    };
    expect(runs('NONE')).toBe('0');
    expect(runs('WEB_STORE_ADD_ON')).toBe('3');
  });
});
