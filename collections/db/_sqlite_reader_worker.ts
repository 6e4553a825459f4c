/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * A reader thread of a SQLite database (see sqlite_readers.ts): its own read-only
 * connection over WAL, Strata's SQL functions, and a statement deadline per read.
 *
 * @module
 */

import { lowerThreadPriority } from "../../utils/_thread_priority.ts";
import {
  DatabaseSync,
  type SQLInputValue,
  type StatementSync,
} from "node:sqlite";
import {
  DeadlineExceeded,
  registerSqliteFunctions,
  runWithDeadline,
} from "./sqlite_functions.ts";
import type { ReaderReply, ReaderRequest } from "./_sqlite_reader_protocol.ts";

const CACHE_SIZE = 128;
let database: DatabaseSync | undefined;
const statements = new Map<string, StatementSync>();

function prepare(sql: string): StatementSync {
  let statement = statements.get(sql);
  if (statement) {
    statements.delete(sql);
  } else {
    statement = database!.prepare(sql);
  }
  statements.set(sql, statement);
  if (statements.size > CACHE_SIZE) {
    statements.delete(statements.keys().next().value as string);
  }
  return statement;
}

function answer(request: ReaderRequest & { kind: "read" }): ReaderReply {
  try {
    const statement = prepare(request.sql);
    const parameters = request.parameters as SQLInputValue[];
    const rows = request.timeout > 0
      ? runWithDeadline(
        request.timeout,
        () => statement.all(...parameters),
      )
      : statement.all(...parameters);
    return { id: request.id, rows: rows as Record<string, unknown>[] };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: unknown };
    return {
      id: request.id,
      error: {
        message: String(message ?? error),
        code: typeof code === "string" ? code : undefined,
        deadline: error instanceof DeadlineExceeded,
      },
    };
  }
}

self.onmessage = (event: MessageEvent<ReaderRequest>) => {
  const request = event.data;
  if (request.kind === "open") {
    try {
      lowerThreadPriority();
      database = new DatabaseSync(request.path, { readOnly: true });
      // A reader waits for nothing but WAL recovery; off the event loop, so a short
      // synchronous wait is harmless.
      database.exec("pragma busy_timeout = 1000");
      registerSqliteFunctions(database);
      self.postMessage({ id: request.id, rows: [] } satisfies ReaderReply);
    } catch (error) {
      self.postMessage(
        {
          id: request.id,
          error: { message: String((error as Error).message ?? error) },
        } satisfies ReaderReply,
      );
    }
    return;
  }
  self.postMessage(answer(request));
};
