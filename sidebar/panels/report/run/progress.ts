/**
 * A run's progress: a bar that moves while the server fetches the pages ("Fetched 3 of 8 pages…"),
 * as the core's RunProgress read by polling getRunProgress with the run's id tells. Progress is a
 * courtesy; the run's own answer tells the outcome, so a failed poll changes nothing. It stays in
 * sight: it is scrolled into view when the run starts, and it sticks to the bottom of the sidebar
 * while the user scrolls the form.
 */
import { el, replaceChildren } from '../../../dom';
import type { ServerClient } from '../../../server';

/** A run polls its progress this often. */
const PROGRESS_POLL_MS = 700;

export interface RunProgressBar {
  readonly node: HTMLElement;
  /** Shows the bar and polls the progress of `runId` until the returned function is called, which hides it. */
  start(runId: string): () => void;
}

export function runProgressBar(server: ServerClient): RunProgressBar {
  const node = el('div', { class: 'progress', id: 'run-progress', hidden: true });
  return {
    node,
    start(runId) {
      const bar = el('div');
      const text = el('div', { class: 'progress-text', role: 'status' }, 'Starting…');
      const track = el('div', { class: 'progress-bar indeterminate' }, bar);
      replaceChildren(node, track, text);
      node.hidden = false;
      node.scrollIntoView({ block: 'nearest' });
      // Each run has its own flag, so the poll of an earlier run never outlives it.
      let finished = false;
      const poll = async () => {
        while (!finished) {
          await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
          if (finished) break;
          try {
            const p = await server.getRunProgress(runId);
            if (p && p.state === 'running' && !finished) {
              track.classList.remove('indeterminate');
              bar.style.width = `${Math.round((100 * p.pagesFetched) / Math.max(1, p.pagesPlanned))}%`;
              replaceChildren(text, `Fetched ${p.pagesFetched} of ${p.pagesPlanned} page${p.pagesPlanned === 1 ? '' : 's'}…`);
            }
          } catch {
            // A failed poll changes nothing: the run's answer tells the outcome.
          }
        }
      };
      void poll();
      return () => {
        finished = true;
        node.hidden = true;
      };
    },
  };
}
