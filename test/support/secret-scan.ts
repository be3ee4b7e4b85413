/**
 * Scanning everything the local host holds for a secret, as it is and in the encodings it could
 * travel in: the users' properties (where a secret may live), document and script properties, caches
 * (formula results decompressed too), logs, every cell's value, formula, note and error, charts, named
 * ranges, data source sheets, toasts, alerts, menus, triggers, mails, dialogs and sidebars, plus what the
 * test saw entry points throw and return. The security evidence (test/evidence/security*.test.ts) asks
 * where each secret of a session is held, and expects only the owner's user properties, or nowhere.
 */
import type { GasHost } from '../../dev/gas-host';
import { readableCacheTexts } from './cache-contents';

export interface Holding {
  place: string;
  text: string;
}

/** A secret as it is and in the encodings it could travel in. */
export function encodedForms(secret: string): string[] {
  const base64 = Buffer.from(secret, 'utf8').toString('base64');
  return [
    ...new Set([secret, encodeURIComponent(secret), base64, base64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url')]),
  ];
}

/**
 * Every text the host holds, with where it is, for `users`, plus `seen`: the messages the session's
 * entry points threw and the values they returned, each with where it came from.
 */
export function everythingHeld(host: GasHost, users: readonly string[], seen: readonly Holding[] = []): Holding[] {
  const held: Holding[] = [];
  const state = host.state;
  for (const user of users) {
    for (const [key, value] of host.properties('user', user))
      held.push({ place: `user properties of ${user}: ${key}`, text: `${key}=${value}` });
  }
  for (const scope of ['document', 'script'] as const) {
    for (const [key, value] of host.properties(scope, users[0]!))
      held.push({ place: `${scope} properties: ${key}`, text: `${key}=${value}` });
  }
  for (const entry of state.caches.allEntries())
    held.push({ place: `cache ${entry.cache}: ${entry.key}`, text: `${entry.key}=${entry.value}` });
  // Formula results are stored compressed: scan what they hold as well as their raw entries.
  for (const cache of new Set(state.caches.allEntries().map((e) => e.cache))) {
    const entries = state.caches.allEntries().filter((e) => e.cache === cache);
    readableCacheTexts(entries)
      .slice(entries.length)
      .forEach((text, i) => {
        held.push({ place: `cache ${cache}: compressed value ${i + 1}`, text });
      });
  }
  held.push({ place: 'logs', text: host.logText() });
  for (const log of state.logs) held.push({ place: `log of ${log.functionName}`, text: log.text });
  for (const sheet of state.spreadsheet.sheets) {
    held.push({ place: `sheet name ${sheet.name}`, text: sheet.name });
    for (const [key, cell] of sheet.cells) {
      const value = cell.value instanceof Date ? cell.value.toISOString() : String(cell.value);
      held.push({ place: `cell ${sheet.name}!${key}`, text: [value, cell.formula ?? '', cell.note ?? '', cell.error ?? ''].join('\n') });
    }
    for (const chart of sheet.charts) held.push({ place: `chart on ${sheet.name}`, text: JSON.stringify(chart) });
    // A data source sheet (Connected Sheets): its spec as inserted.
    if (sheet.dataSource) held.push({ place: `data source of ${sheet.name}`, text: JSON.stringify(sheet.dataSource) });
  }
  for (const [name, range] of state.spreadsheet.namedRanges)
    held.push({ place: `named range ${name}`, text: `${name}=${JSON.stringify(range)}` });
  held.push(...seen);
  held.push({ place: 'toasts', text: JSON.stringify(state.ui.toasts) });
  held.push({ place: 'alerts', text: JSON.stringify(state.ui.alerts) });
  held.push({ place: 'menus', text: JSON.stringify(state.ui.menus) });
  held.push({ place: 'triggers', text: JSON.stringify(state.triggers.records) });
  held.push({ place: 'mails', text: JSON.stringify(state.mail.sent) });
  held.push({ place: 'dialogs', text: JSON.stringify(state.ui.dialogs) });
  for (const s of state.ui.sidebars) held.push({ place: 'sidebar html', text: s.html });
  return held;
}

/** Where `secret`, in any of its encodings, is held. */
export function placesHolding(held: readonly Holding[], secret: string): string[] {
  const forms = encodedForms(secret);
  return held.filter((h) => forms.some((f) => h.text.includes(f))).map((h) => h.place);
}
