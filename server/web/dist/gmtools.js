// The GM's tools: forms for the GM's commands whose arguments are free amounts or text, which
// the legal actions cannot list (protocol/README.md, "Views and legal actions"). Each form is
// built from a row of `TOOLS`: the command's wire name, the rulesets that take it, and its
// fields as protocol/README.md documents them. To add a command, add a row; `commandOf` turns
// the form's values into the command (JSON's flat shape: `{"<name>": {<fields>}}`), the server
// checks it like any other and a refusal's reason is shown under the form.
import { CommandRejected } from "./client.js";
import { fill, h, words } from "./dom.js";
/** `add_condition`'s durations (protocol/README.md, `EffectDuration`): the value as JSON and
 * what the form shows; empty: none sent (the ruleset's default, the end of the battle). */
const DURATIONS = [
    ["", "to the end of the battle"],
    ['"until_end_of_sources_next_turn"', "to the end of the source's next turn"],
    ['"until_start_of_sources_next_turn"', "to the start of the source's next turn"],
    ['{"save_ends":"easy"}', "save ends (easy, 13th Age)"],
    ['{"save_ends":"normal"}', "save ends (normal, 13th Age)"],
    ['{"save_ends":"hard"}', "save ends (hard, 13th Age)"],
    ['{"save_ends":"ten_plus"}', "save ends (10+, Orcus)"],
];
const SECRET_CHECKS = ["secret_door", "room_trap", "listen", "wandering_monster", "trap_trigger", "stuck_door", "locked_door", "bars"];
export const TOOLS = [
    {
        command: "secret_roll",
        title: "Secret roll",
        help: "A d6 only you see (doors: in the open): success on the chance or less. The players see only that a roll was made.",
        rulesets: ["ose", "basic-fantasy"],
        fields: [
            { name: "check", label: "Check", kind: "select", options: SECRET_CHECKS },
            { name: "combatant", label: "Character", kind: "combatant", optional: true },
            { name: "chance", label: "Chance (in six)", kind: "number", initial: "1", min: 1, max: 20 },
            { name: "area", label: "Area searched", kind: "text", optional: true },
        ],
    },
    {
        command: "grant_temp_hp",
        title: "Grant temporary hit points",
        help: "They do not stack: the higher amount stays.",
        rulesets: ["13th-age", "orcus"],
        fields: [
            { name: "target", label: "Target", kind: "combatant" },
            { name: "amount", label: "Amount", kind: "number", initial: "5", min: 1 },
        ],
    },
    {
        command: "situational_modifier",
        title: "Situational modifier",
        help: "+2 or −2 to an attack or a defense until the end of the target's next turn.",
        rulesets: ["13th-age"],
        fields: [
            { name: "target", label: "Target", kind: "combatant" },
            { name: "stat", label: "To", kind: "select", options: ["attack", "ac", "pd", "md"] },
            { name: "amount", label: "Modifier", kind: "select", options: ["2", "-2"], labels: ["+2", "−2"] },
        ],
    },
    {
        command: "teleport",
        title: "Teleport",
        help: "Leaves every engagement without opportunity attacks, arriving next to an enemy or far away.",
        rulesets: ["13th-age"],
        fields: [
            { name: "target", label: "Who teleports", kind: "combatant" },
            { name: "engage", label: "Arrives next to", kind: "combatant", optional: true },
            { name: "far_away", label: "Far away", kind: "checkbox" },
        ],
    },
    {
        command: "set_hp",
        title: "Set hit points (override)",
        help: "A correction, not damage or healing: 1 to the maximum for a combatant still in the fight; it drops and revives no one.",
        rulesets: ["*"],
        fields: [
            { name: "target", label: "Whose", kind: "combatant" },
            { name: "hp", label: "Hit points", kind: "number", initial: "1", min: 1 },
            { name: "temp_hp", label: "Temporary hit points", kind: "number", min: 0, optional: true },
        ],
    },
    {
        command: "add_condition",
        title: "Add a condition (override)",
        help: "By its name (e.g. dazed, prone, blind), for as long as you choose: to the end of the battle unless you choose otherwise (OSE and Basic Fantasy: until removed, no duration). A name the ruleset does not know is refused with the valid ones.",
        rulesets: ["13th-age", "orcus", "ose", "basic-fantasy"],
        fields: [
            { name: "target", label: "Who", kind: "combatant" },
            { name: "condition", label: "Condition", kind: "text" },
            {
                name: "duration",
                label: "Lasts",
                kind: "select",
                json: true,
                optional: true,
                options: DURATIONS.map(([v]) => v),
                labels: DURATIONS.map(([, l]) => l),
            },
            { name: "source", label: "Source (whose turn counts)", kind: "combatant", optional: true, none: "the target itself" },
        ],
    },
    {
        command: "remove_condition",
        title: "Remove a condition (override)",
        help: "Every instance of the condition on the combatant ends.",
        rulesets: ["13th-age", "orcus", "ose", "basic-fantasy"],
        fields: [
            { name: "target", label: "Who", kind: "combatant" },
            { name: "condition", label: "Condition", kind: "text" },
        ],
    },
    {
        command: "remove_combatant",
        title: "Remove a combatant (override)",
        help: "It leaves the fight and the order of battle; on its turn, the next turn begins.",
        rulesets: ["*"],
        fields: [{ name: "combatant", label: "Who leaves", kind: "combatant" }],
    },
    {
        command: "set_initiative",
        title: "Set initiative (override)",
        help: "Its new result; it moves after everyone with an equal or higher one.",
        rulesets: ["13th-age", "orcus", "five-torches-deep"],
        fields: [
            { name: "combatant", label: "Whose", kind: "combatant" },
            { name: "initiative", label: "Initiative", kind: "number", initial: "10", min: -100, max: 100 },
        ],
    },
    {
        command: "add_combatant",
        title: "Reinforcement (override)",
        help: "A copy of a stat block by its template (e.g. goblin-archer): any of the encounter's, or a monster of the ruleset's built-in bestiary (its reserves; a wrong name is refused with the list). It joins the initiative as the rules say.",
        rulesets: ["13th-age", "five-torches-deep", "ose", "basic-fantasy"],
        fields: [{ name: "template", label: "Template", kind: "text" }],
    },
    {
        command: "add_combatant",
        title: "Reinforcement (override)",
        help: "A copy of a stat block by its template (the encounter's or a built-in monster's), on a free square (the north-west square of its space): on the map, not a wall, no one there. It rolls initiative.",
        rulesets: ["orcus"],
        fields: [
            { name: "template", label: "Template", kind: "text" },
            { name: "square", label: "Square (x, y)", kind: "square" },
        ],
    },
    {
        command: "place_token",
        title: "Place a token (override)",
        help: "The token goes to a free square at once: no path, no cost, no opportunity attacks (a rider: place its mount).",
        rulesets: ["orcus"],
        fields: [
            { name: "combatant", label: "Whose token", kind: "combatant" },
            { name: "square", label: "Square (x, y)", kind: "square" },
        ],
    },
    {
        command: "auto_play",
        title: "The server plays",
        help: "Hand the ticked combatants, or a whole side, to the server's own play: it acts for them whenever they may. Untick “Hand over” to take them back.",
        rulesets: ["*"],
        fields: [
            { name: "combatants", label: "Combatants", kind: "combatants" },
            { name: "side", label: "Or a whole side", kind: "select", options: ["", "heroes", "monsters"], labels: ["—", "heroes", "monsters"], optional: true },
            { name: "on", label: "Hand over", kind: "checkbox", initial: "true" },
        ],
    },
    {
        command: "assign_combatant",
        title: "Give a combatant to a seat",
        help: "That player alone then commands it; choose the GM to take it back.",
        rulesets: ["*"],
        fields: [
            { name: "combatant", label: "Combatant", kind: "combatant" },
            { name: "seat", label: "To", kind: "seat", optional: true, none: "GM (no seat)" },
        ],
    },
    {
        command: "magical_healing",
        title: "Magical healing",
        help: "A potion or spell heals at once, in or out of an encounter, never above the maximum; the dead are refused.",
        rulesets: ["ose", "basic-fantasy"],
        fields: [
            { name: "target", label: "Who", kind: "combatant" },
            { name: "dice", label: "Healing (dice or a number)", kind: "text", initial: "1d6+1" },
            { name: "source", label: "Potion or spell", kind: "text", initial: "potion of healing" },
        ],
    },
    {
        command: "drowning_check",
        title: "Drowning check",
        help: "A d% against your chance of drowning (1–99): at or under it the character drowns.",
        rulesets: ["ose", "basic-fantasy"],
        fields: [
            { name: "combatant", label: "Who", kind: "combatant" },
            { name: "chance", label: "Chance (%)", kind: "number", initial: "10", min: 1, max: 99 },
        ],
    },
    {
        command: "sail",
        title: "A day on the water",
        help: "The day's wind is rolled; under sail the vessel's miles times the wind (doubled through the night with a navigator aboard), by oar its rowing miles; then the day passes.",
        rulesets: ["basic-fantasy"],
        fields: [
            { name: "sailing_miles", label: "Miles a day under sail", kind: "number", initial: "72", min: 0, max: 1000 },
            { name: "rowing_miles", label: "Miles a day by oar", kind: "number", initial: "0", min: 0, max: 1000 },
            { name: "navigator", label: "A navigator aboard", kind: "checkbox" },
            { name: "stops_at_night", label: "Stops each night", kind: "checkbox" },
            { name: "against_wind", label: "Against the wind (tacking)", kind: "checkbox" },
            { name: "unfed", label: "Without food", kind: "combatants" },
            { name: "no_water", label: "Without water", kind: "combatants" },
        ],
    },
    {
        command: "orcus_award_xp",
        title: "Award experience",
        help: "The ticked monsters' XP by level and rank (each counted once) plus a bonus, shared evenly by the ticked heroes.",
        rulesets: ["orcus"],
        fields: [
            { name: "monsters", label: "Monsters", kind: "combatants" },
            { name: "bonus", label: "Bonus XP", kind: "number", initial: "0", min: 0, max: 100000 },
            { name: "party", label: "Heroes sharing it", kind: "combatants" },
        ],
    },
    {
        command: "loot",
        title: "Loot an enemy",
        help: "An enemy down or surrendered carries 1d20 gp per hit die, rolled once; the coins and their XP go to the looter.",
        rulesets: ["five-torches-deep"],
        fields: [
            { name: "looter", label: "Looter", kind: "combatant" },
            { name: "enemy", label: "Enemy", kind: "combatant" },
        ],
    },
    {
        command: "treasure",
        title: "Give treasure",
        help: "A hoard's coins; earned treasure gives its gold value in XP, unearned none.",
        rulesets: ["five-torches-deep"],
        fields: [
            { name: "to", label: "To", kind: "combatant" },
            { name: "gp", label: "Gold", kind: "number", initial: "0", min: 0 },
            { name: "sp", label: "Silver", kind: "number", initial: "0", min: 0 },
            { name: "cp", label: "Copper", kind: "number", initial: "0", min: 0 },
            { name: "unearned", label: "Unearned (no XP)", kind: "checkbox" },
        ],
    },
    {
        command: "magic_item",
        title: "A captured magic item",
        help: "Gives its fair value in XP once; selling it later brings gold but no XP.",
        rulesets: ["five-torches-deep"],
        fields: [
            { name: "to", label: "To", kind: "combatant" },
            { name: "name", label: "Item", kind: "text" },
            { name: "value", label: "Fair value (gp)", kind: "number", initial: "100", min: 1 },
        ],
    },
    {
        command: "sell_item",
        title: "Sell a magic item",
        help: "The item leaves its holder for gold, without XP.",
        rulesets: ["five-torches-deep"],
        fields: [
            { name: "seller", label: "Seller", kind: "combatant" },
            { name: "name", label: "Item", kind: "text" },
            { name: "gp", label: "Price (gp)", kind: "number", initial: "50", min: 0 },
        ],
    },
    {
        command: "travel_overland",
        title: "Travel overland",
        help: "Days of travel at the slowest PC's miles (10 + STR mod), by terrain and pace; a travel turn each day.",
        rulesets: ["five-torches-deep"],
        fields: [
            { name: "days", label: "Days", kind: "number", initial: "1", min: 1, max: 30 },
            { name: "terrain", label: "Terrain", kind: "select", options: ["open", "difficult", "harsh"] },
            { name: "pace", label: "Pace", kind: "select", options: ["normal", "tactical", "stealthy"] },
            { name: "advantage", label: "Travel turns", kind: "select", options: ["none", "advantage", "disadvantage"] },
        ],
    },
    {
        command: "travel_overwater",
        title: "Travel overwater",
        help: "Hours under way by boat (3 mph) or ship (5 mph), the current halving or doubling; travel turns daily by boat, weekly by ship.",
        rulesets: ["five-torches-deep"],
        fields: [
            { name: "vessel", label: "Vessel", kind: "select", options: ["boat", "ship"] },
            { name: "hours", label: "Hours", kind: "number", initial: "10", min: 1 },
            { name: "current", label: "Wind or current", kind: "select", options: ["neutral", "favorable", "unfavorable"] },
            { name: "advantage", label: "Travel turns", kind: "select", options: ["none", "advantage", "disadvantage"] },
        ],
    },
    {
        command: "reissue_token",
        title: "New link for a seat",
        help: "For a player who lost their link: the old link stops working, and the new one appears in the log for you to send.",
        rulesets: ["*"],
        fields: [{ name: "seat", label: "Seat", kind: "seat" }],
    },
];
/** Whether a tool works in a ruleset. */
export function toolFits(tool, ruleset) {
    return tool.rulesets.includes("*") || tool.rulesets.includes(ruleset);
}
/** A square's value from its two numbers (`<name>.x`, `<name>.y`); null when both are empty
 * and the field is optional. */
