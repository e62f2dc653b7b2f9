import type { IntegrationRow } from '../../db/integrations.repository';

/** A provider's push for one account, as its API keeps it. */
export interface PushState {
  /** How the provider's notifications name the account (see `integrations.push_key`). */
  pushKey: string;
  /** When the provider stops pushing unless renewed. */
  expiresAt: Date;
}

/**
 * How one provider pushes an account's changes: a Gmail watch, a Graph subscription. Started or
 * renewed after a sync (which knows the account's address), stopped when the account goes.
 */
export interface PushChannel {
  /** Renewed when less than this is left before it ends. */
  renewWithinMs: number;
  /** The key the provider's notifications will name this account by, once pushing. */
  keyFor(row: IntegrationRow, address: string): string | null;
  /** Starts the push, or renews `current`: what the provider keeps now. */
  renew(row: IntegrationRow, address: string, current: PushState | null): Promise<PushState>;
  /** Stops the push of `current` at the provider (best effort: the account is going). */
  stop(row: IntegrationRow, current: PushState): Promise<void>;
}
