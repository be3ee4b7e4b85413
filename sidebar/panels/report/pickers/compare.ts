/**
 * "Compare with": none, the previous period, the same period last year, the same weekdays last year
 * (52 weeks earlier, so that a Monday is beside a Monday), or a custom earlier period of two days,
 * for the general report only (the hourly reports cover a day at most). It says which days the
 * earlier period covers (and, for the same weekdays, which weekday lines up with which), by the
 * core's rules (compare-periods.ts, which the server applies again), and gives the request its
 * compareWith as a formula takes it: "previous", "year", "yearWeekday" or "2026-10-01..2026-10-07". The builder makes the choice part of what the metric picker follows: a
 * comparison has its own default metrics and four columns a metric.
 */
import {
  compactDay,
  compareBreakdownProblem,
  type CompareWith,
  dashedDay,
  type DateRange,
  daysBetween,
  earlierPeriod,
  effectiveBreakdowns,
} from '../../../../src/core';
import { el, field, replaceChildren, select } from '../../../dom';
import type { PartContext } from '../part';

export interface ComparePicker {
  /** The Compare with field, the custom period's days and the line that says what is compared, in form order. */
  readonly nodes: readonly HTMLElement[];
  /** Back to no comparison (a new report type). */
  reset(): void;
  /** Follows the report type and the period: off for the hourly reports, the earlier days shown. */
  render(): void;
  /** A comparison is chosen (render() clears the choice for the hourly reports). Reads no choice: the builder's choice reads it. */
  comparing(): boolean;
  /** compareWith for the request: undefined for none, or the first thing to fix. */
  value(): string | undefined | { problem: string };
  /** Shows a reopened report's comparison: "previous", "year", "yearWeekday", "yyyy-MM-dd..yyyy-MM-dd", or none. */
  set(compareWith: string | undefined): void;
}

/** The words compareWith takes besides a custom period, as the select's values. */
const WORDS = ['previous', 'year', 'yearWeekday'];

