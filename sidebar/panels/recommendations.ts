/**
 * The Recommendations tab: a preview of in-chat recommendations. The user gives keywords, IAB
 * categories, the content address and the widget; the server asks Engage (with the API key from the
 * settings, which never reaches this page) and returns documents with http(s) links only. They are
 * shown as a chat client would show them (thumbnail, text, sponsor, call to action), all API text as
 * text nodes. Once they are displayed the impression pixel is called exactly once with the displayed
 * positions in display order, and not at all without a tracking address or when nothing was shown.
 * Test mode is on by default and always visible.
 */
import { impressionPixelUrl, type PreviewDocument, type RecommendationsPreview, type SidebarState } from '../../src/core';
import { LOCAL_SERVERS } from '../build-flags';
import { el, field, notice, replaceChildren } from '../dom';
import type { Panel, PanelContext } from '../panel';
import { failureText } from '../server';

/** Calls the pixel address from the browser: a GET without cookies or referrer, as an image beacon. */
export type PixelSender = (url: string) => void;

export const sendPixel: PixelSender = (url) => {
  const beacon = new Image(1, 1);
  beacon.referrerPolicy = 'no-referrer';
  beacon.src = url;
};

export const panel: Panel = {
  id: 'recommendations',
  title: 'Recommendations',
  mount(container, ctx) {
    mountRecommendations(container, ctx, sendPixel);
  },
};

export function mountRecommendations(container: HTMLElement, ctx: PanelContext, pixel: PixelSender): void {
  const setup = el('div', { id: 'recs-setup' });
  const keywords = el('input', { type: 'text', id: 'recs-keywords', placeholder: 'running, shoes' });
  const categories = el('input', { type: 'text', id: 'recs-categories', placeholder: 'IAB17, IAB7' });
  const contentUrl = el('input', { type: 'text', id: 'recs-content-url', required: true, placeholder: 'https://news.example/story' });
  const widget = el('input', { type: 'text', id: 'recs-widget', placeholder: 'APP_12' });
  const testMode = el('input', { type: 'checkbox', id: 'recs-test-mode', checked: true });
  const modeLabel = el('span', { id: 'recs-mode-label', class: 'recs-mode' });
  const submit = el('button', { type: 'submit', class: 'action', id: 'recs-submit' }, 'Preview recommendations');
  const status = el('div', { class: 'form-status', id: 'recs-status' });
  const results = el('div', { id: 'recs-results', 'aria-live': 'polite' });

  const showMode = () => {
    modeLabel.className = testMode.checked ? 'recs-mode recs-mode-test' : 'recs-mode recs-mode-live';
    replaceChildren(modeLabel, testMode.checked ? 'Test mode: on' : 'Test mode: off (live ads, real impressions)');
  };
  testMode.addEventListener('change', showMode);
  showMode();

  const form = el(
    'form',
    { id: 'recs-form' },
    el('h2', {}, 'Recommendations preview'),
    el('p', { class: 'hint' }, 'See which ads Engage returns for a conversation, shown as a chat would show them.'),
    setup,
    field('Keywords', keywords, 'Separated by commas. May be empty.'),
    field('IAB categories', categories, 'Codes such as IAB17, separated by commas. May be empty.'),
    field('Content address', contentUrl, 'The page or domain the conversation is about.'),
    field('Widget ID', widget),
    el('label', { class: 'recs-toggle', for: 'recs-test-mode' }, testMode, ' ', modeLabel),
    el('div', { class: 'actions' }, submit),
    status,
  );

  const renderSetup = (state: SidebarState) => {
    const s = state.settings;
    widget.placeholder = s.widgetId ? `${s.widgetId} (from Settings)` : 'APP_12';
    replaceChildren(setup, missingSetup(state, ctx));
  };
  ctx.onStateChange(renderSetup);
  const state = ctx.state();
  if (state) renderSetup(state);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const request = {
      keywords: keywords.value,
      iabCategories: categories.value,
      contentUrl: contentUrl.value,
      widgetJSId: widget.value,
      testMode: testMode.checked,
    };
    askForPreview(ctx, request, { submit, status, results }, pixel);
  });

  container.append(form, results);
}

/** What the settings lack for a preview, with the way to them; null when nothing. */
function missingSetup(state: SidebarState, ctx: PanelContext): HTMLElement | null {
  const s = state.settings;
  const missing = [!s.recommendationsUrl && 'the recommendations address', !s.hasApiKey && 'the API key'].filter(Boolean) as string[];
  if (!missing.length) return null;
  return notice(
    'warning',
    el(
      'span',
      {},
      `Set ${missing.join(' and ')} first, under `,
      el('button', { type: 'button', class: 'link', onclick: () => ctx.showPanel('account') }, 'Account > Settings'),
      '.',
    ),
  );
}

