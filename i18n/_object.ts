// Message keys come from files and URLs; a key such as "__proto__" must land
// as an own property instead of touching the prototype.

/**
 * Sets an own, enumerable property whatever its name. Only `__proto__` needs
 * `defineProperty` (the one accessor plain objects inherit); every other key is
 * assigned, which keeps the object fast: hundreds of `defineProperty` calls made
 * the framework's catalog the slowest part of a boot.
 */
export function setOwn<T>(
  target: Record<string, T>,
  key: string,
  value: T,
): void {
  if (key !== "__proto__") {
    target[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Reads an own property only, never an inherited one. */
export function getOwn<T>(
  source: Readonly<Record<string, T>>,
  key: string,
): T | undefined {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}
