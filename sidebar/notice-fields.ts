/**
 * A saved report's notices and alerts, shared by the Report tab's Schedule section and the Schedules
 * tab's edit form: when to be told (on failure and recovery, after every refresh, or never), through
 * which channels (each drawn by its own file in channels/: an email to the user, a webhook address),
 * and the alert rules on the report's figures, each listed with when it last fired, removable, and
 * added through a small form whose choices are the report's own metrics and breakdowns; a rule is
 * checked by the core's own rules (alertProblems) as it is added. The alerts can be withdrawn (a
 * BigQuery report has none: they watch a sheet's figures), the notices staying. All text is set as text.
 */
import {
  ALERTS_MAX,
  type AlertRule,
  alertProblems,
  availableMetrics,
  DATE_BREAKDOWNS,
  describeAlert,
  effectiveBreakdowns,
  metricLabel,
  NOTICE_WHEN,
  type NoticeSettingsInput,
  type NoticesView,
  type NoticeWhen,
  type WatchedReport,
} from '../src/core';
import { SIDEBAR_CHANNELS } from './channels/channels';
import { el, field, notice, replaceChildren, select } from './dom';
import { sheetTime } from './time';

const WHEN_LABELS: Record<NoticeWhen, string> = {
  failure: 'When it fails, and when it recovers',
  always: 'After every refresh',
  never: 'Never',
};
const KIND_LABELS: Record<AlertRule['kind'], string> = {
  below: 'Total below',
  above: 'Total above',
  change: 'Day-on-day change',
  zero: 'A key drops to 0',
};

export interface NoticeFields {
  node: HTMLElement;
  /** The notices and the alert rules to save with the report (alerts left out when there are none). */
  value(): { notices: NoticeSettingsInput; alerts?: AlertRule[] };
  /** Shows a saved report's (its view: when each alert last fired). */
  set(saved: { notices?: NoticeSettingsInput; alerts?: AlertRule[] }, view?: NoticesView): void;
  /** The report the alerts watch: its metrics and breakdowns are the choices. */
  watch(report: WatchedReport | undefined): void;
  /** Offers the alerts, or not (then value() has none): a BigQuery report's are refused. */
  offerAlerts(offered: boolean): void;
}

/** The inputs of the form that makes one alert rule: its kind, and the fields each kind needs. */
function ruleInputs(id: (name: string) => string) {
  return {
    kind: select(
      (Object.keys(KIND_LABELS) as AlertRule['kind'][]).map((k) => [k, KIND_LABELS[k]] as const),
      'below',
      { id: id('alert-kind'), 'aria-label': 'Alert kind' },
    ),
    metric: el('select', { id: id('alert-metric'), 'aria-label': 'Metric' }),
    value: el('input', { type: 'number', id: id('alert-value'), step: 'any', 'aria-label': 'Threshold' }),
    percent: el('input', { type: 'number', id: id('alert-percent'), min: 1, step: 'any', value: 30, 'aria-label': 'Change in %' }),
    against: select(
      [
        ['previousDay', 'against the day before'],
        ['sameWeekday', 'against a week before'],
      ],
      'previousDay',
      { id: id('alert-against'), 'aria-label': 'Compared with' },
    ),
    direction: select(
      [
        ['down', 'down by'],
        ['up', 'up by'],
        ['either', 'either way by'],
      ],
      'down',
      { id: id('alert-direction'), 'aria-label': 'Direction' },
    ),
    key: el('select', { id: id('alert-key'), 'aria-label': 'Key' }),
    detail: el('div', { class: 'alert-detail' }),
  };
}
type RuleInputs = ReturnType<typeof ruleInputs>;

/** Shows the fields the chosen kind of rule needs. */
function showRuleDetail({ kind, metric, value, percent, against, direction, key, detail }: RuleInputs) {
  switch (kind.value as AlertRule['kind']) {
    case 'below':
    case 'above':
      return replaceChildren(detail, el('div', { class: 'row' }, metric, value));
    case 'change':
      return replaceChildren(
        detail,
        el('div', { class: 'row' }, metric, direction),
        el('div', { class: 'row' }, el('div', { class: 'narrow percent-field' }, percent), against),
      );
    case 'zero':
      return replaceChildren(detail, el('div', { class: 'row' }, metric, el('span', { class: 'narrow hint' }, 'of a'), key));
  }
}

