/**
 * What one deployment of the add-on fixes when it is built (engage.deploy.json): the Engage addresses
 * it calls, which become the settings' defaults and the manifest's urlFetchWhitelist, and whether its
 * users have consumer or Workspace accounts, which sets the Apps Script quotas it plans with. A
 * published add-on's manifest cannot change per user, so an address outside the whitelist is refused
 * when it is saved rather than by Apps Script at every fetch. It also fixes which spreadsheets the
 * add-on may open (spreadsheetAccess), and so how scheduled refreshes reach them. Plain http to this
 * machine (the emulator of the playground and the tests) is accepted only by a build that says
 * `localServers`: a deployment built for Google never takes it, since Apps Script could not reach it and
 * a sidebar may not load it.
 */
import { describePrefixes, withoutQuery } from './util/text';

export type AccountType = 'consumer' | 'workspace';

/**
 * Which spreadsheets the add-on may open: 'all' (the manifest asks for the `spreadsheets` scope, so a
 * scheduled run opens each of the user's spreadsheets by ID, with or without a document, from one
 * trigger per user) or 'current' (`spreadsheets.currentonly`: a run refreshes only the spreadsheet it
 * runs in, from one trigger per spreadsheet, and only when Apps Script gives it that document).
 */
export type SpreadsheetAccess = 'all' | 'current';

/** The OAuth scope each choice puts in the manifest instead of the other. */
export const SPREADSHEET_SCOPES: Readonly<Record<SpreadsheetAccess, string>> = {
  all: 'https://www.googleapis.com/auth/spreadsheets',
  current: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
};

export interface Deployment {
  /** Default of the reporting base address setting, ending with /engage/v2. */
  reportingBaseUrl: string;
  /** Default of the recommendations address setting (the endpoint itself). */
  recommendationsUrl: string;
  /** The manifest's urlFetchWhitelist: https prefixes with a path, each ending in "/". */
  urlFetchWhitelist: string[];
  accountType: AccountType;
  /**
   * Accept plain http addresses on this machine (localhost, 127.0.0.0/8, [::1]) for the settings, the
   * impression pixel and thumbnails: only the playground's and the tests' builds, whose Engage is the
   * local emulator. Absent or false in every build for Google.
   */
  localServers?: boolean;
  /** The manifest's spreadsheet scope (engage.deploy.json's spreadsheetAccess); left out, 'all', the config's default. */
  spreadsheetAccess?: SpreadsheetAccess;
  /**
   * Where notices may post (engage.deploy.json's webhookPrefixes): https prefixes with a path, each
   * ending in "/", such as Google Chat's `https://chat.googleapis.com/v1/spaces/`. They join the
   * manifest's urlFetchWhitelist; a notice's webhook outside them is refused when it is saved.
   * Left out: none, and notices go by email only.
   */
  webhookPrefixes?: string[];
  /**
   * Saved reports may load into BigQuery (engage.deploy.json's `"bigquery": true`): the manifest then
   * asks for the bigquery scope and lets Apps Script fetch BigQuery's two addresses. Left out: neither,
   * and no BigQuery destination is offered.
   */
  bigquery?: boolean;
  /**
   * Where a build for local servers sends BigQuery's calls instead of Google (the tests' stand-in): the
   * root the paths `bigquery/v2/` and `upload/bigquery/v2/` follow, as BIGQUERY_ROOT_URL. Only with
   * `localServers` and `bigquery`.
   */
  bigqueryBaseUrl?: string;
}

/** The OAuth scope a deployment with `bigquery` adds: loads, tables and datasets (BigQuery's jobs.insert lists it). */
export const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';
/**
 * BigQuery's REST root (the discovery document's rootUrl): metadata calls go below `bigquery/v2/`,
 * media uploads of jobs.insert below `upload/bigquery/v2/`
 * (cloud.google.com/bigquery/docs/reference/rest/v2/jobs/insert, "HTTP request").
 */
export const BIGQUERY_ROOT_URL = 'https://bigquery.googleapis.com/';
/** The whitelist prefixes of a deployment with `bigquery`: the metadata path and the upload path. */
export const BIGQUERY_WHITELIST: readonly string[] = [`${BIGQUERY_ROOT_URL}bigquery/v2/`, `${BIGQUERY_ROOT_URL}upload/bigquery/v2/`];

/** Every prefix the manifest's urlFetchWhitelist holds: the Engage addresses', the webhooks', then BigQuery's (with `bigquery`). */
export function manifestWhitelist(deployment: Pick<Deployment, 'urlFetchWhitelist' | 'webhookPrefixes' | 'bigquery'>): string[] {
  const prefixes = [...deployment.urlFetchWhitelist];
  const more = [...(deployment.webhookPrefixes ?? []), ...(deployment.bigquery === true ? BIGQUERY_WHITELIST : [])];
  for (const prefix of more) if (!prefixes.includes(prefix)) prefixes.push(prefix);
  return prefixes;
}

