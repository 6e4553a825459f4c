/** Collections and contexts shared by the wire grammar tests. */

import type { FieldKind } from "../../../collections/where.ts";
import {
  DEFAULT_QUERY_GUARDS,
  type QueryGuards,
  type WireCollection,
  type WireContext,
  type WireField,
} from "../../../collections/wire/parse.ts";
import { HTTPError } from "../../../router/errors.ts";
import { WIRE_ERROR_CODES } from "../../../collections/wire/errors.ts";
import assert from "node:assert/strict";

function f(kind: FieldKind, options: Partial<WireField> = {}): WireField {
  return {
    kind,
    nullable: false,
    readable: true,
    translatable: false,
    ...options,
  };
}

export const POSTS: WireCollection = {
  name: "Posts",
  fields: {
    title: f("text", { translatable: true }),
    body: f("text", { nullable: true, translatable: true }),
    views: f("integer"),
    rating: f("number", { nullable: true }),
    published: f("boolean"),
    publishedOn: f("date", { nullable: true }),
    createdAt: f("dateTime"),
    startsAt: f("time", { nullable: true }),
    status: f("select", { choices: ["draft", "live"] }),
    tags: f("multiSelect", { choices: ["a", "b"] }),
    author: f("record", { target: "Users", nullable: true }),
    comments: f("records", { target: "Comments" }),
    secret: f("text", { readable: false }),
    ghost: f("record", { target: "Nowhere", nullable: true }),
  },
};

export const USERS: WireCollection = {
  name: "Users",
  fields: {
    name: f("text"),
    email: f("text"),
    password: f("text", { readable: false }),
    manager: f("record", { target: "Users", nullable: true }),
    groups: f("records", { target: "Groups" }),
  },
};

export const COMMENTS: WireCollection = {
  name: "Comments",
  fields: {
    text: f("text"),
    author: f("record", { target: "Users" }),
    post: f("record", { target: "Posts" }),
  },
};

export const GROUPS: WireCollection = {
  name: "Groups",
  fields: { label: f("text"), members: f("records", { target: "Users" }) },
};

const ALL: Record<string, WireCollection> = {
  Posts: POSTS,
  Users: USERS,
  Comments: COMMENTS,
  Groups: GROUPS,
};

/** Options of {@link makeContext}. */
export interface ContextOptions {
  collection?: WireCollection;
  reachable?: Record<string, string[]>;
  guards?: Partial<QueryGuards>;
  locales?: string[];
}

/** A context over the fixtures; `reachable` maps collection names to scopes. */
export function makeContext(options: ContextOptions = {}): WireContext {
  const scopes = options.reachable;
  return {
    collection: options.collection ?? POSTS,
    collectionByName: (name) =>
      Object.hasOwn(ALL, name) ? ALL[name] : undefined,
    reachable: scopes === undefined
      ? undefined
      : (name) =>
        Object.hasOwn(scopes, name) ? new Set(scopes[name]) : undefined,
    guards: { ...DEFAULT_QUERY_GUARDS, ...options.guards },
    locales: options.locales ?? ["en", "de", "fr-CA"],
  };
}

/** Runs `fn`, asserting it throws a wire 400 with `code` at `path`. */
export function assertWireError(
  fn: () => unknown,
  code: string,
  path: string,
): HTTPError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(
    caught instanceof HTTPError,
    `expected an HTTPError, got ${caught}`,
  );
  assert.equal(caught.status, 400);
  assert.ok(
    (WIRE_ERROR_CODES as readonly string[]).includes(String(caught.data?.code)),
  );
  assert.deepEqual(
    { code: caught.data?.code, path: caught.data?.path },
    { code, path },
  );
  return caught;
}

/** A fixed-format UUID for tests. */
export const UUID_A = "0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a";
/** Another UUID. */
export const UUID_B = "1c7a4d3f-7a2e-4d4c-8b5f-3a2f1e0dac9b";
