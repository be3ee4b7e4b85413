/**
 * Explain the change's Run to sheet: the explanation's table (ENGAGE_EXPLAIN's rows and columns) on a
 * new sheet named after it ("Explain revenue by widget"), written by the server as Run to sheet writes
 * a report. When that sheet exists and holds something, or its cells do, the server writes nothing and
 * asks (run/write-question.ts): write over it, or to a new sheet "Name (2)"; Cancel writes nothing.
 * The outcome says where the rows went and shows them as the sheet formats them.
 */
import { type BuilderRequest, formatCount, rangeReference, type WriteChoice } from '../../../../src/core';
import { el, notice } from '../../../dom';
import type { Moments } from '../../../moments';
import { failureText, type ServerClient } from '../../../server';
import type { Busy } from '../part';
import { previewTable } from '../run/run-outcome';
import { askBeforeWriting } from '../run/write-question';

/** The new sheet's name: what is explained, by what. */
export function explanationSheetName(request: BuilderRequest): string {
  const e = request.explain;
  return e ? `Explain ${e.metric} by ${e.breakdowns.join(', ')}` : 'Explain the change';
}

export function explainToSheetButton(
  ctx: { server: ServerClient; moments: Moments },
  request: () => BuilderRequest | string,
  busy: Busy,
  show: { box: HTMLElement; error(text: string): void },
  id: string,
): HTMLButtonElement {
  const button = el('button', { type: 'button', id, title: 'Write the explanation’s table to a new sheet' }, 'Run to sheet');
  const say = (nodes: HTMLElement[]) => ctx.moments.say(show.box, nodes, ['action', 'sign-in']);
  button.addEventListener('click', async () => {
    const asked = request();
    if (typeof asked === 'string') return show.error(asked);
    busy.setBusy(true);
    try {
      const target = { type: 'newSheet', sheetName: explanationSheetName(asked) };
      let options: { choice?: WriteChoice } = {};
      for (;;) {
        const result = await ctx.server.runExplanationToSheet(asked, target, options);
        if ('question' in result) {
          const choice = await askBeforeWriting(show.box, result.question);
          if (!choice) return say([notice('info', 'Nothing was written.')]);
          options = { choice };
          continue;
        }
        const keys = result.dataRows;
        return say([
          notice(
            'success',
            el(
              'span',
              { id: `${id}-written` },
              `Wrote the explanation (${formatCount(keys)} row${keys === 1 ? '' : 's'} with Other, then Total) to ${rangeReference(result.block)}${result.replaced ? ', replacing the earlier one there' : ''}.`,
            ),
          ),
          previewTable(result),
        ]);
      }
    } catch (problem) {
      show.error(failureText(problem));
    } finally {
      busy.setBusy(false);
    }
  });
  return button;
}