/**
 * The read-only BigQuery scope, which the spreadsheet service's enableBigQueryExecution adds for Connected Sheets
 * (developers.google.com/apps-script/guides/sheets/connected-sheets). A manifest that lists its scopes
 * must name it itself; `bigquery` grants all it does, but no page says Sheets takes one for the other,
 * so a deployment with `bigquery` lists both, and its users consent to nothing more.
 */
export const BIGQUERY_READONLY_SCOPE = 'https://www.googleapis.com/auth/bigquery.readonly';

/** The manifest's scopes for a deployment: its own, plus the bigquery scopes with `bigquery`. */
export function manifestScopes(scopes: readonly string[], deployment: Pick<Deployment, 'bigquery'>): string[] {
  const more = deployment.bigquery === true ? [BIGQUERY_SCOPE, BIGQUERY_READONLY_SCOPE] : [];
  return [...scopes, ...more.filter((scope) => !scopes.includes(scope))];
}

export interface AccountQuotas {
  urlFetchCallsPerDay: number;
  triggerRuntimeMsPerDay: number;
}

/** Apps Script's quotas page (developers.google.com/apps-script/guides/services/quotas): URL Fetch calls and total trigger runtime per day. */
export const ACCOUNT_QUOTAS: Readonly<Record<AccountType, AccountQuotas>> = {
  consumer: { urlFetchCallsPerDay: 20_000, triggerRuntimeMsPerDay: 90 * 60_000 },
  workspace: { urlFetchCallsPerDay: 100_000, triggerRuntimeMsPerDay: 6 * 3_600_000 },
};

const ACCOUNT_LABELS: Record<AccountType, string> = { consumer: 'consumer Google account', workspace: 'Google Workspace account' };

export function accountLabel(type: AccountType): string {
  return ACCOUNT_LABELS[type];
}

/**
 * The whitelist entries for a deployment's two addresses: the reporting base itself (it is a
 * directory: every request goes below it) and the folder that holds the recommendations endpoint,
 * because a whitelist prefix ends in "/" and the endpoint is called with a query.
 */
