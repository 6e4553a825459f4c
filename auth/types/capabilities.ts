/**
 * `capabilities`: a list of distinct, well-formed capability names (at most 100, each at
 * most 200 characters), as an API token carries them.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Validator } from "../../collections/define.ts";
import { isCapabilityName } from "../capabilities.ts";
import { issue } from "./_issue.ts";

/** Most capabilities one list holds. */
export const MAX_CAPABILITIES = 100;

const isList: Validator = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === "string")
    ? undefined
    : issue("invalidType");

const bounded: Validator = (value) =>
  (value as string[]).length > MAX_CAPABILITIES
    ? issue("tooMany", { max: MAX_CAPABILITIES })
    : undefined;

const wellFormed: Validator = (value) =>
  (value as string[]).every((name) =>
      name.length <= 200 && isCapabilityName(name)
    )
    ? undefined
    : issue("invalidCapability");

const distinct: Validator = (value) =>
  new Set(value as string[]).size === (value as string[]).length
    ? undefined
    : issue("duplicateValue");

/** The `capabilities` field type (kind `multiSelect`, no fixed choices). */
export const capabilitiesType: FieldType = defineFieldType({
  name: "capabilities",
  kind: "multiSelect",
  validators: [isList, bounded, wellFormed, distinct],
});
