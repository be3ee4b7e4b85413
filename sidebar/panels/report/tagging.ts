/**
 * The tagging helper: the page snippets that put external IDs on pages (globals, container
 * attributes, the AMP embed), each with a Copy button, with a counter against the length limit. The
 * snippets and the checks come from the core's tagging-snippet.ts.
 */
import { EXTERNAL_ID_MAX_LENGTH, taggingProblems, taggingSnippets } from '../../../src/core';
import { copyButton } from '../../widgets/copy';
import { el, field, notice, replaceChildren } from '../../dom';

export function taggingHelper(): HTMLElement {
  const id = el('input', { type: 'text', id: 'tag-external-id', placeholder: 'article-1234', autocomplete: 'off' });
  const secondary = el('input', { type: 'text', id: 'tag-secondary-id', placeholder: 'author-jane (optional)', autocomplete: 'off' });
  const idCount = el('span', { class: 'counter', id: 'tag-external-id-count' });
  const secondaryCount = el('span', { class: 'counter', id: 'tag-secondary-id-count' });
  const output = el('div', { id: 'tag-output' });
  const render = () => {
    for (const [input, counter] of [
      [id, idCount],
      [secondary, secondaryCount],
    ] as const) {
      const length = input.value.trim().length;
      replaceChildren(counter, `${length}/${EXTERNAL_ID_MAX_LENGTH}`);
      counter.classList.toggle('over', length > EXTERNAL_ID_MAX_LENGTH);
      input.setAttribute('aria-invalid', String(length > EXTERNAL_ID_MAX_LENGTH));
    }
    const ids = { externalId: id.value, externalSecondaryId: secondary.value };
    const problems = taggingProblems(ids);
    if (!id.value.trim()) return replaceChildren(output, el('p', { class: 'hint' }, 'Type an external ID to get the snippets.'));
    if (problems.length) return replaceChildren(output, notice('error', problems.map((p) => p.message).join(' ')));
    const s = taggingSnippets(ids);
    const snippet = (id: string, title: string, text: string) => {
      const pre = el('pre', { class: 'code', id }, text);
      return [el('div', { class: 'snippet-head' }, el('span', { class: 'label' }, title), copyButton(pre, title.toLowerCase())), pre];
    };
    replaceChildren(
      output,
      ...snippet('tag-globals', 'Global variables (before the widget script)', s.globalVariables),
      ...snippet('tag-container', 'Or attributes on the widget container', s.containerAttributes),
      ...snippet('tag-amp', 'AMP pages: attributes on the embed', s.amp),
    );
  };
  for (const input of [id, secondary]) input.addEventListener('input', render);
  render();
  const idField = field('External ID', id);
  idField.querySelector('label')!.appendChild(idCount);
  const secondaryField = field('Secondary external ID', secondary);
  secondaryField.querySelector('label')!.appendChild(secondaryCount);
  return el(
    'details',
    { class: 'card', id: 'tagging-helper' },
    el('summary', {}, 'Tag pages with external IDs'),
    el(
      'p',
      { class: 'hint' },
      `External-ID reports count what pages tag. Data appears 48 hours after tagging; IDs are at most ${EXTERNAL_ID_MAX_LENGTH} characters.`,
    ),
    idField,
    secondaryField,
    output,
  );
}
