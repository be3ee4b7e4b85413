/**
 * Sends requests through the transport with the retry policy and the rate limiter: one request with
 * `send`, a batch with `sendAll` (URL Fetch's fetchAll), where only the members that failed are sent
 * again. A batch fails as a whole on its first final error, since a report with a missing page is of no
 * use. Every attempt reserves its rate slots before it is sent and settles them once its answers are
 * back (rate-limiter.ts): the same path for formulas, Run to sheet and scheduled runs. Every HTTP
 * request made is counted, so tests and the sidebar can say what a report cost.
 */
import { ConnectionError, errorFromResponse, RateLimitError, SlowServiceError, type EngageError } from './errors';
import { announcedWaitMs } from './errors';
import { TransportError, type Clock, type HttpRequest, type HttpResponse, type HttpTransport, type RandomSource, type Sleeper } from './ports';
import type { RateLimiter, RateReservation, RateRule, RateSettlement } from './rate-limiter';
import { decideRetry, type AttemptOutcome, type RetryPolicy } from './retry-policy';

export interface SendOptions {
  /** For messages, for example "GET /reports/main". */
  operation: string;
  /** Epoch ms by which every attempt and wait must be over. */
  deadlineAtMs: number;
  /** False for login: never retried automatically. */
  retry: boolean;
  /** Rate budget each attempt spends; `reservation` when the caller already reserved the first attempt's slots. */
  rate?: { rule: RateRule; scope: string; reservation?: RateReservation };
}

export interface RequestSenderDeps {
  transport: HttpTransport;
  clock: Clock;
  sleeper: Sleeper;
  random: RandomSource;
  policy: RetryPolicy;
  limiter?: RateLimiter;
}

export class RequestSender {
  /** HTTP requests handed to the transport so far (each batch member counts). */
  requestsSent = 0;
  /**
   * The longest a request or batch of this sender took, by the injected clock: what the next one is
   * expected to take. No request or retry starts when it would not be back before the deadline,
   * because a transport call cannot be cut short (URL Fetch has no timeout option) and Apps Script
   * kills an execution that outlives its limit without a word about why. The first request has
   * nothing to be judged by and is always sent.
   */
  slowestRequestMs = 0;

  constructor(private readonly deps: RequestSenderDeps) {}

  /** One request; returns a 2xx/3xx answer or throws an EngageError. */
  send(request: HttpRequest, options: SendOptions): HttpResponse {
    return this.run([request], options, false)[0]!;
  }

  /** Several requests in parallel; returns answers in request order or throws the first final error. */
  sendAll(requests: HttpRequest[], options: SendOptions): HttpResponse[] {
    if (requests.length === 0) return [];
    return this.run(requests, options, true);
  }

