/**
 * The layers the framework itself stacks at the bottom of every app.
 *
 * @module
 */
import type { Layer } from "./layer.ts";

/**
 * The framework's own layers, furthest first.
 *
 * @example
 * ```ts
 * import { frameworkLayers } from "./framework_layers.ts";
 * frameworkLayers().length;
 * ```
 */
export function frameworkLayers(): Layer[] {
  return [];
}
