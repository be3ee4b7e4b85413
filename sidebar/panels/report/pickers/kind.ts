/**
 * The report type: General, External ID or Realtime as a segmented control, with the note on how
 * fresh that report's figures are. The builder owns the type; picking one hands it to `picked`,
 * and the builder shows a type (a new one, or a reopened report's) with `show`.
 */
import type { ReportKind } from '../../../../src/core';
import { el, replaceChildren } from '../../../dom';

export const KIND_LABELS: Record<ReportKind, string> = { main: 'General', externalId: 'External ID', realtime: 'Realtime' };
const FRESHNESS: Record<ReportKind, string> = {
  main: 'Figures arrive 2 to 4 hours late, and today’s are partial.',
  externalId: 'Hourly, in UTC, at most 24 hours per report. External IDs appear 48 hours after pages are tagged.',
  realtime: 'Only the last 48 hours (UTC). Up to 30 minutes late, with up to 5% error; revenue in USD.',
};

export interface KindPicker {
  readonly nodes: readonly HTMLElement[];
  /** Shows `kind` as chosen, with its freshness note. */
  show(kind: ReportKind): void;
}

export function kindPicker(initial: ReportKind, picked: (kind: ReportKind) => void): KindPicker {
  const box = el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Report type', id: 'report-kind' });
  const freshness = el('div', { class: 'notice notice-info', id: 'report-freshness' });
  for (const kind of Object.keys(KIND_LABELS) as ReportKind[]) {
    const input = el('input', { type: 'radio', name: 'report-kind', value: kind, checked: kind === initial, id: `report-kind-${kind}` });
    input.addEventListener('change', () => picked(kind));
    box.appendChild(el('label', { for: input.id, class: kind === initial ? 'checked' : '' }, input, KIND_LABELS[kind]));
  }
  return {
    nodes: [el('div', { class: 'field' }, el('span', { class: 'label', id: 'report-kind-label' }, 'Report'), box), freshness],
    show(kind) {
      for (const label of Array.from(box.querySelectorAll('label'))) {
        const input = label.querySelector('input')!;
        input.checked = input.value === kind;
        label.classList.toggle('checked', input.checked);
      }
      replaceChildren(freshness, FRESHNESS[kind]);
    },
  };
}
