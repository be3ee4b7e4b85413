/**
 * Several documents of one published add-on: hosts built on one deployment share what Apps Script
 * shares across documents (user properties, cache and lock per user; the script's properties, cache
 * and lock; triggers per user) and keep their own spreadsheet, document properties, document cache
 * and document lock.
 */
import { createDeployment, createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function put(scope, key, value) {
  ({ user: PropertiesService.getUserProperties(), document: PropertiesService.getDocumentProperties(), script: PropertiesService.getScriptProperties() })[scope].setProperty(key, value);
  ({ user: CacheService.getUserCache(), document: CacheService.getDocumentCache(), script: CacheService.getScriptCache() })[scope].put(key, value, 600);
}
function get(scope, key) {
  var props = ({ user: PropertiesService.getUserProperties(), document: PropertiesService.getDocumentProperties(), script: PropertiesService.getScriptProperties() })[scope];
  var cache = ({ user: CacheService.getUserCache(), document: CacheService.getDocumentCache(), script: CacheService.getScriptCache() })[scope];
  return [props.getProperty(key), cache.get(key)];
}
function holdLock(scope, ms) {
  var lock = ({ user: LockService.getUserLock(), document: LockService.getDocumentLock(), script: LockService.getScriptLock() })[scope];
  lock.waitLock(10000);
  Utilities.sleep(ms);
  lock.releaseLock();
}
function tryLock(scope) {
  return ({ user: LockService.getUserLock(), document: LockService.getDocumentLock(), script: LockService.getScriptLock() })[scope].tryLock(0);
}
function install() { return ScriptApp.newTrigger('hourly').timeBased().everyHours(1).create().getUniqueId(); }
function hourly() { PropertiesService.getDocumentProperties().setProperty('ran', 'yes'); }
function slowHourly() { var started = Date.now(); Utilities.sleep(60000); PropertiesService.getDocumentProperties().setProperty('ran', String(started)); }
`;

function twoDocuments(clock: 'real' | 'virtual' = 'virtual') {
  const deployment = createDeployment({ clock, startTime: Date.UTC(2026, 10, 20, 12) });
  const a = createGasHost({ deployment, documentId: 'doc-a', owner: 'ann@example.com' });
  const b = createGasHost({ deployment, documentId: 'doc-b', owner: 'bob@example.com' });
  a.load(BUNDLE);
  b.load(BUNDLE);
  return { deployment, a, b };
}

describe('documents of one deployment', () => {
  it('share user and script properties and caches, and keep their own document properties and cache', () => {
    const { a, b } = twoDocuments();
    for (const scope of ['user', 'document', 'script']) a.call('put', [scope, 'k', `${scope} from a`], { user: 'cy@example.com' });
    expect(b.call('get', ['user', 'k'], { user: 'cy@example.com' })).toEqual(['user from a', 'user from a']);
    expect(b.call('get', ['script', 'k'], { user: 'dee@example.com' })).toEqual(['script from a', 'script from a']);
    expect(b.call('get', ['document', 'k'], { user: 'cy@example.com' })).toEqual([null, null]);
    expect(b.call('get', ['user', 'k'], { user: 'dee@example.com' })).toEqual([null, null]);
    expect(b.properties('user', 'cy@example.com').get('k')).toBe('user from a');
  });

  it('share one clock', () => {
    const { a, b } = twoDocuments();
    a.advanceTime(90_000);
    expect(b.now().toISOString()).toBe('2026-11-20T12:01:30.000Z');
  });

  it("share the script lock and each user's lock across documents, and lock each document alone", async () => {
    const { a, b } = twoDocuments('real');
    // Start the worker first, so that the lock below is held within the wait.
    await a.callConcurrently([{ functionName: 'holdLock', args: ['document', 0] }]);
    for (const [scope, sameUserElsewhere, otherUserElsewhere] of [
      ['script', false, false],
      ['user', false, true],
      ['document', true, true],
    ] as const) {
      // Held by an execution in document a (a worker holds it while we ask from document b).
      const holder = a.callConcurrently([{ functionName: 'holdLock', args: [scope, 400], options: { user: 'cy@example.com' } }]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect([scope, b.call('tryLock', [scope], { user: 'cy@example.com' })]).toEqual([scope, sameUserElsewhere]);
      expect([scope, b.call('tryLock', [scope], { user: 'dee@example.com' })]).toEqual([scope, otherUserElsewhere]);
      await holder;
    }
    await a.close();
  });

  it("count a user's triggers across documents and run each document's own", () => {
    const { a, b } = twoDocuments();
    a.call('install', [], { user: 'cy@example.com' });
    b.call('install', [], { user: 'cy@example.com' });
    expect(a.triggers.map((t) => t.documentId)).toEqual(['doc-a']);
    expect(b.triggers.map((t) => t.documentId)).toEqual(['doc-b']);
    const runs = a.advanceTime(3_600_000);
    expect(runs).toHaveLength(1);
    expect(a.properties('document').get('ran')).toBe('yes');
    expect(b.properties('document').get('ran')).toBeUndefined();
  });

  it("run the due triggers of several documents at once in workers, each spending its user's daily runtime", async () => {
    const { deployment, a, b } = twoDocuments();
    const install = (host: typeof a) => host.call('installSlow', [], { user: 'cy@example.com' });
    a.load(`${BUNDLE}\nfunction installSlow() { ScriptApp.newTrigger('slowHourly').timeBased().everyHours(1).create(); }`);
    b.load(`${BUNDLE}\nfunction installSlow() { ScriptApp.newTrigger('slowHourly').timeBased().everyHours(1).create(); }`);
    install(a);
    install(b);
    deployment.clock.advance(3_600_000);
    const started = deployment.clock.now();
    const runs = await Promise.all([a.runDueTriggersConcurrently(), b.runDueTriggersConcurrently()]);
    expect(runs.flat().map((r) => [r.handlerFunction, r.user, r.ok])).toEqual([
      ['slowHourly', 'cy@example.com', true],
      ['slowHourly', 'cy@example.com', true],
    ]);
    // Each began at most one minute of virtual time after the due time, before the other's sleep had
    // ended: they overlapped (on a virtual clock the sleeps of concurrent executions add up).
    const starts = [a, b].map((host) => Number(host.properties('document').get('ran')) - started);
    expect(starts.every((ms) => ms >= 0 && ms <= 60_000)).toBe(true);
    expect(a.state.quotas.dailyUse('cy@example.com', 'triggerRuntime').used).toBeGreaterThanOrEqual(2 * 60_000);
    await Promise.all([a.close(), b.close()]);
  });
});
