/**
 * Text for messages: a user's text quoted so that a message stays one readable sentence without
 * control characters, the first control character named, counts with thousands separators, lists
 * joined with "or", addresses without the query that may carry a key, and any value as a user typed it.
 */
import { isDate } from './dates';

/** Longest piece of a user's text a message repeats; the rest is summarised, so a message stays one readable sentence. */
export const MESSAGE_TEXT_MAX_CHARS = 60;

/**
 * A user's text quoted for a message: control characters shown as \uXXXX (a message must not carry
 * them into a cell note or the sidebar) and long text cut, with its length.
 */
export function quoted(text: string): string {
  const visible = text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (text.length <= MESSAGE_TEXT_MAX_CHARS) return `'${visible}'`;
  return `'${visible.slice(0, 40)}...' (${text.length} characters)`;
}

/** Index of the first control character (U+0000 to U+001F, U+007F) in `text`, or -1. */
export function controlCharacterIndex(text: string): number {
  return text.search(/[\u0000-\u001f\u007f]/);
}

/** "a control character (U+0007)", for messages about the first one in `text`. */
export function describeControlCharacter(text: string): string {
  const i = controlCharacterIndex(text);
  return `a control character (U+${text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')})`;
}

/** "20,000". */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * How long a run took, as every run message says it: "in 1.2 s", and "in under 0.1 s" for a run too
 * quick for a tenth of a second (never "in 0.0 s").
 */
export function formatDuration(ms: number): string {
  return ms < 50 ? 'in under 0.1 s' : `in ${(ms / 1000).toFixed(1)} s`;
}

/** "a/", "a/ or b/", "a/, b/ or c/". */
export function describePrefixes(prefixes: readonly string[]): string {
  if (prefixes.length <= 1) return prefixes.join('');
  return `${prefixes.slice(0, -1).join(', ')} or ${prefixes[prefixes.length - 1]}`;
}

/** An address without its query and fragment: how messages show it (a query may carry the recommendations key). */
export function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/, '');
}

/** Shows a value in a message the way the user typed it (long text cut, control characters visible). */
export function showValue(value: unknown): string {
  if (isDate(value)) return Number.isNaN((value as Date).getTime()) ? 'an invalid date' : `date ${(value as Date).toISOString()}`;
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value)) return `[${value.map(showValue).join(', ')}]`;
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