export function whitelistFor(reportingBaseUrl: string, recommendationsUrl: string): string[] {
  const reporting = `${reportingBaseUrl.replace(/\/+$/, '')}/`;
  const recommendations = withoutQuery(recommendationsUrl).replace(/[^/]*$/, '');
  return reporting === recommendations || recommendations.startsWith(reporting) ? [reporting] : [reporting, recommendations];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host part of an http(s) address, lowercased, or undefined when it is not one. */
function hostOf(url: string): string | undefined {
  const match = /^https?:\/\/([^/?#]+)/i.exec(url);
  if (!match) return undefined;
  // Drop user info and the port; keep an IPv6 literal's brackets.
  const authority = match[1]!.replace(/^.*@/, '').toLowerCase();
  return authority.startsWith('[') ? authority.replace(/\](:\d*)?$/, ']') : authority.replace(/:\d*$/, '');
}

/** A dotted IPv4 address in 127.0.0.0/8, every part 0 to 255 (no shortened forms such as 127.1). */
function isLoopbackIPv4(host: string): boolean {
  const parts = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return parts?.slice(1).every((part) => Number(part) <= 255) === true;
}

/**
 * An address on this machine: localhost, [::1] or any address of 127.0.0.0/8 (the playground's and
 * the tests' emulator, which only a local host can reach). docs/deploying.md names the same.
 */
export function isLoopbackUrl(url: string): boolean {
  const host = hostOf(url);
  return host !== undefined && (LOOPBACK_HOSTS.has(host) || isLoopbackIPv4(host));
}

/**
 * Whether Apps Script lets the add-on fetch `url` under these whitelist prefixes, by the rules of
 * "Allowlist URLs" (developers.google.com/apps-script/manifest/allowlist-url): the scheme and host
 * compare without case, the path with case; a URL matches a prefix it equals or is a child of (a
 * prefix ending in "/", or followed by "/", "?" or "#"); a leading "*." stands for one or more
 * subdomains.
 */
export function allowedByWhitelist(url: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => matchesPrefix(url, prefix));
}

function matchesPrefix(url: string, prefix: string): boolean {
  const u = /^(https?):\/\/([^/?#]+)(.*)$/i.exec(url);
  const p = /^(https?):\/\/([^/?#]+)(.*)$/i.exec(prefix);
  if (!u || !p || u[1]!.toLowerCase() !== p[1]!.toLowerCase()) return false;
  const host = u[2]!.toLowerCase();
  const wanted = p[2]!.toLowerCase();
  const hostMatches = wanted.startsWith('*.') ? host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1 : host === wanted;
  if (!hostMatches) return false;
  const rest = u[3]!;
  const path = p[3]!;
  if (!rest.startsWith(path)) return false;
  const next = rest.charAt(path.length);
  return path.endsWith('/') || next === '' || next === '/' || next === '?' || next === '#';
}

/** A webhook address may be this long: Google Chat's, with its key and token, is some 200 characters. */
export const WEBHOOK_URL_MAX_CHARS = 500;

/**
 * Why a notice may not post to `url`, or undefined when it may: an https address under one of the
 * deployment's webhook prefixes (the manifest lets Apps Script fetch nothing else), with no user name
 * or password in it; plain http only to this machine, and only in a build for local servers (the
 * tests' webhook receiver).
 */
export function webhookAddressProblem(
  url: string,
  deployment: Pick<Deployment, 'webhookPrefixes' | 'localServers'> | undefined,
): string | undefined {
  if (url.length > WEBHOOK_URL_MAX_CHARS)
    return `is ${url.length} characters long; a webhook address may have at most ${WEBHOOK_URL_MAX_CHARS}`;
  // A URL is ASCII (RFC 3986): other characters are percent-encoded, and the notices' record counts on it.
  if (/[^\x21-\x7e]/.test(url)) return 'must be an address of plain ASCII characters, without spaces (percent-encode any other)';
  if (/^https?:\/\/[^/?#]*@/i.test(url))
    return 'must not carry a user name or password: give the address the chat or service shows for its webhook';
  if (isLoopbackUrl(url)) {
    return deployment?.localServers === true
      ? undefined
      : 'must be a webhook address on the internet: this deployment does not post to a server on this machine (only the playground and the tests do)';
  }
  if (!/^https:\/\/[^/?#\s]+\/\S*$/i.test(url))
    return 'must be an https address, such as the one Google Chat or Slack shows for an incoming webhook';
  const prefixes = deployment?.webhookPrefixes ?? [];
  if (prefixes.length === 0) {
    return 'cannot be used: this installation of Engage lists no webhook addresses (webhookPrefixes in its deploy config), so Apps Script may not post anywhere; ask whoever deployed it, or choose email';
  }
  if (allowedByWhitelist(url, prefixes)) return undefined;
  return `must start with ${describePrefixes(prefixes)}, the webhook addresses this installation of Engage may post to (its manifest's urlFetchWhitelist)`;
}

/**
 * The whitelist prefixes each address setting may start with: those its deployment's own address
 * falls under (whitelistFor gives the reporting base one and the recommendations endpoint's folder
 * another, or one for both), so each field's hint and refusal name only its own. A whitelist written
 * by hand that holds neither address leaves both fields every prefix.
 */
export function addressPrefixes(deployment: Pick<Deployment, 'urlFetchWhitelist' | 'reportingBaseUrl' | 'recommendationsUrl'>): {
  reportingBaseUrl: string[];
  recommendationsUrl: string[];
} {
  const under = (address: string) => {
    const own = deployment.urlFetchWhitelist.filter((prefix) => allowedByWhitelist(address, [prefix]));
    return own.length > 0 ? own : [...deployment.urlFetchWhitelist];
  };
  return {
    reportingBaseUrl: under(`${deployment.reportingBaseUrl.replace(/\/+$/, '')}/`),
    recommendationsUrl: under(deployment.recommendationsUrl),
  };
}

/**
 * Apps Script fetches only https; plain http is for the loopback emulator of a local build. `prefixes`
 * are the ones this address may start with (addressPrefixes), the whole whitelist when left out.
 */
export function addressProblem(
  url: string,
  deployment: Pick<Deployment, 'urlFetchWhitelist' | 'localServers'> | undefined,
  prefixes: readonly string[] = deployment?.urlFetchWhitelist ?? [],
): string | undefined {
  if (isLoopbackUrl(url)) {
    return deployment?.localServers === true
      ? undefined
      : 'must be an address of your Engage service: this deployment does not accept a server on this machine (only the playground and the tests do)';
  }
  if (!/^https:\/\//i.test(url))
    return deployment?.localServers === true
      ? 'must be an https address (plain http is only for a test server on this machine, such as http://127.0.0.1)'
      : 'must be an https address';
  if (prefixes.length === 0 || allowedByWhitelist(url, prefixes)) return undefined;
  return `must start with ${describePrefixes(prefixes)}, ${prefixes.length === 1 ? 'the address' : 'the addresses'} this add-on is allowed to call`;
}
