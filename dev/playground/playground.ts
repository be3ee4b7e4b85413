/**
 * The local playground: the emulator in its own process, the built bundle in the local Apps Script
 * host, and a small web server that shows a spreadsheet (sheet tabs, a grid, a formula bar that
 * evaluates ENGAGE_* formulas through the host, the add-on's toasts) beside the real
 * dist/sidebar.html in an iframe. The sidebar's google.script.run is a shim that POSTs to this
 * server, which runs the server function in the host as the signed-in user, exactly as Apps Script
 * would run it. The page asks for a sheet's rows a block at a time as they scroll into sight
 * (/api/rows), so a sheet of 100,000 rows costs what its screenful costs.
 *
 * Sidebar calls run in the host's worker threads (callConcurrently), so the server stays free to
 * answer the progress polls that a long "Run to sheet" triggers meanwhile. Used by `npm start`
 * (main.ts) and by the browser tests.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawnEmulatorProcess, type EmulatorProcess } from '../emulator/spawn';
import { DEMO_API_KEY, DEMO_USER, PUBLISHERS, type SeedName } from '../emulator/model/seed';
import { createGasHost, type GasHost } from '../gas-host';
import { type PlaygroundBundle, playgroundBundle, readBundle } from './bundle';
import { DAY_MS, emulatorClockFollower, HOUR_MS, PlaygroundControls, prepareBigQuery } from './controls';
import { rowsOf, sheetView, type RowBlock, type SheetView } from './grid';

export interface PlaygroundOptions {
  /** Port of the web page; 0 picks a free one. */
  port?: number;
  /** Fill the sign-in form with the demo user (default true). */
  prefillSignIn?: boolean;
  /** Time zone of the spreadsheet (default Europe/Berlin). */
  timeZone?: string;
  /** Where the built add-on is: build/tests/ for most browser tests. Without it (nor `bundle`), `npm start`'s build (bundle.ts). */
  distDir?: string;
  /** The built add-on, made once the emulator runs (a build with "bigquery" needs its address). */
  bundle?: (emulator: EmulatorProcess) => Promise<PlaygroundBundle>;
  /** The spreadsheet's sheets at the start (default one, Sheet1), each 1,000 rows by 26 columns. */
  sheets?: string[];
  /** The emulator's fixtures (dev/emulator/model/seed.ts): the clean demo by default; the browser tests take 'tests'. */
  seed?: SeedName;
  /**
   * Run the time-driven triggers that fall due as the clock runs, as Google does unasked (checked every
   * 30 s; `npm start`). Off by default: the tests move time from the toolbar only.
   */
  runDueTriggers?: boolean;
}

export interface Playground {
  url: string;
  host: GasHost;
  emulator: EmulatorProcess;
  /** The clock, the service's health and the notices, as the header's controls drive them. */
  controls: PlaygroundControls;
  user: string;
  close(): Promise<void>;
}

const PAGE_FILE = path.join(__dirname, 'page.html');
const DEFAULT_TIME_ZONE = 'Europe/Berlin';
/** How often `runDueTriggers` looks for a trigger that fell due. */
const DUE_TRIGGERS_EVERY_MS = 30_000;
/** The tab's icon: a green sheet, as the page's logo. */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0f9d58"/><path d="M4 4h8v8H4z" fill="#fff"/><path d="M4 7h8M4 10h8M8 4v8" stroke="#0f9d58"/></svg>';

/** The google.script.run shim, put in the sidebar page before its own script. */
function shimScript(prefill: boolean): string {
  const fill = prefill
    ? `new MutationObserver(function () {
         var u = document.getElementById('sign-in-username'), p = document.getElementById('sign-in-password');
         if (u && !u.dataset.prefilled) { u.dataset.prefilled = '1'; u.value = ${JSON.stringify(DEMO_USER.username)}; p.value = ${JSON.stringify(DEMO_USER.password)}; }
       }).observe(document.documentElement, { childList: true, subtree: true });`
    : '';
  return `<script>
(function () {
  function runner(onSuccess, onFailure) {
    return new Proxy({}, {
      get: function (_t, name) {
        if (name === 'withSuccessHandler') return function (h) { return runner(h, onFailure); };
        if (name === 'withFailureHandler') return function (h) { return runner(onSuccess, h); };
        if (name === 'withUserObject') return function () { return runner(onSuccess, onFailure); };
        return function () {
          var args = Array.prototype.slice.call(arguments);
          fetch('/api/run', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ fn: String(name), args: args }) })
            .then(function (r) { return r.json(); })
            .then(function (o) {
              if (o.ok) { if (onSuccess) onSuccess(o.value); }
              else if (onFailure) { var e = new Error(o.error); e.name = 'ScriptError'; onFailure(e); }
              if (o.changed || (o.toasts && o.toasts.length)) window.parent.postMessage({ engage: 'sheet-changed', toasts: o.toasts || [] }, '*');
            }, function (err) { if (onFailure) onFailure(new Error('The playground server did not answer: ' + err.message)); });
        };
      },
    });
  }
  window.google = { script: { run: runner(), host: { close: function () {}, editor: { focus: function () {} } } } };
  ${fill}
})();
</script>`;
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}
const sendJson = (res: http.ServerResponse, body: unknown, status = 200) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

