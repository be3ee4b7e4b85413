/**
 * The Schedule section's period: the sentence of the period each refresh covers, "Extend to today at
 * each refresh" for a custom range of the general report, and "Days to load" for the hourly
 * external-ID report into a BigQuery table, which is loaded by whole UTC days (the N whole days before
 * today) instead of the builder's hour window. The builder's preset moves with time; a saved report
 * being edited keeps its own period until the period is changed in the builder (schedulePeriod, in the
 * core), and a BigQuery report its own days until "Days to load" is changed.
 */
import {
  type BuilderRequest,
  type DatePreset,
  describeCompareWith,
  describePeriod,
  type Period,
  type PeriodChoice,
  REPORT_SPECS,
  type SavedReportInput,
  schedulePeriod,
} from '../../../src/core';
import { keptTablePeriod } from '../../editor/definition-form';
import { el, field, replaceChildren } from '../../dom';
import type { ReportChoice } from './part';

/** What the period reads from the builder. */
export interface PeriodSource {
  choice(): ReportChoice;
  preset(): DatePreset;
  /** The custom range's first and last day as typed (general report). */
  customDays(): { fromDate: string; toDate: string };
}

/** The saved report being edited, and the period choice the builder showed when it opened. */
export interface Editing {
  id: string;
  definition: SavedReportInput;
  shown: PeriodChoice;
}

export interface SchedulePeriodPart {
  /** "Period at each refresh", with the sentence and the "extend to today" choice. */
  readonly node: HTMLElement;
  /** "Days to load", for the mount to place under the destination. */
  readonly days: HTMLElement;
  /** The builder's period as it stands: the report type, the preset, a custom range and whether it grows. */
  choice(): PeriodChoice;
  /** The period the saved report refreshes; `wholeDays`: loaded into a table by whole UTC days. */
  period(editing: Editing | undefined, wholeDays: boolean): Period;
  /** Redraws the sentence of `now`, and what applies to the report. */
  render(now: Period, request: BuilderRequest | string, wholeDays: boolean): void;
  /** What to fix in the days to load, when they were changed and are no whole number from 1 to 366. */
  problem(wholeDays: boolean): string | undefined;
  /** Shows a saved report's: whether its custom range grows, and its days. */
  set(grows: boolean, period: Period): void;
  /** Back to a new report's days. */
  reset(): void;
}

const DEFAULT_DAYS = '7';

export function schedulePeriodPart(source: PeriodSource, changed: () => void): SchedulePeriodPart {
  const line = el('div', { class: 'hint field', id: 'schedule-period' });
  const growing = el('input', { type: 'checkbox', id: 'schedule-growing' });
  const growingBox = el('label', { class: 'check', for: 'schedule-growing' }, growing, 'Extend to today at each refresh');
  const bqDays = el('input', {
    type: 'number',
    id: 'schedule-bq-days',
    min: 1,
    max: 366,
    step: 1,
    value: DEFAULT_DAYS,
    inputmode: 'numeric',
  });
  const days = field('Days to load', bqDays, 'The whole UTC days before today, each with its 24 hours, one partition a day.');
  let touched = false;
  /** The days typed, when a whole number from 1 to 366. */
  const daysTyped = (): number | undefined => {
    const typed = Number(bqDays.value.trim());
    return bqDays.value.trim() !== '' && Number.isInteger(typed) && typed >= 1 && typed <= 366 ? typed : undefined;
  };
  /** Custom ranges only in the general report: the hourly ones refresh a rolling window. */
  const customRange = () => source.choice().kind === 'main' && source.preset() === 'custom';
  const choice = (): PeriodChoice => {
    const chosen: PeriodChoice = { kind: source.choice().kind, preset: source.preset() };
    if (customRange()) chosen.custom = { ...source.customDays(), growing: growing.checked };
    return chosen;
  };
  growing.addEventListener('change', changed);
  bqDays.addEventListener('input', () => {
    touched = true;
    changed();
  });
  return {
    node: el('div', { class: 'field' }, el('span', { class: 'label' }, 'Period at each refresh'), line, growingBox),
    days,
    choice,
    period(editing, wholeDays) {
      if (wholeDays) {
        // A saved report's own days stay until the field is changed (a period saved through the API: since, a month…).
        const kept = keptTablePeriod(editing?.definition);
        if (kept && !touched) return kept;
        return { type: 'lastDays', days: daysTyped() ?? 7, endingYesterday: true };
      }
      return schedulePeriod(choice(), editing ? { period: editing.definition.period, shown: editing.shown } : undefined);
    },
    render(now, request, wholeDays) {
      growingBox.hidden = !customRange();
      const hourlyNote =
        REPORT_SPECS[source.choice().kind].hourly && !wholeDays && source.preset() !== 'last24h'
          ? ' (hourly reports refresh a rolling window)'
          : wholeDays
            ? ', each hour a row'
            : '';
      days.hidden = !wholeDays;
      const compareWith = typeof request === 'string' ? undefined : request.compareWith;
      const compared = compareWith ? `, compared with ${describeCompareWith(compareWith)}` : '';
      replaceChildren(line, `${describePeriod(now)}${hourlyNote}${compared}.`);
    },
    problem(wholeDays) {
      return wholeDays && touched && daysTyped() === undefined
        ? 'Days to load: write a whole number of days from 1 to 366 (a BigQuery table is loaded a whole UTC day at a time).'
        : undefined;
    },
    set(grows, period) {
      growing.checked = grows;
      bqDays.value = period.type === 'lastDays' ? String(period.days) : DEFAULT_DAYS;
      touched = false;
    },
    reset() {
      bqDays.value = DEFAULT_DAYS;
      touched = false;
    },
  };
}
