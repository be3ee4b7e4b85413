/**
 * How a refusal of the server is read: its parts, each with the argument it names ("notices.webhook:
 * must be an https address…", parts joined by "; "), and a part worded with a field's label instead.
 * No DOM here: field-problems.ts shows the parts.
 */

/** A part of a refusal: the argument it names (undefined: none), and what it says of it. */
export interface RefusalPart {
  argument: string | undefined;
  rule: string;
}

/** The start of a part that names an argument: "writeMode: ", "; notices.webhook: ", "; alerts.0.metric: ". */
const ARGUMENT_PART = /(?:^|; )([A-Za-z]\w*(?:\.\w+)*): /g;

/** The refusal's parts, in order; a message naming no argument is one part without one. */
export function refusalParts(message: string): RefusalPart[] {
  const starts = [...message.matchAll(ARGUMENT_PART)];
  if (starts.length === 0 || starts[0]!.index !== 0) return message ? [{ argument: undefined, rule: message }] : [];
  return starts.map((start, i) => ({
    argument: start[1],
    rule: message.slice(start.index + start[0].length, starts[i + 1]?.index ?? message.length),
  }));
}

/** A field's message, worded with its label; a value the rule quotes first ("('http://…') must be…") is the field's own, shown above. */
export function labelled(label: string, rule: string): string {
  return `${label}: ${rule.replace(/^\((['"]).*?\1\)\s+/, '')}`;
}