/** The rule the form makes, or what to fix first. */
function ruleOf({ kind, metric, value, percent, against, direction, key }: RuleInputs): AlertRule | string {
  const m = metric.value;
  if (!m) return 'Choose a metric of the report.';
  switch (kind.value as AlertRule['kind']) {
    case 'below':
    case 'above': {
      if (value.value.trim() === '' || !Number.isFinite(Number(value.value))) return 'Write the threshold as a number.';
      return { kind: kind.value as 'below' | 'above', metric: m, value: Number(value.value) };
    }
    case 'change': {
      if (!Number.isFinite(Number(percent.value)) || percent.value.trim() === '') return 'Write the change as a percentage, such as 30.';
      const rule: AlertRule = {
        kind: 'change',
        metric: m,
        against: against.value as 'previousDay' | 'sameWeekday',
        percent: Number(percent.value),
      };
      if (direction.value !== 'down') rule.direction = direction.value as 'up' | 'either';
      return rule;
    }
    case 'zero':
      return key.value ? { kind: 'zero', metric: m, key: key.value } : 'Break the report down by day and by a key, such as widget, first.';
  }
}

/** Offers the report's metrics and keys (its breakdowns other than dates) as the form's choices. */
function offerChoices({ metric, key }: RuleInputs, report: WatchedReport | undefined): void {
  const options = (node: HTMLSelectElement, values: readonly string[]) => {
    const kept = node.value;
    replaceChildren(node, ...values.map((v) => el('option', { value: v, selected: v === kept }, v)));
  };
  // Every metric the report's breakdowns give, when it keeps them all.
  const breakdowns = report ? effectiveBreakdowns(report.kind, report.breakdowns ?? []) : [];
  const metrics = report ? (report.metrics ?? availableMetrics(report.kind, breakdowns)) : [];
  options(metric, metrics);
  metric.title = metrics.map((m) => `${m}: ${metricLabel(m)}`).join('\n');
  options(
    key,
    breakdowns.filter((b) => !DATE_BREAKDOWNS.has(b)),
  );
}

/** The rules listed, each with when it last fired (known only to whoever saved the report) and its Remove button. */
function ruleItems(rules: readonly AlertRule[], view: NoticesView | undefined, timeZone: string, remove: (i: number) => void) {
  const items = rules.map((rule, i) => {
    const text = describeAlert(rule);
    const state = view?.alerts.find((a) => a.text === text);
    const when = !view?.known
      ? ''
      : state?.lastFired
        ? `last fired ${sheetTime(state.lastFired, timeZone)}${state.firing ? ', still holds' : ''}`
        : 'never fired';
    const button = el(
      'button',
      { type: 'button', class: 'link alert-remove', 'aria-label': `Remove the alert: ${text}`, onclick: () => remove(i) },
      'Remove',
    );
    return el(
      'li',
      { class: 'alert-rule' },
      el('span', { class: 'alert-text' }, text),
      when ? el('span', { class: 'hint alert-fired' }, when) : null,
      button,
    );
  });
  return items.length > 0 ? items : [el('li', { class: 'hint' }, 'No alerts.')];
}

