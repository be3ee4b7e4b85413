/**
 * End to end, a change alert's notice says what drove the change, through email (the host's MailApp
 * record) and a webhook (the emulator's receiver), from the hourly run of the built bundle. The
 * emulator is made to cause a change (one widget's revenue of one day halved, by its admin API) on
 * a day and the same weekday a week before whose other widgets earned nearly the same. A report by
 * day and widget names the top 3 drivers, that widget first with at least 90 % of the change, to the
 * cent of what the emulator now answers, the parts adding up to the whole's change, with no request
 * beyond the report's own. A report by day only offers the ENGAGE_EXPLAIN formula for the same two
 * days, which, typed into a cell, ranks that widget first too.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID, TOKEN_HEADER } from '../support/emulator';
import { hourlyDailyReport } from '../support/saved-report';
import { nextTriggerRun, useScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
const MINUS = '\u2212';
let h: AddonHarness;

useScheduledAddon(START, { spreadsheetName: 'Sales 2026', sheets: ['Explain'] }, (harness) => {
  h = harness;
});

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const dashed = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`;
const weekBefore = (d: string) => {
  const t = Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6))) - 7 * 86_400_000;
  return new Date(t).toISOString().slice(0, 10).replace(/-/g, '');
};
const cents = (text: string) => Math.round(Number(text.replace(MINUS, '-').replace(/[$,]/g, '')) * 100);

interface WidgetDay {
  day: string;
  widget: { id: string; name: string };
  revenue: number;
}

/** Each day's revenue by widget, asked of the emulator directly (not through the add-on). */
async function widgetDays(fromDate: string, toDate: string): Promise<Map<string, Map<string, WidgetDay>>> {
  const token = JSON.parse(h.host.properties('user', OWNER).get('engage.token')!).token as string;
  const query = new URLSearchParams({ entityId: MEDIUM_PUBLISHER_ID, fromDate, toDate, breakdowns: 'day,widget', limit: '10000' });
  const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
  expect(response.status).toBe(200);
  const days = new Map<string, Map<string, WidgetDay>>();
  for (const item of ((await response.json()) as { items: WidgetDay[] }).items) {
    const widgets = days.get(item.day) ?? new Map<string, WidgetDay>();
    widgets.set(item.widget.id, item);
    days.set(item.day, widgets);
  }
  return days;
}

/**
 * A day and the same weekday a week before whose widgets earned nearly the same, and the widget whose
 * halving stands out most against what else changed between them (the emulator's days differ by up
 * to 30 % of their revenue, so the caused change is looked for against a quiet pair of days).
 */
function quietWeek(days: Map<string, Map<string, WidgetDay>>): { day: string; earlier: string; widget: string } {
  let best = { day: '', earlier: '', widget: '', noise: Number.POSITIVE_INFINITY };
  for (const [day, now] of days) {
    const before = days.get(weekBefore(day));
    if (!before) continue;
    const diffs = [...now.values()].map((w) => Math.abs(w.revenue - (before.get(w.widget.id)?.revenue ?? 0)));
    for (const w of now.values()) {
      const noise = Math.max(...diffs) / (w.revenue / 2);
      if (noise < best.noise) best = { day, earlier: weekBefore(day), widget: w.widget.id, noise };
    }
  }
  return best;
}

const total = (widgets: Map<string, WidgetDay>) => [...widgets.values()].reduce((a, w) => a + Math.round(w.revenue * 100), 0);

