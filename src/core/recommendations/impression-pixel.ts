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

/**
 * The address to call for the displayed documents, or undefined when no call must be made: no
 * reportServed, a reportServed that is not an http(s) address, or no displayed position.
 * `displayedPositions` are the `pos` values of the documents actually shown, in display order.
 */
export function impressionPixelUrl(reportServed: string | undefined | null, displayedPositions: readonly number[]): string | undefined {
  if (!isHttpUrl(reportServed)) return undefined;
  const positions = displayedPositions.filter((p) => Number.isInteger(p) && p >= 0);
  if (positions.length === 0) return undefined;
  return `${reportServed}&pos=${positions.join('-')}`;
}
