/**
 * The playground's controls over time and the world around the add-on, as a user meets them in Google
 * over hours and days: the clock (run the hourly trigger, advance an hour or a day: the host's shifted
 * clock and the emulator's move together, and the triggers that fall due run), the notices (the host's
 * mail record and the emulator's webhook receiver), the BigQuery stand-in's tables, Engage failing and
 * recovering (the emulator's fault hooks) and a restated day (its revisions hook). Everything here is
 * the playground's, never the add-on's: the add-on only sees time pass and the service answer.
 */
import { createSyncFetch, type GasHost, type TriggerRun } from '../gas-host';
import type { EmulatorProcess } from '../emulator/spawn';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The BigQuery stand-in's dataset the playground makes at the start, for a saved report's destination. */
export const PLAYGROUND_DATASET = { projectId: 'engage-playground', datasetId: 'engage_reports', location: 'EU' } as const;

/** The webhook address of the emulator's receiver that the playground suggests: a local build accepts it. */
export const webhookUrlOf = (emulator: Pick<EmulatorProcess, 'baseUrl'>): string =>
  `${new URL(emulator.baseUrl).origin}/webhooks/playground`;

async function admin<T>(emulator: EmulatorProcess, path: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.adminUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the emulator refused ${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/**
 * The host's onTimeAdvance: each move of the host's clock moves the emulator's by as much, before the
 * script goes on (a synchronous call: the host runs triggers on this thread).
 */
export function emulatorClockFollower(adminUrl: () => string | undefined): (ms: number) => void {
  const sync = createSyncFetch({ defaultTimeoutMs: 10_000 });
  return (ms) => {
    const url = adminUrl();
    if (!url) return;
    const answer = sync.fetch({
      url: `${url}/clock`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: ms }),
    });
    if (answer.status !== 200) throw new Error(`moving the emulator's clock failed: ${answer.status} ${answer.body}`);
  };
}

/** Makes the playground's BigQuery dataset in the emulator's stand-in. */
export async function prepareBigQuery(emulator: EmulatorProcess): Promise<void> {
  await admin(emulator, '/bigquery/datasets', 'POST', { ...PLAYGROUND_DATASET });
}

export interface ClockView {
  now: string;
  timeZone: string;
  /** The next time-driven trigger's due time, ISO, or null when none is installed. */
  nextTrigger: string | null;
  /** What engage's service does now: 'ok', or 'failing' while the playground makes it fail. */
  engage: 'ok' | 'failing';
  /** Trigger runs so far: the page reloads what it shows when it grows. */
  triggerRuns: number;
}

export interface ClockMove extends ClockView {
  runs: Array<Pick<TriggerRun, 'handlerFunction' | 'ok' | 'error'> & { at: string }>;
  /** Set when nothing could run: why. */
  note?: string;
}

/** The playground's side of time and of the service's health; one per playground. */
export class PlaygroundControls {
  private failing = false;
  private triggerRuns = 0;
  constructor(
    private readonly host: GasHost,
    private readonly emulator: EmulatorProcess,
    private readonly timeZone: string,
  ) {}

  view(): ClockView {
    const due = this.nextDue();
    return {
      now: this.host.now().toISOString(),
      timeZone: this.timeZone,
      nextTrigger: due === undefined ? null : new Date(due).toISOString(),
      engage: this.failing ? 'failing' : 'ok',
      triggerRuns: this.triggerRuns,
    };
  }

