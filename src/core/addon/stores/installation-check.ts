/**
 * The installation check's findings: what each probe on a live deployment saw, and what it means for
 * the deployer, in words they can act on. Where Google's documentation leaves a reading open
 * (shared/platform/apps-script.md, "Readings Google leaves open"), the add-on is built to work either
 * way; this check turns "unverified" into "seen on this deployment". The probes themselves touch Apps
 * Script (src/gas/wiring/installation-check.ts); this file only reads their outcomes, so every sentence is
 * tested here without a platform.
 */
import type { Finding, FindingStatus } from '../../finding';
import { OwnerOnlyError, type TransportFailureKind } from '../../errors';
import type { BatchCache, Cell, Clock, Compressor } from '../../ports';
import { wallTimeInZone } from '../../util/dates';
import { formatCount } from '../../util/text';
import { ChunkedCache } from './chunked-cache';
import { encodeValues } from './value-codec';

/** The sheet the check writes its findings to. */
export const INSTALLATION_CHECK_SHEET = 'Engage installation check';
/** What a trigger run of this add-on saw of its context (user properties: the run may have no document). */
export const TRIGGER_CONTEXT_KEY = 'engage.check.triggerContext';
/** How many formulas the check sets off at once: past Apps Script's 30 executions per user. */
export const CONCURRENCY_PROBE_FORMULAS = 40;
/** The rows of the cache probe: the size of a large formula result. */
export const CACHE_PROBE_ROWS = 20_000;
/** What a custom function has in all (Google: "must return within 30 seconds"). */
const CUSTOM_FUNCTION_LIMIT_MS = 30_000;

export type { Finding, FindingStatus } from '../../finding';

/** What a trigger run recorded of its context. */
export interface TriggerContext {
  hadDocument: boolean;
  atMs: number;
  /** 'check': the check's one-off trigger; 'schedule': an hourly run of saved reports. */
  by: 'check' | 'schedule';
}

export type SpreadsheetAccess = 'all' | 'current';

/** An address the add-on calls, fetched once without a sign-in: any HTTP answer means it is reachable. */
export function hostFinding(
  name: string,
  url: string,
  outcome: { status: number } | { failure: TransportFailureKind; message: string },
): Finding {
  const check = `URL Fetch reaches the ${name}`;
  if ('status' in outcome) {
    return {
      check,
      status: 'ok',
      result: `${url} answered HTTP ${outcome.status}${outcome.status === 401 ? ' (no sign-in was sent, as expected)' : ''}.`,
      meaning: 'Apps Script may call this address (the manifest allows it) and the service answers from Google.',
    };
  }
  const meaning: Record<TransportFailureKind, string> = {
    'not-allowed':
      "Apps Script refused it: the address is not under the manifest's urlFetchWhitelist. Put the right address in your deploy config, build and push again.",
    dns: "Its host name does not resolve from Google's servers: check the address in the deploy config and in the sidebar's Account settings.",
    connection:
      "No answer came back: the service may be down, or it refuses Google's servers (a firewall or an allowlist of callers): ask its operators.",
    'daily-quota': "Your account's daily URL Fetch quota is spent: run the check again tomorrow.",
    'invalid-address': "Apps Script does not take it as an address: check it in the sidebar's Account settings.",
  };
  return { check, status: 'attention', result: `${url}: ${outcome.message}`, meaning: meaning[outcome.failure] };
}

/** Whether a trigger run had a document, once a run has said so; until then, pending. */
export function triggerFinding(context: TriggerContext | undefined, access: SpreadsheetAccess, checkStartedAtMs: number): Finding {
  const check = 'A scheduled run has its spreadsheet';
  if (!context || context.atMs < checkStartedAtMs) {
    return {
      check,
      status: 'pending',
      result: 'No trigger run since the check started.',
      meaning:
        'The check installed a trigger that runs about a minute after it (or, where you already have one here, waits for your hourly ' +
        'run): open this spreadsheet again after that, or run the check again, to see what it found.',
    };
  }
  const by = context.by === 'check' ? "The check's trigger" : 'An hourly run of your saved reports';
  if (context.hadDocument) {
    return {
      check,
      status: 'ok',
      result: `${by} ran with this spreadsheet as its document.`,
      meaning:
        access === 'current'
          ? 'Trigger runs have a document: spreadsheetAccess "current" is safe on this deployment.'
          : 'Trigger runs have a document: spreadsheetAccess "current" would be safe here too, and asks users for less.',
    };
  }
  return access === 'all'
    ? {
        check,
        status: 'ok',
        result: `${by} ran without a document.`,
        meaning:
          'Trigger runs have no document: scheduled refreshes open each spreadsheet by its ID, which spreadsheetAccess "all" allows. Keep "all".',
      }
    : {
        check,
        status: 'attention',
        result: `${by} ran without a document.`,
        meaning:
          'Trigger runs have no document, and with spreadsheetAccess "current" a scheduled refresh cannot open its spreadsheet: set ' +
          'spreadsheetAccess "all" in the deploy config, build and push again.',
      };
}

