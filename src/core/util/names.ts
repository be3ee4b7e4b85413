/**
 * What a message says about a name the user typed that is not known (a breakdown, a metric, a filter
 * operator or field, a sort field): "did you mean" the known name closest to it when one is close
 * enough for its length, else the names to choose from. Every check of a name goes through here, so
 * a typo of any kind gets the same help.
 */

/**
 * " (did you mean 'gt'?)" for a near miss; otherwise " (use a, b, c)", or nothing when `list` is
 * false (a long list is said once per message).
 */
export function unknownNameHint(word: string, candidates: readonly string[], list = true): string {
  const suggestion = closest(word, candidates);
  if (suggestion) return ` (did you mean '${suggestion}'?)`;
  return list ? ` (use ${candidates.join(', ')})` : '';
}

/**
 * The known name close enough to `word` to be a typo of it, ignoring case, for "did you mean": one
 * edit for a word of up to 4 letters, two for a longer one. So 'revnue' suggests 'revenue' and 'gte'
 * suggests 'gt', while 'foo' suggests nothing (two of its three letters would change to make doc).
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = (w.length <= 4 ? 1 : 2) + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