/** The alert rules: their list and the form that adds one, checked against the watched report as it is added. */
function alertFields(id: (name: string) => string, timeZone: string) {
  let rules: AlertRule[] = [];
  let view: NoticesView | undefined;
  let watched: WatchedReport | undefined;
  const inputs = ruleInputs(id);
  const list = el('ul', { class: 'alert-list', id: id('alerts') });
  const problem = el('div', { id: id('alert-problem'), 'aria-live': 'polite' });
  const add = el('button', { type: 'button', class: 'secondary', id: id('alert-add') }, 'Add alert');
  const renderList = () => {
    replaceChildren(
      list,
      ...ruleItems(rules, view, timeZone, (i) => {
        rules = rules.filter((_, j) => j !== i);
        renderList();
      }),
    );
    add.disabled = rules.length >= ALERTS_MAX;
  };
  add.addEventListener('click', () => {
    const rule = ruleOf(inputs);
    if (typeof rule === 'string') return replaceChildren(problem, notice('error', rule));
    const found = watched
      ? alertProblems(watched, [...rules, rule]).find((p) => p.argument.startsWith(`alerts.${rules.length}`))
      : undefined;
    if (found) return replaceChildren(problem, notice('error', found.message.replace(/^alerts\.\d+(\.\w+)?: /, '')));
    rules = [...rules, rule];
    replaceChildren(problem);
    renderList();
  });
  inputs.kind.addEventListener('change', () => showRuleDetail(inputs));
  showRuleDetail(inputs);
  renderList();
  const form = el('div', { class: 'alert-add' }, inputs.kind, inputs.detail, el('div', { class: 'actions' }, add));
  return {
    node: el('div', { class: 'alert-fields' }, el('h4', {}, 'Alerts'), list, form, problem),
    rules: () => [...rules],
    set(saved: readonly AlertRule[] | undefined, shown: NoticesView | undefined) {
      rules = [...(saved ?? [])];
      view = shown;
      replaceChildren(problem);
      renderList();
    },
    watch(report: WatchedReport | undefined) {
      watched = report;
      offerChoices(inputs, report);
    },
  };
}

export function noticeFields(prefix: string, timeZone?: string): NoticeFields {
  const id = (name: string) => `${prefix}-${name}`;
  const when = select(
    NOTICE_WHEN.map((w) => [w, WHEN_LABELS[w]] as const),
    'failure',
    { id: id('notify-when') },
  );
  const channels = SIDEBAR_CHANNELS.map((channel) => channel.fields(id));
  const alerts = alertFields(id, timeZone ?? 'UTC');
  const node = el(
    'div',
    { class: 'notice-fields' },
    el('h4', {}, 'Notices'),
    field('Tell me', when),
    ...channels.flatMap((channel) => channel.nodes),
    alerts.node,
  );
  return {
    node,
    value() {
      const notices: NoticeSettingsInput = { when: when.value as NoticeWhen };
      for (const channel of channels) channel.read(notices);
      const rules = alerts.rules();
      return rules.length > 0 && !alerts.node.hidden ? { notices, alerts: rules } : { notices };
    },
    set(saved, shown) {
      when.value = saved.notices?.when ?? 'failure';
      for (const channel of channels) channel.show(saved.notices);
      alerts.set(saved.alerts, shown);
    },
    watch: (report) => alerts.watch(report),
    offerAlerts(offered) {
      alerts.node.hidden = !offered;
    },
  };
}

/** The Schedules list's lines on a report's notices: how, the last one sent, and each alert with when it last fired. */
export function noticesSummary(notices: NoticesView, timeZone: string): HTMLElement {
  const channels =
    SIDEBAR_CHANNELS.map((channel) => channel.named(notices))
      .filter(Boolean)
      .join(' and ') || 'no channel';
  const told =
    notices.when === 'never'
      ? 'never about refreshes'
      : `${notices.when === 'always' ? 'after every refresh' : 'on failure and recovery'}, by ${channels}`;
  const lines = el('dl', { class: 'schedule-notices-status' });
  const row = (label: string, text: string) => lines.append(el('dt', {}, label), el('dd', {}, text));
  row('Notices', told);
  const last = notices.last;
  if (last) {
    const how = SIDEBAR_CHANNELS.map(({ id }) => (last[id] ? `${id} ${last[id]}` : ''))
      .filter(Boolean)
      .join('; ');
    row('Last notice', `${sheetTime(last.at, timeZone)}: ${last.subject.replace(/^Engage: /, '')}${how ? ` (${how})` : ''}`);
  }
  for (const alert of notices.alerts) {
    const fired = !notices.known
      ? 'kept by whoever saved it'
      : alert.lastFired
        ? `last fired ${sheetTime(alert.lastFired, timeZone)}${alert.firing ? ', still holds' : ''}`
        : 'never fired';
    row('Alert', `${alert.text}: ${fired}`);
  }
  return lines;
}