/** "Monday" for a yyyyMMdd day. */
function weekdayOf(compact: string): string {
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${dashedDay(compact)}T00:00:00Z`));
}

/**
 * What the same weekdays last year line up, from the first days of the report and of the earlier
 * period: "the same weekdays 52 weeks earlier, by position with day: Monday 2026-11-02 beside Monday
 * 2025-11-03, and so on; ".
 */
function sameWeekdays(currentFrom: string, earlierFrom: string): string {
  return (
    `the same weekdays 52 weeks earlier, by position with day: ${weekdayOf(currentFrom)} ${dashedDay(currentFrom)} ` +
    `beside ${weekdayOf(earlierFrom)} ${dashedDay(earlierFrom)}, and so on; `
  );
}

/** `range()` is the report's period (the period picker's), which the earlier period follows. */
export function comparePicker(ctx: PartContext & { range(): DateRange | string }): ComparePicker {
  const mode = select(
    [
      ['', 'None'],
      ['previous', 'Previous period'],
      ['year', 'Same period last year'],
      ['yearWeekday', 'Same weekdays last year'],
      ['custom', 'Custom period'],
    ],
    '',
    { id: 'report-compare' },
  );
  const customBox = el('div', { id: 'report-compare-custom' });
  const fromInput = el('input', { type: 'date', id: 'report-compare-from' });
  const toInput = el('input', { type: 'date', id: 'report-compare-to' });
  const line = el('div', { class: 'hint', id: 'report-compare-period', 'aria-live': 'polite' });
  const general = () => ctx.choice().kind === 'main';

  /** The report's period as yyyyMMdd days, or undefined while it has a problem. */
  function current(): { fromDate: string; toDate: string } | undefined {
    const range = ctx.range();
    return typeof range === 'string' ? undefined : { fromDate: compactDay(range.fromDate), toDate: compactDay(range.toDate) };
  }

  /** The earlier period's days for the report's period, or the first thing to fix. */
  function earlier(): { fromDate: string; toDate: string } | string | undefined {
    if (!general() || mode.value === '') return undefined;
    const now = current();
    if (!now) return undefined;
    if (mode.value !== 'custom') return earlierByRule(mode.value, now, ctx.choice().breakdowns);
    return customEarlier(fromInput.value, toInput.value, now);
  }

  function value(): string | undefined | { problem: string } {
    if (!general() || mode.value === '') return undefined;
    const days = earlier();
    if (typeof days === 'string') return { problem: days };
    return mode.value === 'custom' ? `${fromInput.value}..${toInput.value}` : mode.value;
  }

  function render(): void {
    const main = general();
    if (!main) mode.value = '';
    mode.disabled = !main;
    mode.title = main ? '' : 'Only the general report can be compared with an earlier period: the hourly reports cover a day at most';
    if (mode.value === 'custom')
      replaceChildren(customBox, el('div', { class: 'row' }, field('Earlier from', fromInput), field('Earlier to', toInput)));
    else replaceChildren(customBox);
    const days = earlier();
    if (!main) replaceChildren(line, 'Only the general report can be compared with an earlier period.');
    else if (days === undefined || typeof days === 'string') replaceChildren(line, days ?? '');
    else replaceChildren(line, comparedLine(days, mode.value === 'yearWeekday' ? current()!.fromDate : undefined, ctx.choice().breakdowns));
  }

  for (const control of [mode, fromInput, toInput]) {
    control.addEventListener('change', () => {
      render();
      ctx.changed();
    });
  }
  return {
    nodes: [field('Compare with', mode), customBox, line],
    reset() {
      mode.value = '';
      render();
    },
    render,
    comparing: () => mode.value !== '',
    value,
    set(compareWith) {
      const custom = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(compareWith ?? '');
      mode.value = custom ? 'custom' : compareWith && WORDS.includes(compareWith) ? compareWith : '';
      if (custom) [fromInput.value, toInput.value] = [custom[1]!, custom[2]!];
      render();
    },
  };
}

/** The earlier period by a rule ("previous", "year", "yearWeekday"), or why the breakdowns do not fit it. */
function earlierByRule(
  rule: string,
  now: { fromDate: string; toDate: string },
  breakdowns: readonly string[],
): { fromDate: string; toDate: string } | string {
  const compareWith = { type: rule } as Exclude<CompareWith, { type: 'custom' }>;
  const unfit = compareBreakdownProblem(compareWith, effectiveBreakdowns('main', breakdowns));
  // The core's rule, in the words of this form's choices.
  if (unfit)
    return 'Same weekdays last year lines up each day with the same weekday, which the month breakdown does not show: choose Same period last year, or break down by day.';
  return earlierPeriod(now, compareWith);
}

/** A custom earlier period from its two days ("yyyy-MM-dd"), ending before the report's first day; or the first thing to fix. */
function customEarlier(from: string, to: string, now: { fromDate: string }): { fromDate: string; toDate: string } | string {
  if (!from || !to) return 'Choose the first and last day of the earlier period.';
  if (to < from) return 'The earlier period’s last day is before its first.';
  const custom = { fromDate: compactDay(from), toDate: compactDay(to) };
  if (custom.toDate >= now.fromDate) return 'The earlier period must end before the report’s first day.';
  return custom;
}

/**
 * What is compared: the earlier days, and how their rows line up with the report's `breakdowns`: by
 * position with day or month (weekday by weekday from `weekdaysFrom`, the report's first day, for the
 * same weekdays), else row by row on the other breakdowns, else the two periods whole.
 */
function comparedLine(days: { fromDate: string; toDate: string }, weekdaysFrom: string | undefined, chosen: readonly string[]): string {
  const breakdowns = effectiveBreakdowns('main', chosen);
  const time = breakdowns.find((b) => b === 'day' || b === 'month');
  const others = breakdowns.filter((b) => b !== 'day' && b !== 'month');
  const lined = time
    ? `by position with ${time}: `
    : others.length > 0
      ? `row by row by ${others.join(', ')}: `
      : 'period against period: ';
  const weekdays =
    weekdaysFrom === undefined
      ? lined
      : time === 'day'
        ? sameWeekdays(weekdaysFrom, days.fromDate)
        : `the same weekdays 52 weeks earlier, ${lined}`;
  return (
    `Compared with ${dashedDay(days.fromDate)} to ${dashedDay(days.toDate)} (${daysBetween(days.fromDate, days.toDate) + 1} days), ` +
    `${weekdays}each metric beside its earlier value, the change and the change in %.`
  );
}