/** Asks the server for the preview, the button held and a progress bar shown meanwhile, and shows it or the failure. */
function askForPreview(
  ctx: PanelContext,
  request: Parameters<PanelContext['server']['previewRecommendations']>[0],
  view: { submit: HTMLButtonElement; status: HTMLElement; results: HTMLElement },
  pixel: PixelSender,
): void {
  const { submit, status, results } = view;
  submit.disabled = true;
  replaceChildren(status, el('div', { class: 'progress' }, el('div', { class: 'progress-bar indeterminate' }, el('div', {}))));
  ctx.server
    .previewRecommendations(request)
    .then(
      (preview) => {
        replaceChildren(status);
        showPreview(results, preview, pixel);
      },
      (error: unknown) => {
        replaceChildren(status, notice('error', failureText(error)));
        replaceChildren(results);
      },
    )
    .finally(() => {
      submit.disabled = false;
    });
}

/** Renders the documents, then reports the displayed positions once. Returns the pixel address called, if any. */
export function showPreview(results: HTMLElement, preview: RecommendationsPreview, pixel: PixelSender): string | undefined {
  const cards = preview.documents.map(documentCard);
  const header = el(
    'div',
    { class: 'recs-header' },
    el(
      'span',
      { class: preview.testMode ? 'recs-badge recs-badge-test' : 'recs-badge recs-badge-live', id: 'recs-result-mode' },
      preview.testMode ? 'Test mode' : 'Live',
    ),
    ` ${cards.length} ad${cards.length === 1 ? '' : 's'} for widget ${preview.widgetJSId}`,
  );
  const omitted =
    preview.omitted > 0
      ? notice(
          'warning',
          `${preview.omitted} ad${preview.omitted === 1 ? ' was' : 's were'} left out: ${preview.omitted === 1 ? 'its link is' : 'their links are'} not an http(s) address.`,
        )
      : null;
  const chat =
    cards.length > 0
      ? el('div', { class: 'recs-chat', role: 'list' }, ...cards)
      : el('p', { class: 'empty-state' }, 'Engage returned no ads for these keywords and categories.');
  const pixelStatus = el('p', { class: 'hint', id: 'recs-pixel-status' });
  replaceChildren(results, header, omitted, chat, pixelStatus);

  // The documents are in the page now: report what is displayed, in display order, once.
  const displayed = cards.map((card) => Number(card.dataset.pos));
  const url = impressionPixelUrl(preview.reportServed, displayed, { localServers: LOCAL_SERVERS });
  if (url) {
    pixel(url);
    replaceChildren(
      pixelStatus,
      `Impression reported for position${displayed.length === 1 ? '' : 's'} ${displayed.join('-')}${preview.testMode ? ' (test mode)' : ''}.`,
    );
  } else {
    replaceChildren(
      pixelStatus,
      displayed.length === 0
        ? 'No impression reported: nothing was displayed.'
        : 'No impression reported: the answer had no tracking address.',
    );
  }
  return url;
}

/** One ad as a chat client shows it: thumbnail, text (the link), sponsor, call to action. */
function documentCard(doc: PreviewDocument): HTMLElement {
  const link = { href: doc.url, target: '_blank', rel: 'noopener noreferrer nofollow sponsored' };
  const placeholder = () => el('div', { class: 'recs-thumb recs-thumb-empty', 'aria-hidden': 'true' }, 'No image');
  let thumbnail: HTMLElement = placeholder();
  if (doc.thumbnail_url) {
    const image = el('img', {
      class: 'recs-thumb',
      src: doc.thumbnail_url,
      alt: '',
      loading: 'lazy',
      referrerpolicy: 'no-referrer',
      width: 64,
      height: 64,
    });
    // A thumbnail that does not load (or is not an http(s) address, so has no src) shows the placeholder, never a broken image.
    if (image.hasAttribute('src')) {
      image.addEventListener('error', () => image.replaceWith(placeholder()), { once: true });
      thumbnail = image;
    }
  }
  return el(
    'article',
    { class: 'recs-doc', role: 'listitem', 'data-pos': doc.pos },
    el('a', { ...link, class: 'recs-thumb-link', tabindex: -1, 'aria-hidden': 'true' }, thumbnail),
    el(
      'div',
      { class: 'recs-body' },
      el('a', { ...link, class: 'recs-content' }, doc.content),
      el('div', { class: 'recs-sponsor' }, 'Sponsored · ', el('span', { class: 'recs-source' }, doc.source_display_name)),
      doc.cta ? el('a', { ...link, class: 'recs-cta' }, doc.cta) : null,
    ),
  );
}
