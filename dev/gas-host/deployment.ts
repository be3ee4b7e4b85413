/**
 * A published add-on is ONE script for all its users in all their documents. A ScriptDeployment holds
 * what that script shares across documents: its clock, the script's properties, cache and lock, each
 * user's properties, cache and lock (per user per script, so the same in every document), the
 * triggers (20 per user per script), each user's daily quotas, each user's executions running at once
 * (30 per user), what each user granted (their OAuth scopes), the ids of executions, which locks are held by, and its documents as files (who may
 * open each, by ID, from an execution of another). Hosts built on
 * one deployment (`createGasHost({ deployment, documentId })`) are documents of that one add-on, each
 * with its own spreadsheet, document properties, document cache and document lock; a host built
 * without one has a deployment of its own.
 */
import { createClock, withAdvanceHook, type HostClock } from '../shared/clock';
import type { TriggerRecord } from './protocol/protocol';
import type { CachesByName } from './state/cache';
import type { ConsentGrants } from './state/consent';
import type { DocumentFile } from './state/spreadsheets/documents';
import { createExecutionTally, type ExecutionTally } from './state/executions';
import type { SharedLocks } from './state/locks';
import type { SharedPropertyStores } from './state/properties';
import type { QuotaWindowsByUser } from './state/quotas';

/**
 * The state/ files define the shape of what they keep here (SharedPropertyStores, CachesByName,
 * SharedLocks, QuotaWindowsByUser), so that they never import this file that imports them.
 */
export interface ScriptDeployment extends SharedPropertyStores, SharedLocks, ConsentGrants {
  readonly clock: HostClock;
  /** Every cache by name: `script`, `user:<email>`, `document:<id>`. */
  readonly caches: CachesByName;
  /** Every trigger of the script, of every user in every document. */
  readonly triggers: TriggerRecord[];
  /** Every document of the add-on by ID, as a file (its owner, editors, trash), which executions of others open by ID. */
  readonly documents: Map<string, DocumentFile>;
  /** Each user's daily quota windows (URL Fetch calls, trigger runtime): per user, in every document. */
  readonly dailyQuotas: QuotaWindowsByUser;
  /** Each user's executions running at once, in every document ("Simultaneous executions per user: 30"). */
  readonly executionsAtOnce: ExecutionTally;
  nextExecutionId(): number;
  nextTriggerId(): number;
}

export interface DeploymentOptions {
  /**
   * 'real' (default), 'virtual' (time moves only by Utilities.sleep, advanceTime and announced answer
   * times) or 'shifted' (real time that advanceTime moves forward: the playground's clock).
   */
  clock?: 'real' | 'virtual' | 'shifted';
  /** Start of virtual time; default now. */
  startTime?: Date | number;
  /** Virtual or shifted clock: hears every move of time made on the main thread (see GasHostOptions.onTimeAdvance). */
  onTimeAdvance?: (ms: number) => void;
}

export function createDeployment(options: DeploymentOptions = {}): ScriptDeployment {
  let executions = 0;
  let triggers = 0;
  return {
    clock: withAdvanceHook(
      createClock({ virtual: options.clock === 'virtual', shifted: options.clock === 'shifted', start: options.startTime }),
      options.onTimeAdvance,
    ),
    scriptProperties: new Map(),
    userProperties: new Map(),
    caches: new Map(),
    lockHolders: new Map(),
    lockWaiters: new Map(),
    triggers: [],
    documents: new Map(),
    dailyQuotas: new Map(),
    grants: new Map(),
    executionsAtOnce: createExecutionTally(),
    nextExecutionId: () => ++executions,
    nextTriggerId: () => ++triggers,
  };
}
