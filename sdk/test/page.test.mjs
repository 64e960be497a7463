// Tests of the page's pure functions (server/web/src/*.ts, built into server/web/dist/ by
// `npm run build`) that need no browser: where 13th Age's positions put each combatant, what an
// Orcus move, charge or area would cover (an area's squares are the server's answer), and the GM tools' forms turned into commands. What they draw is
// checked in Chromium by tests/tests/browser.rs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { field } from "../../server/web/dist/positions.js";
import { commandOf, TOOLS, toolFits } from "../../server/web/dist/gmtools.js";
import { narrate } from "../../server/web/dist/narrate.js";
import { chatCommand, recipients, rollCommand, seatsInHeader } from "../../server/web/dist/chat.js";
import { Ticks, tickEnds } from "../../server/web/dist/rewind.js";
import { answerKey, asksServer, previewOf, reach } from "../../server/web/dist/preview.js";

/** A combatant of a view, with only what the positions read. */
function fighter(id, side, more = {}) {
  return {
    id,
    name: id,
    side,
    status: "conscious",
    staggered: false,
    engaged_with: [],
    far_away: false,
    ftd: null,
    ...more,
  };
}

function view(combatants, more = {}) {
  return { ruleset: "13th-age", map: null, order: [], current: null, combatants, ...more };
}

const ids = (tokens) => tokens.map((t) => t.id);

test("positions: engaged combatants form one melee per connected group, heroes first", () => {
  const v = view(
    [
      fighter("a-goblin", "monsters", { engaged_with: ["brakka", "sela"] }),
      fighter("b-goblin", "monsters", { engaged_with: ["vex"] }),
      fighter("brakka", "heroes", { engaged_with: ["a-goblin"] }),
      fighter("c-archer", "monsters"),
      fighter("orin", "heroes", { far_away: true }),
      fighter("sela", "heroes", { engaged_with: ["a-goblin"] }),
      fighter("vex", "heroes", { engaged_with: ["b-goblin"] }),
    ],
    { order: ["vex", "brakka", "a-goblin", "sela", "b-goblin", "orin", "c-archer"], current: "sela" },
  );
  const f = field(v);
  assert.deepEqual(f.melees.map(ids), [["vex", "b-goblin"], ["brakka", "sela", "a-goblin"]]);
  assert.deepEqual(ids(f.nearby.monsters), ["c-archer"]);
  assert.deepEqual(ids(f.nearby.heroes), []);
  assert.deepEqual(ids(f.far.heroes), ["orin"]);
  assert.equal(f.melees[1].find((t) => t.id === "sela").current, true);
  assert.equal(f.melees[1].find((t) => t.id === "brakka").current, false);
});

test("positions: the dead and the departed are out of the fight, the unconscious keep their place, down", () => {
  const v = view([
    fighter("goblin", "monsters", { status: "slain", engaged_with: ["orin"] }),
    fighter("orin", "heroes", { status: "unconscious", engaged_with: ["goblin"] }),
    fighter("rat", "monsters", { ftd: { departed: "fled" } }),
    fighter("sela", "heroes", { status: "knocked_out", far_away: true }),
  ]);
  const f = field(v);
  assert.deepEqual(ids(f.out), ["goblin", "rat"]);
  assert.deepEqual(f.melees, []);
  assert.deepEqual(ids(f.nearby.heroes), ["orin"]);
  assert.equal(f.nearby.heroes[0].down, true);
  assert.deepEqual(ids(f.far.heroes), ["sela"]);
});

const key = (q) => `${q.x},${q.y}`;

const orcusView = {
  ruleset: "orcus",
  current: "brenna",
  map: { width: 8, height: 8, blocking: [{ x: 1, y: 7 }] },
  combatants: [
    {
      id: "brenna",
      name: "Brenna",
      grid: { square: { x: 0, y: 0 }, size: "medium" },
      attacks: [{ id: "frost-bloom", name: "Frost Bloom", range: "far burst 1 within 10" }],
    },
    { id: "rat", name: "Rat", grid: { square: { x: 5, y: 5 }, size: "small" }, attacks: [] },
  ],
};

