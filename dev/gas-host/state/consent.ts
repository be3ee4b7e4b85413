/**
 * What each user granted the add-on. Since August 2025 a user may grant an Editor add-on only some of
 * the scopes its manifest asks for, also when they consent again after a grant expires: "Some script
 * executions can start without a user's consent to all required scopes used by the script"
 * (developers.google.com/apps-script/reference/script/authorization-info). Grants are per user per
 * script, so the deployment keeps them (`ConsentGrants`); a user with no grant of their own granted
 * every scope of the manifest. Only the strict reading's `partialConsent` switch lets a grant be
 * partial (strict.ts); in the kind reading every user granted every scope, whatever the grants say.
 */
import type { ConsentOps, ExecutionInfo, ServedOps } from '../protocol/protocol';
import type { ReadingWitness } from '../protocol/strict';
import { storeUser, type DocumentIdentity } from './document';

/** The part of the deployment this file keeps: each user's granted scopes, by lowercased email. */
export interface ConsentGrants {
  readonly grants: Map<string, readonly string[]>;
}

export class Consent {
  constructor(
    private readonly shared: ConsentGrants,
    private readonly document: DocumentIdentity,
    /** The manifest's oauthScopes; undefined: no manifest, every scope the code needs is granted. */
    private readonly manifestScopes: readonly string[] | undefined,
    /** The strict reading's `partialConsent`: off, every user granted the manifest's every scope. */
    private readonly partialConsent: boolean,
    /** Told when a grant withholds a scope of the manifest: the strict reading honours it, the kind one not. */
    private readonly readings?: ReadingWitness,
  ) {}

  /** Sets what `user` granted (a test withholding a scope, or a user consenting again). */
  grant(user: string, scopes: readonly string[]): void {
    this.shared.grants.set(user.toLowerCase(), [...scopes]);
    if (this.manifestScopes?.some((scope) => !scopes.includes(scope))) this.readings?.differs('partialConsent');
  }

  /**
   * The scopes `user` holds: the manifest's, less those the user withheld (a grant never holds a scope
   * the manifest does not ask for); null without a manifest, where every scope the code needs is granted.
   */
  granted(user: string): string[] | null {
    if (!this.manifestScopes) return null;
    const grant = this.partialConsent ? this.shared.grants.get(user.toLowerCase()) : undefined;
    return grant ? this.manifestScopes.filter((scope) => grant.includes(scope)) : [...this.manifestScopes];
  }

  /** Whose grant an execution runs under: its user's (a custom function's, the owner's, as its stores). */
  grantedFor(execution: ExecutionInfo): string[] | null {
    return this.granted(storeUser(this.document, execution));
  }

  readonly ops: ServedOps<keyof ConsentOps> = {
    consentGranted: (execution) => this.grantedFor(execution),
  };
}
