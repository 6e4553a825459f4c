/**
 * The routes of stored files: `GET /files/<uuid>/<name>` (see `serve.ts`) and
 * `POST /files?collection=<Name>&field=<field>`, the upload-first path: a signed-in user who
 * passes the guard of the collection's create or update operation uploads one file (a
 * multipart part named `file`) and gets its descriptor, unattached; a later write of the
 * record attaches it. An unknown collection or field, or one the caller may not write, is 404.
 *
 * @module
 */

import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import type { StrataEvent } from "../router/event.ts";
import type { RequestEvent } from "../router/request_event.ts";
import {
  badRequest,
  HTTPError,
  notFound,
  unauthorized,
  unprocessableContent,
} from "../router/errors.ts";
import { apiRegistry } from "../collections/api/registry.ts";
import type { ApiHost } from "../collections/api/host.ts";
import { guardRefusal, resolvePrincipal } from "../collections/api/policy.ts";
import { describeFile } from "../collections/files/descriptors.ts";
import type { FileService } from "./service.ts";
import { serveFile } from "./serve.ts";
import { multipartBoundary, readMultipart } from "./multipart.ts";
import { FileRefusal } from "./store.ts";

/** The app as the file routes see it. */
interface FilesHost extends ApiHost {
  readonly files: FileService | null;
  readonly messages: {
    renderValidation(key: string, params: Record<string, unknown>): string;
  };
}

function hostFiles(event: StrataEvent): [FilesHost, FileService] {
  const host = (event as RequestEvent).owner as FilesHost | undefined;
  if (!host?.files) throw notFound();
  return [host, host.files];
}

/**
 * `POST /files?collection=<Name>&field=<field>`: 201 and the descriptor of the unattached
 * upload.
 *
 * @example
 * ```ts ignore
 * defineHandler(uploadFile, { maxBodySize: false });
 * ```
 */
export async function uploadFile(event: StrataEvent): Promise<unknown> {
  const [host, files] = hostFiles(event);
  const principal = await resolvePrincipal(host);
  if (!principal.signedIn) throw unauthorized();
  const uploader = host.data.actingUser()?.UUID ?? null;
  if (uploader === null) throw unauthorized();
  const collection = apiRegistry(host).byName.get(
    event.query.get("collection") ?? "",
  );
  const field = collection?.resolved.fields.get(event.query.get("field") ?? "");
  if (
    !collection || !field ||
    (field.kind !== "file" && field.kind !== "files") ||
    !field.writable
  ) {
    throw notFound();
  }
  const allowed = (["create", "update"] as const).some((operation) =>
    collection.exposure[operation] !== undefined &&
    guardRefusal(collection, operation, principal) === undefined
  );
  if (!allowed) throw notFound();
  const boundary = multipartBoundary(event.request.headers.get("content-type"));
  if (boundary === null || event.request.body === null) {
    throw new HTTPError(415, "The request body must be multipart/form-data", {
      messageKey: "errors.unsupportedMediaType",
    });
  }
  let stored = null;
  try {
    for await (const part of readMultipart(event.request.body, boundary)) {
      if (part.name !== "file" || part.filename === null || stored !== null) {
        await part.body.cancel();
        throw badRequest(
          'The body must hold one file part named "file"',
          undefined,
          { messageKey: "errors.badRequest" },
        );
      }
      stored = await files.store({
        stream: part.body,
        filename: part.filename,
        contentType: part.contentType,
      }, { field, uploader });
    }
  } catch (error) {
    if (stored !== null) await files.discard([stored.UUID]);
    if (error instanceof FileRefusal) {
      throw unprocessableContent(undefined, {
        errors: {
          [error.field]: host.messages.renderValidation(
            error.code,
            error.params,
          ),
        },
        codes: { [error.field]: error.code },
      });
    }
    throw error;
  }
  if (stored === null) {
    throw badRequest(
      'The body must hold one file part named "file"',
      undefined,
      {
        messageKey: "errors.badRequest",
      },
    );
  }
  event.status = 201;
  return describeFile(stored, files.links.urlOf(stored));
}

/**
 * The file routes keyed by their file path under the api folder.
 *
 * @example
 * ```ts
 * import { fileRoutes } from "./routes.ts";
 * Object.keys(fileRoutes); // ["files/index.post.ts", "files/[uuid]/[name].get.ts"]
 * ```
 */
export const fileRoutes: Readonly<Record<string, HandlerDefinition>> = Object
  .freeze({
    "files/index.post.ts": defineHandler(uploadFile, { maxBodySize: false }),
    "files/[uuid]/[name].get.ts": defineHandler(
      (event) => serveFile(event, hostFiles(event)[1]),
      { maxBodySize: false },
    ),
  });