test("previews: a walk's and a charge's path come from the legal action's command", () => {
  const walk = {
    actor: "brenna",
    group: "Walk",
    label: "(1, 2)",
    command: { move_to: { actor: "brenna", path: [{ x: 1, y: 1 }, { x: 1, y: 2 }], mode: "walk", hide: false } },
  };
  const p = previewOf(orcusView, walk);
  assert.equal(p.kind, "path");
  assert.deepEqual(p.squares.map(key), ["1,1", "1,2"]);
  assert.deepEqual(p.from, { x: 0, y: 0 });
  assert.equal(asksServer(walk), false);
  const charge = {
    actor: "brenna",
    group: "Charge",
    label: "Rat",
    command: { charge: { actor: "brenna", target: "rat", path: [{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }] } },
  };
  const c = previewOf(orcusView, charge);
  assert.equal(c.kind, "path");
  assert.deepEqual(c.squares.map(key), ["1,1", "2,2", "3,3"]);
  assert.deepEqual(c.from, { x: 0, y: 0 });
  assert.match(c.text, /Brenna charges Rat, 3 squares/);
  assert.equal(asksServer(charge), false, "the course is in the command");
  const inPlace = { ...charge, command: { charge: { actor: "brenna", target: "rat", path: [] } } };
  assert.match(previewOf(orcusView, inPlace).text, /from where it stands/);
  assert.deepEqual(reach(orcusView, [walk, charge]).map(key), ["1,2"]);
});

test("previews: an area's squares are the server's answer, never computed by the page", () => {
  const area = {
    actor: "brenna",
    group: "Frost Bloom",
    label: "at Rat",
    command: { area_attack: { actor: "brenna", attack: "frost-bloom", origin: { x: 5, y: 5 }, targets: [] } },
  };
  assert.equal(asksServer(area), true);
  assert.equal(answerKey(area), JSON.stringify(area.command));
  const waiting = previewOf(orcusView, area);
  assert.equal(waiting.kind, "area");
  assert.equal(waiting.waiting, true);
  assert.deepEqual(waiting.squares, [], "nothing drawn before the answer");
  assert.deepEqual(waiting.from, { x: 5, y: 5 });
  // The server left out the squares behind a wall: the page draws exactly its squares.
  const squares = [{ x: 4, y: 4 }, { x: 5, y: 4 }, { x: 4, y: 5 }, { x: 5, y: 5 }];
  const answered = previewOf(orcusView, area, { result: { id: 1, seq: 9, preview: { squares, path: [], targets: ["rat"] } } });
  assert.equal(answered.waiting, false);
  assert.deepEqual(answered.squares, squares);
  assert.equal(answered.text, "Frost Bloom from (5, 5): 4 squares, affects Rat");
  const refused = previewOf(orcusView, area, { refused: "Frost Bloom: no line of effect to the origin square" });
  assert.deepEqual(refused.squares, []);
  assert.match(refused.text, /no line of effect/);
});

const tool = (name) => TOOLS.find((t) => t.command === name);

test("GM tools: a form's values become the documented command, empty optional fields null", () => {
  assert.deepEqual(commandOf(tool("grant_temp_hp"), { target: "brakka", amount: "8" }), {
    grant_temp_hp: { target: "brakka", amount: 8 },
  });
  assert.deepEqual(
    commandOf(tool("secret_roll"), { check: "room_trap", combatant: "quill", chance: "1", area: " crypt-hall " }),
    { secret_roll: { check: "room_trap", combatant: "quill", chance: 1, area: "crypt-hall" } },
  );
  assert.deepEqual(commandOf(tool("teleport"), { target: "orin", engage: "", far_away: true }), {
    teleport: { target: "orin", engage: null, far_away: true },
  });
  assert.deepEqual(commandOf(tool("situational_modifier"), { target: "vex", stat: "ac", amount: "-2" }), {
    situational_modifier: { target: "vex", stat: "ac", amount: -2 },
  });
  assert.deepEqual(commandOf(tool("set_hp"), { target: "brakka", hp: "30", temp_hp: "" }), {
    set_hp: { target: "brakka", hp: 30, temp_hp: null },
  });
});

