// The Orcus map in SVG: terrain, zones, tokens; the squares the combatant whose turn it is can
// reach; the squares of the opened pickers' choices to click (or Tab to and press Enter). A
// chosen square is not sent at once: the map shows what the command would cover (the walk's
// or the charge's path, the area's squares: preview.ts) and a bar asks to confirm it. Hovering
// or focusing a choice, on the map or in the actions' list, previews it too. An area's squares
// are the server's answer to `preview` (asked once per command and view; until it comes only
// the origin is marked): the page computes no area itself.

import type { Command, LegalAction, PreviewResult, Square, View } from "./client.js";
import { fill, h, s } from "./dom.js";
import { answerKey, asksServer, previewOf, reach, squareOf, SQUARES, type Answer, type Preview } from "./preview.js";

const CELL = 32;

export interface MapHooks {
  /** Sends a chosen action's command. */
  send: (a: LegalAction) => void;
  /** Whether the action's picker is open (its squares are then clickable on the map). */
  isOpen: (a: LegalAction) => boolean;
  /** Asks the server what a command would cover (`preview`). */
  preview: (c: Command) => Promise<PreviewResult>;
}

export interface MapPanel {
  render: (view: View | null, actions: LegalAction[]) => void;
  /** Shows what an action would cover (null: nothing), from the actions' list. */
  hover: (a: LegalAction | null) => void;
}

const same = (a: LegalAction | null, b: LegalAction | null) =>
  !!a && !!b && a.actor === b.actor && JSON.stringify(a.command) === JSON.stringify(b.command);

function rect(q: Square, cls: string, inset = 0): SVGElement {
  return s("rect", { x: q.x * CELL + inset, y: q.y * CELL + inset, width: CELL - 2 * inset, height: CELL - 2 * inset, class: cls });
}

function centre(q: Square): [number, number] {
  return [q.x * CELL + CELL / 2, q.y * CELL + CELL / 2];
}

function terrain(view: View): SVGElement[] {
  const map = view.map;
  if (!map) return [];
  const layer = (squares: Square[], cls: string) => squares.map((q) => rect(q, cls));
  return [
    s("rect", { x: 0, y: 0, width: map.width * CELL, height: map.height * CELL, class: "floor" }),
    ...layer(map.water, "water"),
    ...layer(map.difficult, "difficult"),
    ...layer(map.lightly_obscured, "obscured"),
    ...layer(map.heavily_obscured, "obscured heavy"),
    ...layer(map.totally_obscured, "obscured total"),
    ...layer(map.dim_light, "dim"),
    ...layer(map.darkness, "dark"),
    ...layer(map.climbable, "climbable"),
    ...layer(map.transparent, "transparent"),
    ...layer(map.blocking, "wall"),
    ...view.combatants.flatMap((c) => (c.grid?.zones ?? []).flatMap((z) => z.squares.map((q) => rect(q, "zone")))),
  ];
}

function gridlines(w: number, hgt: number): SVGElement {
  const lines: SVGElement[] = [];
  for (let x = 0; x <= w; x++) lines.push(s("line", { x1: x * CELL, y1: 0, x2: x * CELL, y2: hgt * CELL }));
  for (let y = 0; y <= hgt; y++) lines.push(s("line", { x1: 0, y1: y * CELL, x2: w * CELL, y2: y * CELL }));
  return s("g", { class: "gridlines" }, lines);
}

