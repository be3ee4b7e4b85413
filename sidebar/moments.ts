/**
 * Sidebar messages that belong to their moment. A message is shown with the moments that supersede
 * it ("Saved 'Daily revenue' ... See it in Schedules" until another action, a sign-in change, or that
 * schedule's deletion); when one of them happens, it goes. Panels say what happened (`happened`) and
 * never clear one another's messages by hand: one mechanism instead of a clear at every place that
 * could make a message stale. The shell (main.ts) makes one for the whole sidebar and reports sign-in
 * changes; panels get it as `ctx.moments`.
 */
import { replaceChildren } from './dom';

/**
 * What can make a message stale:
 * - 'action': another action of the Report tab starts (Run to sheet, Insert formula, Create dashboard, Save schedule);
 * - 'form': the report builder's form changed (its period, breakdowns, filters...);
 * - 'sign-in': someone signed in or out;
 * - 'tab': another tab was opened;
 * - `schedule-deleted:<id>`: that saved report was deleted.
 */
export type Moment = 'action' | 'form' | 'sign-in' | 'tab' | `schedule-deleted:${string}`;

export interface Moments {
  /** Shows `content` in `box` (replacing what was there) until one of `endsWith` happens; then it goes. */
  say(box: HTMLElement, content: Node | ReadonlyArray<Node | null>, endsWith: readonly Moment[]): void;
  /** Adds `node` to what `box` shows, until one of `endsWith` happens. */
  add(box: HTMLElement, node: Node, endsWith: readonly Moment[]): void;
  /** Calls `then` once, the first time one of `endsWith` happens. */
  until(endsWith: readonly Moment[], then: () => void): void;
  /** Something happened: every message it supersedes goes. */
  happened(moment: Moment): void;
}

export function moments(): Moments {
  let waiting: Array<{ endsWith: readonly Moment[]; then: () => void }> = [];
  const until = (endsWith: readonly Moment[], then: () => void) => void waiting.push({ endsWith, then });
  return {
    until,
    say(box, content, endsWith) {
      const nodes = (Array.isArray(content) ? content : [content]).filter((n): n is Node => n !== null);
      replaceChildren(box, ...nodes);
      // Only what is still this message goes: a later message in the same box is not touched.
      until(endsWith, () => {
        for (const node of nodes) if (node.parentNode === box) box.removeChild(node);
      });
    },
    add(box, node, endsWith) {
      box.appendChild(node);
      until(endsWith, () => {
        if (node.parentNode === box) box.removeChild(node);
      });
    },
    happened(moment) {
      const ended = waiting.filter((w) => w.endsWith.includes(moment));
      waiting = waiting.filter((w) => !w.endsWith.includes(moment));
      for (const w of ended) w.then();
    },
  };
}
