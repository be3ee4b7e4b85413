/**
 * UrlFetchApp's side of the host: every fetch or fetchAll call is checked against the manifest's
 * whitelist and the user's daily quota before anything is sent, then sent (synchronously for an
 * execution on the calling thread, asynchronously for one in a worker), logged, and on a virtual
 * clock stamped with its send time and followed to the answer time a server announces (clock.ts).
 */
import { VIRTUAL_ANSWER_TIME_HEADER, VIRTUAL_SEND_TIME_HEADER, type HostClock } from '../../shared/clock';
import { performFetchAll, type SyncFetchFailure, type SyncFetchOutcome, type SyncFetchRequest } from '../fetch/fetch-core';
import type { ExecutionInfo, ServedOps, UrlFetchOps } from '../protocol/protocol';
import { whitelistAllows, whitelistRefusal } from '../fetch/url-whitelist';
import { storeUser, type Counter, type DocumentIdentity } from './document';
import { URL_FETCH_QUOTA_MESSAGE, type DailyQuotas } from './quotas';

export interface FetchLogEntry {
  executionId: number;
  host: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  payload?: string;
  status?: number;
  error?: string;
  startedAt: number;
  elapsedMs: number;
}

export interface UrlFetchSettings {
  /** Synchronous batch fetch used by executions on the calling thread. */
  syncFetchAll: (requests: SyncFetchRequest[]) => SyncFetchOutcome[];
  /** The manifest's urlFetchWhitelist; undefined: none, every address may be fetched. */
  urlFetchWhitelist?: string[];
}

export class UrlFetchState {
  /** Every request a script made, as it sent it, with its answer's status or its error. */
  readonly log: FetchLogEntry[] = [];

  constructor(
    private readonly settings: UrlFetchSettings,
    private readonly document: DocumentIdentity,
    private readonly quotas: DailyQuotas,
    private readonly clock: HostClock,
    private readonly count: Counter,
  ) {}

  /**
   * A fetch or fetchAll call. Before anything is sent the call is refused as a whole when an address
   * is outside the manifest's whitelist, or when its requests would pass the user's daily quota of
   * URL Fetch calls (each request counts one); a refused call is logged with its error and counts
   * nothing. A request that is sent counts, whatever its answer.
   */
  private fetch(
    execution: ExecutionInfo,
    requests: SyncFetchRequest[],
    timeoutMs: number,
  ): SyncFetchOutcome[] | Promise<SyncFetchOutcome[]> {
    const startedAt = this.clock.now();
    const realStart = Date.now();
    // On a virtual clock every request says when it was sent, for a server that models the network (clock.ts).
    const sentHeader = this.clock.virtual ? { [VIRTUAL_SEND_TIME_HEADER]: String(startedAt) } : undefined;
    const timed = requests.map((r) => ({ ...r, timeoutMs, ...(sentHeader ? { headers: { ...r.headers, ...sentHeader } } : {}) }));
    const refusal = this.refusal(execution, requests);
    if (!refusal) this.count('http.requests', requests.length);
    const record = (outcomes: SyncFetchOutcome[]) => {
      if (this.clock.virtual) this.followAnswerTimes(outcomes);
      outcomes.forEach((outcome, i) => {
        const request = requests[i]!;
        let host = '';
        try {
          host = new URL(request.url).host;
        } catch {
          host = '';
        }
        this.log.push({
          executionId: execution.id,
          host,
          url: request.url,
          method: (request.method ?? 'GET').toUpperCase(),
          headers: { ...(request.headers ?? {}) },
          payload: request.body,
          status: outcome.ok ? outcome.response.status : undefined,
          error: outcome.ok ? undefined : outcome.error.message,
          startedAt,
          elapsedMs: Date.now() - realStart,
        });
      });
      return outcomes;
    };
    if (refusal) return record(requests.map((r) => ({ ok: false, error: { ...refusal, url: r.url } })));
    if (execution.async) return performFetchAll(timed).then(record);
    return record(this.settings.syncFetchAll(timed));
  }

  private refusal(execution: ExecutionInfo, requests: SyncFetchRequest[]): Omit<SyncFetchFailure, 'url'> | undefined {
    const outside = requests.find((r) => !whitelistAllows(r.url, this.settings.urlFetchWhitelist));
    if (outside) return { code: 'NOT_ALLOWED', message: whitelistRefusal(outside.url) };
    const user = storeUser(this.document, execution);
    if (requests.length > this.quotas.left(user, 'urlFetch')) return { code: 'QUOTA', message: URL_FETCH_QUOTA_MESSAGE };
    this.quotas.spendDaily(user, 'urlFetch', requests.length);
    return undefined;
  }

  /**
   * Moves the virtual clock to when the last answer reached the client, as a server modelling the
   * network said (parallel requests overlap: the latest answer, not the sum), and takes that header
   * out of every response before the script sees it.
   */
  private followAnswerTimes(outcomes: SyncFetchOutcome[]): void {
    let latestMs = -Infinity;
    for (const outcome of outcomes) {
      if (!outcome.ok) continue;
      const { response } = outcome;
      const answerAtMs = Number(response.headers[VIRTUAL_ANSWER_TIME_HEADER]);
      if (Number.isFinite(answerAtMs)) latestMs = Math.max(latestMs, answerAtMs);
      if (VIRTUAL_ANSWER_TIME_HEADER in response.headers) {
        delete response.headers[VIRTUAL_ANSWER_TIME_HEADER];
        response.headerList = response.headerList.filter(([name]) => name !== VIRTUAL_ANSWER_TIME_HEADER);
      }
    }
    if (latestMs > this.clock.now()) this.clock.advanceTo(latestMs);
  }

  readonly ops: ServedOps<keyof UrlFetchOps> = {
    urlFetch: (execution, requests, timeoutMs) => this.fetch(execution, requests, timeoutMs),
  };
}
