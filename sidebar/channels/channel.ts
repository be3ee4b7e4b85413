/**
 * A notice channel as the sidebar draws it: its fields in the notices' form (the Report tab's Schedule
 * section and the Schedules tab's edit form), and how the Schedules list names it. One file per
 * channel (email.ts, webhook.ts), listed in channels.ts beside the core's own list
 * (src/core/channels/), which says what each setting means and checks it when it is saved.
 */
import type { ChannelId, NoticeSettingsInput, NoticesView } from '../../src/core';

/** One channel's fields in one form. */
export interface ChannelFields {
  /** Its rows in the form, in order. */
  nodes: HTMLElement[];
  /** Writes its setting into the notices to save (left out where the core's default means the same). */
  read(notices: NoticeSettingsInput): void;
  /** Shows a saved report's setting; undefined: a new report's, the defaults. */
  show(notices: NoticeSettingsInput | undefined): void;
}

export interface SidebarChannel {
  /** The core's channel it draws: its setting in `notices`, its outcome in the last notice, under this id. */
  id: ChannelId;
  /** Its fields, their element ids made by `id` ("schedule-webhook"). */
  fields(id: (name: string) => string): ChannelFields;
  /** How the Schedules list names it when it is on ("email", "webhook (https://hooks.slack.com/…)"); undefined when off. */
  named(view: NoticesView): string | undefined;
}
