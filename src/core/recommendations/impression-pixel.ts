/**
 * The impression pixel of in-chat recommendations (spec "Impression pixel"): after a client has
 * displayed documents it calls `tracking.reportServed + "&pos=" + the displayed positions joined by
 * "-"`, once, and makes no call when reportServed is absent or nothing was displayed. This file is
 * shared by the server and the sidebar bundle, so it imports nothing (no zod in the sidebar).
 */

/** True for an absolute http:// or https:// address without spaces; everything else (javascript:, data:, relative) is refused. */
export function isHttpUrl(candidate: unknown): candidate is string {
  return typeof candidate === 'string' && /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(candidate.trim()) && candidate.trim() === candidate;
}

const LOCAL_HOST = /^https?:\/\/(?:[^@/?#]*@)?(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d*)?(?:[/?#]|$)/i;

/**
 * True for an address a sidebar may load (an image, the impression pixel): https, since Apps Script's HTML service
 * serves the sidebar over https and "external resources only over HTTPS" load in it; or, with
 * `localServers`, plain http to this machine, where the playground's and the tests' emulator runs.
 */
export function isLoadableUrl(candidate: unknown, { localServers }: { localServers: boolean }): candidate is string {
  if (!isHttpUrl(candidate)) return false;
  return /^https:\/\//i.test(candidate) || (localServers && LOCAL_HOST.test(candidate));
}

/**
 * The address to call for the displayed documents, or undefined when no call must be made: no
 * reportServed, a reportServed a sidebar may not load (not https, or, with `localServers`, plain http
 * to this machine), or no displayed position.
 * `displayedPositions` are the `pos` values of the documents actually shown, in display order.
 */
export function impressionPixelUrl(
  reportServed: string | undefined | null,
  displayedPositions: readonly number[],
  loading: { localServers: boolean } = { localServers: false },
): string | undefined {
  if (!isLoadableUrl(reportServed, loading)) return undefined;
  const positions = displayedPositions.filter((p) => Number.isInteger(p) && p >= 0);
  if (positions.length === 0) return undefined;
  return `${reportServed}&pos=${positions.join('-')}`;
}
