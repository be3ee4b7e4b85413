/**
 * A private Engage emulator for one test file. `newEmulator()` asks the process that jest's global
 * setup started (ENGAGE_EMULATOR_ADMIN_URL) for a fresh isolated instance on its own port, so clock
 * moves, exhausted rate limits, faults and logs never leak between files. The handle wraps the
 * instance's /__admin API in typed helpers and offers `login()` so tests need not build Basic
 * headers. Close it in afterAll. Uses Node's global fetch (Node 20).
 *
 *   const emulator = await newEmulator();
 *   const token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
 *   await fetch(`${emulator.baseUrl}/publishers`, { headers: { 'SVC-TOKEN-V1': token } });
 *   await emulator.close();
 */
import { type EmulatorProcess, spawnEmulatorProcess } from '../../dev/emulator/spawn';
import type { FaultRule, ImpressionRecord, LatencyRange, RequestLogEntry, ServedRecord } from '../../dev/emulator/model/state';
import type { WebhookCall } from '../../dev/emulator/model/webhook-log';

export type { FaultRule, ImpressionRecord, LatencyRange, RequestLogEntry, ServedRecord, WebhookCall };
export {
  DEMO_USER,
  ANALYST_USER,
  DEMO_API_KEY,
  BIG_PUBLISHER_ID,
  MEDIUM_PUBLISHER_ID,
  HOSTILE_PUBLISHER_ID,
  ANALYST_PUBLISHER_ID,
  TYPED_NAMES_USER,
  TYPED_NAMES_PUBLISHER_ID,
  TYPED_NAMES_SECOND_PUBLISHER_ID,
  TYPED_LOOKING_NAMES,
  WAREHOUSE_USER,
  WAREHOUSE_PUBLISHER_ID,
} from '../../dev/emulator/model/seed';

export const TOKEN_HEADER = 'SVC-TOKEN-V1';