test("GM tools: the rules' GM commands of issue 21 send the protocol document's examples", () => {
  assert.deepEqual(commandOf(tool("magical_healing"), { target: "odo", dice: "1d6+1", source: "potion of healing" }), {
    magical_healing: { target: "odo", dice: "1d6+1", source: "potion of healing" },
  });
  assert.deepEqual(commandOf(tool("drowning_check"), { combatant: "quill", chance: "10" }), {
    drowning_check: { combatant: "quill", chance: 10 },
  });
  assert.deepEqual(
    commandOf(tool("sail"), { sailing_miles: "30", rowing_miles: "0", navigator: true, stops_at_night: false, against_wind: false, unfed: [], no_water: [] }),
    { sail: { sailing_miles: 30, rowing_miles: 0, navigator: true, stops_at_night: false, against_wind: false, unfed: [], no_water: [] } },
  );
  assert.deepEqual(commandOf(tool("loot"), { looter: "hesk", enemy: "reed-cutter-1" }), {
    loot: { looter: "hesk", enemy: "reed-cutter-1" },
  });
  assert.deepEqual(commandOf(tool("treasure"), { to: "mirelle", gp: "120", sp: "40", cp: "15", unearned: false }), {
    treasure: { to: "mirelle", gp: 120, sp: 40, cp: 15, unearned: false },
  });
  assert.deepEqual(commandOf(tool("magic_item"), { to: "pim", name: "Ring of warmth", value: "300" }), {
    magic_item: { to: "pim", name: "Ring of warmth", value: 300 },
  });
  assert.deepEqual(commandOf(tool("sell_item"), { seller: "pim", name: "Ring of warmth", gp: "250" }), {
    sell_item: { seller: "pim", name: "Ring of warmth", gp: 250 },
  });
  assert.deepEqual(commandOf(tool("travel_overland"), { days: "2", terrain: "difficult", pace: "tactical", advantage: "none" }), {
    travel_overland: { days: 2, terrain: "difficult", pace: "tactical", advantage: "none" },
  });
  assert.deepEqual(commandOf(tool("travel_overwater"), { vessel: "boat", hours: "30", current: "favorable", advantage: "none" }), {
    travel_overwater: { vessel: "boat", hours: 30, current: "favorable", advantage: "none" },
  });
  assert.deepEqual(commandOf(tool("orcus_award_xp"), { monsters: ["brute-1", "brute-2"], bonus: "0", party: ["brenna", "tamsin"] }), {
    orcus_award_xp: { monsters: ["brute-1", "brute-2"], bonus: 0, party: ["brenna", "tamsin"] },
  });
  assert.ok(toolFits(tool("sail"), "basic-fantasy") && !toolFits(tool("sail"), "ose"));
  assert.ok(toolFits(tool("loot"), "five-torches-deep") && !toolFits(tool("loot"), "13th-age"));
});

test("GM tools: a missing or fractional amount is refused before anything is sent", () => {
  assert.throws(() => commandOf(tool("grant_temp_hp"), { target: "brakka", amount: "" }), /Amount is needed/);
  assert.throws(() => commandOf(tool("grant_temp_hp"), { target: "brakka", amount: "2.5" }), /whole number/);
});

