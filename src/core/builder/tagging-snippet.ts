/**
 * The page snippets that tag content with external IDs, as the spec describes them: the global
 * variables SVC_extId and SVC_extIdSecondary, the container's data-external-id and
 * data-external-secondary-id attributes, and the same attributes on the AMP embed element. IDs are
 * checked against the 110-character limit, and written escaped for the place they go (a JavaScript
 * string inside a script element, an HTML attribute), so an ID can never break out of the snippet.
 */
import { ValidationError, type ValidationProblem } from '../errors';
import { EXTERNAL_ID_MAX_LENGTH } from '../spec';
import { controlCharacterIndex, describeControlCharacter } from '../util/text';

export interface TaggingIds {
  externalId: string;
  /** Optional second level, for example an author or a section. */
  externalSecondaryId?: string;
}

export interface TaggingSnippets {
  globalVariables: string;
  containerAttributes: string;
  amp: string;
}

/** Problems with the IDs: empty, or over 110 characters. */
export function taggingProblems(ids: TaggingIds): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const check = (argument: string, value: string | undefined, required: boolean) => {
    const v = (value ?? '').trim();
    if (v === '') {
      if (required) problems.push({ argument, message: `${argument}: is required` });
      return;
    }
    if (v.length > EXTERNAL_ID_MAX_LENGTH) {
      problems.push({ argument, message: `${argument}: is ${v.length} characters long; Engage keeps at most ${EXTERNAL_ID_MAX_LENGTH}` });
    } else if (controlCharacterIndex(v) >= 0) {
      problems.push({ argument, message: `${argument}: contains ${describeControlCharacter(v)}, which a page cannot carry as an ID` });
    }
  };
  check('externalId', ids.externalId, true);
  check('externalSecondaryId', ids.externalSecondaryId, false);
  return problems;
}

/** A JavaScript string literal safe inside an HTML script element. */
function jsString(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function htmlAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The three snippets; throws a ValidationError naming the ID that breaks a rule. */
export function taggingSnippets(ids: TaggingIds): TaggingSnippets {
  const problems = taggingProblems(ids);
  if (problems.length) throw new ValidationError(problems);
  const id = ids.externalId.trim();
  const secondary = (ids.externalSecondaryId ?? '').trim();
  const globals = [`  window.SVC_extId = ${jsString(id)};`];
  if (secondary) globals.push(`  window.SVC_extIdSecondary = ${jsString(secondary)};`);
  const attributes = `data-external-id="${htmlAttribute(id)}"${secondary ? ` data-external-secondary-id="${htmlAttribute(secondary)}"` : ''}`;
  return {
    globalVariables: `<script>\n${globals.join('\n')}\n</script>`,
    containerAttributes: `<div class="engage-widget" ${attributes}></div>`,
    amp: `<amp-embed type="engage" layout="responsive" width="100" height="100" ${attributes}></amp-embed>`,
  };
}
