/**
 * The manifest's urlFetchWhitelist as Apps Script applies it, written from "Allowlist URLs"
 * (developers.google.com/apps-script/manifest/allowlist-url) and kept apart from the add-on's own
 * check, so that a mistake in one is caught by the other. Entries must be https URLs with a full
 * domain and a non-empty path, and at most one wildcard, as the leading "*." of the host. A URL
 * matches an entry it equals or is a child of; scheme and host compare without case, the path with
 * case; "*." stands for at least one subdomain. Loopback addresses are exempt here: the host's tests
 * and playground talk to a local emulator that Apps Script itself could never reach.
 */

const ENTRY = /^https:\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)+)(:\d+)?(\/[^\s]*)$/i;

/** Checks entries as Apps Script does when the manifest is saved; the message names the entry. */
export function checkWhitelist(entries: readonly unknown[]): string[] {
  return entries.map((entry) => {
    const text = String(entry);
    if (!/^https:\/\//i.test(text)) throw new Error(`urlFetchWhitelist: URLs must use the HTTPS scheme: ${text}`);
    if (!ENTRY.test(text))
      throw new Error(
        `urlFetchWhitelist: ${text} must be an https URL with a full domain, a non-empty path and at most one leading "*." wildcard`,
      );
    return text;
  });
}

interface Parsed {
  scheme: string;
  host: string;
  rest: string;
}

function parse(url: string): Parsed | undefined {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(url);
  if (!m) return undefined;
  return { scheme: m[1]!.toLowerCase(), host: m[2]!.replace(/^.*@/, '').toLowerCase(), rest: m[3] || '/' };
}

function entryMatches(url: Parsed, entry: string): boolean {
  const e = parse(entry);
  if (!e || e.scheme !== url.scheme) return false;
  if (e.host.startsWith('*.')) {
    const suffix = e.host.slice(1);
    if (!(url.host.endsWith(suffix) && url.host.length > suffix.length)) return false;
  } else if (e.host !== url.host) {
    return false;
  }
  if (!url.rest.startsWith(e.rest)) return false;
  if (e.rest.endsWith('/')) return true;
  return ['', '/', '?', '#'].includes(url.rest.charAt(e.rest.length));
}

/** localhost, [::1] or a dotted address of 127.0.0.0/8, as the add-on's own check (src/core/deployment.ts). */
export function isLoopback(url: string): boolean {
  const host = parse(url)?.host.replace(/:\d+$/, '') ?? '';
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return host === 'localhost' || host === '[::1]' || v4?.slice(1).every((part) => Number(part) <= 255) === true;
}

/** True when Apps Script would fetch `url` under these entries (always, with no whitelist). */
export function whitelistAllows(url: string, entries: readonly string[] | undefined): boolean {
  if (entries === undefined || isLoopback(url)) return true;
  const parsed = parse(url);
  return parsed !== undefined && entries.some((entry) => entryMatches(parsed, entry));
}

/**
 * Apps Script's refusal, as reported by users (2021-2022): the URL is shown without its query, with
 * the "?" kept. UNCONFIRMED: no official page states it; newer wording may say "allowlisted".
 */
export function whitelistRefusal(url: string): string {
  const cut = url.search(/[?#]/);
  const shown = cut < 0 ? url : `${url.slice(0, cut)}${url.charAt(cut) === '?' ? '?' : ''}`;
  return `Request to ${shown} failed because the URL has not been whitelisted in the script manifest.`;
}