/** A name that looks like a date, written as the add-on writes API text, and written plainly; a date read back is shown on the sheet's clock. */
export function textFinding(written: string, asTheAddonWrites: unknown, plainly: unknown, timeZone = 'UTC'): Finding {
  const check = 'Names that look like dates stay text';
  const day = (date: Date) => {
    const w = wallTimeInZone(date.getTime(), timeZone);
    return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  };
  const shown = (value: unknown) => (value instanceof Date ? `the date ${day(value)}` : JSON.stringify(value));
  const plain =
    plainly === written
      ? `Written plainly it stayed text too, so Sheets does not read it as a value here.`
      : `Written plainly it became ${shown(plainly)}: the add-on's protection is needed here.`;
  if (asTheAddonWrites === written) {
    return {
      check,
      status: 'ok',
      result: `"${written}" written as the add-on writes API text came back as the text "${written}". ${plain}`,
      meaning: 'Section, referrer, widget and article names keep their text in reports, whatever they look like.',
    };
  }
  return {
    check,
    status: 'attention',
    result: `"${written}" written as the add-on writes API text came back as ${shown(asTheAddonWrites)}. ${plain}`,
    meaning: 'Sheets changed a name despite the protection: names that look like dates or numbers may change in reports. Report this.',
  };
}

/** `=ENGAGE_VERSION(TODAY())`: whether Sheets ran it. */
export function todayFinding(outcome: 'value' | 'error' | 'loading', waitedMs: number): Finding {
  const check = 'TODAY() is accepted as an argument';
  const formula = '=ENGAGE_VERSION(TODAY())';
  if (outcome === 'value') {
    return {
      check,
      status: 'ok',
      result: `${formula} computed.`,
      meaning:
        'Sheets accepts TODAY() as a custom function\'s argument here: formulas written with it keep working (the add-on itself writes "7daysAgo", "yesterday").',
    };
  }
  return {
    check,
    status: 'attention',
    result:
      outcome === 'loading' ? `${formula} still showed Loading... after ${Math.round(waitedMs / 1000)} s.` : `${formula} showed an error.`,
    meaning:
      'Sheets does not run custom functions given TODAY() here: write relative dates instead ("7daysAgo", "yesterday", as Insert formula ' +
      'and the dashboard do), and replace TODAY() in formulas typed by hand.',
  };
}

/** Compressing and caching a large formula result, and reading it back. */
export function cacheFinding(probe: { rows: number; bytes: number; entries: number; writeMs: number; readMs: number }): Finding {
  const totalMs = probe.writeMs + probe.readMs;
  const share = Math.round((totalMs / CUSTOM_FUNCTION_LIMIT_MS) * 100);
  return {
    check: `Caching a ${formatCount(probe.rows)}-row formula result`,
    status: totalMs <= CUSTOM_FUNCTION_LIMIT_MS / 3 ? 'ok' : 'attention',
    result:
      `Compressing and caching it took ${(probe.writeMs / 1000).toFixed(1)} s (${formatCount(probe.entries)} cache entries, ` +
      `${formatCount(Math.ceil(probe.bytes / 1000))} KB), reading it back ${(probe.readMs / 1000).toFixed(1)} s.`,
    meaning:
      totalMs <= CUSTOM_FUNCTION_LIMIT_MS / 3
        ? `That is ${share}% of a formula's 30 s: large results fit in time.`
        : `That is ${share}% of a formula's 30 s: formulas this large may run out of time here; use maxRows or Run to sheet for them.`,
  };
}

