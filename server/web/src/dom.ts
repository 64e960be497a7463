// Building DOM nodes without HTML strings: every text the server or an encounter file provides
// goes in as text, never as markup.

export type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined | ((ev: Event) => void);

function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

function setAttrs(el: Element, attrs: Record<string, AttrValue>): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

/** An HTML element: `h("button", { class: "x", onclick: f }, "Text")`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element. */
export function s(tag: string, attrs: Record<string, AttrValue> = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** `snake_case` → "snake case". */
export function words(name: string): string {
  return name.replace(/_/g, " ");
}

/** The variant name and body of an externally tagged enum value. */
export function variant(v: unknown): [string, Record<string, unknown>] {
  if (typeof v === "string") return [v, {}];
  if (v !== null && typeof v === "object") {
    const [k, body] = Object.entries(v)[0] ?? ["?", {}];
    return [k, body !== null && typeof body === "object" ? (body as Record<string, unknown>) : { value: body }];
  }
  return [String(v), {}];
}
