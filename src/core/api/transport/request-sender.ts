/**
 * Sends requests through the transport with the retry policy and the rate limiter: one request with
 * `send`, a batch with `sendAll` (URL Fetch's fetchAll), where only the members that failed are sent
 * again. A batch fails as a whole on its first final error, since a report with a missing page is of no
 * use. Every attempt reserves its rate slots before it is sent and settles them once its answers are
 * back (rate-limiter.ts): the same path for formulas, Run to sheet and scheduled runs. Every HTTP
 * request made is counted, so tests and the sidebar can say what a report cost, and each attempt is
 * counted against the user's daily URL Fetch quota before it is made.
 *
 * A request that got no answer is tried again only for a lost connection or a timeout: a refusal by
 * the whitelist, the spent daily quota, an invalid address and a DNS failure are final at once.
 */
import {
  AddressNotAllowedError,
  BadAddressError,
  ConnectionError,
  FetchQuotaError,
  RateLimitError,
  SlowServiceError,
  EngageError,
  TransportError,
} from '../../errors';
import type { Clock, HttpRequest, HttpResponse, HttpTransport, RandomSource, Sleeper } from '../../ports';
import type { RateLimiter, RateReservation, RateRule, RateSettlement } from './rate-limiter';
import { decideRetry, type AttemptOutcome, type RetryPolicy } from './retry-policy';
import { errorFromResponse, announcedWaitMs } from '../responses/http-errors';

export interface SendOptions {
  /** For messages, for example "GET /reports/main". */
  operation: string;
  /** Epoch ms by which every attempt and wait must be over. */
  deadlineAtMs: number;
  /** False for login: never retried automatically. */
  retry: boolean;
  /** Rate budget each attempt spends; `reservation` when the caller already reserved the first attempt's slots. */
  rate?: { rule: RateRule; scope: string; reservation?: RateReservation };
  /**
   * Per-request budgets, for a batch of several scopes (pages of several publishers): request i spends
   * a slot of `scopes[i]`, each attempt reserving every scope's slots for its own members;
   * `reservations` are the first attempt's, one per scope, when the caller already took them.
   */
  rates?: { rule: RateRule; scopes: readonly string[]; reservations?: readonly RateReservation[] };
  /** What each request is about ("Publisher 'X' (id)"): the subject of the error a request fails with. */
  subjects?: readonly (string | undefined)[];
}

/** The members of one attempt that spend one scope's budget, and the slots they hold. */
interface ScopeGroup {
  reservation: RateReservation;
  /** Positions in the attempt's pending list. */
  positions: number[];
}

/** Counts URL fetches against the user's daily quota (FetchQuota in daily-quota.ts). */
export interface FetchCounter {
  /** Counts `calls` about to be made; throws when the quota is known to be spent. */
  spend(calls: number): void;
  /** Apps Script refused a fetch for the daily quota: remembers it and returns the error to show. */
  spent(): EngageError;
}

