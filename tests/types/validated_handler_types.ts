// Type expectations of validated routes, checked by `deno check` (tests/types/types_test.ts):
// every `@ts-expect-error` line must stay an error.
import { z } from "npm:zod@^4.3.0";
import * as v from "npm:valibot@^1.1.0";
import { defineHandler } from "../../mod.ts";

defineHandler({
  params: z.object({ id: z.coerce.number() }),
  query: z.object({ page: z.coerce.number().default(1) }),
  headers: z.object({ "x-api-version": z.string() }),
  body: z.object({ title: z.string(), tags: z.array(z.string()) }),
  maxBodySize: "10kb",
  middleware: ["require-auth"],
}, ({ valid, params }) => {
  const id: number = valid.params.id;
  const page: number = valid.query.page;
  const version: string = valid.headers["x-api-version"];
  const title: string = valid.body.title;
  const tags: string[] = valid.body.tags;
  const raw: string = params.id;
  // @ts-expect-error the id is a number after coercion
  const wrong: string = valid.params.id;
  // @ts-expect-error no such body key
  valid.body.nope;
  return { id, page, version, title, tags, raw, wrong };
});

defineHandler({ body: v.object({ qty: v.number() }) }, ({ valid }) => {
  const qty: number = valid.body.qty;
  // @ts-expect-error no query schema: valid.query is absent
  valid.query;
  return { qty };
});

// @ts-expect-error the answer must match the response schema
defineHandler({ response: z.object({ count: z.number() }) }, () => ({
  count: "many",
}));

defineHandler({ response: z.object({ count: z.number() }) }, () => ({
  count: 1,
}));

// @ts-expect-error an unknown route option
defineHandler({ maxBodySise: "1kb", body: z.string() }, () => null);
