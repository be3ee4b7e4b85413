/**
 * A published add-on under load: several documents of one deployment (each its own spreadsheet,
 * document properties, cache and lock; user and script state shared, as Apps Script shares them),
 * each owned by a user signed in to Engage, each with a dashboard of ENGAGE_* formulas that its users
 * typed and that recalculate together (every user's cells as that user, every document at once).
 * Custom functions run with the owner's sign-in, so identical formulas typed by different users of
 * one document share one result; different documents do not share results. Used by the end-to-end
 * test (a few documents) and by `npm run bench` (20 documents x 3 users x 10 formulas).
 *
 * Counted: formulas that failed, "busy" errors (a lock not had in time), requests that reached the
 * emulator against the distinct requests (one per distinct formula per document: every formula here
 * is one page), 429 answers, and the most report requests of one publisher that arrived in any minute.
 */
import fs from 'node:fs';
import { createDeployment, createGasHost, type FormulaResult, type GasHost } from '../../dev/gas-host';
import {
  ANALYST_PUBLISHER_ID,
  ANALYST_USER,
  BIG_PUBLISHER_ID,
  DEMO_USER,
  HOSTILE_PUBLISHER_ID,
  MEDIUM_PUBLISHER_ID,
} from '../../dev/emulator/model/seed';
import type { RequestLogEntry } from '../../dev/emulator/model/state';
import { distCode } from './paths';
import { mostInAnyMinute } from './scheduled-host';