export interface EmulatorHandle {
  /** Reporting base URL, ending in /engage/v2. */
  baseUrl: string;
  /** Full in-chat recommendations URL. */
  recsUrl: string;
  /** This instance's admin base URL, ending in /__admin. */
  adminUrl: string;
  port: number;
  /** Clears tokens, logs, limits, faults and impressions; the clock goes back to real time. */
  reset(): Promise<void>;
  /**
   * Sets the emulator clock (it keeps running from there, unless `frozen`: then only advanceClock moves
   * it; `followClient`: frozen, and requests are timed by the virtual send time their client gives).
   */
  setClock(iso: string, options?: { frozen?: boolean; followClient?: boolean }): Promise<void>;
  /** Models the network: each request's arrival and return latency drawn from these ranges (return: as arrival). */
  setLatency(latency: { arrival: LatencyRange; return?: LatencyRange; seed?: number }): Promise<void>;
  advanceClock(ms: number): Promise<void>;
  /** The emulator clock as an ISO string. */
  now(): Promise<string>;
  /** Changes a user's password; all earlier tokens of that user are revoked. */
  changePassword(username: string, password: string): Promise<void>;
  /** Changes a user's email (the login name); all earlier tokens of that user are revoked. */
  changeEmail(username: string, email: string): Promise<void>;
  revoke(username: string): Promise<void>;
  setFaults(rules: FaultRule[]): Promise<void>;
  clearFaults(): Promise<void>;
  /** The request log of API calls (admin calls are not logged), oldest first. */
  requests(): Promise<RequestLogEntry[]>;
  /** The logged report requests (every /reports/ path), oldest first. */
  reportRequests(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  /** Recorded pixel calls, oldest first. */
  impressions(): Promise<ImpressionRecord[]>;
  /**
   * Restates a past day (dev/emulator/README.md, "Admin API"): the general report gives the
   * publisher's revenue of that UTC day times `factor` from now on (compounded with earlier revisions);
   * with `widgetId`, only that widget's revenue of the day.
   */
  reviseRevenue(publisherId: string, day: string, factor: number, widgetId?: string): Promise<void>;
  /** Forgets every restatement. */
  clearRevisions(): Promise<void>;
  /** An address of the instance's webhook receiver (plain http on 127.0.0.1, which only a build for local servers accepts). */
  webhookUrl(name: string): string;
  /** Every POST the webhook receiver took, oldest first. */
  webhooks(): Promise<WebhookCall[]>;
  /** Forgets the calls and any answers set. */
  clearWebhooks(): Promise<void>;
  /** The next `times` webhook calls are answered with `status` (default: 200), with a Retry-After when given (seconds or an HTTP date). */
  answerWebhooks(status: number, times?: number, retryAfter?: number | string): Promise<void>;
  /** The least time between two posts one webhook path takes (default 1000 ms, Slack's pace; 0: none). */
  paceWebhooks(minIntervalMs: number): Promise<void>;
  /** Logs in through GET /login and returns the token (uses one of the user's 2 logins per hour). */
  login(username: string, password: string): Promise<string>;
  /** Stops this instance. */
  close(): Promise<void>;
}

async function call<T>(url: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Emulator admin ${method} ${url} failed with ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export function basicAuthorization(username: string, password: string): string {
  return `BASIC ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

let ownProcess: Promise<EmulatorProcess> | undefined;

/**
 * Serves this test file's emulator instances from a process of its own, not the one jest's global
 * setup started for every file: for a file whose pages keep an emulator busy for seconds at a time (a
 * year of over a million rows), so that the files running beside it do not wait behind those pages.
 * Call it at the top of the file; the process stops after the file's tests.
 */
export function useOwnEmulatorProcess(): void {
  ownProcess ??= spawnEmulatorProcess({ seed: 'tests' });
  afterAll(async () => {
    await (await ownProcess)?.stop();
  });
}

export async function newEmulator(): Promise<EmulatorHandle> {
  const globalAdminUrl = ownProcess ? (await ownProcess).adminUrl : process.env.ENGAGE_EMULATOR_ADMIN_URL;
  if (!globalAdminUrl) {
    throw new Error('ENGAGE_EMULATOR_ADMIN_URL is not set: run the tests through jest (its global setup starts the emulator)');
  }
  const created = await call<{ port: number; baseUrl: string; recsUrl: string; adminUrl: string }>(`${globalAdminUrl}/instances`, 'POST');
  const admin = created.adminUrl;
  const handle: EmulatorHandle = {
    ...created,
    reset: async () => void (await call(`${admin}/reset`, 'POST')),
    setClock: async (iso, options) => void (await call(`${admin}/clock`, 'POST', { now: iso, ...options })),
    setLatency: async (latency) => void (await call(`${admin}/latency`, 'POST', latency)),
    advanceClock: async (ms) => void (await call(`${admin}/clock`, 'POST', { advanceMs: ms })),
    now: async () => (await call<{ now: string }>(`${admin}/clock`, 'GET')).now,
    changePassword: async (username, password) =>
      void (await call(`${admin}/users/${encodeURIComponent(username)}/password`, 'POST', { password })),
    changeEmail: async (username, email) => void (await call(`${admin}/users/${encodeURIComponent(username)}/email`, 'POST', { email })),
    revoke: async (username) => void (await call(`${admin}/revoke`, 'POST', { username })),
    setFaults: async (rules) => void (await call(`${admin}/faults`, 'POST', { faults: rules })),
    clearFaults: async () => void (await call(`${admin}/faults`, 'DELETE')),
    requests: async () => (await call<{ requests: RequestLogEntry[] }>(`${admin}/requests`, 'GET')).requests,
    reportRequests: async () => (await handle.requests()).filter((r) => r.path.includes('/reports/')),
    clearRequests: async () => void (await call(`${admin}/requests`, 'DELETE')),
    impressions: async () => (await call<{ impressions: ImpressionRecord[] }>(`${admin}/impressions`, 'GET')).impressions,
    reviseRevenue: async (publisherId, day, factor, widgetId) =>
      void (await call(`${admin}/revisions`, 'POST', { publisherId, day, revenueFactor: factor, ...(widgetId ? { widgetId } : {}) })),
    clearRevisions: async () => void (await call(`${admin}/revisions`, 'DELETE')),
    webhookUrl: (name) => `${created.baseUrl.replace(/\/engage\/v2$/, '')}/webhooks/${name}`,
    webhooks: async () => (await call<{ calls: WebhookCall[] }>(`${admin}/webhooks`, 'GET')).calls,
    clearWebhooks: async () => void (await call(`${admin}/webhooks`, 'DELETE')),
    answerWebhooks: async (status, times, retryAfter) =>
      void (await call(`${admin}/webhooks/answers`, 'POST', {
        status,
        ...(times ? { times } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
      })),
    paceWebhooks: async (minIntervalMs) => void (await call(`${admin}/webhooks/pace`, 'POST', { minIntervalMs })),
    login: async (username, password) => {
      const response = await fetch(`${created.baseUrl}/login`, { headers: { Authorization: basicAuthorization(username, password) } });
      const body = (await response.json()) as Record<string, string>;
      const token = body[TOKEN_HEADER];
      if (!response.ok || !token) throw new Error(`login as ${username} failed with ${response.status}: ${JSON.stringify(body)}`);
      return token;
    },
    close: async () => void (await call(`${globalAdminUrl}/instances/${created.port}`, 'DELETE')),
  };
  return handle;
}
