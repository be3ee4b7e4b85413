/**
 * A form's problems under their fields. The server names what it refuses by the argument at fault
 * ("notices.webhook: must be an https address…", parts joined by "; "); each part whose argument a form
 * knows is shown under that field, worded with the field's visible label ("Webhook: must be an https
 * address…"), the field outlined (aria-invalid and the class `invalid`) and read with it
 * (aria-describedby), the first one scrolled into view. What names no field of the form is handed back,
 * for the form to show beside the button that caused it. A message goes when its field changes, and
 * all of them when the form is cleared (another report, another tab).
 */
import { el, notice } from '../dom';
import { labelled, refusalParts } from './refusal-parts';

/** One field a refusal may name: its visible label, the control outlined, and the box the message goes at the end of (after, for a label). */
export interface ProblemField {
  label: string;
  control: HTMLElement;
  box: HTMLElement;
}

export interface FieldProblems {
  /**
   * Shows each part of `message` that names a field under it (`fieldOf` finds it); returns the parts
   * left, joined, or '': each worded with its label where `labelOf` knows one.
   */
  show(
    message: string,
    fieldOf: (argument: string) => ProblemField | undefined,
    labelOf?: (argument: string) => string | undefined,
  ): string;
  /** Shows `text`, already worded with its label, under `field`. */
  showAt(field: ProblemField, text: string): void;
  /** Every message goes, every field's outline too. */
  clear(): void;
}

export function fieldProblems(): FieldProblems {
  const shown = new Map<HTMLElement, () => void>();
  const remove = (control: HTMLElement) => {
    shown.get(control)?.();
    shown.delete(control);
  };
  const put = (field: ProblemField, text: string, first: boolean) => {
    const { control, box } = field;
    remove(control);
    const problem = el('div', { class: 'field-problem', id: `${control.id}-problem` }, notice('error', text));
    // A checkbox's label holds it: the message goes after the label, not into its name.
    if (box.tagName === 'LABEL') box.after(problem);
    else box.append(problem);
    const describedBy = control.getAttribute('aria-describedby');
    control.setAttribute('aria-describedby', describedBy ? `${describedBy} ${problem.id}` : problem.id);
    control.setAttribute('aria-invalid', 'true');
    control.classList.add('invalid');
    const changed = () => remove(control);
    control.addEventListener('input', changed);
    control.addEventListener('change', changed);
    shown.set(control, () => {
      problem.remove();
      control.removeEventListener('input', changed);
      control.removeEventListener('change', changed);
      if (describedBy) control.setAttribute('aria-describedby', describedBy);
      else control.removeAttribute('aria-describedby');
      control.removeAttribute('aria-invalid');
      control.classList.remove('invalid');
    });
    if (!first) return;
    // The field and its message in view, the message first when the two do not fit.
    box.scrollIntoView({ block: 'nearest' });
    problem.scrollIntoView({ block: 'nearest' });
  };
  const problems: FieldProblems = {
    show(message, fieldOf, labelOf) {
      problems.clear();
      const left: string[] = [];
      for (const part of refusalParts(message)) {
        const field = part.argument === undefined ? undefined : fieldOf(part.argument);
        if (field) put(field, labelled(field.label, part.rule), shown.size === 0);
        else {
          const label = part.argument === undefined ? undefined : (labelOf?.(part.argument) ?? part.argument);
          left.push(label === undefined ? part.rule : labelled(label, part.rule));
        }
      }
      return left.join('; ');
    },
    showAt(field, text) {
      problems.clear();
      put(field, text, true);
    },
    clear() {
      for (const control of [...shown.keys()]) remove(control);
    },
  };
  return problems;
}
