/**
 * The `Sessions` collection: one row per open session, holding the SHA-256 of its token
 * (never the token) and when it ends. Signed-in users may list and end their own sessions
 * through `/collections/sessions`.
 *
 * @module
 */
import {
  type CollectionDefinition,
  defineCollection,
  field,
} from "../collections/define.ts";
import type { AccessFunction } from "../collections/api/exposure.ts";
import { currentApp } from "./_state.ts";
import { useUser } from "./user.ts";

/** A signed-in user reaches their own live sessions, nothing else. */
const ownSessions: AccessFunction = async () => {
  const user = await useUser();
  if (!user) return false;
  const now = currentApp()?.now() ?? Date.now();
  return { where: { user: user.UUID, expiresAt: { greaterThan: now } } };
};

const ownOnly = {
  public: true,
  middleware: ["require-auth"],
  access: ownSessions,
} as const;

/**
 * The definition of the `Sessions` collection.
 *
 * @example
 * ```ts
 * import { sessionsDefinition } from "./sessions.ts";
 * Object.keys(sessionsDefinition.fields).includes("tokenHash"); // true
 * ```
 */
export const sessionsDefinition: CollectionDefinition = defineCollection({
  fields: {
    user: field("record", {
      collection: "Users",
      onDelete: "cascade",
      index: true,
    }),
    tokenHash: field("text", { readable: false, unique: true }),
    expiresAt: field("dateTime", { index: true }),
    remember: field("boolean", { default: false }),
    createdAt: field("dateTime"),
    userAgent: field("text", { nullable: true, max: 512 }),
    // Salt of the password hash the session was opened under (see _store.ts).
    passwordStamp: field("text", { readable: false, allowEmpty: true }),
  },
  api: { read: ownOnly, delete: ownOnly },
});
