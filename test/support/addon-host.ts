/**
 * The built add-on (dist/Code.js) loaded in the local Apps Script host, wired to a fresh emulator
 * instance: the harness of the end-to-end tests. Nothing here reaches into the bundle; everything
 * goes through its entry points, as Sheets, the sidebar and triggers would.
 */
import { createGasHost, type FormulaResult, type GasHost, type GasHostOptions } from '../../dev/gas-host';
import { distBundle, type Bundle } from './bundles';
import { DEMO_USER, newEmulator, type EmulatorHandle } from './emulator';

export const OWNER = 'owner@example.com';
export const EDITOR = 'editor@example.com';

export interface AddonHarness {
  host: GasHost;
  emulator: EmulatorHandle;
  /** Requests that reached the emulator's API since the last clearRequests(). */
  apiRequests(): Promise<{ method: string; path: string; status: number | null }[]>;
  /** Saves the emulator's addresses as the user's settings. */
  configure(user?: string): void;
  /** configure(), then sign in as the demo user. */
  signIn(user?: string): void;
  close(): Promise<void>;
}

/**
 * The add-on (dist/, or `bundle`: another build, such as spreadsheetAccess "current", or one made for
 * the new emulator instance, such as a build whose BigQuery calls go to its stand-in) against a fresh emulator.
 */
export async function startAddon(
  options: GasHostOptions = {},
  given: Bundle | ((emulator: EmulatorHandle) => Promise<Bundle>) = distBundle(),
): Promise<AddonHarness> {
  const emulator = await newEmulator();
  const bundle = typeof given === 'function' ? await given(emulator) : given;
  const host = createGasHost({
    owner: OWNER,
    timeZone: 'Europe/Berlin',
    htmlFiles: { sidebar: bundle.sidebar },
    // The whitelist and scopes the built manifest declares are enforced, as Apps Script does (the emulator is loopback).
    manifest: bundle.manifest,
    ...options,
  });
  host.load(bundle.code);
  const harness: AddonHarness = {
    host,
    emulator,
    async apiRequests() {
      return (await emulator.requests()).map((r) => ({ method: r.method, path: r.path, status: r.status }));
    },
    configure(user = OWNER) {
      host.call('saveSettings', [{ reportingBaseUrl: emulator.baseUrl, recommendationsUrl: emulator.recsUrl }], { user });
    },
    signIn(user = OWNER) {
      harness.configure(user);
      host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user });
    },
    async close() {
      await host.close();
      await emulator.close();
    },
  };
  return harness;
}

/**
 * Recalculates the cells 25 at a time, one batch after another, as Sheets could run them: Apps Script
 * runs at most 30 executions of a user at once ("Simultaneous executions per user: 30"), and the host's
 * strict reading refuses more. For tests about something else than that rule.
 */
export async function recalculateInBatches(
  host: GasHost,
  cells: Array<{ sheet: string; a1: string }>,
  options: { user?: string } = {},
): Promise<FormulaResult[]> {
  const results: FormulaResult[] = [];
  for (let i = 0; i < cells.length; i += 25) results.push(...(await host.recalculate(cells.slice(i, i + 25), options)));
  return results;
}
