/**
 * Multipart record writes (`POST /collections/<name>`, `PATCH …/<uuid>` as
 * `multipart/form-data`): the record's other fields come as JSON in a part named `data`;
 * each file part is named by its field (repeated for a `files` field, in order) and streamed
 * to storage as it arrives. The files become the field's value: a `file` field takes its one
 * part; a `files` field takes the UUIDs `data` lists for it (files it keeps), then the parts.
 *
 * @module
 */

import type { ResolvedCollection } from "../collections/resolve.ts";
import { parseJsonBody, readBodyWithLimit } from "../router/body.ts";
import { HTTPError, unprocessableContent } from "../router/errors.ts";
import { multipartBoundary, readMultipart } from "./multipart.ts";
import { FileRefusal } from "./store.ts";
import type { Upload, UploadTarget } from "./store.ts";
import type { FileRow } from "../collections/files/table.ts";

/** A multipart write, read: its input, the files it stored and what was refused. */
export interface MultipartWrite {
  /** The JSON of `data` with the stored files' UUIDs set on their fields. */
  readonly input: unknown;
  /** The UUIDs of the files stored (discarded unless the write attaches them). */
  readonly uploads: ReadonlySet<string>;
  /** A 422 to answer once the caller is authorised (refused files, unknown parts). */
  readonly error?: HTTPError;
}

/** What reading a multipart write needs. */
export interface MultipartWriteContext {
  /** Stores one file. */
  store(upload: Upload, target: UploadTarget): Promise<FileRow>;
  /** Deletes stored files (when the body fails). */
  discard(uuids: Iterable<string>): Promise<void>;
  /** Renders a validation message key in the request's language. */
  render(key: string, params: Record<string, unknown>): string;
}

/**
 * Whether `request` carries a multipart body.
 *
 * @example
 * ```ts
 * import { isMultipart } from "./record_write.ts";
 * isMultipart(new Request("http://x/", { method: "POST", body: new FormData() })); // true
 * ```
 */
export function isMultipart(request: Request): boolean {
  return request.headers.get("content-type")?.toLowerCase().trimStart()
    .startsWith("multipart/") ?? false;
}

/**
 * Reads a multipart record write for `collection`, storing its files; the JSON part is
 * limited to `maxBodySize` bytes (413), a malformed body is 400. Stored files are discarded
 * when reading fails.
 *
 * @example
 * ```ts ignore
 * const write = await readMultipartWrite(ctx, request, posts, 1_048_576);
 * ```
 */
export async function readMultipartWrite(
  ctx: MultipartWriteContext,
  request: Request,
  collection: ResolvedCollection,
  maxBodySize: number,
): Promise<MultipartWrite> {
  const boundary = multipartBoundary(request.headers.get("content-type"));
  if (boundary === null || request.body === null) {
    throw new HTTPError(415, "The request body must be multipart/form-data", {
      messageKey: "errors.unsupportedMediaType",
    });
  }
  const uploads = new Set<string>();
  const byField = new Map<string, string[]>();
  const codes: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const refuse = (field: string, code: string, params = {}) => {
    if (Object.hasOwn(codes, field)) return;
    codes[field] = code;
    errors[field] = ctx.render(code, params);
  };
  let data: unknown = undefined;
  let nonFileBytes = 0;
  try {
    for await (const part of readMultipart(request.body, boundary)) {
      if (part.filename === null) {
        if (part.name !== "data" || data !== undefined) {
          await part.body.cancel();
          throw new HTTPError(
            400,
            `Unexpected multipart field "${part.name}"`,
            {
              messageKey: "errors.badRequest",
            },
          );
        }
        const bytes = await readBodyWithLimit(
          new Request("http://x/", { method: "POST", body: part.body }),
          maxBodySize - nonFileBytes,
        );
        nonFileBytes += bytes?.byteLength ?? 0;
        data = parseJsonBody(bytes, "application/json");
        continue;
      }
      const field = collection.fields.get(part.name);
      if (
        !field || (field.kind !== "file" && field.kind !== "files") ||
        !field.writable
      ) {
        await part.body.cancel();
        refuse(part.name, "unknownField");
        continue;
      }
      const list = byField.get(field.name) ?? [];
      if (field.kind === "file" && list.length > 0) {
        await part.body.cancel();
        refuse(field.name, "tooManyFiles", { max: 1 });
        continue;
      }
      try {
        const row = await ctx.store({
          stream: part.body,
          filename: part.filename,
          contentType: part.contentType,
        }, { field, uploader: null });
        uploads.add(row.UUID);
        list.push(row.UUID);
        byField.set(field.name, list);
      } catch (error) {
        if (!(error instanceof FileRefusal)) throw error;
        refuse(error.field, error.code, error.params);
      }
    }
  } catch (error) {
    await ctx.discard(uploads);
    throw error;
  }
  if (data === undefined) data = {};
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    await ctx.discard(uploads);
    throw new HTTPError(400, "The data part must be a JSON object", {
      messageKey: "errors.badRequest",
    });
  }
  const input: Record<string, unknown> = { ...data as Record<string, unknown> };
  for (const [name, ids] of byField) {
    const field = collection.fields.get(name)!;
    if (field.kind === "file") input[name] = ids[0];
    else {
      const kept = Array.isArray(input[name]) ? input[name] as unknown[] : [];
      input[name] = [...kept, ...ids];
    }
  }
  const refused = Object.keys(codes).length > 0;
  return {
    input,
    uploads,
    ...(refused
      ? { error: unprocessableContent(undefined, { errors, codes }) }
      : {}),
  };
}
