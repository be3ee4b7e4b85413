/**
 * The notice channels the sidebar draws, in the core's order (CHANNEL_IDS): a new channel is its file
 * here and one line below, which the type check asks for as soon as the core lists it.
 */
import { CHANNEL_IDS, type ChannelId } from '../../src/core';
import type { SidebarChannel } from './channel';
import { emailFields } from './email';
import { webhookFields } from './webhook';

const BY_ID: Record<ChannelId, SidebarChannel> = {
  email: emailFields,
  webhook: webhookFields,
};

export const SIDEBAR_CHANNELS: readonly SidebarChannel[] = CHANNEL_IDS.map((id) => BY_ID[id]);