/** Functions the sidebar may call through the shim: the bundle's public, non-formula functions. */
const FORMULA_PREFIX = 'ENGAGE_';

/** The built add-on in a host, opened, its settings pointing at the emulator (sign-in stays a real step), its sidebar shown. */
function hostWithAddOn(bundle: PlaygroundBundle, options: PlaygroundOptions, emulator: EmulatorProcess, user: string): GasHost {
  // Sheets of the host's default size, 26 columns as a new Google Sheet: a formula wider than that shows #REF! here too.
  const host = createGasHost({
    owner: user,
    activeUser: user,
    timeZone: options.timeZone ?? DEFAULT_TIME_ZONE,
    htmlFiles: { sidebar: bundle.sidebar },
    sheets: options.sheets ?? ['Sheet1'],
    manifest: bundle.manifest,
    // Real time that the header's clock moves forward, the emulator's clock with it, running the triggers that fall due.
    clock: 'shifted',
    onTimeAdvance: emulatorClockFollower(() => emulator.adminUrl),
    // As Sheets: a menu item's or a sidebar call's cell changes start their formulas while it runs (Refresh all's waves).
    autoRecalculate: true,
  });
  host.load(bundle.code);
  host.open({ authMode: 'LIMITED' });
  host.call(
    'saveSettings',
    [
      {
        reportingBaseUrl: emulator.baseUrl,
        recommendationsUrl: emulator.recsUrl,
        apiKey: DEMO_API_KEY.key,
        widgetId: DEMO_API_KEY.widgetIds[0],
      },
    ],
    { user },
  );
  host.call('showSidebar', [], { user });
  return host;
}

/** The page's user at work: their executions one after another, and the toasts not yet handed to the page. */
interface Session {
  host: GasHost;
  user: string;
  controls: PlaygroundControls;
  serial<T>(work: () => Promise<T> | T): Promise<T>;
  /** Toasts (Spreadsheet.toast) shown since the last answer: each answer to a call carries those. */
  newToasts(): unknown[];
}

function sessionOf(host: GasHost, user: string, controls: PlaygroundControls): Session {
  let toastsShown = host.state.ui.toasts.length;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    host,
    user,
    controls,
    // Formula evaluation and sidebar writes go one after another, as one user's executions would.
    serial: <T>(work: () => Promise<T> | T): Promise<T> => {
      const next = queue.then(work, work);
      queue = next.catch(() => undefined);
      return next;
    },
    newToasts: () => host.state.ui.toasts.slice(toastsShown, (toastsShown = host.state.ui.toasts.length)),
  };
}

/** /api/run: a sidebar call of a server function, in a worker, followed by the recalculation its changes start. */
async function runServerFunction(session: Session, body: Record<string, unknown>, res: http.ServerResponse): Promise<void> {
  const { host, user } = session;
  const fn = String(body.fn ?? '');
  if (!/^[A-Za-z]\w*$/.test(fn) || fn.startsWith(FORMULA_PREFIX))
    return sendJson(res, { ok: false, error: `Unknown server function ${fn}` });
  const args = Array.isArray(body.args) ? body.args : [];
  // Progress polls must not wait behind the run they report on.
  const work = async () => {
    const [outcome] = await host.callConcurrently([{ functionName: fn, args, options: { user } }]);
    if (fn !== 'getRunProgress') {
      await host.recalculate(undefined, { user });
      // The formulas its changes started (the last wave of Refresh all) end before the page reads the grid.
      await host.whenRecalculated();
    }
    return outcome!;
  };
  const outcome = fn === 'getRunProgress' ? await work() : await session.serial(work);
  const toasts = session.newToasts();
  if (outcome.ok) return sendJson(res, { ok: true, value: outcome.value ?? null, changed: fn !== 'getRunProgress', toasts });
  return sendJson(res, {
    ok: false,
    error: outcome.functionNotFound ? `Script function not found: ${fn}` : (outcome.error?.message ?? 'The server function failed.'),
    changed: true,
    toasts,
  });
}

