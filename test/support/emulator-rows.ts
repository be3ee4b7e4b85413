/**
 * The emulator's rows of a general report, computed from its own report code (dev/emulator/model/reports/)
 * at a given clock, without a request: what a test compares a destination with. In a child process
 * (`emulatorRowsInChild`), so that a test can start it before the add-on's runs and have it ready
 * after them, and because the report code runs at full speed in plain Node, not in jest's module
 * sandbox. Run as a script, it writes to the file named last each row as a line of JSON: [day, each
 * other breakdown's ID, each metric] (compact: a year of a large publisher is over a million rows,
 * more than one JSON text may hold), then the metricsSums beside it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mainReportAccess } from '../../dev/emulator/model/reports/main-report';
import { metricsOf } from '../../dev/emulator/model/reports/report-rows';
import { findPublisher } from '../../dev/emulator/model/seed';

export interface EmulatorRowsQuery {
  publisherId: string;
  fromDay: string;
  toDay: string;
  breakdowns: string[];
  metrics: string[];
  nowMs: number;
}

/** A row as the child sends it: its day (yyyyMMdd), the IDs of its other breakdowns, its metrics (null when missing). */
export interface CompactRow {
  day: string;
  keys: string[];
  figures: Array<number | null>;
}

/** Where the child writes the metricsSums, beside the rows. */
const sumsFileOf = (rowsFile: string) => `${rowsFile}.sums.json`;

/**
 * Each row as a compact line, and the metricsSums, read from the report's aggregated table
 * (mainReportAccess, what every page of it is cut from) rather than from its pages' JSON: a year of a
 * large publisher is a million rows, and writing then parsing them as pages took the child three
 * quarters of its time. The lines are the rows of any page size, in the table's order.
 */
export function emulatorRowLines(query: EmulatorRowsQuery, onLines: (lines: string[]) => void): Record<string, number> {
  const pub = findPublisher(query.publisherId);
  if (!pub) throw new Error(`no publisher ${query.publisherId} in the emulator's seed`);
  const params = { fromDate: query.fromDay, toDate: query.toDay, breakdowns: query.breakdowns.join(','), metrics: query.metrics.join(',') };
  const access = mainReportAccess(pub, params, query.nowMs);
  const { table } = access;
  const others = query.breakdowns.filter((b) => b !== 'day');
  // As JSON carries them: a figure not finite is null.
  const figure = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const rows = [...table.keys.keys()];
  for (let first = 0; first < rows.length; first += 10_000) {
    const lines = rows.slice(first, first + 10_000).map((row) => {
      const figures = metricsOf(access, table.sums, row * table.fieldCount);
      return JSON.stringify([
        access.entityText(row, 'day', 'id'),
        ...others.map((b) => access.entityText(row, b, 'id')),
        ...query.metrics.map((m) => figure(figures[m])),
      ]);
    });
    onLines(lines);
  }
  return metricsOf(access, table.total(rows), 0) as Record<string, number>;
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
        const rows = fs
          .readFileSync(out, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => {
            const values = JSON.parse(line) as unknown[];
            return {
              day: values[0] as string,
              keys: values.slice(1, 1 + others) as string[],
              figures: values.slice(1 + others) as Array<number | null>,
            };
          });
        resolve({ rows, sums: JSON.parse(fs.readFileSync(sumsFileOf(out), 'utf8')) as Record<string, number> });
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
  const fd = fs.openSync(out!, 'w');
  const sums = emulatorRowLines(query, (lines) => {
    if (lines.length > 0) fs.writeSync(fd, `${lines.join('\n')}\n`);
  });
  fs.closeSync(fd);
  fs.writeFileSync(sumsFileOf(out!), JSON.stringify(sums));
}
