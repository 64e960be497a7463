// Events as the narrative and dice log: one line of text per event and every die of every roll
// it carries. The page never folds events into state (the server's view does that); this only
// tells what happened.
import { h, variant, words } from "./dom.js";
function isRoll(v) {
    return (v !== null &&
        typeof v === "object" &&
        Array.isArray(v.dice) &&
        typeof v.expr === "string");
}
/** Every roll in an event body, in field order (depth first). */
export function rollsIn(v, out = []) {
    if (isRoll(v))
        out.push(v);
    else if (Array.isArray(v))
        v.forEach((x) => rollsIn(x, out));
    else if (v !== null && typeof v === "object")
        Object.values(v).forEach((x) => rollsIn(x, out));
    return out;
}
function signed(n) {
    return n < 0 ? `− ${-n}` : `+ ${n}`;
}
/**
 * A roll's bonus term by term, as the event names it (`+ 4 STR + 2 level − 2 cover`), or the
 * bonus alone where it names none (a log of record format 1).
 */
function terms(b, bonus) {
    const m = b["modifiers"];
    if (Array.isArray(m) && m.length > 0) {
        return m
            .map((t) => `${signed(Number(t.value))} ${String(t.source)}`)
            .join(" ");
    }
    return signed(bonus);
}
function list(ids, name) {
    return Array.isArray(ids) ? ids.map((i) => name(String(i))).join(", ") : "";
}
/** A field's value in the generic form: ids as names, lists joined, rolls left to the dice. */
function value(v, name) {
    if (v === null || v === undefined)
        return "—";
    if (typeof v === "string")
        return name(v);
    if (typeof v === "number" || typeof v === "boolean")
        return String(v);
    if (Array.isArray(v))
        return v.map((x) => value(x, name)).join(", ");
    if (isRoll(v))
        return String(v.total);
    const [k, body] = variant(v);
    const inner = Object.entries(body)
        .filter(([, x]) => !isRoll(x))
        .map(([f, x]) => `${words(f)} ${value(x, name)}`)
        .join(", ");
    return inner ? `${words(k)} (${inner})` : words(k);
}
function generic(kind, body, name) {
    const fields = Object.entries(body)
        .filter(([k]) => k !== "modifiers")
        .filter(([, v]) => !isRoll(v) && !(Array.isArray(v) && v.every(isRoll) && v.length > 0))
        .map(([k, v]) => `${words(k)}: ${value(v, name)}`);
    const m = body["modifiers"];
    if (Array.isArray(m) && m.length > 0)
        fields.push(`modifiers: ${terms(body, 0)}`);
    const head = words(kind);
    return fields.length ? `${head[0]?.toUpperCase()}${head.slice(1)} — ${fields.join("; ")}` : `${head[0]?.toUpperCase()}${head.slice(1)}`;
}
function effectText(e, name) {
    return `${describeEffectKind(e.kind)} on ${name(e.target)} (${describeDuration(e.duration, name, e.source)})`;
}
/** An effect's kind as a short phrase: "dazed", "ongoing 5 fire", "+2 attack". */
export function describeEffectKind(kind) {
    const [k, b] = variant(kind);
    if (k === "condition") {
        const [c, cb] = variant("value" in b ? b["value"] : b);
        const extra = Object.values(cb).map(String).join(" ");
        return extra ? `${words(c)} ${words(extra)}` : words(c);
    }
    if (k === "ongoing_damage") {
        const t = b["damage_type"];
        return `ongoing ${String(b["amount"])}${t ? ` ${String(t)}` : ""} damage`;
    }
    if (k === "bonus") {
        const amount = Number(b["amount"]);
        return `${amount >= 0 ? "+" : "−"}${Math.abs(amount)} ${words(String(b["stat"]))}`;
    }
    return words(k);
}
/** An effect's duration: "save ends (11+)", "until the end of Orin's next turn". */
export function describeDuration(d, name, source) {
    const [k, b] = variant(d);
    switch (k) {
        case "save_ends": {
            const diff = b["value"];
            const need = { easy: "6+", normal: "11+", hard: "16+", ten_plus: "10+" };
            return `save ends${typeof diff === "string" && need[diff] ? ` (${need[diff]})` : ""}`;
        }
        case "until_end_of_sources_next_turn":
            return `until the end of ${name(source)}'s next turn`;
        case "until_start_of_sources_next_turn":
            return `until the start of ${name(source)}'s next turn`;
        case "end_of_battle":
            return "until the battle ends";
        default:
            return words(k);
    }
}
/** A seat as the log names it. */
export function seatName(seat) {
    return seat === "gm" ? "GM" : seat.player;
}
function recipient(to) {
    if (to === "table")
        return "the table";
    if (to === "gm")
        return "the GM";
    return to.player;
}
/** A chat line: who to whom, and the text unless it is not for this audience. */
function chatText(from, to, text) {
    const who = seatName(from);
    if (text === null)
        return `${who} whispers to ${recipient(to)} (private).`;
    if (to === "table")
        return `${who}: ${text}`;
    if (to === "gm" && from === "gm")
        return `GM's note: ${text}`;
    return `${who} to ${recipient(to)} (private): ${text}`;
}
const SEEN_BY = { public: "", gm: " (seen by the roller and the GM)", blind: " (blind: the GM only)" };
/** A free roll: who rolled what for what, and the total unless it is hidden from this audience. */
function freeRollText(by, dice, label, visibility, roll) {
    const what = `${seatName(by)} rolls ${dice}${label ? ` for ${label}` : ""}`;
    if (roll === null)
        return `${what}${SEEN_BY[visibility] ?? ""}: the result is hidden.`;
    return `${what}: ${roll.total}${SEEN_BY[visibility] ?? ""}.`;
}
/** The GM's own moves (the server's play, seats, a rewind), each marked "GM". */
function gmText(kind, b, name) {
    switch (kind) {
        case "rewound":
            return `GM override: the fight is rewound to #${String(b["to_seq"])} (the end of tick ${String(b["to_tick"])}). Later dice are new draws.`;
        case "auto_play_set":
            return b["on"]
                ? `GM: the server now plays ${list(b["combatants"], name)}.`
                : `GM: the server no longer plays ${list(b["combatants"], name)}.`;
        case "combatant_assigned":
            return b["seat"] === null || b["seat"] === undefined
                ? `GM: ${name(String(b["combatant"]))} is the GM's again.`
                : `GM: ${name(String(b["combatant"]))} now belongs to ${String(b["seat"])}'s seat.`;
        case "token_reissued":
            return `GM: ${String(b["seat"])}'s seat has a new link; the old one no longer works.`;
        case "hp_overridden": {
            const change = Number(b["change"]);
            const signed = change >= 0 ? `+${change}` : String(change);
            const now = b["hp_after"] === null || b["hp_after"] === undefined ? "" : ` to ${String(b["hp_after"])}`;
            return `GM override: ${name(String(b["target"]))}'s hit points set${now} (${signed}); temporary ${String(b["temp_after"])}.`;
        }
        case "gm_override": {
            const who = b["combatant"] === null || b["combatant"] === undefined ? "" : ` on ${name(String(b["combatant"]))}`;
            return `GM override (${String(b["command"])})${who}:`;
        }
        case "combatant_removed":
            return `GM override: ${name(String(b["combatant"]))} leaves the fight.`;
        case "combatant_added":
            return `GM override: ${String(b["name"])} (${String(b["combatant"])}) joins the fight.`;
        case "initiative_set":
            return `GM override: ${name(String(b["combatant"]))}'s initiative is now ${String(b["initiative"])}.`;
        default:
            return null;
    }
}
/** Narrates one event. `name` turns a combatant id into its name. */
export function narrate(event, names) {
    const talk = narrateTalk(event);
    if (talk)
        return talk;
    const [kind, b] = variant(event);
    const gm = gmText(kind, b, names.combatant);
    if (gm !== null) {
        const token = kind === "token_reissued" && typeof b["token"] === "string" ? { seat: String(b["seat"]), token: b["token"] } : null;
        return { kind, text: gm, rolls: [], hidden: false, secret: null, gm: true, seatToken: token };
    }
    return narrateGame(event, names);
}
/** A chat line or a free roll, or null for any other event. */
function narrateTalk(event) {
    if (typeof event !== "object")
        return null;
    const base = { rolls: [], secret: null, gm: false, seatToken: null };
    if ("chatted" in event) {
        const c = event.chatted;
        return { ...base, kind: "chatted", text: chatText(c.from, c.to, c.text), hidden: c.text === null };
    }
    if ("free_rolled" in event) {
        const r = event.free_rolled;
        const text = freeRollText(r.by, r.dice, r.label, r.visibility, r.roll);
        return { ...base, kind: "free_rolled", text, rolls: r.roll ? [r.roll] : [], hidden: r.roll === null };
    }
    return null;
}
function narrateGame(event, names) {
    const name = names.combatant;
    const [kind, b] = variant(event);
    const attack = (actorField) => names.attack(String(b[actorField]), String(b["attack"]));
    const rolls = rollsIn(b);
    const n = (f) => name(String(b[f]));
    let text;
    let hidden = false;
    let secret = null;
    switch (kind) {
        case "battle_started":
            text = "The battle begins.";
            break;
        case "initiative_rolled":
            text = `Initiative for ${list(b["combatants"], name)}: ${String(b["roll"]?.total ?? "?")} ${terms(b, Number(b["bonus"]))} = ${String(b["total"])}`;
            break;
        case "turn_order":
            text = `Order of battle: ${list(b["order"], name)}`;
            break;
        case "round_started":
            text = `Round ${String(b["round"])} begins.`;
            break;
        case "turn_started":
            text = `${n("combatant")}'s turn.`;
            break;
        case "turn_ended":
            text = `${n("combatant")} ends the turn.`;
            break;
        case "action_used":
            text = `${n("combatant")} uses a ${words(String(b["action"]))} action${b["spent"] !== b["action"] ? ` (spending the ${words(String(b["spent"]))})` : ""}.`;
            break;
        case "attack_rolled": {
            const roll = b["roll"];
            text = `${n("attacker")} attacks ${n("target")} (${attack("attacker")}): ${String(roll?.total ?? "?")} ${terms(b, Number(b["bonus"]))} = ${String(b["total"])} vs ${String(b["defense"]).toUpperCase()} ${String(b["defense_value"])} — ${words(String(b["outcome"]))}`;
            break;
        }
        case "damage_rolled": {
            const roll = b["roll"];
            const m = b["modifiers"];
            const named = roll && Array.isArray(m) && m.length > 0 ? ` (dice ${String(roll.total - roll.modifier)} ${terms(b, roll.modifier)})` : "";
            text = `${n("attacker")}'s ${attack("attacker")} damage: ${String(roll?.total ?? "?")}${named}`;
            break;
        }
        case "damaged": {
            const after = b["hp_after"];
            const type = b["damage_type"] ? ` ${String(b["damage_type"])}` : "";
            text = `${n("target")} takes ${String(b["amount"])}${type} damage${after === null || after === undefined ? "" : ` (${String(after)} hp left)`}.`;
            break;
        }
        case "healed": {
            const after = b["hp_after"];
            text = `${n("target")} heals ${String(b["amount"])}${after === null || after === undefined ? "" : ` (${String(after)} hp)`}.`;
            break;
        }
        case "staggered":
        case "fell_unconscious":
        case "fell_into_coma":
        case "revived":
        case "died":
        case "slain":
        case "stabilized":
        case "knocked_out":
        case "rallied":
            text = `${n("combatant")}: ${words(kind)}.`;
            break;
        case "moved": {
            const engaged = b["engaged"];
            text = engaged
                ? `${n("combatant")} moves to engage ${name(String(engaged))}.`
                : b["far_away"]
                    ? `${n("combatant")} moves far away.`
                    : `${n("combatant")} moves.`;
            break;
        }
        case "effect_applied":
            text =
                typeof event === "object" && "effect_applied" in event
                    ? `Effect: ${effectText(event.effect_applied.effect, name)}.`
                    : generic(kind, b, name);
            break;
        case "escalation_die":
            text = `The escalation die shows ${String(b["value"])}.`;
            break;
        case "battle_ended": {
            const w = b["winner"];
            text = `The battle ends${w ? `: the ${String(w)} win` : ""}.`;
            break;
        }
        case "seed_revealed":
            text = `The seed is revealed: ${String(b["seed"])} (salt ${String(b["salt"])}). Anyone can now check every public die.`;
            break;
        case "secret_rolled":
            if (typeof event === "object" && "secret_rolled" in event) {
                const r = event.secret_rolled;
                secret = r.success === null ? null : r.success ? "success" : "failure";
                const what = `${words(r.check)}${r.combatant ? ` for ${name(r.combatant)}` : ""}${r.area ? ` in ${r.area}` : ""}`;
                // Players and spectators get `roll`, `success` and `distance` null: only that it was made.
                text =
                    r.roll === null || r.success === null
                        ? `The GM rolls in secret (${what}): the result is hidden.`
                        : `Secret roll (${what}), ${r.chance} in ${r.roll.dice[0]?.sides ?? "?"}: ${r.success ? "success" : "failure"}${r.distance ? `; distance ${r.distance.total} × 10` : ""}. Only the GM sees this.`;
                hidden = r.roll === null;
            }
            else {
                text = generic(kind, b, name);
            }
            break;
        default:
            text = generic(kind, b, name);
    }
    return { kind, text, rolls, hidden, secret, gm: false, seatToken: null };
}
/** A roll as the dice log shows it: the expression, every die's face (dropped ones struck
 * through), the modifier and the total. */
export function rollElement(r) {
    return h("span", { class: "roll", title: r.expr }, h("span", { class: "expr" }, r.expr), " ", r.dice.map((d) => h("span", { class: `die d${d.sides}${d.kept ? "" : " dropped"}`, title: `d${d.sides}${d.kept ? "" : ", not kept"}` }, String(d.face))), r.modifier ? ` ${r.modifier < 0 ? "−" : "+"} ${Math.abs(r.modifier)}` : "", ` = ${r.total}`);
}
