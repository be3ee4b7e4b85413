/**
 * Why UrlFetchApp threw, read from its message: Apps Script gives no error code, only text, and this
 * adapter is the one place that knows its wording (dev/gas-host/README.md lists the messages and marks
 * those no official page states):
 *   - whitelist: "Request to <url> failed because the URL has not been whitelisted in the script
 *     manifest." ("allowlisted" in newer wording). The text is translated for users of other
 *     languages, so an address outside the deployment's own whitelist counts as refused whatever the
 *     text says;
 *   - daily quota: "Service invoked too many times for one day: urlfetch." (also "premium urlfetch"), which
 *     Google's quotas page writes without "for one day": "Service invoked too many times: urlfetch.".
 *     Translations keep the service name "urlfetch" at the end, while the short-term limit ("... in a
 *     short time: urlfetch. Try Utilities.sleep(1000) between calls.") goes on after it and is worth
 *     another attempt;
 *   - "DNS error: <url>"; "Invalid argument: <url>" and "Limit Exceeded: URLFetch URL Length.";
 *   - anything else ("Address unavailable", "Timeout", "Unexpected error", a reset connection) is a
 *     lost connection, which the retry policy tries again.
 */
import { allowedByWhitelist, isLoopbackUrl, type TransportFailureKind } from '../../../core';

export function failureKind(message: string, urls: readonly string[], whitelist: readonly string[]): TransportFailureKind {
  const text = message.replace(/^Exception:\s*/, '');
  if (/\b(white|allow)[- ]?listed\b|does not match any of the prefixes/i.test(text)) return 'not-allowed';
  if (whitelist.length > 0 && urls.some((url) => !isLoopbackUrl(url) && !allowedByWhitelist(url, whitelist))) return 'not-allowed';
  if (/too many times(?: for one day)?:/i.test(text) || (/\burlfetch\.?\s*$/i.test(text) && !/Utilities\.sleep/.test(text)))
    return 'daily-quota';
  if (/^DNS error\b/i.test(text)) return 'dns';
  if (/^Invalid argument\b|URLFetch URL Length/i.test(text)) return 'invalid-address';
  return 'connection';
}
