/**
 * One run of the installation check, apart from the platform: which addresses it fetches and how their
 * answers read, the trigger's finding while no run has spoken, the formula probes read until each shows
 * something (or a formula's 30 s pass) and what they showed, and the two records the check keeps in the
 * user's store: the check waiting for a trigger's run, and what that run saw (a run may have no
 * document, so the user's store is where the next open finds it). The probes' sheet, cells and trigger
 * are Apps Script's (src/gas/adapters/sheets/check-sheet.ts, src/gas/adapters/check-trigger.ts).
 */
import { TransportError } from '../../errors';
import type { Clock, HttpTransport, KeyValueStore, Sleeper } from '../../ports';
import {
  CONCURRENCY_PROBE_FORMULAS,
  concurrencyFinding,
  type Finding,
  hostFinding,
  type SpreadsheetAccess,
  sidebarInCellFinding,
  textFinding,
  todayFinding,
  TRIGGER_CONTEXT_KEY,
  type TriggerContext,
  triggerFinding,
} from './installation-check';

/** The user's check waiting for a trigger's run to say what it saw: {spreadsheetId, startedAtMs, row}. */
const CHECK_RUN_KEY = 'engage.check.run';
/** Set when the one-off trigger could not be there (the user's hourly one is): that run says instead. */
export const AWAITING_TRIGGER_KEY = 'engage.check.awaitingTrigger';
/** How long formula probes may take to show something (a custom function has 30 s). */
const FORMULA_WAIT_MS = 30_000;
const POLL_MS = 500;
/** The name the text probe writes: Sheets would read it as a date. */
export const DATE_LIKE_NAME = '1/2';

/** The check waiting for a trigger's run: where, since when, and the sheet row of the trigger's finding. */
export interface CheckRun {
  spreadsheetId: string;
  startedAtMs: number;
  row: number;
}

/** What installing the check's one-off trigger came to: installed, left to the user's hourly run, or refused. */
export type TriggerProbe = { ok: true; by: 'check' | 'hourly run' } | { ok: false; error: string };

/** The addresses the check fetches: the reporting API's publishers and the recommendations endpoint, where set. */
export interface CheckedAddresses {
  reportingBaseUrl?: string;
  recommendationsUrl?: string;
}

/** Each configured address, fetched once without a sign-in. */
export function hostFindings(addresses: CheckedAddresses, transport: HttpTransport): Finding[] {
  const targets: Array<[string, string | undefined]> = [
    ['reporting API', addresses.reportingBaseUrl && `${addresses.reportingBaseUrl.replace(/\/+$/, '')}/publishers`],
    ['recommendations endpoint', addresses.recommendationsUrl],
  ];
  return targets
    .filter((t): t is [string, string] => typeof t[1] === 'string' && t[1] !== '')
    .map(([name, url]) => {
      try {
        return hostFinding(name, url, { status: transport.fetch({ url, method: 'get' }).status });
      } catch (error) {
        const failure = error instanceof TransportError ? error.kind : 'connection';
        return hostFinding(name, url, { failure, message: error instanceof Error ? error.message : String(error) });
      }
    });
}

/** The trigger's finding as the check first writes it: pending, or what kept the trigger from being installed. */
export function pendingTriggerFinding(probe: TriggerProbe, access: SpreadsheetAccess, startedAtMs: number): Finding {
  const pending = triggerFinding(undefined, access, startedAtMs);
  if (!probe.ok) {
    pending.status = 'attention';
    pending.result = `The check could not install its trigger: ${probe.error}`;
    pending.meaning = 'Whether a scheduled run has its spreadsheet stays unknown: run the check again later, or report this.';
  } else if (probe.by === 'hourly run') {
    pending.result = 'No trigger run since the check started (your hourly trigger is in this spreadsheet: its next run will tell).';
  }
  return pending;
}

/** What a formula cell shows, or undefined while it computes (an empty cell, or Loading...). */
function shown(value: unknown): unknown {
  return value === '' || value === 'Loading...' ? undefined : value;
}

/** The formula probes' cells as read: =GETSIDEBARSTATE() and =ENGAGE_VERSION(TODAY()), then the formulas set off together. */
export interface FormulaProbeCells {
  single: unknown[];
  together: unknown[];
}

