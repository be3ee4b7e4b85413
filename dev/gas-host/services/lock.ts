/**
 * LockService: the document's, the user's and the script's lock. A wait never outlasts the
 * execution; holding, waiting and re-entry are the host state's (state/locks.ts).
 */
import type { StoreScope } from '../protocol/protocol';
import type { FacadeKit } from './kit';

const LOCK_TIMEOUT_MESSAGE = 'Lock timeout: another process was holding the lock for too long.';

export function lockService(kit: FacadeKit) {
  const { ops } = kit;
  const waitMs = (ms: number) => Math.max(0, Number(ms) || 0);
  const lock = (scope: StoreScope) =>
    kit.api('Lock', {
      tryLock: (ms: number) => ops.lockAcquire(scope, waitMs(ms)) === true,
      waitLock: (ms: number) => {
        if (ops.lockAcquire(scope, waitMs(ms)) !== true) {
          kit.tick();
          throw kit.realmError('Exception', LOCK_TIMEOUT_MESSAGE);
        }
      },
      releaseLock: () => {
        ops.lockRelease(scope);
      },
      hasLock: () => ops.lockHas(scope) === true,
    });
  return kit.api('LockService', {
    // Outside a document (a trigger's run in the strict reading): "null is returned".
    getDocumentLock: () => (kit.guard('lock', 'LockService.getDocumentLock'), kit.request.withoutDocument ? null : lock('document')),
    getUserLock: () => (kit.guard('lock', 'LockService.getUserLock'), lock('user')),
    getScriptLock: () => (kit.guard('lock', 'LockService.getScriptLock'), lock('script')),
  });
}
