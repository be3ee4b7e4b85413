/**
 * Keeping the access token between executions. The spec asks clients to store and reuse a token and
 * refresh it at most every 30 days (2 logins an hour); the store passed in must be private to the
 * user (user properties), never document or script properties. A pasted token has an unknown age,
 * so it is kept without an expiry and trusted until the service answers 401.
 */
import type { Clock, KeyValueStore } from '../../ports';
import { TOKEN_LIFETIME_MS } from '../../spec';

export const TOKEN_STORE_KEY = 'engage.token';

export interface StoredToken {
  token: string;
  /** How it was obtained: by signing in with user name and password, or pasted. */
  source: 'login' | 'pasted';
  obtainedAtMs: number;
  /** Epoch ms after which the service refuses it; absent for a pasted token. */
  expiresAtMs?: number;
  /** The user name it was obtained with, for the sidebar. */
  username?: string;
}

export class TokenStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  save(token: string, source: StoredToken['source'], username?: string): StoredToken {
    const now = this.clock.now();
    const stored: StoredToken = { token, source, obtainedAtMs: now };
    if (source === 'login') stored.expiresAtMs = now + TOKEN_LIFETIME_MS;
    if (username) stored.username = username;
    this.store.set(TOKEN_STORE_KEY, JSON.stringify(stored));
    return stored;
  }

  /** The stored token, or null when there is none, it is unreadable, or it has expired. */
  load(): StoredToken | null {
    const raw = this.store.get(TOKEN_STORE_KEY);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as StoredToken;
      if (typeof parsed.token !== 'string' || parsed.token === '') return null;
      if (parsed.expiresAtMs !== undefined && parsed.expiresAtMs <= this.clock.now()) return null;
      return parsed;
    } catch {
      return null;
    }
  }

  clear(): void {
    this.store.remove(TOKEN_STORE_KEY);
  }
}
