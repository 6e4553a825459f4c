/**
 * Who is calling, as the collections API sees it. The collections API knows nothing of how
 * users sign in: a layer (the auth layer) registers a resolver on the `collections:principal`
 * hook; without one every caller is anonymous.
 *
 * @module
 */

/** The caller of a request. */
export interface Principal {
  /** Whether a user is signed in. */
  readonly signedIn: boolean;
  /** Whether the caller's capabilities cover `capability`. */
  can(capability: string): boolean;
  /**
   * Names the caller's capabilities: two principals with the same key may share what was
   * decided for one of them (event streams group their subscribers by it). Without a key a
   * principal shares with nobody.
   */
  readonly key?: string;
}

/** Resolves the caller of the current request; registered on `collections:principal`. */
export type PrincipalResolver = () => Principal | Promise<Principal>;

/** The hook name a principal resolver registers on. */
export const PRINCIPAL_HOOK = "collections:principal";

/** The caller when no layer says otherwise. */
export const ANONYMOUS: Principal = Object.freeze({
  signedIn: false,
  can: () => false,
  key: "anonymous",
});
