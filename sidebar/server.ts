/**
 * The sidebar's only way to the server: google.script.run wrapped in Promises and typed against the
 * server's public surface (src/entrypoints/index.ts). The type check catches a server function renamed
 * or removed, a call with more arguments than it takes or fewer than it needs, and a use of what it
 * returns that no longer fits. It does not check what an argument holds: every server function takes
 * its arguments as `unknown`, since google.script.run passes whatever a page sends, and checks them
 * itself (the core's schemas). A changed argument shape is caught there, at run time, with the
 * server's sentence shown to the user, and by the browser and end-to-end tests.
 *
 * google.script.run passes plain data only (no Dates, no functions); server functions return plain
 * objects. A failure rejects with an Error whose message is the server's one-sentence explanation.
 */
type ServerModule = typeof import('../src/entrypoints/index');
type AnyFunction = (...args: never[]) => unknown;

/** Every function the server exports, as an async call from the sidebar. */
export type ServerClient = {
  [K in keyof ServerModule as ServerModule[K] extends AnyFunction ? K : never]: ServerModule[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};
export type ServerFunctionName = keyof ServerClient;

/** The part of the client-side google.script.run API the sidebar uses. */
interface ScriptRunner {
  withSuccessHandler(handler: (value: unknown) => void): ScriptRunner;
  withFailureHandler(handler: (error: unknown) => void): ScriptRunner;
  [serverFunction: string]: unknown;
}
declare global {
  interface Window {
    google?: { script?: { run?: ScriptRunner } };
  }
}

function runner(): ScriptRunner {
  const run = window.google?.script?.run;
  if (!run) throw new Error('This page must be opened from the Engage for Sheets sidebar (google.script.run is missing).');
  return run;
}

function call(name: string, args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let prepared: ScriptRunner;
    try {
      prepared = runner()
        .withSuccessHandler(resolve)
        .withFailureHandler((error: unknown) =>
          reject(error instanceof Error ? error : new Error(String((error as { message?: unknown })?.message ?? error))),
        );
    } catch (e) {
      reject(e);
      return;
    }
    const fn = prepared[name];
    if (typeof fn !== 'function') {
      reject(new Error(`The server has no function ${name}: reload the sidebar after updating the add-on.`));
      return;
    }
    (fn as (...a: unknown[]) => void).apply(prepared, args);
  });
}

/** The typed client: `server.signIn(user, password)` returns a Promise of the server's result. */
export const server: ServerClient = new Proxy({} as ServerClient, {
  get:
    (_target, name) =>
    (...args: unknown[]) =>
      call(String(name), args),
});

/** The message to show for a failed call: the server's own sentence, without the "Error:" prefix. */
export function failureText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^(Exception|Error|ScriptError):\s*/, '');
}
