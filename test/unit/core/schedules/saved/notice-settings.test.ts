/**
 * A saved report's notices and alert rules as they are saved: a rule that could never be evaluated on
 * the report it watches is refused naming the field and the rule; the webhook address is checked
 * against the deployment's webhook prefixes and split from the definition, which keeps only its host;
 * the registry sets aside room for what the notices remember and forgets it with the report.
 */
import { checkSavedReport, type SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { ValidationError } from '../../../../../src/core/errors';
import { splitSecrets, storeSecrets } from '../../../../../src/core/schedules/watchers/notice-secrets';
import { describeAlert } from '../../../../../src/core/schedules/saved/notice-settings';
import { redactedWebhook } from '../../../../../src/core/channels/webhook';
import { noticeRecordMaxBytes } from '../../../../../src/core/schedules/saved/notice-record';
import { ScheduleRegistry } from '../../../../../src/core/schedules/saved/registry';
import { webhookAddressProblem } from '../../../../../src/core/deployment';
import { FakeStore } from '../../../../support/fakes';

const base = {
  name: 'Daily revenue',
  kind: 'main',
  entityId: 'p1',
  period: { type: 'lastDays', days: 14, endingYesterday: true },
  breakdowns: ['day'],
  metrics: ['paidPvs', 'revenue', 'rpmByPvs', 'viewabilityRate'],
  target: { sheetName: 'Data', cell: 'A1' },
  schedule: { every: 'day', hour: 6 },
};
const refusal = (extra: Record<string, unknown>) => {
  try {
    checkSavedReport({ ...base, ...extra });
  } catch (e) {
    if (e instanceof ValidationError) return e.message;
    throw e;
  }
  return 'accepted';
};
const DEPLOYMENT = { webhookPrefixes: ['https://chat.googleapis.com/v1/spaces/', 'https://hooks.slack.com/services/'] };

describe('alert rules', () => {
  // Rows of three or four: the test takes them as one list (jest would read a fourth parameter as `done`).
  const cases: Array<[string, unknown[], string | RegExp, Record<string, unknown>?]> = [
    [
      'an unknown metric',
      [{ kind: 'below', metric: 'popularity', value: 5 }],
      "alerts.0.metric: 'popularity' is not a metric of the general report",
    ],
    [
      'a metric the report does not show',
      [{ kind: 'below', metric: 'paidClicks', value: 5 }],
      /^alerts\.0\.metric: 'paidClicks' is not among the report's metrics \(paidPvs, revenue, rpmByPvs, viewabilityRate\)/,
    ],
    ['below 0', [{ kind: 'below', metric: 'revenue', value: 0 }], 'alerts.0.value: 0 can never be reached: Revenue is never below 0'],
    [
      'above a negative number',
      [{ kind: 'above', metric: 'revenue', value: -1 }],
      'alerts.0.value: -1 would hold at every refresh: Revenue is never below 0',
    ],
    [
      'a viewability above 100',
      [{ kind: 'above', metric: 'viewabilityRate', value: 120 }],
      'alerts.0.value: 120 can never be passed: Viewability is a percentage of at most 100',
    ],
    [
      'a drop of more than 100%',
      [{ kind: 'change', metric: 'revenue', against: 'previousDay', percent: 150 }],
      'alerts.0.percent: 150 can never be reached: a figure cannot drop by more than 100%',
    ],
    [
      'a change of 0%',
      [{ kind: 'change', metric: 'revenue', against: 'previousDay', percent: 0, direction: 'up' }],
      'alerts.0.percent: 0 must be more than 0',
    ],
    [
      'a week back over 7 days',
      [{ kind: 'change', metric: 'revenue', against: 'sameWeekday', percent: 20 }],
      /alerts\.0\.against: needs a period of at least 8 finished days .*this one has 7/,
      { period: { type: 'lastDays', days: 7, endingYesterday: true } },
    ],
    [
      'a change without days',
      [{ kind: 'change', metric: 'revenue', against: 'previousDay', percent: 20 }],
      'alerts.0: needs the general report broken down by day: its rows by day give the figures it compares',
      { breakdowns: ['country'] },
    ],
    [
      'a key that is not a breakdown',
      [{ kind: 'zero', metric: 'revenue', key: 'widget' }],
      "alerts.0.key: must be one of the report's breakdowns other than day (country)",
      { breakdowns: ['day', 'country'] },
    ],
    [
      'a drop with maxRows',
      [{ kind: 'zero', metric: 'revenue', key: 'country' }],
      'alerts.0: cannot be combined with maxRows: rows left out would look like figures that dropped',
      { breakdowns: ['day', 'country'], maxRows: 50 },
    ],
    [
      'a rate that cannot be added up',
      [{ kind: 'change', metric: 'viewabilityRate', against: 'previousDay', percent: 20 }],
      /alerts\.0\.metric: 'viewabilityRate' cannot be added up over the report's rows of a day/,
      { breakdowns: ['day', 'country'] },
    ],
    [
      'the same rule twice',
      [
        { kind: 'below', metric: 'revenue', value: 5 },
        { kind: 'below', metric: 'revenue', value: 5 },
      ],
      'alerts.1: is the same rule as alerts.0',
    ],
    ['an unknown kind', [{ kind: 'sometimes', metric: 'revenue' }], /^alerts\.0\.kind: must be an alert rule/],
    ['a threshold as text', [{ kind: 'below', metric: 'revenue', value: '5' }], 'alerts.0.value: must be a number'],
    [
      '11 rules',
      Array.from({ length: 11 }, (_, i) => ({ kind: 'above', metric: 'revenue', value: i + 1 })),
      'alerts: has more than 10 rules; a saved report may have at most 10',
    ],
    [
      'no channel',
      [{ kind: 'below', metric: 'revenue', value: 5 }],
      'alerts: are sent through the notices of the report: turn on notices.email, or give notices.webhook',
      { notices: { email: false } },
    ],
    [
      'a rate threshold on an append, whose snapshots have no Total row',
      [{ kind: 'below', metric: 'viewabilityRate', value: 50 }],
      /^alerts\.0\.metric: 'viewabilityRate' cannot be totalled from the rows without the Total row/,
      { writeMode: 'append' },
    ],
    ['an unknown notice setting', [], 'notices.colour: is not a field of a saved report', { notices: { colour: 'red' } }],
    [
      'an unknown "when"',
      [],
      /^notices\.when: must be 'failure' \(failures, and the recovery after one: the default\), 'always'/,
      { notices: { when: 'sometimes' } },
    ],
  ];
  it.each(cases)('refuses %s, naming the field', (...row) => {
    const [, alerts, message, extra] = row;
    const text = refusal({ alerts, ...extra });
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
  });

  it('takes rules each report can evaluate, and says them in words', () => {
    const rules = [
      { kind: 'below', metric: 'revenue', value: 100 },
      { kind: 'change', metric: 'rpmByPvs', against: 'sameWeekday', percent: 30 },
      { kind: 'change', metric: 'revenue', against: 'previousDay', percent: 150, direction: 'up' },
    ];
    expect(refusal({ alerts: rules })).toBe('accepted');
    expect(
      refusal({
        breakdowns: ['day', 'widget'],
        metrics: ['paidReqs', 'revenue'],
        alerts: [{ kind: 'zero', metric: 'paidReqs', key: 'widget' }],
      }),
    ).toBe('accepted');
    expect(rules.map((r) => describeAlert(checkSavedReport({ ...base, alerts: [r] }).alerts![0]!))).toEqual([
      'revenue (Total row) below 100',
      'rpmByPvs of the latest settled day drops by 30% or more against the same weekday a week earlier',
      'revenue of the latest settled day rises by 150% or more against the day before',
    ]);
  });
});

describe('the webhook address', () => {
  it('must be https under the deployment’s prefixes; plain http only to this machine, and only for local servers', () => {
    expect(webhookAddressProblem('https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t', DEPLOYMENT)).toBeUndefined();
    expect(webhookAddressProblem('https://hooks.example.org/x', DEPLOYMENT)).toBe(
      "must start with https://chat.googleapis.com/v1/spaces/ or https://hooks.slack.com/services/, the webhook addresses this installation of Engage may post to (its manifest's urlFetchWhitelist)",
    );
    expect(webhookAddressProblem('http://hooks.slack.com/services/x', DEPLOYMENT)).toMatch(/^must be an https address/);
    expect(webhookAddressProblem('https://user:pw@hooks.slack.com/services/x', DEPLOYMENT)).toMatch(
      /must not carry a user name or password/,
    );
    expect(webhookAddressProblem('https://hooks.slack.com/services/ü', DEPLOYMENT)).toMatch(/plain ASCII characters/);
    expect(webhookAddressProblem('http://127.0.0.1:9/webhooks/a', DEPLOYMENT)).toMatch(/does not post to a server on this machine/);
    expect(webhookAddressProblem('http://127.0.0.1:9/webhooks/a', { ...DEPLOYMENT, localServers: true })).toBeUndefined();
    expect(webhookAddressProblem('https://hooks.slack.com/services/x', {})).toMatch(
      /lists no webhook addresses \(webhookPrefixes in its deploy config\)/,
    );
  });

  it('is split from the definition, which keeps its host; the host given back keeps it, another is refused, none removes it', () => {
    const url = 'https://hooks.slack.com/services/T1/B2/SECRET';
    const input = checkSavedReport({ ...base, notices: { webhook: url } });
    const split = splitSecrets(input, undefined, DEPLOYMENT);
    expect(split.webhook).toBe(url);
    expect(split.definition.notices).toEqual({ webhook: 'https://hooks.slack.com/…' });
    expect(JSON.stringify(split.definition)).not.toContain('SECRET');
    const before = split.definition;
    expect(splitSecrets(before, before, DEPLOYMENT).webhook).toBeUndefined();
    expect(() =>
      splitSecrets(checkSavedReport({ ...base, notices: { webhook: 'https://chat.googleapis.com/…' } }), before, DEPLOYMENT),
    ).toThrow('notices.webhook: must be the whole address: a saved address is shown only as its host, so give it again to change it');
    expect(() =>
      splitSecrets(checkSavedReport({ ...base, notices: { webhook: 'https://evil.example/hook?key=S3' } }), before, DEPLOYMENT),
    ).toThrow(/^notices\.webhook: \('https:\/\/evil\.example\/…'\) must start with https:\/\/chat\.googleapis\.com/);
    const removed = splitSecrets(checkSavedReport({ ...base, notices: { when: 'always', webhook: '' } }), before, DEPLOYMENT);
    expect(removed).toEqual({ definition: expect.objectContaining({ notices: { when: 'always' } }), webhook: null });
    expect(redactedWebhook('HTTPS://Hooks.Slack.com/services/x')).toBe('https://hooks.slack.com/…');
  });
});

describe('what the notices remember, in the registry', () => {
  const report = (id: string, extra: Record<string, unknown> = {}): SavedReport => ({
    ...checkSavedReport({ ...base, ...extra }),
    id,
    ownerId: 'u1',
    createdAtMs: 1,
    updatedAtMs: 1,
  });

  it('is kept per report, forgotten with it, and counted at its most when a report is saved', () => {
    const store = new FakeStore();
    const registry = new ScheduleRegistry({ store });
    registry.putDefinition('doc-a', report('r1'));
    storeSecrets(registry, 'doc-a', 'r1', { webhook: 'https://hooks.slack.com/services/T/B/X' });
    expect(new ScheduleRegistry({ store }).notice('doc-a', 'r1')).toEqual({ webhook: 'https://hooks.slack.com/services/T/B/X' });
    storeSecrets(registry, 'doc-a', 'r1', { webhook: null });
    expect([...store.values.keys()].filter((k) => k.startsWith('engage.reg.n.'))).toEqual([]);
    registry.putNotice('doc-a', 'r1', { failure: { reason: 'x', sinceMs: 1, told: true, tries: 1 } });
    registry.removeReport('doc-a', 'r1');
    expect([...store.values.keys()]).toEqual([]);
    // A webhook and ten rules take more room than notices by email alone.
    const rules = Array.from({ length: 10 }, (_, i) => ({ kind: 'above', metric: 'revenue', value: i + 1 }));
    expect(noticeRecordMaxBytes({ alerts: rules, notices: { webhook: 'https://hooks.slack.com/…' } })).toBe(500 + 520 + 1600);
    expect(noticeRecordMaxBytes({})).toBe(500);
    expect(noticeRecordMaxBytes({ notices: { when: 'never' } })).toBe(0);
    // The registry near its 400 KB (37 reports of some 10.6 KB each, counted at their most): a report with
    // notices by email still fits; with ten rules and a webhook, 2.1 KB more, it does not.
    const big = 'x'.repeat(8_500);
    for (let i = 0; i < 37; i++) store.values.set(`engage.reg.d.other.r${i}`, JSON.stringify({ ...report(`r${i}`), filter: big }));
    const full = new ScheduleRegistry({ store });
    expect(full.fits('doc-a', report('new'))).toBe(true);
    expect(full.fits('doc-a', report('new', { alerts: rules, notices: { webhook: 'https://hooks.slack.com/…' } }))).toBe(false);
  });
});