export interface RequestSenderDeps {
  transport: HttpTransport;
  clock: Clock;
  sleeper: Sleeper;
  random: RandomSource;
  policy: RetryPolicy;
  limiter?: RateLimiter;
  counter?: FetchCounter;
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
    const releaseAll = (groups: ScopeGroup[]) => {
      for (const g of groups) limiter!.release(g.reservation);
    };
    for (let attempt = 1; ; attempt++) {
      const groups = this.reserve(pending, options, attempt);
      const startedAtMs = clock.now();
      if (this.slowestRequestMs > 0 && startedAtMs + this.slowestRequestMs > options.deadlineAtMs) {
        releaseAll(groups);
        throw new SlowServiceError(this.slowestRequestMs, options.deadlineAtMs - startedAtMs, options.operation);
      }
      let outcomes: Array<HttpResponse | TransportError>;
      try {
        outcomes = this.attempt(
          transport,
          pending.map((i) => requests[i]!),
          batch,
        );
      } catch (e) {
        // The daily quota is known to be spent: nothing was sent, so the slots go back.
        releaseAll(groups);
        throw e;
      }
      const now = clock.now();
      this.slowestRequestMs = Math.max(this.slowestRequestMs, now - startedAtMs);
      for (const g of groups) {
        limiter!.settle(
          g.reservation,
          settlementOf(
            g.positions.map((k) => outcomes[k]!),
            now,
            policy.maxAnnouncedWaitMs,
          ),
        );
      }
      const retryLater: number[] = [];
      let waitMs = 0;
      let failure: EngageError | undefined;
      const fail = (error: EngageError, index: number) => {
        failure ??= withSubject(error, options.subjects?.[index]);
      };
      for (let k = 0; k < pending.length; k++) {
        const index = pending[k]!;
        const outcome = outcomes[k]!;
        if (outcome instanceof TransportError && outcome.kind !== 'connection') {
          fail(transportFailure(outcome, requests[index]!.url, options.operation, this.deps.counter), index);
          continue;
        }
        const judged: AttemptOutcome =
          outcome instanceof TransportError
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
        fail(this.finalError(outcome, options, now, retryAtMs), index);
      }
      if (failure) throw failure;
      if (retryLater.length === 0) return results;
      sleeper.sleep(waitMs);
      pending = retryLater;
    }
  }

  /**
   * Takes the rate slots of one attempt: per scope, the caller's reservation on the first attempt, else
   * as many slots as the scope's pending members (waiting when that fits the deadline). When one scope
   * cannot have its slots, those already taken go back and the error names what the request was about.
   */
  private reserve(pending: readonly number[], options: SendOptions, attempt: number): ScopeGroup[] {
    const { limiter } = this.deps;
    const { rate, rates } = options;
    if (!limiter || (!rate && !rates)) return [];
    const rule = (rate ?? rates)!.rule;
    const byScope = new Map<string, number[]>();
    pending.forEach((index, position) => {
      const scope = rate ? rate.scope : rates!.scopes[index]!;
      const positions = byScope.get(scope) ?? [];
      positions.push(position);
      byScope.set(scope, positions);
    });
    const given = (scope: string) =>
      attempt !== 1 ? undefined : rate ? rate.reservation : rates!.reservations?.find((r) => r.scope === scope);
    const groups: ScopeGroup[] = [];
    for (const [scope, positions] of byScope) {
      const reservation = given(scope);
      if (reservation) {
        groups.push({ reservation, positions });
        continue;
      }
      try {
        groups.push({ reservation: limiter.acquire(rule, scope, positions.length, options.deadlineAtMs), positions });
      } catch (e) {
        for (const g of groups) limiter.release(g.reservation);
        throw e instanceof EngageError ? withSubject(e, options.subjects?.[pending[positions[0]!]!]) : e;
      }
    }
    return groups;
  }

  /** Answers in order; a TransportError stands for a member that got no answer. */
  private attempt(transport: HttpTransport, requests: HttpRequest[], batch: boolean): Array<HttpResponse | TransportError> {
    this.deps.counter?.spend(requests.length);
    this.requestsSent += requests.length;
    try {
      if (!batch) return [transport.fetch(requests[0]!)];
      const answers = transport.fetchAll(requests);
      if (answers.length !== requests.length)
        throw new TransportError(`fetchAll answered ${answers.length} of ${requests.length} requests`);
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
        status: 429,
        retryAtMs,
        nowMs,
        ...(error.moreInfo !== undefined ? { moreInfo: error.moreInfo } : {}),
        ...(error.errorMessage !== undefined ? { errorMessage: error.errorMessage } : {}),
        ...(error.traceId !== undefined ? { traceId: error.traceId } : {}),
        operation: options.operation,
      });
    }
    return error;
  }
}

/** The error, saying what it was about when that is known and it says nothing of it yet. */
function withSubject(error: EngageError, subject: string | undefined): EngageError {
  if (subject !== undefined && error.subject === undefined) error.subject = subject;
  return error;
}

/** The error a user is shown for a request that got no answer, by why it got none. */
export function transportFailure(error: TransportError, url: string, operation: string, counter?: FetchCounter): EngageError {
  switch (error.kind) {
    case 'not-allowed':
      return new AddressNotAllowedError(url, error.allowedPrefixes, operation);
    case 'daily-quota':
      return counter ? counter.spent() : new FetchQuotaError({});
    case 'dns':
      return new BadAddressError('dns', url, operation);
    case 'invalid-address':
      return new BadAddressError('invalid', url, operation);
    case 'connection':
      return new ConnectionError(error.message, operation);
  }
}

/**
 * What the service counted of one attempt: every member but those refused with 429 or refused before
 * they left, as of when the answers (or the failure) came back, and the longest wait a 429 announced,
 * for every execution to honour.
 */
function settlementOf(outcomes: Array<HttpResponse | TransportError>, nowMs: number, maxAnnouncedWaitMs: number): RateSettlement {
  let counted = 0;
  let blockUntilMs: number | undefined;
  for (const outcome of outcomes) {
    // A request refused before it left (whitelist, quota, address, DNS) never reached the service.
    if (outcome instanceof TransportError) {
      if (outcome.kind === 'connection') counted++;
      continue;
    }
    if (outcome.status !== 429) {
      counted++;
      continue;
    }
    const announced = announcedWaitMs(outcome.headers);
    if (announced !== undefined) blockUntilMs = Math.max(blockUntilMs ?? 0, nowMs + Math.min(announced, maxAnnouncedWaitMs));
  }
  return blockUntilMs === undefined ? { counted, atMs: nowMs } : { counted, atMs: nowMs, blockUntilMs };
}
