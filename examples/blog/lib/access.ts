// Access scopes of the blog's collections. The caller is read ambiently with useUser();
// `posts.editAny` is a custom capability the editor role (and admin's `*`) holds.
import { type AccessFunction, query } from "@strata/strata";
import { userCan, useUser } from "@strata/strata/auth";

/** Fields an author may change on their own posts (not `author`: a post stays theirs). */
const AUTHOR_EDITABLE = ["title", "body", "published", "publishedOn", "tags"];

/** Update and delete of Posts: editors reach every post, authors only their own. */
export const ownPosts: AccessFunction = async () => {
  const user = await useUser();
  if (!user) return false;
  if (userCan(user, "posts.editAny")) return true;
  return {
    where: { author: { has: { user: user.UUID } } },
    select: AUTHOR_EDITABLE,
  };
};

/** Create of Posts: an author may only publish under their own name. */
export const createAsSelf: AccessFunction = async ({ input }) => {
  const user = await useUser();
  if (!user) return false;
  if (userCan(user, "posts.editAny")) return true;
  const author = await query("Authors").where({ user: user.UUID }).findFirst();
  const wanted = (input as { author?: unknown } | undefined)?.author;
  return author !== null && wanted === author.UUID;
};

/** Update of Authors: editors edit every profile, an author only their own name and bio. */
export const ownProfile: AccessFunction = async () => {
  const user = await useUser();
  if (!user) return false;
  if (userCan(user, "posts.editAny")) return true;
  return { where: { user: user.UUID }, select: ["name", "bio"] };
};

/** Read of Comments: everyone reads comments, only editors see who wrote them. */
export const commentReaders: AccessFunction = async () => {
  const user = await useUser();
  if (user && userCan(user, "posts.editAny")) return true;
  return { select: ["post", "body", "createdAt"] };
};
