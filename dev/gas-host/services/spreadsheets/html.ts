/**
 * HtmlService and HtmlOutput: an output holds its content, title and size until Ui shows it; the
 * project's HTML files come from the host. Templates are not emulated.
 */
import type { HtmlSnapshot } from '../../protocol/protocol';
import type { Facade, FacadeKit } from '../kit';

export interface HtmlFacades {
  HtmlService: Facade;
  /** What an HtmlOutput of this execution holds; anything else is an invalid argument, as in Apps Script. */
  snapshotOf(output: unknown): HtmlSnapshot;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function htmlFacades(kit: FacadeKit): HtmlFacades {
  const htmlOutput = (initial: string) => {
    let content = initial;
    let title = 'Apps Script application';
    let width: number | undefined;
    let height: number | undefined;
    const self: Facade = kit.api('HtmlOutput', {
      getContent: () => content,
      setContent: (html: string) => ((content = String(html)), self),
      append: (html: string) => ((content += String(html)), self),
      appendUntrusted: (text: string) => ((content += escapeHtml(String(text))), self),
      setTitle: (t: string) => ((title = String(t)), self),
      getTitle: () => title,
      setWidth: (w: number) => ((width = Number(w)), self),
      getWidth: () => width ?? null,
      setHeight: (h: number) => ((height = Number(h)), self),
      getHeight: () => height ?? null,
      setSandboxMode: () => self,
      setXFrameOptionsMode: () => self,
      addMetaTag: () => self,
      setFaviconUrl: () => self,
      __snapshot: (): HtmlSnapshot => ({ title, width, height, html: content }),
    });
    return self;
  };
  const HtmlService = kit.api('HtmlService', {
    createHtmlOutput: (html?: string) => (
      kit.guard('html', 'HtmlService.createHtmlOutput'), htmlOutput(html === undefined ? '' : String(html))
    ),
    createHtmlOutputFromFile: (name: string) => (
      kit.guard('html', 'HtmlService.createHtmlOutputFromFile'), htmlOutput(kit.ops.htmlFile(String(name)))
    ),
    SandboxMode: { IFRAME: 'IFRAME', NATIVE: 'NATIVE', EMULATED: 'EMULATED' },
    XFrameOptionsMode: { ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' },
  });
  const snapshotOf = (output: unknown): HtmlSnapshot => {
    const snap = (output as { __snapshot?: () => HtmlSnapshot } | null)?.__snapshot;
    if (typeof snap !== 'function') throw kit.realmError('Exception', 'Invalid argument: userInterface');
    return snap();
  };
  return { HtmlService, snapshotOf };
}
