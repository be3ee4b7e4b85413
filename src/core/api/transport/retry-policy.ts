/**
 * When to try a request again, as one small pure function. A 429 waits for the service's hint
 * (`rate-limit-msec-left` in ms, else Retry-After in s) when it is sane, capped; a 504 or a failed
 * connection backs off exponentially with jitter; 400, 401, 403, 404 and other answers are final. No
 * retry may end after the caller's deadline: a custom function has 30 s in all, and a wait that cannot
 * finish in time is better reported at once than slept through. Login is never retried (the caller
 * simply does not use this policy for it), because each attempt spends one of two logins an hour.
 */
import type { RandomSource } from '../../ports';
import { announcedWaitMs } from '../responses/http-errors';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubles each time. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest server-announced wait we honour as given; longer hints are capped to this. */
  maxAnnouncedWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxAnnouncedWaitMs: 65_000,
};

/** Statuses worth another attempt: rate limited and gateway timeout (the spec's transient ones). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 504]);

export type AttemptOutcome = { kind: 'response'; status: number; headers: Record<string, string> } | { kind: 'connection-failure' };

export interface AttemptContext {
  /** Attempts made so far, including the one whose outcome is judged (1 after the first). */
  attempt: number;
  nowMs: number;
  /** Epoch ms by which everything must be done. */
  deadlineAtMs: number;
  /** Jitter source in [0, 1). */
  random: RandomSource;
}

export type RetryDecision =
  | { retry: true; waitMs: number }
  | { retry: false; reason: 'success' | 'not-retryable' | 'attempts-exhausted' }
  /** Another attempt would be allowed but not before the deadline; `retryAtMs` says when. */
  | { retry: false; reason: 'deadline'; retryAtMs: number };

export function isRetryable(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'connection-failure' || RETRYABLE_STATUSES.has(outcome.status);
}

/** How long to wait before the next attempt, ignoring deadline and attempt count. */
export function retryDelayMs(
  outcome: AttemptOutcome,
  attempt: number,
  random: RandomSource,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  if (outcome.kind === 'response' && outcome.status === 429) {
    const announced = announcedWaitMs(outcome.headers);
    if (announced !== undefined) return Math.min(Math.ceil(announced), policy.maxAnnouncedWaitMs);
  }
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  // "Equal jitter": at least half the backoff, so parallel executions spread out without retrying at once.
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

export function decideRetry(outcome: AttemptOutcome, context: AttemptContext, policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryDecision {
  if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 400) return { retry: false, reason: 'success' };
  if (!isRetryable(outcome)) return { retry: false, reason: 'not-retryable' };
  if (context.attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts-exhausted' };
  const waitMs = retryDelayMs(outcome, context.attempt, context.random, policy);
  if (context.nowMs + waitMs > context.deadlineAtMs) return { retry: false, reason: 'deadline', retryAtMs: context.nowMs + waitMs };
  return { retry: true, waitMs };
}
