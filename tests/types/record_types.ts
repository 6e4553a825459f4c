// Type expectations of RecordOf / CreateInputOf / UpdateInputOf, checked by `deno check`
// (tests/types/types_test.ts); every `@ts-expect-error` line must stay an error.
import {
  type CreateInputOf,
  defineCollection,
  field,
  type FileDescriptor,
  type RecordOf,
  type UpdateInputOf,
} from "../../mod.ts";

const Everything = defineCollection({
  fields: {
    title: field("text", { translatable: true }),
    note: field("text", { nullable: true }),
    secret: field("text", { readable: false }),
    code: field("text", { immutable: true, default: "c" }),
    computed: field("text", { writable: false, default: "x" }),
    count: field("integer", { default: 0 }),
    ratio: field("number", { nullable: true }),
    active: field("boolean", { default: false }),
    day: field("date", { nullable: true }),
    at: field("dateTime", { nullable: true }),
    clock: field("time", { nullable: true }),
    kind: field("select", { choices: ["a", "b"], default: "a" }),
    labels: field("multiSelect", { choices: ["x", "y"], default: [] }),
    owner: field("record", {
      collection: "Owners",
      nullable: true,
      onDelete: "setNull",
    }),
    friends: field("records", { collection: "Owners", default: [] }),
    email: field("email"),
    roles: field("roles", { default: () => [] }),
    language: field("language", { nullable: true }),
    timezone: field("timezone", { default: "UTC" }),
    pattern: field("datePattern", { default: "LL" }),
  },
});

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends
  (<T>() => T extends B ? 1 : 2) ? true : false;
function expectType<T extends true>(_: T): void {}

type Row = RecordOf<typeof Everything>;
expectType<
  Equal<Row, {
    UUID: string;
    _updatedAt: number;
    title: string;
    note: string | null;
    code: string;
    computed: string;
    count: number;
    ratio: number | null;
    active: boolean;
    day: string | null;
    at: number | null;
    clock: string | null;
    kind: "a" | "b";
    labels: ("x" | "y")[];
    owner: string | null;
    friends: string[];
    email: string;
    roles: string[];
    language: string | null;
    timezone: string;
    pattern: string;
    _translations: string[];
  }>
>(true);

declare const row: Row;
// @ts-expect-error a write-only field is not read
row.secret;
// @ts-expect-error no such field
row.nope;

type Create = CreateInputOf<typeof Everything>;
const created: Create = { title: "t", secret: "s", email: "a@b.c" };
// @ts-expect-error title is required
const missing: Create = { secret: "s", email: "a@b.c" };
const computed: Create = {
  title: "t",
  secret: "s",
  email: "a@b.c",
  // @ts-expect-error a writable: false field is refused
  computed: "x",
};
// @ts-expect-error a value of the wrong type
const wrongType: Create = { title: 1, secret: "s", email: "a@b.c" };
const wrongChoice: Create = {
  title: "t",
  secret: "s",
  email: "a@b.c",
  // @ts-expect-error a choice that is not one
  kind: "c",
};

type Update = UpdateInputOf<typeof Everything>;
const updated: Update = { title: "t", note: null, secret: "s" };
// @ts-expect-error an immutable field on update
const immutable: Update = { code: "d" };
// @ts-expect-error null on a field that is not nullable
const notNull: Update = { count: null };

// Without translatable fields there is no _translations.
const Plain = defineCollection({ fields: { name: field("text") } });
expectType<
  Equal<
    RecordOf<typeof Plain>,
    { UUID: string; _updatedAt: number; name: string }
  >
>(true);

export {
  computed,
  created,
  immutable,
  missing,
  notNull,
  updated,
  wrongChoice,
  wrongType,
};

// File fields: reads answer descriptors, writes take UUIDs.
const Photos = defineCollection({
  fields: {
    cover: field("file", { nullable: true, accept: ["image/*"] }),
    scans: field("files", { max: 3 }),
  },
});
type Photo = RecordOf<typeof Photos>;
expectType<Equal<Photo["cover"], FileDescriptor | null>>(true);
expectType<Equal<Photo["scans"], FileDescriptor[]>>(true);
const photoInput: CreateInputOf<typeof Photos> = {
  cover: "0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a",
  scans: [],
};
void photoInput;
// @ts-expect-error a write names a file by its UUID, not a descriptor
const wrongPhoto: CreateInputOf<typeof Photos> = { cover: { name: "x" } };
void wrongPhoto;