test("GM tools: the server's play, a combatant given to a seat or back to the GM, a seat's new token", () => {
  assert.deepEqual(commandOf(tool("auto_play"), { combatants: [], side: "monsters", on: true }), {
    auto_play: { combatants: [], side: "monsters", on: true },
  });
  assert.deepEqual(commandOf(tool("auto_play"), { combatants: ["goblin-archer-1"], side: "", on: false }), {
    auto_play: { combatants: ["goblin-archer-1"], side: null, on: false },
  });
  assert.deepEqual(commandOf(tool("assign_combatant"), { combatant: "goblin-archer-1", seat: "alice" }), {
    assign_combatant: { combatant: "goblin-archer-1", seat: "alice" },
  });
  assert.deepEqual(commandOf(tool("assign_combatant"), { combatant: "goblin-archer-1", seat: "" }), {
    assign_combatant: { combatant: "goblin-archer-1", seat: null },
  });
  assert.deepEqual(commandOf(tool("reissue_token"), { seat: "bob" }), { reissue_token: { seat: "bob" } });
  assert.throws(() => commandOf(tool("reissue_token"), { seat: "" }), /Seat is needed/);
  assert.equal(toolFits(tool("reissue_token"), "ose"), true);
  assert.equal(toolFits(tool("auto_play"), "ose"), true);
});

const toolFor = (name, ruleset) => TOOLS.find((t) => t.command === name && toolFits(t, ruleset));

test("GM tools: a condition's duration and source, an Orcus reinforcement's square and a placed token", () => {
  assert.deepEqual(commandOf(tool("add_condition"), { target: "vex", condition: "dazed", duration: '{"save_ends":"normal"}', source: "brakka" }), {
    add_condition: { target: "vex", condition: "dazed", duration: { save_ends: "normal" }, source: "brakka" },
  });
  assert.deepEqual(commandOf(tool("add_condition"), { target: "vex", condition: "dazed", duration: '"until_end_of_sources_next_turn"', source: "" }), {
    add_condition: { target: "vex", condition: "dazed", duration: "until_end_of_sources_next_turn", source: null },
  });
  assert.deepEqual(commandOf(tool("add_condition"), { target: "vex", condition: "blind", duration: "", source: "" }), {
    add_condition: { target: "vex", condition: "blind", duration: null, source: null },
  });
  assert.deepEqual(commandOf(toolFor("add_combatant", "orcus"), { template: "goblin", "square.x": "3", "square.y": "0" }), {
    add_combatant: { template: "goblin", square: { x: 3, y: 0 } },
  });
  assert.deepEqual(commandOf(toolFor("add_combatant", "13th-age"), { template: "goblin" }), { add_combatant: { template: "goblin" } });
  assert.deepEqual(commandOf(toolFor("place_token", "orcus"), { combatant: "brenna", "square.x": "4", "square.y": "2" }), {
    place_token: { combatant: "brenna", square: { x: 4, y: 2 } },
  });
  assert.throws(() => commandOf(toolFor("place_token", "orcus"), { combatant: "brenna", "square.x": "4", "square.y": "" }), /both x and y/);
  assert.equal(toolFits(toolFor("place_token", "orcus"), "13th-age"), false);
});

const names = { combatant: (id) => id.toUpperCase(), attack: (_, id) => id };
const roll = { expr: "2d6+1", dice: [{ sides: 6, face: 4, kept: true }, { sides: 6, face: 2, kept: true }], modifier: 1, total: 7 };

test("narration: chat lines, whispers not for this reader shown as private", () => {
  const line = (from, to, text) => narrate({ chatted: { from, to, text } }, names);
  assert.equal(line({ player: "bob" }, "table", "Ready.").text, "bob: Ready.");
  assert.equal(line("gm", { player: "alice" }, "The idol is a fake.").text, "GM to alice (private): The idol is a fake.");
  assert.equal(line("gm", "gm", "Reinforcements at round 3").text, "GM's note: Reinforcements at round 3");
  const hidden = line("gm", { player: "alice" }, null);
  assert.equal(hidden.text, "GM whispers to alice (private).");
  assert.equal(hidden.hidden, true);
});

