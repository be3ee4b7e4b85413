/**
 * The sidebar shell, bundled and inlined into dist/sidebar.html: a tab bar with one tab per panel,
 * the shared sign-in state, and nothing else. Features live in panel modules.
 *
 * Panel contract (see panel.ts): a panel module under sidebar/panels/ (a file, or a folder whose
 * index.ts is the module, as report/ and schedules/) exports `panel: Panel`, an object
 * `{ id, title, mount(container, ctx), shown?() }`. `mount` is called once, the first time
 * its tab opens, with its own container element and a PanelContext: `ctx.server` (the typed
 * google.script.run client from server.ts), `ctx.state()` / `ctx.onStateChange(fn)` /
 * `ctx.setState(s)` / `ctx.refreshState()` for sign-in and settings, `ctx.showPanel(id)`, and
 * `ctx.editReport(edit)`, which opens the Report tab with a report's settings (its panel's `edit`), and
 * `ctx.moments`, which shows a message until what supersedes it happens (moments.ts).
 * Build DOM with dom.ts (`el`, `field`, `notice`...): text only through textContent, only http(s)
 * URLs, never innerHTML. To add a panel, import it below and put it in PANELS in tab order.
 */
import { el, replaceChildren } from './dom';
import { moments } from './moments';
import type { Panel, PanelContext } from './panel';
import { panel as accountPanel } from './panels/account';
import { panel as recommendationsPanel } from './panels/recommendations';
import { panel as reportPanel } from './panels/report';
import { panel as schedulesPanel } from './panels/schedules';
import { server } from './server';
import type { SidebarState } from '../src/core';

const PANELS: Panel[] = [reportPanel, schedulesPanel, recommendationsPanel, accountPanel];

function start(root: HTMLElement): void {
  let current: SidebarState | undefined;
  const listeners: Array<(state: SidebarState) => void> = [];
  const mounted = new Set<string>();
  const tabs = new Map<string, HTMLButtonElement>();
  const containers = new Map<string, HTMLElement>();

  const ctx: PanelContext = {
    server,
    state: () => current,
    moments: moments(),
    setState(state) {
      // A sign-in or sign-out (or another user's sign-in) supersedes every message of the one before.
      const before = current?.session;
      if (before && (before.signedIn !== state.session.signedIn || before.username !== state.session.username))
        ctx.moments.happened('sign-in');
      current = state;
      for (const listener of listeners) listener(state);
    },
    async refreshState() {
      const state = await server.getSidebarState();
      ctx.setState(state);
      return state;
    },
    onStateChange(listener) {
      listeners.push(listener);
    },
    showPanel,
    editReport(edit) {
      showPanel(reportPanel.id);
      reportPanel.edit?.(edit);
    },
  };

  let shown: string | undefined;
  function showPanel(id: string): void {
    const chosen = PANELS.find((p) => p.id === id) ?? PANELS[0]!;
    // The messages of the tab left go with it (moments.ts).
    if (shown !== undefined && shown !== chosen.id) ctx.moments.happened('tab');
    shown = chosen.id;
    for (const p of PANELS) {
      const selected = p.id === chosen.id;
      tabs.get(p.id)!.setAttribute('aria-selected', String(selected));
      tabs.get(p.id)!.tabIndex = selected ? 0 : -1;
      containers.get(p.id)!.hidden = !selected;
    }
    if (!mounted.has(chosen.id)) {
      mounted.add(chosen.id);
      chosen.mount(containers.get(chosen.id)!, ctx);
    } else chosen.shown?.();
  }

  const tabList = tabBar(showPanel, tabs, containers);
  const banner = el('div', { id: 'session-banner' });
  replaceChildren(root, tabList, banner, ...containers.values());
  ctx.onStateChange((state) => renderBanner(banner, state, ctx));

  ctx.refreshState().then(
    (state) => showPanel(state.session.signedIn ? 'report' : 'account'),
    (error: unknown) => {
      showPanel('account');
      replaceChildren(
        banner,
        el('div', { class: 'notice notice-error', role: 'alert' }, error instanceof Error ? error.message : String(error)),
      );
    },
  );
}

/** The tab bar, a tab a panel (the arrow keys move between them); fills `tabs` and each panel's (hidden) container. */
function tabBar(showPanel: (id: string) => void, tabs: Map<string, HTMLButtonElement>, containers: Map<string, HTMLElement>): HTMLElement {
  const tabList = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Engage for Sheets' });
  for (const p of PANELS) {
    const tab = el(
      'button',
      { type: 'button', role: 'tab', id: `tab-${p.id}`, 'aria-controls': `panel-${p.id}`, class: 'tab', onclick: () => showPanel(p.id) },
      p.title,
    );
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const next = PANELS[(PANELS.indexOf(p) + step + PANELS.length) % PANELS.length]!;
      showPanel(next.id);
      tabs.get(next.id)!.focus();
    });
    tabs.set(p.id, tab);
    tabList.appendChild(tab);
    containers.set(
      p.id,
      el('section', { class: 'panel', role: 'tabpanel', id: `panel-${p.id}`, 'aria-labelledby': `tab-${p.id}`, hidden: true }),
    );
  }
  return tabList;
}

/** The line above every panel: a warning when the sign-in ends soon, expired or was refused. */
function renderBanner(banner: HTMLElement, state: SidebarState, ctx: PanelContext): void {
  const warning = state.session.warning;
  replaceChildren(
    banner,
    warning
      ? el(
          'div',
          { class: 'notice notice-warning', role: 'status' },
          warning,
          ' ',
          el('button', { type: 'button', class: 'link', onclick: () => ctx.showPanel('account') }, 'Sign in'),
        )
      : null,
  );
}

const root = document.getElementById('app');
if (root) start(root);
