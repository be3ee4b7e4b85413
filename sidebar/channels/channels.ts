/**
 * The notice channels the sidebar draws, in the core's order (src/core/channels/channels.ts): a new
 * channel is its file here and one line below, which the type check asks for as soon as the core
 * lists it. Only the core's types are named here, so the sidebar bundles no channel it does not draw.
 */
import type { ChannelId } from '../../src/core';
import type { SidebarChannel } from './channel';
import { emailFields } from './email';
import { webhookFields } from './webhook';

const BY_ID: Record<ChannelId, SidebarChannel> = {
  email: emailFields,
  webhook: webhookFields,
};

export const SIDEBAR_CHANNELS: readonly SidebarChannel[] = Object.values(BY_ID);
