/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// Building DOM nodes without a framework: h("a", { href: "/" }, "text", child).

/** A child h() appends: nodes, text, nested lists; null, undefined and false are skipped. */
export type Child = Node | string | null | undefined | false | readonly Child[];

/** Attributes, properties (value, checked, selected, class) and on… listeners. */
export type Props = Readonly<Record<string, unknown>>;

let ids = 0;

/** A page-unique id with a readable prefix ("f3-title"). */
export function nextId(prefix: string, suffix?: string): string {
  return prefix + ++ids + (suffix ? "-" + suffix : "");
}

/** Creates an element with props and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const key of Object.keys(props || {})) {
    const value = props?.[key];
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value as EventListener);
    } else if (key === "value" || key === "checked" || key === "selected") {
      (element as unknown as Record<string, unknown>)[key] = value;
    } else if (key === "class") {
      element.className = String(value);
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children (see {@link Child}) to element. */
export function append(element: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (typeof child === "string") {
      element.appendChild(document.createTextNode(child));
    } else element.appendChild(child as Node);
  }
}
