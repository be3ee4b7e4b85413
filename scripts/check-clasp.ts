/**
 * `npm run deploy`'s first step: checks the top-level .clasp.json before anything is built or pushed.
 * The repository commits it with `rootDir: dist` (only the built files are pushed) and a placeholder
 * script ID, so that a deployer sees where their project's ID goes; `clasp push` would otherwise send
 * the placeholder to Google and fail with an answer that does not say what to change. Each refusal is
 * one sentence that says how to set it right, and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The script ID the committed .clasp.json holds until a deployer puts theirs in its place. */
export const PLACEHOLDER_SCRIPT_ID = 'REPLACE_WITH_YOUR_SCRIPT_ID';

/** How a deployer gets a real script ID into .clasp.json; clasp refuses create and clone while the file exists. */
const HOW_TO_SET =
  "put your Apps Script project's ID (Project Settings > IDs) in its scriptId, or delete .clasp.json and run `npx clasp create-script --rootDir dist` or `npx clasp clone <scriptId> --rootDir dist`, which writes it";

/** The problem with the .clasp.json in `root`, as one sentence, or undefined when `clasp push` may go ahead. */
export function claspProblem(root: string): string | undefined {
  const file = path.join(root, '.clasp.json');
  if (!fs.existsSync(file)) return `There is no .clasp.json, so nothing was pushed: restore it from git and ${HOW_TO_SET}.`;
  let config: { scriptId?: unknown; rootDir?: unknown };
  try {
    config = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof config;
  } catch {
    return `.clasp.json is not valid JSON, so nothing was pushed: restore it from git and ${HOW_TO_SET}.`;
  }
  const scriptId = typeof config.scriptId === 'string' ? config.scriptId.trim() : '';
  if (scriptId === '' || scriptId === PLACEHOLDER_SCRIPT_ID)
    return `.clasp.json still holds the placeholder script ID, so nothing was pushed: ${HOW_TO_SET}.`;
  if (config.rootDir !== 'dist')
    return `.clasp.json's rootDir is ${JSON.stringify(config.rootDir ?? null)}, so clasp would push other files than the build: set "rootDir": "dist".`;
  return undefined;
}

if (require.main === module) {
  const problem = claspProblem(process.cwd());
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