/** Formulas set off together, past the platform's 30 executions at once. */
export function concurrencyFinding(probe: {
  formulas: number;
  values: number;
  errors: number;
  loading: number;
  waitedMs: number;
}): Finding {
  const check = `${probe.formulas} formulas recalculating at once`;
  const result =
    `${probe.values} computed, ${probe.errors} ended in error` +
    (probe.loading > 0 ? `, ${probe.loading} still loading after ${Math.round(probe.waitedMs / 1000)} s` : '') +
    '.';
  if (probe.errors === 0 && probe.loading === 0) {
    return {
      check,
      status: 'ok',
      result,
      meaning:
        'Sheets ran them all: more than 30 formulas at once did not fail here. Refresh all still recalculates at most 25 at a time, which is safe either way.',
    };
  }
  return {
    check,
    status: 'attention',
    result,
    meaning:
      'Sheets refuses executions past 30 at once for one user ("too many scripts running simultaneously"): refresh formulas with ' +
      'Refresh all, which recalculates at most 25 at a time, not by changing a cell they all reference.',
  };
}

/**
 * The check is the owner's: it writes a sheet of findings, sets off formulas that run with the owner's
 * sign-in, and installs a trigger. Anyone else is refused before anything is written. A file in a shared
 * drive has no owner (`owner` null): its user may check it.
 */
export function checkOwnerMayCheck(owner: string | null, you: string): void {
  const same = owner !== null && you !== '' && owner.trim().toLowerCase() === you.trim().toLowerCase();
  if (owner !== null && !same) {
    throw new OwnerOnlyError(owner, you === '', {
      what: "check this installation (the check writes a sheet of findings, sets off formulas that use the owner's sign-in and installs a trigger)",
      otherwise: 'ask the owner to run Check this installation from the Engage menu',
    });
  }
}

/**
 * Caches a result the size of a large formula's, as a formula does (compressed, cut into entries,
 * written in one call, read back in one), timed on `clock`, then removes it. The rows look like a
 * report's: a day, a name, and eight figures.
 */
export function cacheProbe(
  cache: BatchCache,
  compressor: Compressor,
  clock: Clock,
  rows = CACHE_PROBE_ROWS,
): { rows: number; bytes: number; entries: number; writeMs: number; readMs: number } {
  const table: Cell[][] = [
    ['day', 'section.name', 'paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate', 'videoPlays'],
  ];
  for (let r = 0; r < rows; r++) {
    const n = (r * 7919) % 100_003;
    table.push([
      `2026-11-${String((r % 28) + 1).padStart(2, '0')}`,
      `Section ${r % 997}`,
      n,
      n + 17,
      n / 100,
      (n % 977) / 10,
      n % 311,
      (n % 97) / 10,
      50 + (n % 50),
      n % 13,
    ]);
  }
  const values = new ChunkedCache(cache, 'engage.check.', compressor);
  const identity = `installation check ${clock.now()}`;
  const started = clock.now();
  const packed = values.pack(identity, encodeValues(table));
  values.write(packed, 60);
  const written = clock.now();
  const back = values.get(identity);
  const read = clock.now();
  values.drop(packed.key, packed.items);
  if (back === null) throw new Error('the cached result could not be read back');
  const bytes = Object.values(packed.entries).reduce((sum, entry) => sum + entry.length, 0);
  return { rows, bytes, entries: packed.items, writeMs: written - started, readMs: read - written };
}

/** Whether a sidebar function typed into a cell was refused: it must show an error (ours, or #NAME? where it cannot be typed). */
export function sidebarInCellFinding(shown: unknown): Finding {
  const check = 'Sidebar functions refuse to run in a cell';
  const refused = typeof shown === 'string' && /^#(ERROR!|NAME\?)/.test(shown);
  return refused
    ? {
        check,
        status: 'ok',
        result: `=GETSIDEBARSTATE() typed in a cell shows ${String(shown)}.`,
        meaning: "An editor cannot run the sidebar's functions from a cell with the owner's sign-in.",
      }
    : {
        check,
        status: 'attention',
        result: `=GETSIDEBARSTATE() typed in a cell shows ${JSON.stringify(shown)}.`,
        meaning:
          "A sidebar function ran in a cell: the add-on tells a cell from the sidebar by the editor's UI, which this deployment gives formulas too. Report this.",
      };
}

const STATUS_TEXT: Record<FindingStatus, string> = { ok: 'OK', attention: 'Needs attention', pending: 'Pending' };

/** The sheet's rows: a header, then one row per finding, with when it was checked (text, on the sheet's clock). */
export function findingRows(findings: readonly Finding[], checkedAt: string): Cell[][] {
  return [
    ['Check', 'Status', 'What was seen', 'What it means', 'Checked'],
    ...findings.map((f) => [f.check, STATUS_TEXT[f.status], f.result, f.meaning, checkedAt]),
  ];
}
