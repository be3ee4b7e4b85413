/**
 * Copy buttons for text the user takes elsewhere (the equivalent formula, the tagging snippets). The
 * sidebar runs in Apps Script's sandboxed iframe, where the Clipboard API may be refused: the button
 * tries navigator.clipboard, then the copy command on the selected text, and when both are refused it
 * leaves the text selected and says to press Ctrl+C. What is copied is the element's text (a <wbr>
 * that marks where a line may break adds nothing).
 */
import { el, replaceChildren } from '../dom';

type Outcome = 'copied' | 'selected';

function selectText(node: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(node);
  selection.removeAllRanges();
  selection.addRange(range);
}

async function copyText(node: HTMLElement): Promise<Outcome> {
  const text = node.textContent ?? '';
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return 'copied';
    }
  } catch {
    // Refused (no clipboard permission in the sandboxed frame): try the copy command below.
  }
  selectText(node);
  try {
    if (document.execCommand('copy')) return 'copied';
  } catch {
    // Refused as well: the text stays selected for Ctrl+C.
  }
  return 'selected';
}

/** A "Copy" button for the text of `source`, with the line that says how it went. */
export function copyButton(source: HTMLElement, what: string): HTMLElement {
  const status = el('span', { class: 'copy-status', role: 'status' });
  const button = el('button', { type: 'button', class: 'copy', 'aria-label': `Copy ${what}` }, 'Copy');
  button.addEventListener('click', async () => {
    const outcome = await copyText(source);
    replaceChildren(status, outcome === 'copied' ? 'Copied.' : 'Selected: press Ctrl+C (⌘C on a Mac) to copy.');
  });
  return el('span', { class: 'copy-box' }, button, status);
}

/** Formula text with a <wbr> after each comma outside quotes, so a long formula wraps between its arguments. */
export function formulaWithBreaks(formula: string): Array<string | HTMLElement> {
  const parts: Array<string | HTMLElement> = [];
  let current = '';
  let quoted = false;
  for (const ch of formula) {
    current += ch;
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      parts.push(current, el('wbr'));
      current = '';
    }
  }
  if (current) parts.push(current);
  return parts;
}
