// POST /signup { email, password }: account creation is the app's own route. The Users
// collection validates the email (422 on a bad or taken one) and hashes the password;
// createSession signs the new account in.
import { defineHandler, query, unprocessableContent } from "@strata/strata";
import { createSession, toUser } from "@strata/strata/auth";

export default defineHandler(async (event) => {
  // The shape the client should send; the Users fields check the values (422 otherwise).
  const { email, password, remember } = await event.body<
    { email: string; password: string; remember?: boolean }
  >();
  const result = await query("Users").create({ email, password });
  if (!result.ok) {
    throw unprocessableContent(undefined, { errors: result.errors });
  }
  await createSession(result.record.UUID, remember === true);
  event.status = 201;
  return toUser(result.record);
}, { maxBodySize: "4kb" });
