// Building DOM nodes without HTML strings: every text the server or an encounter file provides
// goes in as text, never as markup.
function append(el, children) {
    for (const c of children) {
        if (c === null || c === undefined || c === false)
            continue;
        if (Array.isArray(c))
            append(el, c);
        else
            el.append(c instanceof Node ? c : String(c));
    }
}
function setAttrs(el, attrs) {
    for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false)
            continue;
        if (typeof v === "function")
            el.addEventListener(k.replace(/^on/, ""), v);
        else
            el.setAttribute(k, v === true ? "" : String(v));
    }
}
/** An HTML element: `h("button", { class: "x", onclick: f }, "Text")`. */
export function h(tag, attrs = {}, ...children) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
}
const SVG_NS = "http://www.w3.org/2000/svg";
/** An SVG element. */
export function s(tag, attrs = {}, ...children) {
    const el = document.createElementNS(SVG_NS, tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
}
/** Replaces an element's children. */
export function fill(el, ...children) {
    el.replaceChildren();
    append(el, children);
}
/** `snake_case` → "snake case". */
export function words(name) {
    return name.replace(/_/g, " ");
}
/** The variant name and body of an externally tagged enum value. */
export function variant(v) {
    if (typeof v === "string")
        return [v, {}];
    if (v !== null && typeof v === "object") {
        const [k, body] = Object.entries(v)[0] ?? ["?", {}];
        return [k, body !== null && typeof body === "object" ? body : { value: body }];
    }
    return [String(v), {}];
}
