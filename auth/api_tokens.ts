/**
 * The `ApiTokens` collection: machine access. A token (`strata_<base64url>`) is shown once,
 * when `POST /auth/tokens` creates it; only its SHA-256 is stored. Sent as
 * `Authorization: Bearer`, it acts as its user, limited to its `capabilities` (`["*"]`: all
 * of the user's), and never beyond what the user holds at the time of use. Signed-in users
 * list and revoke their own tokens through `/collections/api-tokens`; a user holding
 * `collection.ApiTokens.read` / `.delete` reaches everyone's.
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
import { userCan, useUser } from "./user.ts";

/** The fields of the `ApiTokens` collection, as types (for `RecordOf` and the registry). */
export type ApiTokensFields = {
  readonly name: Readonly<{ type: "text"; max: number }>;
  readonly user: Readonly<
    {
      type: "record";
      collection: "Users";
      onDelete: "cascade";
      index: true;
      writable: false;
      default: null;
      nullable: true;
    }
  >;
  readonly capabilities: Readonly<
    { type: "capabilities"; writable: false; default: () => string[] }
  >;
  readonly expiresAt: Readonly<
    { type: "dateTime"; nullable: true; writable: false; default: null }
  >;
  readonly lastUsedAt: Readonly<
    { type: "dateTime"; nullable: true; writable: false; default: null }
  >;
  readonly createdAt: Readonly<
    { type: "dateTime"; writable: false; default: () => number }
  >;
  readonly tokenHash: Readonly<
    {
      type: "text";
      readable: false;
      writable: false;
      unique: true;
      default: null;
      nullable: true;
    }
  >;
};

/** Own tokens only, unless the caller holds the operation's capability on ApiTokens. */
const ownTokens: AccessFunction = async (ctx) => {
  const user = await useUser();
  if (!user) return false;
  if (userCan(user, `collection.ApiTokens.${ctx.operation}`)) return true;
  return { where: { user: user.UUID } };
};

const ownOnly = {
  public: true,
  middleware: ["require-auth"],
  access: ownTokens,
} as const;

/**
 * The definition of the `ApiTokens` collection: `name`, `user` (the owner), `capabilities`,
 * `expiresAt` (null: never), `lastUsedAt` (written at most once a minute), `createdAt` and
 * the write-only `tokenHash`. Read and delete are open to signed-in users for their own
 * tokens; tokens are created by `POST /auth/tokens` only.
 *
 * @example
 * ```ts
 * import { apiTokensDefinition } from "@strata/strata/auth";
 * Object.keys(apiTokensDefinition.fields).includes("tokenHash"); // true
 * ```
 */
export const apiTokensDefinition: CollectionDefinition<ApiTokensFields> =
  defineCollection({
    fields: {
      name: field("text", { max: 100 }),
      user: field("record", {
        collection: "Users",
        onDelete: "cascade",
        index: true,
        writable: false,
        default: null,
        nullable: true,
      }),
      capabilities: field("capabilities", {
        writable: false,
        default: () => ["*"],
      }),
      expiresAt: field("dateTime", {
        nullable: true,
        writable: false,
        default: null,
      }),
      lastUsedAt: field("dateTime", {
        nullable: true,
        writable: false,
        default: null,
      }),
      createdAt: field("dateTime", {
        writable: false,
        default: () => currentApp()?.now() ?? Date.now(),
      }),
      tokenHash: field("text", {
        readable: false,
        writable: false,
        unique: true,
        default: null,
        nullable: true,
      }),
    },
    api: { read: ownOnly, delete: ownOnly },
    // Bookkeeping (lastUsedAt moves with use): not a change anyone subscribes to.
    events: false,
  });
