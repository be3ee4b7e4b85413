/**
 * LockService's locks by scope (`script`, `user:<email>`, `document:<id>`), held by executions and
 * kept in the deployment so every document of the add-on contends for the same script and user locks.
 * A lock is re-entrant within an execution and released when the execution ends. Only an execution
 * in a worker can really wait: the main thread then queues it and answers when the holder lets go.
 */
import { blockRealMs, type HostClock } from '../../shared/clock';
import type { ExecutionInfo, LockOps, ServedOps, StoreScope } from '../protocol/protocol';
import { storeName, type DocumentIdentity } from './document';

export interface LockWaiter {
  executionId: number;
  grant: () => void;
}

/** Lock holders and waiters by scope (`script`, `user:<email>`, `document:<id>`), as the deployment holds them. */
export interface SharedLocks {
  readonly lockHolders: Map<string, number>;
  readonly lockWaiters: Map<string, LockWaiter[]>;
}

export class LockTable {
  constructor(
    private readonly deployment: SharedLocks,
    private readonly document: DocumentIdentity,
    private readonly clock: HostClock,
  ) {}

  /** Test hook: who holds a lock of that kind now ("document", "script" or "user:<email>"). */
  holder(scope: string): number | undefined {
    const key = scope === 'document' ? `document:${this.document.documentId}` : scope;
    return this.deployment.lockHolders.get(key);
  }

  /** Releases whatever the execution still holds, as Apps Script does when an execution ends. */
  releaseAll(executionId: number): void {
    for (const [scope, holder] of [...this.deployment.lockHolders]) if (holder === executionId) this.release(scope);
  }

  /** Locks are per user, not per store user: a custom function takes its own user's lock. */
  private scopeOf(execution: ExecutionInfo, scope: StoreScope): string {
    return storeName(this.document, scope, execution.user);
  }

  private release(scope: string): void {
    this.deployment.lockHolders.delete(scope);
    const next = this.deployment.lockWaiters.get(scope)?.shift();
    if (next) {
      this.deployment.lockHolders.set(scope, next.executionId);
      next.grant();
    }
  }

  private acquire(execution: ExecutionInfo, kind: StoreScope, timeoutMs: number): boolean | Promise<boolean> {
    const scope = this.scopeOf(execution, kind);
    const holder = this.deployment.lockHolders.get(scope);
    if (holder === undefined || holder === execution.id) {
      this.deployment.lockHolders.set(scope, execution.id);
      return true;
    }
    // Waiting counts against the execution: never wait past its deadline.
    const budgetMs = Math.max(0, Math.min(timeoutMs, execution.deadline - this.clock.now()));
    if (!execution.async) {
      // Nothing can release a lock while the main thread itself is blocked: wait out the time, then fail.
      blockRealMs(budgetMs);
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const queue = this.deployment.lockWaiters.get(scope) ?? [];
      this.deployment.lockWaiters.set(scope, queue);
      const waiter: LockWaiter = {
        executionId: execution.id,
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        resolve(false);
      }, budgetMs);
      queue.push(waiter);
    });
  }

  readonly ops: ServedOps<keyof LockOps> = {
    lockAcquire: (execution, scope, timeoutMs) => this.acquire(execution, scope, timeoutMs),
    lockRelease: (execution, scope) => {
      const key = this.scopeOf(execution, scope);
      if (this.deployment.lockHolders.get(key) === execution.id) this.release(key);
    },
    lockHas: (execution, scope) => this.deployment.lockHolders.get(this.scopeOf(execution, scope)) === execution.id,
  };
}
