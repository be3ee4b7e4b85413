/**
 * The breakdown chips. A choice the general report refuses (a forbidden pair, a fifth breakdown) is
 * disabled with the reason, and hints say what the choice does to the metrics. The rules and the
 * facts in the hints come from the core (report-fields.ts, spec.ts), which the server applies again.
 */
import {
  breakdownCombinationProblems,
  DOC_BREAKDOWN_WINDOW_MONTHS,
  effectiveBreakdowns,
  MAIN_METRICS_ONLY_ON_WIDGET,
  REPORT_SPECS,
  type ReportKind,
} from '../../../../src/core';
import { el, replaceChildren } from '../../../dom';
import type { ReportChoice } from '../part';

/** Why a breakdown cannot be added to the current choice, or undefined when it can. */
function breakdownBlocker(kind: ReportKind, chosen: readonly string[], candidate: string): string | undefined {
  if (chosen.includes(candidate)) return undefined;
  const problems = breakdownCombinationProblems(kind, [...chosen, candidate]);
  for (const problem of problems) {
    if (problem.rule === 'pair' && problem.pair.includes(candidate)) {
      return `${candidate} cannot be combined with ${problem.pair[0] === candidate ? problem.pair[1] : problem.pair[0]}`;
    }
  }
  const count = problems.find((problem) => problem.rule === 'count');
  return count ? `at most ${count.max} breakdowns` : undefined;
}

/** What a choice of breakdowns does to the metrics. */
function breakdownHints(kind: ReportKind, chosen: readonly string[]): string[] {
  const hints: string[] = [];
  if (kind === 'main') {
    if (chosen.includes('widget'))
      hints.push(`Widget brings request metrics (${[...MAIN_METRICS_ONLY_ON_WIDGET].join(', ')}) instead of page-view metrics.`);
    if (chosen.includes('doc')) hints.push(`Doc drops the opt-in rates and covers only the last ${DOC_BREAKDOWN_WINDOW_MONTHS} months.`);
    if (chosen.length === 0) hints.push(`No breakdown: the report is by ${effectiveBreakdowns(kind, chosen).join(', ')}.`);
  } else {
    hints.push(
      `externalId is always included${kind === 'realtime' ? ' (first, unless you order it otherwise).' : ' as the first column.'}`,
    );
  }
  return hints;
}

export interface BreakdownPicker {
  readonly node: HTMLElement;
  /** Redraws the chips, the reasons and the hints for the builder's choice. */
  render(): void;
}

/** The chips for `choice()`; a click hands the new list to `choose`, which stores it and redraws. */
export function breakdownPicker(choice: () => ReportChoice, choose: (breakdowns: string[]) => void): BreakdownPicker {
  const box = el('div', { class: 'checks', id: 'report-breakdowns', role: 'group', 'aria-label': 'Breakdowns' });
  const why = el('div', { class: 'hint', id: 'breakdown-why' });
  const hints = el('div', { class: 'hint', id: 'breakdown-hints' });

  function render(): void {
    const { kind, breakdowns: chosen } = choice();
    const reasons: string[] = [];
    const chips = REPORT_SPECS[kind].breakdowns.map((name) => {
      const fixed = kind === 'externalId' && name === 'externalId';
      const checked = fixed || chosen.includes(name);
      const blocker = checked ? undefined : breakdownBlocker(kind, chosen, name);
      if (blocker) reasons.push(blocker);
      const input = el('input', {
        type: 'checkbox',
        name: 'breakdown',
        value: name,
        checked,
        disabled: fixed || Boolean(blocker),
        'aria-describedby': 'breakdown-why',
      });
      input.addEventListener('change', () => {
        const now = choice().breakdowns;
        choose(input.checked ? [...now, name] : now.filter((b) => b !== name));
      });
      return el(
        'label',
        {
          class: `chip${checked ? ' checked' : ''}${blocker || fixed ? ' disabled' : ''}`,
          title: blocker ? `Unavailable: ${blocker}` : fixed ? 'Always included' : '',
        },
        input,
        name,
      );
    });
    replaceChildren(box, ...chips);
    replaceChildren(why, reasons.length ? `Unavailable: ${Array.from(new Set(reasons)).join('; ')}.` : '');
    replaceChildren(hints, breakdownHints(kind, chosen).join(' '));
  }

  return { node: el('div', { class: 'field' }, el('span', { class: 'label' }, 'Breakdowns'), box, why, hints), render };
}
