/**
 * Entry of the synckit worker behind createSyncFetch(): it receives a batch of plain-object requests,
 * runs them in parallel with performFetchAll (each under its own timeout) and answers with the
 * outcomes in request order while the calling thread waits on Atomics.
 */
import { runAsWorker } from 'synckit';
import { performFetchAll, type SyncFetchRequest } from './fetch-core';

runAsWorker((requests: SyncFetchRequest[]) => performFetchAll(requests));