function squareValue(f, values) {
    const part = (axis) => {
        const raw = values[`${f.name}.${axis}`];
        return typeof raw === "string" ? raw.trim() : "";
    };
    const [x, y] = [part("x"), part("y")];
    if (x === "" && y === "") {
        if (f.optional)
            return null;
        throw new Error(`${f.label} is needed`);
    }
    const [nx, ny] = [Number(x), Number(y)];
    if (x === "" || y === "" || !Number.isInteger(nx) || !Number.isInteger(ny)) {
        throw new Error(`${f.label}: both x and y, whole numbers`);
    }
    return { x: nx, y: ny };
}
function fieldValue(f, raw) {
    if (f.kind === "checkbox")
        return raw === true;
    if (f.kind === "combatants")
        return Array.isArray(raw) ? raw : [];
    const text = typeof raw === "string" ? raw.trim() : "";
    if (text === "") {
        if (f.optional)
            return null;
        throw new Error(`${f.label} is needed`);
    }
    const numeric = f.kind === "number" || (f.kind === "select" && f.options?.every((o) => /^-?\d+$/.test(o)));
    if (f.json)
        return JSON.parse(text);
    if (!numeric)
        return text;
    const n = Number(text);
    if (!Number.isInteger(n))
        throw new Error(`${f.label} must be a whole number`);
    return n;
}
/** The command a tool's form sends, from its values; throws naming a missing or bad field. */
export function commandOf(tool, values) {
    const body = {};
    for (const f of tool.fields)
        body[f.name] = f.kind === "square" ? squareValue(f, values) : fieldValue(f, values[f.name]);
    return { [tool.command]: body };
}
// ----- the panel -----
function input(tool, f) {
    const id = `gm-${tool.command}-${f.name}`;
    const attrs = { id, name: f.name, "data-kind": f.kind };
    switch (f.kind) {
        case "checkbox":
            return h("input", { ...attrs, type: "checkbox", checked: f.initial === "true" });
        case "number":
            return h("input", { ...attrs, type: "number", step: 1, min: f.min, max: f.max, value: f.initial ?? "", inputmode: "numeric" });
        case "text":
            return h("input", { ...attrs, type: "text", value: f.initial ?? "", maxlength: 80 });
        case "select":
            return h("select", attrs, (f.options ?? []).map((o, i) => h("option", { value: o }, f.labels?.[i] ?? words(o))));
        case "combatant":
        case "seat":
            return h("select", { ...attrs, "data-optional": f.optional ? "true" : null, "data-none": f.none ?? null });
        case "combatants":
            return h("div", { id, class: "ticks", "data-kind": f.kind, "data-name": f.name, role: "group", "aria-labelledby": `${id}-l` });
        case "square":
            return h("span", { class: "square", "data-kind": f.kind }, h("input", { id, name: `${f.name}.x`, type: "number", step: 1, min: 0, inputmode: "numeric", "aria-label": "x", placeholder: "x" }), h("input", { id: `${id}-y`, name: `${f.name}.y`, type: "number", step: 1, min: 0, inputmode: "numeric", "aria-label": "y", placeholder: "y" }));
    }
}
function row(tool, f) {
    const id = `gm-${tool.command}-${f.name}`;
    if (f.kind === "combatants") {
        return h("div", { class: "tool-field kind-combatants" }, h("span", { id: `${id}-l`, class: "label" }, f.label), input(tool, f));
    }
    const label = h("label", { for: id }, f.label, f.optional ? h("span", { class: "muted" }, " (optional)") : null);
    return h("div", { class: `tool-field kind-${f.kind}` }, f.kind === "checkbox" ? [input(tool, f), label] : [label, input(tool, f)]);
}
function valuesOf(form) {
    const out = {};
    for (const el of form.querySelectorAll("[name]")) {
        out[el.name] = el instanceof HTMLInputElement && el.type === "checkbox" ? el.checked : el.value;
    }
    for (const group of form.querySelectorAll(".ticks[data-name]")) {
        const ticked = [...group.querySelectorAll("input:checked")].map((i) => i.value);
        out[group.dataset["name"] ?? ""] = ticked;
    }
    return out;
}
function reason(e) {
    if (e instanceof CommandRejected)
        return `Refused (${e.code}): ${e.message}`;
    return e instanceof Error ? e.message : String(e);
}
function toolForm(tool, send) {
    const answer = h("p", { class: "tool-answer", role: "status", "data-answer": "" });
    const form = h("form", { class: "tool", "data-command": tool.command, "aria-labelledby": `gm-${tool.command}-h` }, h("h3", { id: `gm-${tool.command}-h` }, tool.title), h("p", { class: "help" }, tool.help), h("div", { class: "tool-fields" }, tool.fields.map((f) => row(tool, f))), h("button", { type: "submit", id: `gm-${tool.command}-send` }, "Send"), answer);
    form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        void submit(tool, form, answer, send);
    });
    return form;
}
async function submit(tool, form, answer, send) {
    const button = form.querySelector("button");
    const say = (text, kind) => {
        answer.textContent = text;
        answer.dataset["answer"] = kind;
    };
    try {
        const command = commandOf(tool, valuesOf(form));
        if (button)
            button.disabled = true;
        say("Sending…", "sending");
        await send(command);
        say("Done.", "accepted");
    }
    catch (e) {
        say(reason(e), "refused");
    }
    finally {
        if (button)
            button.disabled = false;
    }
}
/** Whether an element already shows these choices (rebuilding it would lose the focus). */
function unchanged(el, options) {
    const key = JSON.stringify(options);
    if (el.dataset["choices"] === key)
        return true;
    el.dataset["choices"] = key;
    return false;
}
/** Fills a select's choices, keeping what is chosen. */
function choices(sel, options) {
    if (unchanged(sel, options))
        return;
    const was = sel.value;
    const none = sel.dataset["optional"] === "true" ? [h("option", { value: "" }, sel.dataset["none"] ?? "—")] : [];
    fill(sel, none, options.map(([value, label]) => h("option", { value }, label)));
    if ([...sel.options].some((o) => o.value === was))
        sel.value = was;
}
/** Fills the combatant and seat choices from the view and the seats, keeping what is chosen. */
function refreshChoices(box, view, seats) {
    const fighters = view.combatants.map((c) => [c.id, c.name]);
    for (const sel of box.querySelectorAll("select[data-kind=\"combatant\"]"))
        choices(sel, fighters);
    for (const sel of box.querySelectorAll("select[data-kind=\"seat\"]"))
        choices(sel, seats.map((s) => [s, s]));
    for (const group of box.querySelectorAll(".ticks[data-kind=\"combatants\"]"))
        ticks(group, fighters);
}
/** A group of checkboxes, one per combatant, keeping what is ticked. */
function ticks(group, fighters) {
    if (unchanged(group, fighters))
        return;
    const ticked = new Set([...group.querySelectorAll("input:checked")].map((i) => i.value));
    const id = group.id;
    fill(group, fighters.map(([value, label], i) => h("label", { class: "tick", for: `${id}-${i}` }, h("input", { type: "checkbox", id: `${id}-${i}`, value, checked: ticked.has(value) }), label)));
}
/** The GM's tools for the session's ruleset, in `box` (hidden for other seats). The forms are
 * built once per ruleset, so what the GM typed survives the view's updates. `seats` are the
 * player seats' names. */
export function gmTools(box, send) {
    let builtFor = null;
    return (view, isGm, seats) => {
        const tools = view ? TOOLS.filter((t) => toolFits(t, view.ruleset)) : [];
        box.hidden = !isGm || !view || tools.length === 0;
        if (box.hidden || !view)
            return;
        if (builtFor !== view.ruleset) {
            builtFor = view.ruleset;
            fill(box, h("details", { class: "gm-tools" }, h("summary", {}, "GM tools"), h("p", { class: "help" }, "What the buttons cannot list: free amounts and text, the server's own play, the seats."), tools.map((t) => toolForm(t, send))));
        }
        refreshChoices(box, view, seats);
    };
}
