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

/** The fields of the `Sessions` collection, as types (for `RecordOf` and the registry). */
export type SessionsFields = {
  readonly user: Readonly<
    { type: "record"; collection: "Users"; onDelete: "cascade"; index: true }
  >;
  readonly tokenHash: Readonly<{ type: "text"; readable: false; unique: true }>;
  readonly expiresAt: Readonly<{ type: "dateTime"; index: true }>;
  readonly remember: Readonly<{ type: "boolean"; default: boolean }>;
  readonly createdAt: Readonly<{ type: "dateTime" }>;
  readonly userAgent: Readonly<{ type: "text"; nullable: true; max: number }>;
  readonly passwordStamp: Readonly<
    { type: "text"; readable: false; allowEmpty: true }
  >;
};

/**
 * The definition of the `Sessions` collection.
 *
 * @example
 * ```ts
 * import { sessionsDefinition } from "@strata/strata/auth";
 * Object.keys(sessionsDefinition.fields).includes("tokenHash"); // true
 * ```
 */
export const sessionsDefinition: CollectionDefinition<SessionsFields> =
  defineCollection({
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
    // Bookkeeping: a sign-in or sign-out is not a change anyone subscribes to.
    events: false,
  });
