/**
 * A saved report's notices and alerts, shared by the Report tab's Schedule section and the Schedules
 * tab's edit form: when to be told (on failure and recovery, after every refresh, or never), by email
 * to the user and/or a webhook address, and the alert rules on the report's figures, each listed with
 * when it last fired, removable, and added through a small form whose choices are the report's own
 * metrics and breakdowns; a rule is checked by the core's own rules (alertProblems) as it is added.
 * A saved webhook comes back only as its host ("https://hooks.slack.com/…"): left as it is, it stays;
 * cleared, it is removed. The alerts can be withdrawn (a BigQuery report has none: they watch a
 * sheet's figures), the notices staying. All text is set as text.
 */
import {
  ALERTS_MAX,
  type AlertRule,
  alertProblems,
  availableMetrics,
  DATE_BREAKDOWNS,
  describeAlert,
  effectiveBreakdowns,
  isRedactedWebhook,
  metricLabel,
  NOTICE_WHEN,
  type NoticeSettingsInput,
  type NoticesView,
  type NoticeWhen,
  type WatchedReport,
} from '../src/core';
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

export function noticeFields(prefix: string, timeZone?: string): NoticeFields {
  const id = (name: string) => `${prefix}-${name}`;
  const when = select(
    NOTICE_WHEN.map((w) => [w, WHEN_LABELS[w]] as const),
    'failure',
    { id: id('notify-when') },
  );
  const email = el('input', { type: 'checkbox', id: id('notify-email'), checked: true });
  const webhook = el('input', {
    type: 'url',
    id: id('webhook'),
    maxlength: 500,
    autocomplete: 'off',
    placeholder: 'https://chat.googleapis.com/v1/spaces/…',
  });
  let rules: AlertRule[] = [];
  let view: NoticesView | undefined;
  let watched: WatchedReport | undefined;
  const list = el('ul', { class: 'alert-list', id: id('alerts') });
  const kind = select(
    (Object.keys(KIND_LABELS) as AlertRule['kind'][]).map((k) => [k, KIND_LABELS[k]] as const),
    'below',
    { id: id('alert-kind'), 'aria-label': 'Alert kind' },
  );
  const metric = el('select', { id: id('alert-metric'), 'aria-label': 'Metric' });
  const value = el('input', { type: 'number', id: id('alert-value'), step: 'any', 'aria-label': 'Threshold' });
  const percent = el('input', { type: 'number', id: id('alert-percent'), min: 1, step: 'any', value: 30, 'aria-label': 'Change in %' });
  const against = select(
    [
      ['previousDay', 'against the day before'],
      ['sameWeekday', 'against a week before'],
    ],
    'previousDay',
    { id: id('alert-against'), 'aria-label': 'Compared with' },
  );
  const direction = select(
    [
      ['down', 'down by'],
      ['up', 'up by'],
      ['either', 'either way by'],
    ],
    'down',
    { id: id('alert-direction'), 'aria-label': 'Direction' },
  );
  const key = el('select', { id: id('alert-key'), 'aria-label': 'Key' });
  const detail = el('div', { class: 'alert-detail' });
  const problem = el('div', { id: id('alert-problem'), 'aria-live': 'polite' });
  const add = el('button', { type: 'button', class: 'secondary', id: id('alert-add') }, 'Add alert');

  const options = (node: HTMLSelectElement, values: readonly string[], label: (v: string) => string) => {
    const kept = node.value;
    replaceChildren(node, ...values.map((v) => el('option', { value: v, selected: v === kept }, label(v))));
  };
  const keysOf = (report: WatchedReport) =>
    effectiveBreakdowns(report.kind, report.breakdowns ?? []).filter((b) => !DATE_BREAKDOWNS.has(b));

  function renderDetail() {
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

  function renderList(): void {
    const fired = (text: string) => view?.alerts.find((a) => a.text === text);
    replaceChildren(
      list,
      ...rules.map((rule, i) => {
        const text = describeAlert(rule);
        const state = fired(text);
        const when = !view?.known
          ? ''
          : state?.lastFired
            ? `last fired ${sheetTime(state.lastFired, timeZone ?? 'UTC')}${state.firing ? ', still holds' : ''}`
            : 'never fired';
        return el(
          'li',
          { class: 'alert-rule' },
          el('span', { class: 'alert-text' }, text),
          when ? el('span', { class: 'hint alert-fired' }, when) : null,
          el(
            'button',
            {
              type: 'button',
              class: 'link alert-remove',
              'aria-label': `Remove the alert: ${text}`,
              onclick: () => {
                rules = rules.filter((_, j) => j !== i);
                renderList();
              },
            },
            'Remove',
          ),
        );
      }),
    );
    if (rules.length === 0) list.append(el('li', { class: 'hint' }, 'No alerts.'));
    add.disabled = rules.length >= ALERTS_MAX;
  }

  function newRule(): AlertRule | string {
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
        return key.value
          ? { kind: 'zero', metric: m, key: key.value }
          : 'Break the report down by day and by a key, such as widget, first.';
    }
  }

  add.addEventListener('click', () => {
    const rule = newRule();
    if (typeof rule === 'string') return replaceChildren(problem, notice('error', rule));
    const found = watched
      ? alertProblems(watched, [...rules, rule]).find((p) => p.argument.startsWith(`alerts.${rules.length}`))
      : undefined;
    if (found) return replaceChildren(problem, notice('error', found.message.replace(/^alerts\.\d+(\.\w+)?: /, '')));
    rules = [...rules, rule];
    replaceChildren(problem);
    renderList();
  });
  kind.addEventListener('change', renderDetail);
  renderDetail();
  renderList();

  const alertsBox = el(
    'div',
    { class: 'alert-fields' },
    el('h4', {}, 'Alerts'),
    list,
    el('div', { class: 'alert-add' }, kind, detail, el('div', { class: 'actions' }, add)),
    problem,
  );
  const node = el(
    'div',
    { class: 'notice-fields' },
    el('h4', {}, 'Notices'),
    field('Tell me', when),
    el('label', { class: 'check', for: email.id }, email, 'By email to me'),
    field(
      'Webhook',
      webhook,
      'A Google Chat or Slack incoming webhook, or another https address this installation allows. Kept in your user properties; shown later by its host only.',
    ),
    alertsBox,
  );
  return {
    node,
    value() {
      const notices: NoticeSettingsInput = { when: when.value as NoticeWhen, email: email.checked };
      const address = webhook.value.trim();
      if (address) notices.webhook = address;
      return rules.length > 0 && !alertsBox.hidden ? { notices, alerts: [...rules] } : { notices };
    },
    set(saved, shown) {
      when.value = saved.notices?.when ?? 'failure';
      email.checked = saved.notices?.email !== false;
      const address = saved.notices?.webhook ?? '';
      webhook.value = address;
      webhook.title = isRedactedWebhook(address) ? 'The saved address, shown by its host: leave it to keep it, clear it to remove it.' : '';
      rules = [...(saved.alerts ?? [])];
      view = shown;
      replaceChildren(problem);
      renderList();
    },
    watch(report) {
      watched = report;
      // Every metric the report's breakdowns give, when it keeps them all.
      const metrics = report
        ? (report.metrics ?? availableMetrics(report.kind, effectiveBreakdowns(report.kind, report.breakdowns ?? [])))
        : [];
      options(metric, metrics, (m) => m);
      metric.title = metrics.map((m) => `${m}: ${metricLabel(m)}`).join('\n');
      options(key, report ? keysOf(report) : [], (k) => k);
    },
    offerAlerts(offered) {
      alertsBox.hidden = !offered;
    },
  };
}

/** The Schedules list's lines on a report's notices: how, the last one sent, and each alert with when it last fired. */
export function noticesSummary(notices: NoticesView, timeZone: string): HTMLElement {
  const channels =
    [notices.email ? 'email' : '', notices.webhook ? `webhook (${notices.webhook})` : ''].filter(Boolean).join(' and ') || 'no channel';
  const told =
    notices.when === 'never'
      ? 'never about refreshes'
      : `${notices.when === 'always' ? 'after every refresh' : 'on failure and recovery'}, by ${channels}`;
  const lines = el('dl', { class: 'schedule-notices-status' });
  const row = (label: string, text: string) => lines.append(el('dt', {}, label), el('dd', {}, text));
  row('Notices', told);
  if (notices.last) {
    const how = [notices.last.email ? `email ${notices.last.email}` : '', notices.last.webhook ? `webhook ${notices.last.webhook}` : '']
      .filter(Boolean)
      .join('; ');
    row(
      'Last notice',
      `${sheetTime(notices.last.at, timeZone)}: ${notices.last.subject.replace(/^Engage: /, '')}${how ? ` (${how})` : ''}`,
    );
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
