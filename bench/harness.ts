/**
 * What every benchmark needs: the built bundle in the local Apps Script host, signed in against an
 * emulator that runs in its own process with either a fixed latency added to every API request or a
 * modelled network (each request 0 to 200 ms to arrive and its answer 0 to 200 ms back, waited for
 * real), and the emulator's request log to count what was sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createGasHost, type GasHost, type GasHostOptions } from '../dev/gas-host';
import { createSyncFetch } from '../dev/gas-host/fetch/sync-fetch';
import { spawnEmulatorProcess, type EmulatorProcess } from '../dev/emulator/spawn';
import { DEMO_USER } from '../dev/emulator/model/seed';
import { distCode, distSidebar } from '../test/support/paths';
import type { ModelledNetwork } from '../test/support/scheduled-host';

export const ROOT = path.resolve(__dirname, '..');
export const OWNER = 'owner@example.com';
/** Latency the emulator adds to every API request, as the issue asks. */
export const INJECTED_LATENCY_MS = 150;
/** The emulator's clock for every benchmark, so realtime and date windows are the same on every run. */
export const BENCH_NOW = '2026-11-20T12:00:00Z';

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number | null;
  durationMs: number | null;
}

export class BenchEnvironment {
  private constructor(
    readonly emulator: EmulatorProcess,
    readonly host: GasHost,
  ) {}

  /**
   * `network`: a modelled network instead of the fixed latency. With `clock: 'virtual'` the host
   * starts at BENCH_NOW and every move of its virtual time moves the frozen emulator clock by as much
   * (a synchronous admin call), so the emulator's rate windows and the add-on's cache lifetimes run on
   * the same minutes.
   */
  static async start(network?: ModelledNetwork, hostOptions: GasHostOptions = {}): Promise<BenchEnvironment> {
    // The tests' fixtures, which the recorded results were measured with.
    const emulator = await spawnEmulatorProcess({ seed: 'tests' });
    const sync = createSyncFetch({ defaultTimeoutMs: 10_000 });
    const virtual: GasHostOptions =
      hostOptions.clock === 'virtual'
        ? {
            startTime: new Date(BENCH_NOW),
            onTimeAdvance: (ms) => {
              const answer = sync.fetch({
                url: `${emulator.adminUrl}/clock`,
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ advanceMs: ms }),
              });
              if (answer.status !== 200) throw new Error(`moving the emulator clock failed: ${answer.status} ${answer.body}`);
            },
          }
        : {};
    const host = createGasHost({
      owner: OWNER,
      timeZone: 'Europe/Berlin',
      maxRows: 120_000,
      maxColumns: 40,
      htmlFiles: { sidebar: fs.readFileSync(distSidebar, 'utf8') },
      ...hostOptions,
      ...virtual,
    });
    host.load(fs.readFileSync(distCode, 'utf8'));
    const env = new BenchEnvironment(emulator, host);
    // Frozen: the emulator's data and its prepared reports stay the same for the whole run. A modelled
    // network's latency is waited for real only on a running clock, so that one runs from BENCH_NOW.
    await env.admin('POST', '/clock', network ? { now: BENCH_NOW } : { now: BENCH_NOW, frozen: true });
    host.call('saveSettings', [{ reportingBaseUrl: emulator.baseUrl, recommendationsUrl: emulator.recsUrl }], { user: OWNER });
    host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER });
    if (network) await env.admin('POST', '/latency', network);
    else await env.admin('POST', '/faults', { faults: [{ latencyMs: INJECTED_LATENCY_MS, times: 1_000_000_000 }] });
    return env;
  }

  async admin<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.emulator.adminUrl}${route}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`admin ${method} ${route}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  }

  async requests(): Promise<LoggedRequest[]> {
    return (await this.admin<{ requests: LoggedRequest[] }>('GET', '/requests')).requests;
  }

  async clearRequests(): Promise<void> {
    await this.admin('DELETE', '/requests');
  }

  async stop(): Promise<void> {
    await this.host.close();
    await this.emulator.stop();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
