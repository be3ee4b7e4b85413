/**
 * The bench rows of ENGAGE_EXPLAIN on a 50,000-row breakdown: revenue of the big publisher by doc x
 * platform x widget x section over 50 days (49,361 rows) against the 50 days before (49,365 rows),
 * a cache miss each time. Recorded: the report requests it sends against the lower bound its two
 * periods' pages allow (ceil(rows / 10,000) each), and its wall time against the bound of those
 * pages fetched as the add-on fetches a comparison: both first pages in one batch, then every other
 * page in batches of at most 10, each batch one round trip of a 10,000-row page, as the wall time of
 * a 50,000-row ENGAGE_REPORT is bounded. The whole formula (fetching, reading 100,000 rows, the join,
 * the split and its cache write), what a user waits for, is given beside it, and so is the time of the
 * same pages fetched directly, without the add-on, from the emulator, which is one process.
 */
import { performance } from 'node:perf_hooks';
import { createSyncFetch } from '../dev/gas-host/fetch/sync-fetch';
import { BIG_PUBLISHER_ID } from '../dev/emulator/model/seed';
import type { BenchRow } from './bigquery-load';
import { type BenchEnvironment, OWNER } from './harness';

const PAGE_ROWS = 10_000;
/** The most pages the add-on sends in one fetchAll batch. */
const BATCH_PAGES = 10;

const FROM = '20261001';
const TO = '20261119';
const EARLIER = ['20260812', '20260930'] as const;
const BREAKDOWNS = 'doc,platform,widget,section';

export async function explainFiftyThousand(env: BenchEnvironment, record: (row: BenchRow) => void): Promise<void> {
  const periodRows = await periodSizes(env);
  let unique = 0;
  const formula = () =>
    `=ENGAGE_EXPLAIN("${BIG_PUBLISHER_ID}", "${dashed(FROM)}", "${dashed(TO)}", "previous", "revenue", "${BREAKDOWNS}", 10, , "explain${unique++}")`;
  // Every page served once first (the emulator then answers a page it served from its bytes, as the
  // round trip is timed; a cold first serve of 40,000 rows takes seconds of its one process), then the
  // timed run: 2 + 10 + 10 requests, and 8 direct pages after them, the 30 report requests a minute allows.
  await warmPages(env, periodRows);
  const from = env.host.fetchLog.length;
  const started = performance.now();
  const result = env.host.evaluateFormula('Sheet1', 'A1', formula(), { user: OWNER });
  const wholeMs = performance.now() - started;
  if (result.error) throw new Error(result.error);
  env.host.setCell('Sheet1', 'A1', '');
  const pages = env.host.fetchLog.slice(from).filter((f) => f.url.includes('/reports/'));
  const requests = pages.length;
  const spanMs = Math.max(...pages.map((f) => f.startedAt + f.elapsedMs)) - Math.min(...pages.map((f) => f.startedAt));
  // One full page's round trip: the faster of the two first pages, which went out together.
  const firsts = pages.filter((f) => f.url.includes('offset=0'));
  const roundTripMs = Math.min(...firsts.map((f) => f.elapsedMs));
  // What this machine allows without the add-on: the other pages fetched directly in one parallel
  // batch from the emulator, which is one process.
  const others = pages.filter((f) => !f.url.includes('offset=0'));
  const direct = createSyncFetch({ defaultTimeoutMs: 60_000 }).fetchAll(others.map((f) => ({ url: f.url, headers: f.headers })));
  if (direct.some((d) => d.status !== 200)) throw new Error(`direct pages answered ${direct.map((d) => d.status).join(', ')}`);
  const directMs = roundTripMs + Math.max(...direct.map((d) => d.elapsedMs));
  const boundRequests = periodRows.reduce((n, r) => n + Math.ceil(r / PAGE_ROWS), 0);
  record({
    measure: `ENGAGE_EXPLAIN of a 50,000-row breakdown (${periodRows.map((r) => r.toLocaleString('en-US')).join(' and ')} rows): report requests`,
    figure: `${requests} requests`,
    bound: `${boundRequests} (each period's pages: ceil(rows / ${PAGE_ROWS.toLocaleString('en-US')}))`,
    ratio: requests / boundRequests,
    goal: 'equal',
    met: requests === boundRequests,
  });
  const batches = 1 + Math.ceil((boundRequests - firsts.length) / BATCH_PAGES);
  const bound = batches * roundTripMs;
  record({
    measure:
      "Wall time of ENGAGE_EXPLAIN over a 50,000-row breakdown: the add-on's fetching of both periods, first request to last answer (cache miss; the whole formula in brackets)",
    figure: `${(spanMs / 1000).toFixed(2)} s (whole formula ${(wholeMs / 1000).toFixed(2)} s; the same pages fetched directly ${(directMs / 1000).toFixed(2)} s)`,
    bound: `${batches} sequential batches x ${(roundTripMs / 1000).toFixed(2)} s round trip of one 10,000-row page = ${(bound / 1000).toFixed(2)} s`,
    ratio: spanMs / bound,
    goal: 'within 1.5x',
    met: spanMs / bound <= 1.5,
  });
}

const dashed = (compact: string) => `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6)}`;

/** Every page of both periods, asked of the emulator as the add-on asks for them. */
async function warmPages(env: BenchEnvironment, periodRows: readonly number[]): Promise<void> {
  const http = createSyncFetch({ defaultTimeoutMs: 120_000 });
  const headers = { 'SVC-TOKEN-V1': tokenOf(env) };
  [[FROM, TO], EARLIER].forEach(([fromDate, toDate], period) => {
    const urls: string[] = [];
    for (let offset = 0; offset < periodRows[period]!; offset += PAGE_ROWS) {
      const limit = String(Math.min(PAGE_ROWS, periodRows[period]! - offset));
      const query = new URLSearchParams({
        entityId: BIG_PUBLISHER_ID,
        fromDate: fromDate!,
        toDate: toDate!,
        breakdowns: BREAKDOWNS,
        limit,
        offset: String(offset),
      });
      urls.push(`${env.emulator.baseUrl}/reports/main?${query}`);
    }
    const answers = http.fetchAll(urls.map((url) => ({ url, headers })));
    if (answers.some((a) => a.status !== 200)) throw new Error(`warming the pages answered ${answers.map((a) => a.status).join(', ')}`);
  });
}

const tokenOf = (env: BenchEnvironment) => JSON.parse(env.host.properties('user', OWNER).get('engage.token')!).token as string;

/** Each period's rows, as the emulator counts them (totalItems of a one-row page). */
async function periodSizes(env: BenchEnvironment): Promise<number[]> {
  const token = tokenOf(env);
  const sizes: number[] = [];
  for (const [fromDate, toDate] of [[FROM, TO], EARLIER]) {
    const query = new URLSearchParams({
      entityId: BIG_PUBLISHER_ID,
      fromDate: fromDate!,
      toDate: toDate!,
      breakdowns: BREAKDOWNS,
      limit: '1',
    });
    const response = await fetch(`${env.emulator.baseUrl}/reports/main?${query}`, { headers: { 'SVC-TOKEN-V1': token } });
    if (response.status !== 200) throw new Error(`the period's size answered ${response.status}`);
    sizes.push(((await response.json()) as { totalItems: number }).totalItems);
  }
  return sizes;
}