  private nextDue(): number | undefined {
    const times = this.host.triggers.filter((t) => t.eventType === 'CLOCK' && t.nextRunAt !== undefined).map((t) => t.nextRunAt!);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Moves time by `ms`, running every trigger that falls due on the way, each at its time. */
  advance(ms: number): ClockMove {
    const runs = this.runsOf(() => this.host.advanceTime(ms));
    return { ...this.view(), runs };
  }

  /** Moves time to the next time-driven trigger's run and lets it run ("Run the hourly trigger"). */
  runNextTrigger(): ClockMove {
    const due = this.nextDue();
    if (due === undefined)
      return {
        ...this.view(),
        runs: [],
        note: 'No trigger is installed yet: save a report with a schedule (every hour, day, week or month).',
      };
    const runs = this.runsOf(() => {
      const wait = due - this.host.now().getTime();
      return this.host.advanceTime(Math.max(1, wait));
    });
    return { ...this.view(), runs };
  }

  /** Runs the triggers already due by the running clock, as Google runs them unasked (`npm start` asks every 30 s). */
  runDueTriggers(): ClockMove['runs'] {
    const due = this.nextDue();
    return due !== undefined && due <= this.host.now().getTime() ? this.runsOf(() => this.host.advanceTime(0)) : [];
  }

  private runsOf(move: () => TriggerRun[]): ClockMove['runs'] {
    const runs = move();
    this.triggerRuns += runs.length;
    return runs.map((run) => ({
      handlerFunction: run.handlerFunction,
      ok: run.ok,
      ...(run.error ? { error: run.error } : {}),
      at: this.host.now().toISOString(),
    }));
  }

  /** Engage's reports fail (503, which the add-on does not try again) until `recover`. */
  async fail(): Promise<ClockView> {
    await admin(this.emulator, '/faults', 'POST', [{ match: '/engage/v2/reports', status: 503, times: 1_000_000 }]);
    this.failing = true;
    return this.view();
  }

  async recover(): Promise<ClockView> {
    await admin(this.emulator, '/faults', 'DELETE');
    this.failing = false;
    return this.view();
  }

  /** Restates a past day of a publisher: its revenue times `factor` from now on (the emulator's revisions). */
  async restate(publisherId: string, day: string, factor: number): Promise<{ revisions: unknown[] }> {
    return admin(this.emulator, '/revisions', 'POST', { publisherId, day, revenueFactor: factor });
  }

  /** The notices panel: the mails the add-on sent (the host's record), the webhook receiver's calls, the BigQuery tables. */
  async notices(): Promise<NoticesView> {
    const mails = this.host.mails.map((m) => ({
      to: String(m.to ?? ''),
      subject: String(m.subject ?? ''),
      body: String(m.body ?? ''),
    }));
    const { calls } = await admin<{ calls: Array<{ path: string; body: string; status: number; receivedAt?: string }> }>(
      this.emulator,
      '/webhooks',
    );
    const webhooks = calls.map((c) => ({ path: c.path, status: c.status, receivedAt: c.receivedAt ?? '', text: webhookText(c.body) }));
    return { mails, webhooks, webhookUrl: webhookUrlOf(this.emulator), bigquery: await this.bigQueryTables() };
  }

  private async bigQueryTables(): Promise<NoticesView['bigquery']> {
    type TableRef = { projectId: string; datasetId: string; tableId: string };
    type Job = { configuration?: { load?: { destinationTable?: TableRef }; copy?: { destinationTable?: TableRef } } };
    const { jobs } = await admin<{ jobs: Job[] }>(this.emulator, '/bigquery/jobs');
    const tables = new Map<string, string>();
    for (const job of jobs) {
      const ref = job.configuration?.load?.destinationTable ?? job.configuration?.copy?.destinationTable;
      // A partition's decorator ($yyyymmdd) names its table's day, not another table.
      const tableId = ref?.tableId.replace(/\$\d+$/, '');
      if (ref && tableId) tables.set(`${ref.projectId}.${ref.datasetId}.${tableId}`, tableId);
    }
    const out: NoticesView['bigquery']['tables'] = [];
    for (const [address, tableId] of tables) {
      const [projectId, datasetId] = address.split('.');
      const path = `/bigquery/tables/${projectId}/${datasetId}/${encodeURIComponent(tableId)}`;
      const table = await admin<{ rows?: unknown[] }>(this.emulator, path).catch(() => undefined);
      if (table) out.push({ address, rows: table.rows?.length ?? 0 });
    }
    return { dataset: `${PLAYGROUND_DATASET.projectId}.${PLAYGROUND_DATASET.datasetId} (${PLAYGROUND_DATASET.location})`, tables: out };
  }
}

export interface NoticesView {
  mails: Array<{ to: string; subject: string; body: string }>;
  webhooks: Array<{ path: string; status: number; receivedAt: string; text: string }>;
  webhookUrl: string;
  bigquery: { dataset: string; tables: Array<{ address: string; rows: number }> };
}

/** A webhook post's text: Google Chat's and Slack's `text`, else the body as it came. */
function webhookText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    if (typeof parsed.text === 'string') return parsed.text;
  } catch {
    // not JSON: shown as it came
  }
  return body;
}