  private run(requests: HttpRequest[], options: SendOptions, batch: boolean): HttpResponse[] {
    const { transport, clock, sleeper, random, policy, limiter } = this.deps;
    const results: HttpResponse[] = new Array(requests.length);
    let pending = requests.map((_, i) => i);
    for (let attempt = 1; ; attempt++) {
      const { rate } = options;
      const reservation = !rate || !limiter ? undefined
        : attempt === 1 && rate.reservation ? rate.reservation
        : limiter.acquire(rate.rule, rate.scope, pending.length, options.deadlineAtMs);
      const startedAtMs = clock.now();
      if (this.slowestRequestMs > 0 && startedAtMs + this.slowestRequestMs > options.deadlineAtMs) {
        if (reservation) limiter!.release(reservation);
        throw new SlowServiceError(this.slowestRequestMs, options.deadlineAtMs - startedAtMs, options.operation);
      }
      const outcomes = this.attempt(transport, pending.map((i) => requests[i]!), batch);
      const now = clock.now();
      this.slowestRequestMs = Math.max(this.slowestRequestMs, now - startedAtMs);
      if (reservation) limiter!.settle(reservation, settlementOf(outcomes, now, policy.maxAnnouncedWaitMs));
      const retryLater: number[] = [];
      let waitMs = 0;
      let failure: EngageError | undefined;
      for (let k = 0; k < pending.length; k++) {
        const index = pending[k]!;
        const outcome = outcomes[k]!;
        const judged: AttemptOutcome = outcome instanceof TransportError
          ? { kind: 'connection-failure' }
          : { kind: 'response', status: outcome.status, headers: outcome.headers };
        const decision = decideRetry(judged, { attempt, nowMs: now, deadlineAtMs: options.deadlineAtMs, random }, policy);
        if (!decision.retry && decision.reason === 'success') {
          results[index] = outcome as HttpResponse;
          continue;
        }
        // A retry is worth its wait only when the answer can also arrive before the deadline.
        const retryFits = decision.retry && now + decision.waitMs + this.slowestRequestMs <= options.deadlineAtMs;
        if (decision.retry && options.retry && retryFits) {
          retryLater.push(index);
          waitMs = Math.max(waitMs, decision.waitMs);
          continue;
        }
        const retryAtMs = decision.retry ? now + decision.waitMs : decision.reason === 'deadline' ? decision.retryAtMs : undefined;
        failure ??= this.finalError(outcome, options, now, retryAtMs);
      }
      if (failure) throw failure;
      if (retryLater.length === 0) return results;
      sleeper.sleep(waitMs);
      pending = retryLater;
    }
  }

  /** Answers in order; a TransportError stands for a member that got no answer. */
  private attempt(transport: HttpTransport, requests: HttpRequest[], batch: boolean): Array<HttpResponse | TransportError> {
    this.requestsSent += requests.length;
    try {
      if (!batch) return [transport.fetch(requests[0]!)];
      const answers = transport.fetchAll(requests);
      if (answers.length !== requests.length) throw new TransportError(`fetchAll answered ${answers.length} of ${requests.length} requests`);
      return answers;
    } catch (e) {
      // URL Fetch's fetchAll throws for the whole batch when one member gets no answer.
      const failure = e instanceof TransportError ? e : new TransportError(e instanceof Error ? e.message : String(e), { cause: e });
      return requests.map(() => failure);
    }
  }

  private finalError(outcome: HttpResponse | TransportError, options: SendOptions, nowMs: number, retryAtMs?: number): EngageError {
    if (outcome instanceof TransportError) return new ConnectionError(outcome.message, options.operation);
    const error = errorFromResponse(outcome, options.operation, nowMs);
    if (error instanceof RateLimitError && error.retryAtMs === undefined && retryAtMs !== undefined) {
      return new RateLimitError({
        status: 429, retryAtMs, nowMs,
        ...(error.moreInfo !== undefined ? { moreInfo: error.moreInfo } : {}),
        ...(error.errorMessage !== undefined ? { errorMessage: error.errorMessage } : {}),
        ...(error.traceId !== undefined ? { traceId: error.traceId } : {}),
        operation: options.operation,
      });
    }
    return error;
  }
}

/**
 * What the service counted of one attempt: every member but those refused with 429, as of when the
 * answers (or the failure) came back, and the longest wait a 429 announced, for every execution to honour.
 */
function settlementOf(outcomes: Array<HttpResponse | TransportError>, nowMs: number, maxAnnouncedWaitMs: number): RateSettlement {
  let counted = 0;
  let blockUntilMs: number | undefined;
  for (const outcome of outcomes) {
    if (outcome instanceof TransportError || outcome.status !== 429) {
      counted++;
      continue;
    }
    const announced = announcedWaitMs(outcome.headers);
    if (announced !== undefined) blockUntilMs = Math.max(blockUntilMs ?? 0, nowMs + Math.min(announced, maxAnnouncedWaitMs));
  }
  return blockUntilMs === undefined ? { counted, atMs: nowMs } : { counted, atMs: nowMs, blockUntilMs };
}
