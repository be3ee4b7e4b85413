/**
 * The question a run or Insert formula asks before it writes over cells that hold something
 * (src/core/addon/sidebar/run-placement.ts): shown in the page, never as a browser dialog, with the
 * range it would write (a formula's: where its result fills) and the cells already in use, and one
 * button per answer that fits: replace them, write below them, or write to a new sheet when a new
 * sheet's name is taken; Cancel writes nothing. The run or the formula is sent again with the answer.
 */
import type { WriteChoice, WriteQuestion } from '../../../../src/core';
import { el, replaceChildren } from '../../../dom';

function sentence(q: WriteQuestion): string {
  const cells = `${q.nonEmpty} cell${q.nonEmpty === 1 ? '' : 's'}`;
  const holder = q.holder ? `, ${q.holder}` : '';
  if (q.reason === 'formula')
    return `The formula's result fills ${q.range}, as many rows down as the report has, where ${cells} already hold data (${q.occupied}${holder}): the formula would write over them, or stop at #REF!. Nothing was written yet.`;
  if (q.reason === 'sheetTaken')
    return `A sheet of that name already exists: ${cells} hold data in ${q.occupied}${holder}. Nothing was written yet.`;
  return `The report would cover ${q.range}, where ${cells} already hold data (${q.occupied}${holder}). Nothing was written yet.`;
}

function label(choice: WriteChoice, q: WriteQuestion): string {
  switch (choice) {
    case 'replace':
      if (q.reason === 'formula') return 'Replace them with the formula';
      return q.reason === 'sheetTaken' ? `Write over it from ${q.range}` : 'Replace them';
    case 'append':
      return `Write below, from ${q.appendAt ?? 'the first free row'}`;
    case 'newSheet':
      return `New sheet “${q.newSheetName ?? ''}”`;
  }
}

/** Shows the question in `box` and resolves with the answer, or undefined for Cancel. */
export function askBeforeWriting(box: HTMLElement, q: WriteQuestion): Promise<WriteChoice | undefined> {
  return new Promise((resolve) => {
    const answer = (choice: WriteChoice | undefined) => () => {
      replaceChildren(box);
      resolve(choice);
    };
    const buttons = q.choices.map((choice, i) =>
      el('button', { type: 'button', class: i === 0 ? 'action' : '', 'data-choice': choice, onclick: answer(choice) }, label(choice, q)),
    );
    const cancel = el('button', { type: 'button', 'data-choice': 'cancel', onclick: answer(undefined) }, 'Cancel');
    const question = el(
      'div',
      {
        class: 'notice notice-warning write-question',
        id: 'write-question',
        role: 'alertdialog',
        'aria-labelledby': 'write-question-text',
      },
      el('div', { id: 'write-question-text' }, sentence(q)),
      el('div', { class: 'actions stacked' }, ...buttons, cancel),
    );
    replaceChildren(box, question);
    question.scrollIntoView({ block: 'nearest' });
    buttons[0]?.focus();
  });
}
