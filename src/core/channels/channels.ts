/**
 * The list of notice channels, and what the rest of the core asks of them all: the notices' schema
 * fragments, which channels a report's notices turn on, what the Schedules tab shows of each, which
 * keep a secret, and how each took a notice. A new channel is its own file beside email.ts and
 * webhook.ts, one line in NOTICE_CHANNELS, and its sender where the add-on is wired (ChannelSenders
 * names every channel, so a missing one fails the type check); the sidebar draws its fields from its
 * own list (sidebar/channels/). The order here is the order of outcomes and of the Schedules tab.
 */
import type { ChannelSecret, ChannelSend, NoticeChannel } from './channel';
import { emailChannel } from './email';
import { webhookChannel } from './webhook';

export const NOTICE_CHANNELS = [emailChannel, webhookChannel] as const;

type Channel = (typeof NOTICE_CHANNELS)[number];
export type ChannelId = Channel['id'];
/** The channels that keep a secret in the owner's notice record, under their id. */
export type SecretChannelId = Extract<Channel, { secret: ChannelSecret }>['id'];
/** The channels' secrets as the owner's notice record keeps them. */
export type ChannelSecrets = { [Id in SecretChannelId]?: string };
/** How each channel took a notice: "sent", or why not; the channels a report does not use left out. */
export type ChannelOutcomes = { [Id in ChannelId]?: string };
/** Every channel's sender, each over its own port, built where the add-on is wired. */
export type ChannelSenders = Record<ChannelId, ChannelSend>;
/** Each channel's fragment of the notices' schema, under its id. */
export type ChannelSettingShape = { [C in Channel as C['id']]: C['setting'] };
type Shown<C extends Channel> = ReturnType<C['shown']>;
/** What the Schedules tab's view holds of each channel; a channel that may show nothing is left out then. */
export type ChannelViews = { [C in Channel as undefined extends Shown<C> ? never : C['id']]: Shown<C> } & {
  [C in Channel as undefined extends Shown<C> ? C['id'] : never]?: Exclude<Shown<C>, undefined>;
};
/** The channels' settings as the generic code reads them. */
type AnySettings = Partial<Record<ChannelId, unknown>> | undefined;

/** The channels as the code that never names one reads them. */
const CHANNELS = NOTICE_CHANNELS as unknown as ReadonlyArray<NoticeChannel<ChannelId>>;
export const CHANNEL_IDS: readonly ChannelId[] = CHANNELS.map((channel) => channel.id);

export const channelSettingShape = Object.fromEntries(
  NOTICE_CHANNELS.map((channel) => [channel.id, channel.setting]),
) as ChannelSettingShape;

/** The channels `notices` turns on, in the list's order. */
export function channelsOn(notices: AnySettings): ChannelId[] {
  return CHANNELS.filter((channel) => channel.isOn(notices?.[channel.id])).map((channel) => channel.id);
}

/** What the Schedules tab shows of each channel of `notices`. */
export function channelViews(notices: AnySettings): ChannelViews {
  const views: Partial<Record<ChannelId, unknown>> = {};
  for (const channel of CHANNELS) {
    const shown = channel.shown(notices?.[channel.id]);
    if (shown !== undefined) views[channel.id] = shown;
  }
  return views as ChannelViews;
}

/** What turns a channel on, said when alerts would reach none: "turn on notices.email, or give notices.webhook". */
export const HOW_TO_TURN_ON_A_CHANNEL = CHANNELS.map((channel) => channel.turnOn).join(', or ');

/** The channels with a secret, with it. */
export const SECRET_CHANNELS = CHANNELS.filter((channel) => channel.secret !== undefined) as unknown as ReadonlyArray<
  NoticeChannel<SecretChannelId> & { secret: ChannelSecret }
>;

export const isSecretChannel = (id: ChannelId): id is SecretChannelId => SECRET_CHANNELS.some((channel) => channel.id === id);

/** Whether a notice reached anyone: some channel took it. */
export const sentAnywhere = (outcomes: ChannelOutcomes) => Object.values(outcomes).includes('sent');
