// Refusals of the auth field types: message keys of the `validation` group (rendered by the
// data layer's message renderer, e.g. "validation.invalidEmail" in the request's language).
import type { ValidationIssue } from "../../collections/define.ts";

/** A refusal by message key, with parameters for the template. */
export function issue(
  key: string,
  params?: Record<string, unknown>,
): ValidationIssue {
  return params ? { key, params } : { key };
}

/** Length in code points, so an emoji counts once. */
export function codePoints(value: string): number {
  return /[\uD800-\uDBFF]/.test(value) ? [...value].length : value.length;
}
