/**
 * Building the sidebar's DOM safely. Text from the API or the user is only ever set with
 * textContent or attribute values, never parsed as HTML; links accept only http(s) addresses, and
 * images only https (a sidebar loads external resources only over https), or http on this machine in a
 * build for local servers (the playground's and the tests' emulator: build-flags.ts). Every panel builds its markup with `el`, so there is no innerHTML in the sidebar.
 */
import { LOCAL_SERVERS } from './build-flags';
import { AUTHORIZATION_LINK_LEAD } from '../src/core';

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * A new element: `el('button', { class: 'action', onclick: run }, 'Run')`. Attributes whose name
 * starts with "on" are event listeners; true sets a boolean attribute, false/null/undefined omit it.
 * Strings among the children become text nodes.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name === 'href' || name === 'src') {
      const url = name === 'src' ? loadableUrl(String(value)) : safeUrl(String(value));
      if (url) node.setAttribute(name, url);
    } else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces the children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, ...children);
}

/** The address if it is an absolute http(s) URL, otherwise undefined (javascript:, data:, relative...). */
export function safeUrl(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An address the sidebar may load as an image: https, or, in a build for local servers, http to this machine (localhost, 127.x, [::1]). */
export function loadableUrl(candidate: string): string | undefined {
  const url = safeUrl(candidate);
  if (!url) return undefined;
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || (LOCAL_SERVERS && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(hostname)) ? url : undefined;
}

let idCounter = 0;
/** A unique element id, for label/for pairs. */
export function uid(prefix: string): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** A labelled form field: the label is tied to the control for screen readers. */
export function field(label: string, control: HTMLElement, hint?: string | Node): HTMLDivElement {
  if (!control.id) control.id = uid('f');
  const hintNode = hint ? el('div', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintNode) control.setAttribute('aria-describedby', hintNode.id);
  return el('div', { class: 'field' }, el('label', { for: control.id }, label), control, hintNode);
}

/** A select with options [value, label]; `selected` picks the initial value. */
export function select(
  options: ReadonlyArray<readonly [string, string]>,
  selected?: string,
  attributes: Attributes = {},
): HTMLSelectElement {
  const node = el('select', attributes);
  for (const [value, label] of options) node.appendChild(el('option', { value, selected: value === selected }, label));
  return node;
}

/** A message box: 'error' boxes are announced to screen readers at once. */
export function notice(kind: 'error' | 'warning' | 'info' | 'success', text: string | Node): HTMLDivElement {
  const content = typeof text === 'string' ? withAuthorizationLink(text) : [text];
  return el('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...content);
}

/**
 * A message that ends with Google's authorization link (a permission the user has not granted,
 * PermissionNotGrantedError: an https address on script.google.com or accounts.google.com) shows that
 * link as one, opening in a new tab; any other text stays text.
 */
export function withAuthorizationLink(text: string): Child[] {
  const at = text.lastIndexOf(AUTHORIZATION_LINK_LEAD);
  const url = at >= 0 ? safeUrl(text.slice(at + AUTHORIZATION_LINK_LEAD.length).trim()) : undefined;
  // Only Google's own pages become a link: a message quoting other text stays text.
  if (!url || !/^https:\/\/(script|accounts)\.google\.com\//.test(url)) return [text];
  const label = AUTHORIZATION_LINK_LEAD.replace(/:\s*$/, '');
  return [text.slice(0, at), el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'authorization-link' }, label)];
}
