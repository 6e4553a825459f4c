/**
 * Messages between the process and its SQLite reader threads.
 *
 * @module
 */

/** What the process asks a reader thread. */
export type ReaderRequest =
  | { kind: "open"; id: number; path: string }
  | {
    kind: "read";
    id: number;
    sql: string;
    parameters: unknown[];
    /** Milliseconds the statement may run; 0 for no limit. */
    timeout: number;
  };

/** A reader thread's answer to the request of the same `id`. */
export type ReaderReply =
  | { id: number; rows: Record<string, unknown>[] }
  | {
    id: number;
    error: {
      message: string;
      code?: string;
      /** The statement was stopped at its deadline. */
      deadline?: boolean;
    };
  };