test("narration: free rolls with their dice, hidden ones without", () => {
  const shown = narrate({ free_rolled: { by: { player: "alice" }, dice: "2d6+1", label: "haggling", visibility: "public", roll } }, names);
  assert.equal(shown.text, "alice rolls 2d6+1 for haggling: 7.");
  assert.deepEqual(shown.rolls, [roll]);
  const blind = narrate({ free_rolled: { by: "gm", dice: "d100", label: null, visibility: "blind", roll: null } }, names);
  assert.equal(blind.text, "GM rolls d100 (blind: the GM only): the result is hidden.");
  assert.equal(blind.hidden, true);
  assert.deepEqual(blind.rolls, []);
});

test("narration: the GM's overrides are marked, and only the GM's copy of a new token carries it", () => {
  const rewound = narrate({ rewound: { to_seq: 41, to_tick: 9 } }, names);
  assert.match(rewound.text, /^GM override: the fight is rewound to #41 \(the end of tick 9\)/);
  assert.equal(rewound.gm, true);
  assert.equal(narrate({ auto_play_set: { combatants: ["gob-1", "gob-2"], on: true } }, names).text, "GM: the server now plays GOB-1, GOB-2.");
  assert.equal(narrate({ combatant_assigned: { combatant: "gob-1", seat: null } }, names).text, "GM: GOB-1 is the GM's again.");
  assert.equal(narrate({ combatant_assigned: { combatant: "gob-1", seat: "alice" } }, names).text, "GM: GOB-1 now belongs to alice's seat.");
  assert.deepEqual(narrate({ token_reissued: { seat: "bob", token: "abc" } }, names).seatToken, { seat: "bob", token: "abc" });
  assert.equal(narrate({ token_reissued: { seat: "bob", token: null } }, names).seatToken, null);
  assert.equal(narrate({ round_started: { round: 2 } }, names).gm, false);
});

test("chat: recipients by role, and the commands the forms send", () => {
  const values = (role) => recipients(role, ["alice", "bob"]).map((r) => r.value);
  assert.deepEqual(values("gm"), ["table", "gm", "player:alice", "player:bob"]);
  assert.deepEqual(values({ player: { name: "alice", controls: [] } }), ["table", "gm", "player:bob"]);
  assert.match(recipients("gm", []).find((r) => r.value === "gm").label, /Note/);
  assert.deepEqual(chatCommand("  hi ", "player:bob"), { chat: { text: "hi", to: { player: "bob" } } });
  assert.deepEqual(chatCommand("hi", "table"), { chat: { text: "hi", to: "table" } });
  assert.deepEqual(chatCommand("hi", "gm"), { chat: { text: "hi", to: "gm" } });
  assert.throws(() => chatCommand("   ", "table"), /Write a line/);
  assert.deepEqual(rollCommand(" d100 ", "", "blind"), { free_roll: { dice: "d100", label: null, visibility: "blind" } });
  assert.deepEqual(rollCommand("2d6", "haggling", "public"), { free_roll: { dice: "2d6", label: "haggling", visibility: "public" } });
  assert.throws(() => rollCommand("", "", "public"), /Give the dice/);
});

test("chat: the seats' names come from the log's header", () => {
  const header = JSON.stringify({ fray_log: 1, audience: "public", genesis: { encounter: { seats: [{ name: "alice", controls: [] }, { name: "bob", controls: [] }] } } });
  assert.deepEqual(seatsInHeader(header), ["alice", "bob"]);
  assert.deepEqual(seatsInHeader("not json"), []);
});

test("rewind: a tick ends at the event before a later tick's, or at the latest; undo goes to the tick before the last", () => {
  const events = [
    { seq: 1, tick: 1 },
    { seq: 2, tick: 1 },
    { seq: 3, tick: 2 },
    { seq: 4, tick: 4 },
    { seq: 5, tick: 4 },
  ];
  assert.deepEqual(tickEnds(events), [2, 3, 5]);
  const t = new Ticks();
  assert.equal(t.undoTarget(), null);
  assert.deepEqual(events.map((e) => t.see(e.seq, e.tick)), [null, 1, null, null, 4]);
  assert.equal(t.undoTarget(), 3);
  const first = new Ticks();
  first.see(1, 1);
  assert.equal(first.undoTarget(), 0);
});
