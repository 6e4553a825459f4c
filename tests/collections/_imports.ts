/**
 * Imports shared by the collection tests.
 *
 * @module
 */

export * from "../../collections/mod.ts";
export { HTTPError } from "../../router/errors.ts";
