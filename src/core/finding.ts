/**
 * One row of the installation check (addon/stores/installation-check.ts): what a probe on a live
 * deployment saw, and what it means for the deployer. Here, at the base, so that a capability's own
 * room can word its rows (a destination's, a channel's) without reaching up to the check.
 */
export type FindingStatus = 'ok' | 'attention' | 'pending';

export interface Finding {
  check: string;
  status: FindingStatus;
  /** What was seen. */
  result: string;
  /** What it means for the deployment, and what to do. */
  meaning: string;
}
