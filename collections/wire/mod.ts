/**
 * The wire query grammar of the collections API: the relaxed literal syntax
 * of URL values, the list / read-one / write param parsers and their 400
 * errors.
 *
 * @module
 */

export {
  isWireError,
  WIRE_ERROR_CODES,
  wireError,
  type WireErrorCode,
} from "./errors.ts";
export { parseRelaxedLiteral } from "./literal.ts";
export {
  assertNoParams,
  DEFAULT_QUERY_GUARDS,
  type ListPlan,
  type OrderKey,
  parseListQuery,
  parseLocaleParam,
  parseReadOneQuery,
  parseWriteParams,
  type PopulatePlan,
  type QueryGuards,
  type ReadOnePlan,
  type WireCollection,
  type WireContext,
  type WireField,
  type WriteParams,
} from "./parse.ts";
