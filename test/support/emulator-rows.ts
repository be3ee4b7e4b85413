/**
 * The emulator's rows of a general report, computed from its own report code (dev/emulator/model/reports/)
 * at a given clock, without a request: what a test compares a destination with. In a child process
 * (`emulatorRowsInChild`), so that a test can start it before the add-on's runs and have it ready
 * after them, and because the report code runs at full speed in plain Node, not in jest's module
 * sandbox. Run as a script, it writes to the file named last the metricsSums as the first line, then
 * each row as a line of JSON: [day, each other breakdown's ID, each metric] (compact: a year of a
 * large publisher is over a million rows, more than one JSON text may hold).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runMainReport } from '../../dev/emulator/model/reports/main-report';
import { findPublisher } from '../../dev/emulator/model/seed';

export interface EmulatorRowsQuery {
  publisherId: string;
  fromDay: string;
  toDay: string;
  breakdowns: string[];
  metrics: string[];
  nowMs: number;
}

export interface EmulatorRows {
  items: Record<string, unknown>[];
  sums: Record<string, number>;
}

/** A row as the child sends it: its day (yyyyMMdd), the IDs of its other breakdowns, its metrics (null when missing). */
export interface CompactRow {
  day: string;
  keys: string[];
  figures: Array<number | null>;
}

const idOf = (v: unknown) => (v !== null && typeof v === 'object' ? String((v as { id: unknown }).id) : String(v));

function compact(query: EmulatorRowsQuery, item: Record<string, unknown>): unknown[] {
  const figure = (v: unknown) => (v === undefined || v === null ? null : Number(v));
  return [
    String(item.day),
    ...query.breakdowns.filter((b) => b !== 'day').map((b) => idOf(item[b])),
    ...query.metrics.map((m) => figure(item[m])),
  ];
}

/** Every row, in pages of the report's 10,000 (the same rows as at any page size), and the metricsSums. */
export function emulatorRows(query: EmulatorRowsQuery): EmulatorRows {
  const pub = findPublisher(query.publisherId);
  if (!pub) throw new Error(`no publisher ${query.publisherId} in the emulator's seed`);
  const items: Record<string, unknown>[] = [];
  let sums: Record<string, number> = {};
  for (let offset = 0; ; offset += 10_000) {
    const params = {
      fromDate: query.fromDay,
      toDate: query.toDay,
      breakdowns: query.breakdowns.join(','),
      metrics: query.metrics.join(','),
      limit: '10000',
      offset: String(offset),
    };
    const page = JSON.parse(runMainReport(pub, params, query.nowMs).toString('utf8')) as EmulatorRows & { totalItems: number };
    items.push(...page.items);
    sums = (page as unknown as { metricsSums: Record<string, number> }).metricsSums;
    if (items.length >= page.totalItems || page.items.length === 0) return { items, sums };
  }
}

/** The compact rows and metricsSums, computed in a child process: starts now, resolves when they are ready. */
export function emulatorRowsInChild(query: EmulatorRowsQuery): Promise<{ rows: CompactRow[]; sums: Record<string, number> }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-emulator-rows-'));
  const out = path.join(work, 'rows.ndjson');
  const others = query.breakdowns.filter((b) => b !== 'day').length;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, JSON.stringify(query), out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`computing the emulator's rows failed (${code}): ${stderr}`);
        const [first, ...lines] = fs.readFileSync(out, 'utf8').split('\n');
        const rows = lines
          .filter((line) => line !== '')
          .map((line) => {
            const values = JSON.parse(line) as unknown[];
            return {
              day: values[0] as string,
              keys: values.slice(1, 1 + others) as string[],
              figures: values.slice(1 + others) as Array<number | null>,
            };
          });
        resolve({ rows, sums: JSON.parse(first!) as Record<string, number> });
      } catch (e) {
        reject(e);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    });
  });
}

if (require.main === module) {
  const [queryText, out] = process.argv.slice(2);
  const query = JSON.parse(queryText!) as EmulatorRowsQuery;
  const { items, sums } = emulatorRows(query);
  const fd = fs.openSync(out!, 'w');
  fs.writeSync(fd, `${JSON.stringify(sums)}\n`);
  for (let i = 0; i < items.length; i += 10_000) {
    fs.writeSync(
      fd,
      `${items
        .slice(i, i + 10_000)
        .map((item) => JSON.stringify(compact(query, item)))
        .join('\n')}\n`,
    );
  }
  fs.closeSync(fd);
}
