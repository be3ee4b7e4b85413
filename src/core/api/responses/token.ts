/**
 * The one rule an Engage token meets, wherever it comes from (pasted in the sidebar, read from a login
 * answer, loaded from the user's properties): it travels as a header value, so it is one piece of
 * printable ASCII text without spaces, and at most 4,096 characters (a longer one, a control character
 * or an accented letter is a paste accident).
 */
import { ValidationError } from '../../errors';

export const TOKEN_MAX_CHARS = 4096;

/** Why `text` (already trimmed) is not a token, or undefined when it is one. */
export function tokenProblem(text: string): string | undefined {
  if (text === '' || /\s/.test(text)) return 'must be the API token as one piece of text without spaces';
  if (text.length > TOKEN_MAX_CHARS) return `is longer than ${TOKEN_MAX_CHARS} characters: paste the token alone`;
  if (!/^[\x21-\x7e]+$/.test(text))
    return 'may hold only printable ASCII characters (it has a control character or a non-ASCII letter): paste the token alone';
  return undefined;
}

/** The token without surrounding spaces, or a ValidationError that names `token` and the rule it breaks. */
export function checkToken(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const problem = tokenProblem(text);
  if (problem) throw ValidationError.single('token', problem);
  return text;
}
