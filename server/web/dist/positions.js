// 13th Age's abstract battlefield (13th Age § Position: whereabouts and who is contending with
// whom in melee), drawn from the view alone: the groups of mutually engaged combatants (the
// connected components of `engaged_with`) in the middle, the free combatants nearby on their
// side of it, those far away (two moves from the enemies) at its edges, and those out of the
// fight below. Five Torches Deep keeps the same two facts (`engaged_with`, `far_away`) and is
// drawn the same way. Nothing here keeps state: `drawPositions(view)` is the whole drawing.
import { h } from "./dom.js";
/** The rulesets whose positions are abstract (no map): their views carry `engaged_with`. */
export function hasAbstractPositions(view) {
    return view.map === null && (view.ruleset === "13th-age" || view.ruleset === "five-torches-deep");
}
function isOut(c) {
    return c.status === "dead" || c.status === "slain" || (c.ftd?.departed ?? null) !== null;
}
function token(c, current) {
    return {
        id: c.id,
        name: c.name,
        side: c.side,
        current: c.id === current,
        down: c.status === "unconscious" || c.status === "knocked_out",
        staggered: c.staggered,
    };
}
/** The combatants in the order of battle, those not in it after, in the view's order. */
function ordered(view) {
    const rank = new Map(view.order.map((id, i) => [id, i]));
    const at = (c, i) => rank.get(c.id) ?? view.order.length + i;
    return view.combatants
        .map((c, i) => [c, at(c, i)])
        .sort((a, b) => a[1] - b[1])
        .map(([c]) => c);
}
/** The connected components of `engaged_with` among those still in the fight. */
function components(list) {
    const inFight = new Set(list.map((c) => c.id));
    const links = new Map(list.map((c) => [c.id, []]));
    for (const c of list) {
        for (const o of c.engaged_with) {
            if (!inFight.has(o) || o === c.id)
                continue;
            links.get(c.id)?.push(o);
            links.get(o)?.push(c.id);
        }
    }
    const group = new Map();
    let next = 0;
    for (const c of list) {
        if (group.has(c.id) || (links.get(c.id) ?? []).length === 0)
            continue;
        const stack = [c.id];
        while (stack.length) {
            const id = stack.pop();
            if (group.has(id))
                continue;
            group.set(id, next);
            stack.push(...(links.get(id) ?? []));
        }
        next++;
    }
    return group;
}
/** Where everyone stands, from the view. */
export function field(view) {
    const all = ordered(view);
    const present = all.filter((c) => !isOut(c));
    const group = components(present);
    const f = { melees: [], nearby: { heroes: [], monsters: [] }, far: { heroes: [], monsters: [] }, out: [] };
    for (const c of all) {
        const t = token(c, view.current);
        const g = group.get(c.id);
        if (isOut(c))
            f.out.push(t);
        else if (g !== undefined)
            (f.melees[g] ??= []).push(t);
        else
            (c.far_away ? f.far : f.nearby)[c.side].push(t);
    }
    for (const m of f.melees)
        m.sort((a, b) => Number(a.side !== "heroes") - Number(b.side !== "heroes"));
    return f;
}
// ----- drawing -----
const SIDE_NAME = { heroes: "hero", monsters: "monster" };
/** What a screen reader says of a token (and its tooltip). */
export function describe(t) {
    const bits = [`${t.name} (${SIDE_NAME[t.side]})`];
    if (t.down)
        bits.push("down");
    if (t.staggered)
        bits.push("staggered");
    if (t.current)
        bits.push("their turn");
    return bits.join(", ");
}
function initials(name) {
    const words = name.split(/\s+/).filter(Boolean);
    const last = words[words.length - 1] ?? "";
    // "Goblin Scrapper 2" → "GS2": the number tells a monster from its kin.
    const num = /^\d+$/.test(last) ? last : "";
    const letters = (num ? words.slice(0, -1) : words).map((w) => w[0] ?? "").join("");
    return (letters.slice(0, 2) + num).toUpperCase();
}
function drawToken(t, out = false) {
    const cls = ["pos-token", `side-${t.side}`];
    if (t.current)
        cls.push("current");
    if (t.down)
        cls.push("down");
    if (out)
        cls.push("out");
    const label = out ? `${describe(t)}, out of the fight` : describe(t);
    return h("li", { class: cls.join(" "), "data-id": t.id, title: label, "aria-label": label, "aria-current": t.current ? "step" : null }, h("span", { class: "disc", "aria-hidden": "true" }, initials(t.name)), h("span", { class: "pos-name", "aria-hidden": "true" }, t.name));
}
function tokens(list, out = false) {
    return h("ul", { class: "pos-tokens" }, list.map((t) => drawToken(t, out)));
}
function zone(kind, label, body, empty) {
    return h("section", { class: `zone zone-${kind}${empty ? " empty" : ""}`, "data-zone": kind, "aria-label": label }, h("h3", { class: "zone-h" }, label), body);
}
function melee(group, i) {
    const heroes = group.filter((t) => t.side === "heroes");
    const monsters = group.filter((t) => t.side === "monsters");
    const names = (l) => l.map((t) => t.name).join(", ") || "no one";
    return h("li", { class: "melee", "data-melee": i + 1, "aria-label": `Melee ${i + 1}: ${names(heroes)} against ${names(monsters)}` }, tokens(heroes), h("span", { class: "vs", "aria-hidden": "true" }, "⚔"), tokens(monsters));
}
/** The battlefield, left to right (top to bottom on a phone): the heroes far away, nearby, the
 * melees, the monsters nearby, far away; then who is out of the fight. */
export function drawPositions(view) {
    const f = field(view);
    const side = (kind, label, list) => zone(kind, label, tokens(list), list.length === 0);
    const melees = f.melees.length
        ? h("ol", { class: "melees" }, f.melees.map(melee))
        : h("p", { class: "muted none" }, "No one is engaged.");
    return h("div", { class: "positions-drawing" }, h("div", { class: "field" }, side("heroes-far", "Heroes far away", f.far.heroes), side("heroes-nearby", "Heroes nearby", f.nearby.heroes), zone("melee", "Engaged in melee", melees, f.melees.length === 0), side("monsters-nearby", "Monsters nearby", f.nearby.monsters), side("monsters-far", "Monsters far away", f.far.monsters)), f.out.length ? zone("out", "Out of the fight", tokens(f.out, true), false) : null);
}