/** What the formula probes showed (undefined: still computing), and how long the check waited for them. */
export interface FormulaProbeReadings extends FormulaProbeCells {
  waitedMs: number;
}

/** Reads the formula probes until each shows something or a formula's 30 s have passed. */
export function awaitFormulaProbes(read: () => FormulaProbeCells, clock: Clock, sleeper: Sleeper): FormulaProbeReadings {
  const started = clock.now();
  for (;;) {
    const cells = read();
    const single = cells.single.map(shown);
    const together = cells.together.map(shown);
    if ([...single, ...together].every((v) => v !== undefined) || clock.now() - started >= FORMULA_WAIT_MS) {
      return { single, together, waitedMs: clock.now() - started };
    }
    sleeper.sleep(POLL_MS);
  }
}

/** The date-like name read back as the add-on writes API text, and as written plainly, on the sheet's clock. */
export interface TextProbe {
  asTheAddonWrites: unknown;
  plainly: unknown;
  timeZone: string;
}

/** The findings of the cell probes: the date-like name, TODAY() as an argument, a sidebar function in a cell, formulas at once. */
export function formulaFindings(text: TextProbe, formulas: FormulaProbeReadings): Finding[] {
  const isVersion = (v: unknown) => typeof v === 'string' && v.startsWith('Engage for Sheets');
  const today = formulas.single[1];
  const { together, waitedMs } = formulas;
  return [
    textFinding(DATE_LIKE_NAME, text.asTheAddonWrites, text.plainly, text.timeZone),
    todayFinding(today === undefined ? 'loading' : isVersion(today) ? 'value' : 'error', waitedMs),
    sidebarInCellFinding(formulas.single[0] ?? 'Loading...'),
    concurrencyFinding({
      formulas: CONCURRENCY_PROBE_FORMULAS,
      values: together.filter(isVersion).length,
      errors: together.filter((v) => v !== undefined && !isVersion(v)).length,
      loading: together.filter((v) => v === undefined).length,
      waitedMs,
    }),
  ];
}

/** The check now waits for a trigger's run to say what it saw. */
export function awaitTriggerRun(store: KeyValueStore, run: CheckRun): void {
  store.set(CHECK_RUN_KEY, JSON.stringify(run));
}

/**
 * A trigger's run says what it had (`seen`, asked only when it is recorded): the check's one-off
 * trigger always, an hourly run only when the check is waiting for it. Returns what was recorded.
 */
export function recordTriggerContext(
  store: KeyValueStore,
  by: TriggerContext['by'],
  seen: () => TriggerContext,
): TriggerContext | undefined {
  if (by === 'schedule') {
    if (store.get(AWAITING_TRIGGER_KEY) === null) return undefined;
    store.remove(AWAITING_TRIGGER_KEY);
  }
  const context = seen();
  store.set(TRIGGER_CONTEXT_KEY, JSON.stringify(context));
  return context;
}

/**
 * Once a trigger run after the check of `spreadsheetId` has said what it saw, hands the trigger's
 * finding to `write` (with its sheet row and when the run saw it) and ends the wait; true when it did.
 * One store read when no check waits; a record that cannot be read ends the wait unwritten.
 */
export function finishTriggerFinding(
  store: KeyValueStore,
  spreadsheetId: string,
  access: SpreadsheetAccess,
  write: (row: number, finding: Finding, seenAtMs: number) => void,
): boolean {
  const raw = store.get(CHECK_RUN_KEY);
  if (raw === null) return false;
  let run: CheckRun;
  let context: TriggerContext | undefined;
  try {
    run = JSON.parse(raw) as CheckRun;
    const recorded = store.get(TRIGGER_CONTEXT_KEY);
    context = recorded === null ? undefined : (JSON.parse(recorded) as TriggerContext);
  } catch {
    store.remove(CHECK_RUN_KEY);
    return false;
  }
  if (run.spreadsheetId !== spreadsheetId || !context || context.atMs < run.startedAtMs) return false;
  write(run.row, triggerFinding(context, access, run.startedAtMs), context.atMs);
  store.remove(CHECK_RUN_KEY);
  return true;
}
