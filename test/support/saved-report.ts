/**
 * A saved report's definition as the e2e tests save it: the medium publisher's general report of the
 * last 7 days by day (paid page views and revenue), refreshed every hour into the sheet named after it,
 * at A1. `extra` replaces or adds fields (notices, a schedule, another destination ...).
 */
import { MEDIUM_PUBLISHER_ID } from './emulator';

export function hourlyDailyReport(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    metrics: ['paidPvs', 'revenue'],
    destination: { kind: 'sheet', target: { sheetName: name, cell: 'A1' } },
    schedule: { every: 'hour' },
    ...extra,
  };
}