function tokens(view: View): SVGElement[] {
  return view.combatants.flatMap((c) => {
    const g = c.grid;
    if (!g || c.status === "dead" || c.status === "slain") return [];
    const n = SQUARES[g.size] ?? 1;
    const cx = g.square.x * CELL + (n * CELL) / 2;
    const cy = g.square.y * CELL + (n * CELL) / 2;
    const initials = c.name
      .split(/\s+/)
      .map((p) => p[0] ?? "")
      .join("")
      .slice(0, 2)
      .toUpperCase();
    return [
      s(
        "g",
        { class: `token side-${c.side}${c.id === view.current ? " current" : ""}`, "data-id": c.id },
        s("title", {}, `${c.name} (${g.square.x}, ${g.square.y})`),
        s("circle", { cx, cy, r: (n * CELL) / 2 - 3 }),
        s("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, initials),
      ),
    ];
  });
}

/** The preview's squares: a path as numbered steps joined by a line, an area as a tint with
 * its origin marked. */
function drawPreview(p: Preview, chosen: boolean): SVGElement[] {
  const cls = `preview ${p.kind}${chosen ? " chosen" : ""}`;
  if (p.kind === "area") {
    const origin = p.from ? [rect(p.from, "preview-origin", 6)] : [];
    const state = p.waiting ? "waiting" : "answered";
    return [s("g", { class: cls, "data-squares": p.squares.length, "data-state": state }, p.squares.map((q) => rect(q, "preview-square")), origin)];
  }
  const points = [...(p.from ? [p.from] : []), ...p.squares].map((q) => centre(q).join(",")).join(" ");
  const steps = p.squares.map((q, i) => {
    const [cx, cy] = centre(q);
    return s("g", { class: "step" }, rect(q, "preview-square", 4), s("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, String(i + 1)));
  });
  return [s("g", { class: cls, "data-squares": p.squares.length }, s("polyline", { points }), steps)];
}

function onKeys(go: () => void) {
  return (ev: Event) => {
    const k = (ev as KeyboardEvent).key;
    if (k === "Enter" || k === " ") {
      ev.preventDefault();
      go();
    }
  };
}

export function mapPanel(box: HTMLElement, hooks: MapHooks): MapPanel {
  let view: View | null = null;
  let hovered: LegalAction | null = null;
  let chosen: LegalAction | null = null;
  const previewLayer = s("g", { class: "preview-layer", "aria-hidden": "true" });
  const bar = h("div", { id: "map-choice", class: "map-choice", "aria-live": "polite" });

  // The server's answers for this view, by command; a new view forgets them (`generation`).
  const answers = new Map<string, Answer>();
  const asked = new Set<string>();
  let generation = 0;

  const answerFor = (a: LegalAction): Answer | undefined => {
    if (!asksServer(a)) return undefined;
    const key = answerKey(a);
    const known = answers.get(key);
    if (known || asked.has(key)) return known;
    asked.add(key);
    const gen = generation;
    const settle = (answer: Answer) => {
      if (gen !== generation) return;
      answers.set(key, answer);
      showPreview();
      const p = view && chosen ? previewOf(view, chosen, answerFor(chosen)) : null;
      const text = document.getElementById("map-choice-text");
      if (text && chosen && p) text.textContent = `${chosen.group} ${chosen.label}: ${p.text}.`;
    };
    hooks.preview(a.command).then(
      (result) => settle({ result }),
      (e: unknown) => settle({ refused: e instanceof Error ? e.message : String(e) }),
    );
    return undefined;
  };

  const showPreview = () => {
    const a = hovered ?? chosen;
    const p = view && a ? previewOf(view, a, answerFor(a)) : null;
    fill(previewLayer, p ? drawPreview(p, same(a, chosen)) : null);
  };

  const renderBar = () => {
    const p = view && chosen ? previewOf(view, chosen, answerFor(chosen)) : null;
    if (!chosen) return fill(bar);
    const a = chosen;
    const what = `${a.group} ${a.label}`;
    fill(
      bar,
      h("span", { id: "map-choice-text" }, p ? `${what}: ${p.text}.` : `${what}.`),
      h(
        "span",
        { class: "map-choice-buttons" },
        h("button", { type: "button", id: "map-confirm", class: "small", onclick: () => confirm() }, "Confirm"),
        h("button", { type: "button", id: "map-cancel", class: "small", onclick: () => choose(null) }, "Cancel"),
      ),
    );
  };

  const confirm = () => {
    const a = chosen;
    choose(null);
    if (a) hooks.send(a);
  };

  const choose = (a: LegalAction | null) => {
    chosen = a;
    showPreview();
    renderBar();
    if (a) document.getElementById("map-confirm")?.focus();
  };

  const target = (a: LegalAction, q: Square): SVGElement => {
    const label = `${a.group}: ${a.label}`;
    const pick = () => (same(a, chosen) ? confirm() : choose(a));
    const hover = (on: boolean) => () => {
      hovered = on ? a : null;
      showPreview();
    };
    return s(
      "rect",
      {
        x: q.x * CELL + 2,
        y: q.y * CELL + 2,
        width: CELL - 4,
        height: CELL - 4,
        class: "target",
        tabindex: 0,
        role: "button",
        "aria-label": label,
        "data-group": a.group,
        "data-label": a.label,
        onclick: pick,
        onkeydown: onKeys(pick),
        onmouseenter: hover(true),
        onmouseleave: hover(false),
        onfocus: hover(true),
        onblur: hover(false),
      },
      s("title", {}, label),
    );
  };

  const targets = (v: View, actions: LegalAction[]): SVGElement[] => {
    const taken = new Set(v.combatants.flatMap((c) => (c.grid ? [`${c.grid.square.x},${c.grid.square.y}`] : [])));
    return actions.filter(hooks.isOpen).flatMap((a) => {
      const q = squareOf(a.command);
      if (!q) return [];
      const t = target(a, q);
      // A token stays readable under its square's target: the target is only outlined.
      if (taken.has(`${q.x},${q.y}`)) t.classList.add("occupied");
      return [t];
    });
  };

  const render = (v: View | null, actions: LegalAction[]) => {
    if (v !== view) {
      generation += 1;
      answers.clear();
      asked.clear();
    }
    view = v;
    const map = v?.map;
    box.hidden = !map;
    if (!v || !map) return;
    if (chosen && !actions.some((a) => same(a, chosen))) chosen = null;
    if (hovered && !actions.some((a) => same(a, hovered))) hovered = null;
    const reachable = reach(v, actions).map((q) => rect(q, "reach", 1));
    fill(
      box,
      h("h2", { id: "grid-h" }, "Map"),
      s(
        "svg",
        { viewBox: `0 0 ${map.width * CELL} ${map.height * CELL}`, role: "group", "aria-label": `Battle map, ${map.width} by ${map.height} squares`, class: "map" },
        terrain(v),
        s("g", { class: "reach-layer", "data-squares": reachable.length }, reachable),
        gridlines(map.width, map.height),
        tokens(v),
        targets(v, actions),
        previewLayer,
      ),
      bar,
      h(
        "p",
        { class: "legend muted" },
        "Walls dark, difficult terrain tan, water blue, obscured squares grey, zones orange; heroes blue, monsters red; the ring marks whose turn it is, the green tint where it can walk. Open a move's, a charge's or an area's picker, then choose its square on the map: the path or the area (as the server computes it) is shown, and Confirm sends it.",
      ),
    );
    showPreview();
    renderBar();
  };

  return {
    render,
    hover: (a) => {
      hovered = a;
      showPreview();
    },
  };
}
