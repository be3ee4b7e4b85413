/**
 * A job's completion, load or copy: the moment BigQuery runs it. The job is first counted against its
 * destination table's daily quotas (quotas.ts; a job over them fails with reason quotaExceeded in its
 * status.errorResult, and is counted all the same, as failed jobs are), then against the table's rate
 * limit of 5 jobs in 10 seconds (rate.ts; past it, reason rateLimitExceeded), then an injected fault fails it,
 * then load-job.ts or copy-job.ts applies it, atomically. jobs.insert answers DONE through here when no
 * polls are set, jobs.get when the job's last PENDING/RUNNING poll has been shown.
 */
import { runCopy } from './copy-job';
import { BigQueryError } from './errors';
import { decoratorOf, type LoadConfig, type PartitionQuota, runLoad } from './load-job';
import { QUOTA_MESSAGES, tableKey } from './quotas';
import { RATE_LIMIT_MESSAGE } from './rate';
import type { BigQueryState, StoredJob } from './state';

/**
 * Completes a job, load or copy (copy-job.ts): counts it against its destination table's daily
 * quotas (quotas.ts: failed jobs count too), then applies it or records why it failed. Nothing is
 * changed unless every check passes.
 */
export function completeJob(state: BigQueryState, job: StoredJob): void {
  const nowMs = state.now();
  job.state = 'DONE';
  job.endTimeMs = nowMs;
  const isCopy = job.configuration.copy !== undefined;
  const config = (job.configuration.copy ?? job.configuration.load ?? {}) as LoadConfig;
  const ref = config.destinationTable ?? {};
  const key = tableKey(ref.projectId ?? '', ref.datasetId ?? '', decoratorOf(ref.tableId ?? '').base);
  const { quotas } = state;
  try {
    // Over either per-table count, the job fails; it is counted all the same, as failed jobs are.
    const overLoads = !isCopy && quotas.used(`load:${key}`, nowMs) >= quotas.limits.loadJobsPerTablePerDay;
    const overCopies = isCopy && quotas.used(`copy:${key}`, nowMs) >= quotas.limits.copyJobsPerDestinationTablePerDay;
    const overOperations = quotas.used(`ops:${key}`, nowMs) >= quotas.limits.tableOperationsPerTablePerDay;
    quotas.record(`${isCopy ? 'copy' : 'load'}:${key}`, nowMs);
    quotas.record(`ops:${key}`, nowMs);
    if (overLoads || overCopies || overOperations) {
      throw new BigQueryError('quotaExceeded', isCopy ? QUOTA_MESSAGES.tableCopies : QUOTA_MESSAGES.tableImports);
    }
    // The short-term limit: a job that writes the table past 5 in 10 s fails (and still counts, in both).
    if (!state.rates.admit(key, nowMs)) throw new BigQueryError('rateLimitExceeded', RATE_LIMIT_MESSAGE);
    if (job.failure) throw new BigQueryError(job.failure.reason as 'backendError', job.failure.message);
    const partitionQuota: PartitionQuota = (table, modified) => {
      if (table.timePartitioning?.field === undefined) return;
      if (quotas.used(`parts:${key}`, nowMs) + modified > quotas.limits.partitionModificationsPerTablePerDay) {
        throw new BigQueryError('quotaExceeded', QUOTA_MESSAGES.partitionModifications);
      }
      quotas.record(`parts:${key}`, nowMs, modified);
    };
    job.outputRows = isCopy ? runCopy(state, job, nowMs, partitionQuota) : runLoad(state, job, nowMs, partitionQuota);
  } catch (error) {
    if (!(error instanceof BigQueryError)) throw error;
    const proto = error.toProto();
    job.errorResult = proto;
    // The row errors already start with this summary; any other failure goes first in the list.
    if (job.errors?.[0]?.message !== proto.message) job.errors = [proto, ...(job.errors ?? [])];
  }
}
