/**
 * The webhook channel in the sidebar: its address. A saved address comes back only as its host
 * ("https://hooks.slack.com/…"): left as it is, it stays; cleared, it is removed. The address with its
 * key is never shown, here or in the Schedules list.
 */
import { isRedactedWebhook } from '../../src/core';
import { el, field } from '../dom';
import type { SidebarChannel } from './channel';

export const webhookFields: SidebarChannel = {
  id: 'webhook',
  fields(id) {
    const webhook = el('input', {
      type: 'url',
      id: id('webhook'),
      maxlength: 500,
      autocomplete: 'off',
      placeholder: 'https://chat.googleapis.com/v1/spaces/…',
    });
    return {
      nodes: [
        field(
          'Webhook',
          webhook,
          'A Google Chat or Slack incoming webhook, or another https address this installation allows. Kept in your user properties; shown later by its host only.',
        ),
      ],
      read(notices) {
        const address = webhook.value.trim();
        if (address) notices.webhook = address;
      },
      show(notices) {
        const address = notices?.webhook ?? '';
        webhook.value = address;
        webhook.title = isRedactedWebhook(address)
          ? 'The saved address, shown by its host: leave it to keep it, clear it to remove it.'
          : '';
      },
    };
  },
  named: (view) => (view.webhook ? `webhook (${view.webhook})` : undefined),
};