/** The page's API: server functions, a sheet and its rows, the selection, and a cell typed in. */
async function api(session: Session, req: http.IncomingMessage, res: http.ServerResponse, route: string): Promise<void> {
  const { host, user } = session;
  const body = req.method === 'POST' ? await readJson(req) : {};
  if (route === '/api/run') return runServerFunction(session, body, res);
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  if (route === '/api/sheet') return sendJson(res, sheetView(host, query.get('sheet') ?? undefined) satisfies SheetView);
  if (route === '/api/rows') {
    return sendJson(
      res,
      rowsOf(host, query.get('sheet') ?? undefined, Number(query.get('from') ?? 1), Number(query.get('count') ?? 100)) satisfies RowBlock,
    );
  }
  if (route === '/api/select') {
    host.setActiveRange(String(body.sheet), String(body.a1));
    return sendJson(res, { ok: true });
  }
  if (route.startsWith('/api/clock') || route === '/api/notices' || route === '/api/engage' || route === '/api/restate')
    return controlRoute(session, route, body, res);
  if (route === '/api/cell') {
    const sheet = String(body.sheet);
    const a1 = String(body.a1);
    const input = String(body.input ?? '');
    await session.serial(async () => {
      host.setCell(sheet, a1, input);
      if (input.startsWith('=')) await host.recalculate([{ sheet, a1 }], { user });
      await host.recalculate(undefined, { user });
    });
    return sendJson(res, { ok: true, cell: host.getCell(sheet, a1), toasts: session.newToasts() });
  }
  return sendJson(res, { ok: false, error: 'not found' }, 404);
}

/** The header's controls: the clock, Engage failing or not, a restated day, and the notices panel. */
async function controlRoute(session: Session, route: string, body: Record<string, unknown>, res: http.ServerResponse): Promise<void> {
  const { host, user, controls } = session;
  if (route === '/api/notices') return sendJson(res, await controls.notices());
  if (route === '/api/clock' && body.move === undefined) return sendJson(res, controls.view());
  if (route === '/api/clock') {
    const move = String(body.move);
    if (move !== 'hour' && move !== 'day' && move !== 'trigger') return sendJson(res, { ok: false, error: `Unknown move ${move}` }, 400);
    // After the user's other executions, as a trigger's run would wait for none of them but the page must not race itself.
    const moved = await session.serial(async () => {
      const outcome = move === 'trigger' ? controls.runNextTrigger() : controls.advance(move === 'hour' ? HOUR_MS : DAY_MS);
      await host.recalculate(undefined, { user });
      await host.whenRecalculated();
      return outcome;
    });
    return sendJson(res, { ...moved, toasts: session.newToasts() });
  }
  if (route === '/api/engage') return sendJson(res, body.state === 'failing' ? await controls.fail() : await controls.recover());
  const publisherId = typeof body.publisherId === 'string' ? body.publisherId : PUBLISHERS[0]!.id;
  const factor = typeof body.factor === 'number' ? body.factor : 1.1;
  const day = typeof body.day === 'string' ? body.day : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return sendJson(res, { ok: false, error: `day: '${day}' must be a day as yyyy-mm-dd` }, 400);
  try {
    return sendJson(res, { ok: true, publisherId, day, factor, ...(await controls.restate(publisherId, day, factor)) });
  } catch (error) {
    return sendJson(res, { ok: false, error: error instanceof Error ? error.message : String(error) }, 400);
  }
}

export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const emulator = await spawnEmulatorProcess({ seed: options.seed ?? 'demo' });
  let bundle: PlaygroundBundle;
  try {
    if (options.bundle) bundle = await options.bundle(emulator);
    else bundle = options.distDir ? readBundle(options.distDir) : await playgroundBundle(emulator);
    await prepareBigQuery(emulator);
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  const user = DEMO_USER.email;
  const host = hostWithAddOn(bundle, options, emulator, user);
  const controls = new PlaygroundControls(host, emulator, options.timeZone ?? DEFAULT_TIME_ZONE);
  const shim = shimScript(options.prefillSignIn !== false);
  const sidebarPage = bundle.sidebar.replace('<head>', () => `<head>\n${shim}`);
  const session = sessionOf(host, user, controls);
  const dueTriggers = options.runDueTriggers
    ? setInterval(() => {
        void session
          .serial(async () => {
            if (controls.runDueTriggers().length === 0) return;
            await host.recalculate(undefined, { user });
            await host.whenRecalculated();
          })
          .catch(() => undefined);
      }, DUE_TRIGGERS_EVERY_MS)
    : undefined;

  const server = http.createServer((req, res) => {
    const route = (req.url ?? '/').split('?')[0]!;
    if (route === '/' || route === '/index.html') return send(res, 200, 'text/html; charset=utf-8', fs.readFileSync(PAGE_FILE, 'utf8'));
    if (route === '/sidebar') return send(res, 200, 'text/html; charset=utf-8', sidebarPage);
    if (route === '/favicon.svg' || route === '/favicon.ico') return send(res, 200, 'image/svg+xml', FAVICON_SVG);
    if (route.startsWith('/api/')) {
      api(session, req, res, route).catch((error: unknown) =>
        sendJson(res, { ok: false, error: error instanceof Error ? error.message : String(error) }, 500),
      );
      return;
    }
    send(res, 404, 'text/plain', 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    host,
    emulator,
    controls,
    user,
    async close() {
      clearInterval(dueTriggers);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await host.close();
      await emulator.stop();
    },
  };
}