export interface SimulatedEmulator {
  baseUrl: string;
  recsUrl: string;
  login(username: string, password: string): Promise<string>;
  requests(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
}

export interface LoadSimulationOptions {
  documents: number;
  usersPerDocument: number;
  /** Each user types this many of the document's dashboard formulas (at most DASHBOARD_SIZE). */
  formulasPerUser: number;
  /** Publishers the documents report on, taking turns (at most 4: the emulator's). */
  publishers: number;
  /** Execution worker threads per document (each compiles the bundle: about 15 MB). */
  workersPerDocument: number;
}

export interface LoadSimulationResult {
  formulas: number;
  failed: FormulaResult[];
  busy: number;
  requests: number;
  distinct: number;
  tooMany: number;
  /**
   * Addresses a document fetched more than once (from its own fetch log), with each fetch's execution,
   * start (ms after the recalculation began) and status or error: a request whose answer was lost and
   * sent again (one execution), or a formula that fetched what another execution of its document was
   * already fetching (two). Empty when requests = distinct.
   */
  repeated: Array<{ document: string; url: string; fetches: Array<{ executionId: number; atMs: number; outcome: string }> }>;
  /** Report requests per publisher, and the most of them that arrived within any 60 s. */
  perPublisher: Array<{ publisherId: string; documents: number; reportRequests: number; mostInAnyMinute: number }>;
  wallMs: number;
}

/** The publishers in the order documents take them, with the Engage account that sees each. */
const PUBLISHERS = [
  { id: BIG_PUBLISHER_ID, account: DEMO_USER },
  { id: MEDIUM_PUBLISHER_ID, account: DEMO_USER },
  { id: ANALYST_PUBLISHER_ID, account: ANALYST_USER },
  { id: HOSTILE_PUBLISHER_ID, account: DEMO_USER },
];

/** A document's dashboard: 5 one-page reports of its publisher and 5 lookups. */
export function dashboard(publisherId: string): string[] {
  return [
    `=ENGAGE_REPORT("${publisherId}", "2026-11-01", "2026-11-07")`,
    `=ENGAGE_REPORT("${publisherId}", "2026-11-01", "2026-11-07", "country")`,
    `=ENGAGE_REPORT("${publisherId}", "2026-10-01", "2026-10-31", "month")`,
    `=ENGAGE_REPORT("${publisherId}", "2026-11-01", "2026-11-14", "day,platform")`,
    `=ENGAGE_REPORT("${publisherId}", "2026-11-01", "2026-11-07", "platform", , , "revenue desc")`,
    '=ENGAGE_PUBLISHERS()',
    '=ENGAGE_COUNTRIES()',
    '=ENGAGE_TIMEZONES()',
    `=ENGAGE_WIDGETS("${publisherId}")`,
    `=ENGAGE_NATIVEAPPS("${publisherId}")`,
  ];
}
export const DASHBOARD_SIZE = 10;
/** Rows between formula cells: the tallest result (40 countries, 56 day x platform rows) fits. */
const ROWS_PER_CELL = 70;

export async function simulateRecalculation(emulator: SimulatedEmulator, options: LoadSimulationOptions): Promise<LoadSimulationResult> {
  const code = fs.readFileSync(distCode, 'utf8');
  const publishers = PUBLISHERS.slice(0, options.publishers);
  // One login per Engage account (2 an hour are allowed): owners paste the tokens, as users may.
  const tokens = new Map<string, string>();
  for (const { account } of publishers)
    if (!tokens.has(account.email)) tokens.set(account.email, await emulator.login(account.email, account.password));

  const deployment = createDeployment({ clock: 'real' });
  const documents: Array<{ host: GasHost; publisherId: string; users: string[]; formulas: Set<string> }> = [];
  for (let d = 0; d < options.documents; d++) {
    const publisher = publishers[d % publishers.length]!;
    const users = Array.from({ length: options.usersPerDocument }, (_, k) =>
      k === 0 ? `owner${d}@example.com` : `editor${d}.${k}@example.com`,
    );
    const host = createGasHost({
      deployment,
      documentId: `document-${d}`,
      owner: users[0],
      timeZone: 'Europe/Berlin',
      maxRows: ROWS_PER_CELL * options.usersPerDocument * options.formulasPerUser + 100,
      maxColumns: 40,
      concurrency: options.workersPerDocument,
    });
    host.load(code);
    host.call('saveSettings', [{ reportingBaseUrl: emulator.baseUrl, recommendationsUrl: emulator.recsUrl }], { user: users[0] });
    host.call('signInWithToken', [tokens.get(publisher.account.email)], { user: users[0] });
    documents.push({ host, publisherId: publisher.id, users, formulas: new Set() });
  }

  // Each user types their formulas, starting at a different place in the dashboard.
  const typed = documents.flatMap(({ host, publisherId, users, formulas }) =>
    users.map((user, k) => {
      const pool = dashboard(publisherId);
      const cells = Array.from({ length: options.formulasPerUser }, (_, i) => {
        const formula = pool[(k * 3 + i) % pool.length]!;
        formulas.add(formula);
        const a1 = `A${1 + ROWS_PER_CELL * (k * options.formulasPerUser + i)}`;
        host.setCell('Sheet1', a1, formula);
        return { sheet: 'Sheet1', a1 };
      });
      return { host, user, cells };
    }),
  );

  await emulator.clearRequests();
  const started = Date.now();
  let results: FormulaResult[];
  try {
    results = (await Promise.all(typed.map(({ host, user, cells }) => host.recalculate(cells, { user })))).flat();
  } finally {
    await Promise.all(documents.map(({ host }) => host.close()));
  }
  const wallMs = Date.now() - started;

  const log = (await emulator.requests()).filter((r) => !r.path.endsWith('/login'));
  const reports = log.filter((r) => r.path.includes('/reports/') && r.status !== 429);
  return {
    formulas: results.length,
    failed: results.filter((r) => r.error !== undefined),
    busy: results.filter((r) => /is busy with/.test(r.error ?? '')).length,
    requests: log.length,
    distinct: documents.reduce((sum, d) => sum + d.formulas.size, 0),
    tooMany: log.filter((r) => r.status === 429).length,
    repeated: documents.flatMap(({ host }, d) => repeatedFetches(`document-${d}`, host, started)),
    perPublisher: publishers.map(({ id }) => {
      const mine = reports.filter((r) => r.query.entityId === id);
      return {
        publisherId: id,
        documents: documents.filter((d) => d.publisherId === id).length,
        reportRequests: mine.length,
        mostInAnyMinute: mostInAnyMinute(mine.map((r) => r.time)),
      };
    }),
    wallMs,
  };
}

/**
 * The addresses one document fetched more than once during the load, from the host's log of its
 * fetches (the set-up before it, such as the check of the pasted token, is not part of it).
 */
function repeatedFetches(document: string, host: GasHost, startedAtMs: number): LoadSimulationResult['repeated'] {
  const byUrl = new Map<string, LoadSimulationResult['repeated'][number]['fetches']>();
  for (const entry of host.state.urlFetch.log) {
    if (entry.startedAt < startedAtMs) continue;
    const fetches = byUrl.get(`${entry.method} ${entry.url}`) ?? [];
    fetches.push({ executionId: entry.executionId, atMs: entry.startedAt - startedAtMs, outcome: entry.error ?? String(entry.status) });
    byUrl.set(`${entry.method} ${entry.url}`, fetches);
  }
  return [...byUrl].filter(([, fetches]) => fetches.length > 1).map(([url, fetches]) => ({ document, url, fetches }));
}