describe('a change alert', () => {
  it('names the top 3 drivers through email and webhook, and offers the formula on a report by day only', async () => {
    const pair = quietWeek(await widgetDays('20260801', '20261031'));
    await h.emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, pair.day, 0.5, pair.widget);
    const revised = await widgetDays(pair.earlier, pair.day);
    const before = revised.get(pair.earlier)!;
    const now = revised.get(pair.day)!;
    const dropPercent = ((total(before) - total(now)) / total(before)) * 100;
    expect(dropPercent).toBeGreaterThan(2);
    const alerts = [{ kind: 'change', metric: 'revenue', against: 'sameWeekday', percent: Math.floor(dropPercent) - 1 }];
    const period = { type: 'fixed', fromDate: pair.earlier, toDate: pair.day };
    const notices = (name: string) => ({ when: 'never', email: true, webhook: h.emulator.webhookUrl(name) });
    call(
      'saveSchedule',
      hourlyDailyReport('By widget', { breakdowns: ['day', 'widget'], metrics: ['revenue'], period, alerts, notices: notices('widgets') }),
    );
    call('saveSchedule', hourlyDailyReport('By day', { metrics: ['revenue'], period, alerts, notices: notices('days') }));
    await h.emulator.clearRequests();
    nextTriggerRun(h);
    // One request a report: the drivers come from the rows the report fetched.
    expect((await h.emulator.requests()).filter((r) => r.path.includes('/reports/'))).toHaveLength(2);

    const mails = h.host.mails as Array<{ subject: string; body: string }>;
    const mailOf = (name: string) => mails.find((m) => m.subject.startsWith(`Engage: Alert on "${name}"`))!.body;
    const posts = await h.emulator.webhooks();
    const postOf = (name: string) => (JSON.parse(posts.find((p) => p.path === `/webhooks/${name}`)!.body) as { text: string }).text;

    // By widget: the drivers' line, the same in the email and the webhook's post.
    const line = mailOf('By widget')
      .split('\n')
      .find((l) => l.startsWith(`revenue ${MINUS}`))!;
    expect(postOf('widgets')).toContain(line);
    const head = line.match(/^revenue −(\d+)% \((−\$[\d,.]+)\) vs the same weekday a week before: (.*)\.$/)!;
    expect({ line, matches: head !== null }).toEqual({ line, matches: true });
    expect(Number(head[1])).toBe(Math.round(dropPercent));
    expect(cents(head[2]!)).toBe(total(now) - total(before));
    const parts = [...head[3]!.matchAll(/(widget (.+?) \((\w+)\)|the other \d+|rounding of the totals) ([−+]?\$[\d,.]+) \((−?\d+)%\)/g)];
    // The three widgets the change is largest for (the publisher has three), then the rest, if anything is left.
    expect(parts.slice(0, 3).map((p) => p[3])).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    expect(parts.slice(3).map((p) => p[1])).toEqual(
      parts.length > 3 ? [expect.stringMatching(/^(the other \d+|rounding of the totals)$/)] : [],
    );
    // The caused widget first, its part to the cent of what the emulator now answers, at least 90 % of the change.
    const [, , name, id, amount, share] = parts[0]!;
    expect(id).toBe(pair.widget);
    expect(name).toBe(now.get(pair.widget)!.widget.name);
    expect(cents(amount!)).toBe(Math.round(now.get(pair.widget)!.revenue * 100) - Math.round(before.get(pair.widget)!.revenue * 100));
    expect(Number(share!.replace(MINUS, '-'))).toBeGreaterThanOrEqual(90);
    // Exact: the three drivers and the rest add up to the whole's change.
    expect(parts.reduce((a, p) => a + cents(p[4]!), 0)).toBe(total(now) - total(before));

    // By day only: the formula for the same two days, which finds the same widget.
    const offer = mailOf('By day').match(/To see which widget moved it, run (=ENGAGE_EXPLAIN\(.*\)) in a cell\./)!;
    expect(offer[1]).toBe(
      `=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${dashed(pair.day)}", "${dashed(pair.day)}", "${dashed(pair.earlier)}..${dashed(pair.earlier)}", "revenue", "widget")`,
    );
    expect(postOf('days')).toContain(offer[0]);
    const explained = h.host.evaluateFormula('Explain', 'A1', offer[1]!, { user: OWNER });
    expect(explained.error).toBeUndefined();
    expect((explained.values as unknown[][])[1]![0]).toBe(pair.widget);
  });
});
