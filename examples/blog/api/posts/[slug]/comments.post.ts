// POST /posts/:slug/comments { body }: any signed-in user comments on a post they can see.
import {
  defineHandler,
  notFound,
  query,
  unprocessableContent,
} from "@strata/strata";
import { requireUser } from "@strata/strata/auth";

export default defineHandler(async (event) => {
  const user = await requireUser();
  const post = await query("Posts").where({ slug: event.params.slug })
    .findFirst();
  if (!post) throw notFound();
  // The shape the client should send; the Comments fields check it (422 otherwise).
  const { body } = await event.body<{ body: string }>();
  const result = await query("Comments").create({
    post: post.UUID,
    author: user.UUID,
    body,
  });
  if (!result.ok) {
    throw unprocessableContent(undefined, { errors: result.errors });
  }
  event.status = 201;
  return result.record;
}, { middleware: ["require-auth"], maxBodySize: "16kb" });
