// The table: one page for the GM, a player and a spectator, by the token's role. It shows the
// server's view (kept by the client from a snapshot and patches), builds its buttons from the
// legal actions, and tells the events as the narrative and dice log.

import {
  CommandRejected,
  FrayClient,
  type CombatantState,
  type Command,
  type EventMessage,
  type LegalAction,
  type Role,
  type View,
  type Welcome,
} from "./client.js";
import { fill, h, variant, words } from "./dom.js";
import { copyButton, operatorKey, seatLink } from "./lobby.js";
import { gmTools } from "./gmtools.js";
import { fetchSeats, talkPanel } from "./chat.js";
import { confirmButton, rewindControl, Ticks } from "./rewind.js";
import { mapPanel } from "./map.js";
import { drawPositions, hasAbstractPositions } from "./positions.js";
import { describeDuration, describeEffectKind, narrate, rollElement, type Line } from "./narrate.js";

type Combatant = CombatantState;

const MAX_LOG = 800;

function combatants(view: View | null): Combatant[] {
  return view ? view.combatants.slice() : [];
}

function roleText(role: Role): string {
  if (role === "gm") return "Game master";
  if (role === "spectator") return "Spectator";
  return `Player ${role.player.name}`;
}

function controls(role: Role | null): string[] {
  return role && typeof role === "object" ? role.player.controls : [];
}

export function table(root: HTMLElement, token: string, givenTitle: string | null): () => void {
  const tableRoot = h("div", { class: "table", id: "table" });
  const status = h("span", { id: "status", class: "status", role: "status" }, "Connecting…");
  const title = h("h1", { id: "table-title" }, "Fray");
  const who = h("span", { id: "role", class: "badge" });
  const round = h("div", { id: "round", class: "round", "aria-live": "polite" });
  const order = h("ol", { id: "order", class: "order" });
  const cards = h("div", { id: "combatants", class: "combatants" });
  const gridBox = h("section", { id: "grid", class: "grid", hidden: true, "aria-labelledby": "grid-h" });
  const positionsBox = h("section", { id: "positions", class: "positions", hidden: true, "aria-labelledby": "positions-h" });
  const exploreBox = h("section", { id: "exploration", class: "exploration", hidden: true, "aria-labelledby": "exploration-h" });
  const actionsBox = h("div", { id: "actions", class: "actions" });
  const toolsBox = h("section", { id: "gm-tools", class: "gm-tools-box", hidden: true, "aria-label": "GM tools" });
  const notice = h("p", { id: "notice", class: "notice", role: "alert", hidden: true });
  const logList = h("ol", { id: "log", class: "log", "aria-live": "polite", "aria-relevant": "additions" });
  const talkBox = h("section", { id: "talk", class: "talk", hidden: true });
  const undoBox = h("div", { id: "undo", class: "undo", hidden: true });
  const verify = h("div", { id: "verify", class: "verify" });

  let role: Role | null = null;
  let welcome: Welcome | null = null;
  let view: View | null = null;
  let actions: LegalAction[] = [];
  let busy = false;
  const open = new Set<string>();
  const backlog: EventMessage[] = [];
  const ticks = new Ticks();
  let seats: string[] = [];

  const byId = new Map<string, Combatant>();
  const name = (id: string) => byId.get(id)?.name ?? id;
  const names = {
    combatant: name,
    attack: (actor: string, id: string) => byId.get(actor)?.attacks.find((a) => a.id === id)?.name ?? id,
  };

  const showNotice = (text: string | null, kind: "error" | "info" = "error") => {
    notice.hidden = text === null;
    notice.textContent = text ?? "";
    notice.className = `notice ${kind}`;
  };

  const send = async (command: Command, what: string) => {
    if (busy) return;
    busy = true;
    actionsBox.setAttribute("aria-busy", "true");
    for (const b of actionsBox.querySelectorAll("button")) b.disabled = true;
    showNotice(null);
    try {
      await client.send(command);
    } catch (e) {
      if (e instanceof CommandRejected) {
        showNotice(`${what} was refused (${e.code}): ${e.message}`);
      } else {
        showNotice(`${what} failed: ${String(e)}`);
      }
    } finally {
      busy = false;
      actionsBox.removeAttribute("aria-busy");
      renderActions();
    }
  };

  // ----- the view -----

  const renderHeader = () => {
    if (!view) return;
    const v = view;
    const bits: (HTMLElement | string)[] = [
      h("span", { class: `badge phase-${v.phase}` }, v.phase),
      h("span", { id: "round-number" }, `Round ${v.round}`),
    ];
    if (v.battles > 1) bits.push(`Battle ${v.battle} of ${v.battles}`);
    if (v.ruleset === "13th-age") {
      bits.push(
        h(
          "span",
          { id: "escalation", class: "escalation", title: "The escalation die: a bonus to the heroes' attacks" },
          "Escalation die ",
          h("span", { class: "die d6" }, String(v.escalation)),
          v.escalation_held ? " (held)" : "",
        ),
      );
    }
    if (v.ruleset === "orcus") bits.push(`Clock: ${v.clock} min`);
    if (v.ftd) bits.push(`Light: ${words(v.ftd.light)}`);
    if (v.ose) bits.push(`Exploration turn ${v.ose.exploration.turn}`);
    if (v.winner) bits.push(h("strong", {}, `The ${v.winner} won`));
    if (v.seed_revealed) bits.push(h("span", { class: "badge" }, "seed revealed"));
    fill(round, bits.map((b, i) => [i ? " · " : "", b]));
  };

  const renderOrder = () => {
    const list = combatants(view);
    const ids = view?.order ?? [];
    const current = view?.current;
    const shown = ids.length ? ids.map((id) => byId.get(id)).filter((c): c is Combatant => !!c) : list;
    fill(
      order,
      shown.map((c) =>
        h(
          "li",
          {
            class: `side-${c.side} status-${c.status}${c.id === current ? " current" : ""}`,
            "aria-current": c.id === current ? "step" : null,
            "data-id": c.id,
          },
          h("span", { class: "name" }, c.name),
          c.initiative === null ? null : h("span", { class: "muted" }, ` ${c.initiative}`),
          c.id === current ? h("span", { class: "turn" }, " ◀ turn") : null,
        ),
      ),
    );
  };

  const hpBar = (c: Combatant) => {
    if (c.hp === null || c.max_hp === null) {
      // The public view hides monsters' hit points; whether one is staggered is public.
      return h(
        "div",
        { class: "hp hidden-hp", "data-hp": "hidden" },
        h("span", { class: "hp-text" }, c.staggered ? "staggered" : "hit points hidden"),
      );
    }
    const frac = c.max_hp > 0 ? Math.max(0, Math.min(1, c.hp / c.max_hp)) : 0;
    const bar = h("div", { class: `hp-fill${c.staggered ? " staggered" : ""}` });
    bar.style.width = `${Math.round(frac * 100)}%`;
    const wrap = h(
      "div",
      {
        class: "hp",
        role: "meter",
        "aria-valuemin": 0,
        "aria-valuemax": c.max_hp,
        "aria-valuenow": c.hp,
        "aria-label": `${c.name} hit points`,
        "data-hp": c.hp,
      },
      bar,
      h("span", { class: "hp-text" }, `${c.hp} / ${c.max_hp}${c.temp_hp ? ` (+${c.temp_hp} temp)` : ""}`),
    );
    return wrap;
  };

  const renderCards = () => {
    const list = combatants(view);
    const current = view?.current;
    const mine = new Set(controls(role));
    const card = (c: Combatant) =>
      h(
        "article",
        {
          class: `card side-${c.side} status-${c.status}${c.id === current ? " current" : ""}${mine.has(c.id) ? " mine" : ""}`,
          "data-id": c.id,
          "aria-label": c.name,
        },
        h(
          "header",
          {},
          h("strong", {}, c.name),
          h("span", { class: "muted" }, ` L${c.level}${c.template !== c.id ? ` ${c.template}` : ""}`),
          mine.has(c.id) ? h("span", { class: "badge" }, "yours") : null,
        ),
        hpBar(c),
        h(
          "div",
          { class: "facts" },
          c.status !== "conscious" ? h("span", { class: "badge danger" }, words(c.status)) : null,
          c.staggered && c.hp !== null ? h("span", { class: "badge warn" }, "staggered") : null,
          // PD and MD are 13th Age's; the other rulesets' views carry AC (Orcus's other defenses
          // are on its grid state).
          h("div", {}, view?.ruleset === "13th-age" ? `AC ${c.defenses.ac} · PD ${c.defenses.pd} · MD ${c.defenses.md}` : `AC ${c.defenses.ac}`),
          c.engaged_with.length ? h("div", {}, `Engaged with ${c.engaged_with.map(name).join(", ")}`) : null,
          c.far_away ? h("div", {}, "Far away") : null,
        ),
        c.effects.length
          ? h(
              "ul",
              { class: "effects" },
              c.effects.map((e) =>
                h(
                  "li",
                  {},
                  describeEffectKind(e.kind),
                  h("span", { class: "muted" }, ` — ${describeDuration(e.duration, name, e.source)}`),
                ),
              ),
            )
          : null,
      );
    const sides = ["heroes", "monsters"];
    fill(
      cards,
      sides.map((side) => {
        const of = list.filter((c) => c.side === side);
        return of.length
          ? h("section", { class: "side" }, h("h3", {}, side === "heroes" ? "Heroes" : "Monsters"), of.map(card))
          : null;
      }),
    );
  };

  // Old-School Essentials and Basic Fantasy: the exploration the view carries (the turn
  // tracker, the burning lights, the searches made, a pursuit, Basic Fantasy's days and timed
  // effects). Everything here is in this audience's view as the server sent it: the page hides
  // nothing itself, and a secret roll's result is never in a view (only in the GM's events).
  const renderExploration = () => {
    const ose = view?.ose;
    if (!ose) {
      exploreBox.hidden = true;
      return;
    }
    exploreBox.hidden = false;
    const ex = ose.exploration;
    const fact = (label: string, value: string | number, id: string) =>
      h("div", { class: "fact", "data-fact": id }, h("dt", {}, label), h("dd", {}, String(value)));
    const facts = [
      fact("Exploration turn", ex.turn, "turn"),
      fact("Turns since rest", `${ex.since_rest}${ex.since_rest >= 6 ? " (−1 to attack and damage until a turn of rest)" : ""}`, "since-rest"),
    ];
    if (ose.basic_fantasy || ose.bf.day > 0) facts.push(fact("Day", ose.bf.day, "day"));
    if (ose.pursuit) {
      const p = ose.pursuit;
      facts.push(
        fact(
          "Pursuit",
          `${words(p.setting)}, ${p.rounds} ${p.setting === "wilderness" ? "days" : "rounds"}, fleeing at ${p.fleeing_rate}, pursuers at ${p.pursuer_rate}${p.distance === null ? "" : `, ${p.distance} apart`}`,
          "pursuit",
        ),
      );
    }
    const lights = ex.lights.length
      ? h(
          "ul",
          { class: "lights", id: "lights" },
          ex.lights.map((l) =>
            h(
              "li",
              { "data-carrier": l.carrier, "data-source": l.source, "data-turns-left": l.turns_left },
              h("span", { class: "flame", "aria-hidden": "true" }),
              `${name(l.carrier)}'s ${l.source}: `,
              h("strong", {}, `${l.turns_left} turn${l.turns_left === 1 ? "" : "s"} left`),
            ),
          ),
        )
      : h("p", { class: "muted", id: "lights" }, "No light burns.");
    const searched = ex.searched.length
      ? h(
          "ul",
          { class: "searched", id: "searched" },
          ex.searched.map(([check, who, area]) => h("li", {}, `${name(who)}: ${words(check)} in ${area}`)),
        )
      : null;
    const timed = ose.bf.effects.length
      ? h(
          "ul",
          { class: "timed" },
          ose.bf.effects.map((e) =>
            h("li", {}, `${e.name}${e.combatant ? ` on ${name(e.combatant)}` : ""}: ${e.turns_left} turns left`),
          ),
        )
      : null;
    fill(
      exploreBox,
      h("h2", { id: "exploration-h" }, "Exploration"),
      h("dl", { class: "facts-list" }, facts),
      h("h3", {}, "Light"),
      lights,
      searched ? [h("h3", {}, "Searched (one chance each)"), searched] : null,
      timed ? [h("h3", {}, "Timed effects"), timed] : null,
    );
  };

  const grid = mapPanel(gridBox, {
    send: (a) => void send(a.command, `${a.group} (${a.label})`),
    isOpen: (a) => open.has(`${a.actor ?? ""}|${a.group}`),
    preview: (c) => client.preview(c),
  });
  const renderGrid = () => grid.render(view, actions);
  const renderTools = gmTools(toolsBox, (c) => client.send(c));
  const talk = talkPanel(talkBox, (c) => client.send(c));

  const renderPositions = () => {
    positionsBox.hidden = !view || !hasAbstractPositions(view);
    if (!view || positionsBox.hidden) return;
    fill(
      positionsBox,
      h("h2", { id: "positions-h" }, "Positions"),
      drawPositions(view),
      h(
        "p",
        { class: "legend muted" },
        "Heroes are blue discs, monsters red squares; the ring marks whose turn it is; down combatants are grey. Everyone nearby can reach anyone with one move; far away is two moves from the enemies.",
      ),
    );
  };

  // ----- legal actions -----

  const renderActions = () => {
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.["key"];
    if (role === "spectator") {
      fill(actionsBox, h("p", { class: "muted" }, "You are watching: spectators send no commands."));
      return;
    }
    const byActor = new Map<string, LegalAction[]>();
    for (const a of actions) {
      const k = a.actor ?? "";
      byActor.set(k, [...(byActor.get(k) ?? []), a]);
    }
    const sections: HTMLElement[] = [];
    for (const [actor, list] of byActor) {
      const groups = new Map<string, LegalAction[]>();
      for (const a of list) groups.set(a.group, [...(groups.get(a.group) ?? []), a]);
      const buttons: HTMLElement[] = [];
      for (const [group, choices] of groups) {
        const key = `${actor}|${group}`;
        const only = choices.length === 1 ? choices[0] : undefined;
        if (only) {
          buttons.push(
            h(
              "button",
              {
                type: "button",
                class: "action",
                "data-actor": actor,
                "data-group": group,
                "data-label": only.label,
                "data-command": variant(only.command)[0],
                "data-key": key,
                disabled: busy,
                onclick: () => void send(only.command, only.label ? `${group} (${only.label})` : group),
              },
              group,
              only.label ? h("span", { class: "label" }, `: ${only.label}`) : null,
            ),
          );
          continue;
        }
        const expanded = open.has(key);
        const pickerId = `pick-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
        buttons.push(
          h(
            "div",
            { class: "group" },
            h(
              "button",
              {
                type: "button",
                class: "action",
                "aria-expanded": expanded ? "true" : "false",
                "aria-controls": pickerId,
                "data-actor": actor,
                "data-group": group,
                "data-key": key,
                disabled: busy,
                onclick: () => {
                  if (open.has(key)) open.delete(key);
                  else open.add(key);
                  renderActions();
                  renderGrid();
                  const first = document.querySelector<HTMLElement>(`#${pickerId} button`);
                  first?.focus();
                },
              },
              `${group} ▸`,
            ),
            h(
                  "div",
                  { id: pickerId, class: "picker", role: "group", "aria-label": `${group}: choose`, hidden: !expanded },
                  choices.map((c) =>
                    h(
                      "button",
                      {
                        type: "button",
                        class: "choice",
                        "data-actor": actor,
                        "data-group": group,
                        "data-label": c.label,
                        "data-command": variant(c.command)[0],
                        "data-key": `${key}|${c.label}`,
                        disabled: busy,
                        onclick: () => {
                          open.delete(key);
                          grid.hover(null);
                          renderGrid();
                          void send(c.command, `${group} (${c.label})`);
                        },
                        onmouseenter: () => grid.hover(c),
                        onfocus: () => grid.hover(c),
                        onmouseleave: () => grid.hover(null),
                        onblur: () => grid.hover(null),
                      },
                      c.label || group,
                    ),
                  ),
                ),
          ),
        );
      }
      sections.push(
        h(
          "section",
          { class: "actor", "data-actor": actor },
          h("h3", {}, actor ? name(actor) : "Session"),
          h("div", { class: "buttons" }, buttons),
        ),
      );
    }
    fill(
      actionsBox,
      sections.length ? sections : h("p", { class: "muted" }, idle()),
      rawCommand(),
    );
    if (focusKey) {
      const again = [...actionsBox.querySelectorAll<HTMLElement>("[data-key]")].find((e) => e.dataset["key"] === focusKey);
      again?.focus();
    }
  };

  const idle = () => {
    const phase = view?.phase;
    if (phase === "setup") return "Waiting for the GM to start the battle.";
    if (phase === "ended") return "The battle is over.";
    return "Nothing to do right now: it is someone else's turn.";
  };

  // A command typed as JSON, for what the buttons do not offer yet: the server checks it as any.
  const rawText = h("textarea", {
    id: "raw-command",
    rows: 2,
    spellcheck: "false",
    placeholder: '{"end_turn":{"actor":"brakka"}}',
    "aria-describedby": "raw-help",
  });
  let rawOpen = false;
  const rawCommand = () => {
    const details = h(
      "details",
      { class: "raw", open: rawOpen },
      h("summary", {}, "Another command (JSON)"),
      h(
        "p",
        { id: "raw-help", class: "help" },
        "Any command of protocol/README.md; the server checks it like a button's and says why when it refuses.",
      ),
      rawText,
      h(
        "button",
        {
          type: "button",
          id: "raw-send",
          disabled: busy,
          onclick: () => {
            let command: Command;
            try {
              command = JSON.parse(rawText.value) as Command;
            } catch (e) {
              showNotice(`That is not JSON: ${String(e)}`);
              return;
            }
            void send(command, "The command");
          },
        },
        "Send",
      ),
    );
    details.addEventListener("toggle", () => (rawOpen = details.open));
    return details;
  };

  // ----- the log -----

  // The GM's copy of a reissued token: the seat's new link, to copy and send.
  const newLink = (line: Line) => {
    if (!line.seatToken) return null;
    const link = seatLink(line.seatToken.token, title.textContent ?? "Fray");
    return h(
      "div",
      { class: "new-link" },
      `New link for ${line.seatToken.seat}: `,
      h("a", { href: link, "data-seat-link": line.seatToken.seat }, link),
      " ",
      copyButton(link),
    );
  };

  const rewind = (seq: number) => void send({ rewind_to: { seq } } as Command, "The rewind");

  const addLine = (e: EventMessage, line: Line) => {
    const nearBottom = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 40;
    const gm = role === "gm";
    const sameTick = ticks.see(e.seq, e.tick);
    if (sameTick !== null) logList.querySelector(`li[data-seq="${sameTick}"] .rewind`)?.remove();
    logList.append(
      h(
        "li",
        {
          class: `ev ev-${line.kind}${line.hidden ? " secret" : ""}${line.gm ? " gm-line" : ""}`,
          "data-seq": e.seq,
          "data-tick": e.tick,
          "data-kind": line.kind,
          "data-secret-result": line.secret,
        },
        gm ? rewindControl(e.seq, rewind) : null,
        h("span", { class: "seq" }, `#${e.seq}`),
        " ",
        line.gm ? [h("span", { class: "badge gm-badge", "aria-hidden": "true" }, "GM"), " "] : null,
        line.text,
        line.rolls.length ? h("div", { class: "rolls" }, line.rolls.map(rollElement)) : null,
        gm ? newLink(line) : null,
      ),
    );
    while (logList.childElementCount > MAX_LOG) logList.firstElementChild?.remove();
    if (nearBottom) logList.scrollTop = logList.scrollHeight;
    if (line.kind === "chatted" || line.kind === "free_rolled") talk.add(e.seq, line);
    renderUndo();
  };

  // "Undo last": back to the end of the tick before the last one.
  const renderUndo = () => {
    const target = ticks.undoTarget();
    undoBox.hidden = role !== "gm" || target === null;
    if (undoBox.hidden || target === null || undoBox.dataset["target"] === String(target)) return;
    undoBox.dataset["target"] = String(target);
    fill(undoBox, confirmButton("Undo last", `Undo the last command (rewind to #${target})`, `Rewind to #${target}?`, () => rewind(target), "small undo-button"));
  };

  const onEvent = (e: EventMessage) => {
    // Names come from the view: events before the first view wait for it.
    if (!view) {
      backlog.push(e);
      return;
    }
    addLine(e, narrate(e.event, names));
  };

  const renderVerify = () => {
    if (!welcome) return;
    const download = h("button", { type: "button", id: "download-log", class: "small" }, "Download the log");
    download.addEventListener("click", () => {
      void (async () => {
        const r = await fetch(`/sessions/${encodeURIComponent(welcome?.session ?? "")}/log`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        if (!r.ok) {
          showNotice(`Cannot download the log: ${r.status}`);
          return;
        }
        const url = URL.createObjectURL(await r.blob());
        const a = h("a", { href: url, download: `${welcome?.session ?? "fight"}.jsonl` });
        a.click();
        URL.revokeObjectURL(url);
      })();
    });
    fill(
      verify,
      h(
        "details",
        {},
        h("summary", {}, "Check the dice"),
        h(
          "p",
          {},
          "The server committed to its seed before the first die: SHA-256(seed ‖ salt) = ",
          h("code", { class: "commitment" }, welcome.commitment),
          ". When the battle ends it reveals both; then download the log and run ",
          h("code", {}, "fray verify fight.jsonl"),
          " to re-decide every command and compare every die.",
        ),
        download,
      ),
    );
  };

  // ----- the connection -----

  const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  const client = new FrayClient(
    { url: wsUrl, token, history: true },
    {
      welcome: (w) => {
        welcome = w;
        role = w.role;
        who.textContent = roleText(w.role);
        title.textContent = givenTitle ?? `Fray · ${w.ruleset}`;
        document.title = `Fray · ${roleText(w.role)} · ${w.session}`;
        renderVerify();
        talk.show(w.role);
        if (givenTitle === null) void findTitle(w.session);
        if (w.role !== "spectator") void learnSeats(w.session);
      },
      view: (v, seq) => {
        view = v;
        tableRoot.dataset["viewSeq"] = String(seq);
        tableRoot.dataset["phase"] = v.phase;
        // Once the seed is revealed the server refuses any rewind: the controls go.
        tableRoot.dataset["revealed"] = String(v.seed_revealed);
        byId.clear();
        for (const c of combatants(v)) byId.set(c.id, c);
        renderHeader();
        renderOrder();
        renderCards();
        renderGrid();
        renderPositions();
        renderExploration();
        renderTools(view, role === "gm", seats);
        for (const e of backlog.splice(0)) addLine(e, narrate(e.event, names));
        renderActions();
      },
      legalActions: (a) => {
        actions = a;
        renderActions();
        renderGrid();
      },
      event: onEvent,
      error: (code, message) => showNotice(`The server says ${code}: ${message}`),
      status: (st, detail) => {
        status.textContent = st === "open" ? "Connected" : st === "reconnecting" ? `Reconnecting… ${detail}` : st === "closed" ? `Disconnected: ${detail}` : "Connecting…";
        status.dataset["state"] = st;
      },
    },
  );

  const learnSeats = async (session: string) => {
    seats = await fetchSeats(session, token);
    talk.seats(seats);
    renderTools(view, role === "gm", seats);
  };

  const findTitle = async (session: string) => {
    try {
      const key = operatorKey();
      const r = await fetch("/sessions", { headers: key ? { Authorization: `Bearer ${key}` } : {} });
      if (!r.ok) return;
      const list = (await r.json()) as { session: string; title: string }[];
      const t = list.find((x) => x.session === session)?.title;
      if (t) title.textContent = t;
    } catch {
      // The title is a nicety: the session id stays.
    }
  };

  fill(
    tableRoot,
      h(
        "header",
        { class: "top" },
        h("a", { href: "#/", class: "home", "aria-label": "Lobby" }, "⌂"),
        title,
        who,
        status,
      ),
      round,
      h(
        "div",
        { class: "columns" },
        h(
          "div",
          { class: "left" },
          h("section", { "aria-labelledby": "order-h" }, h("h2", { id: "order-h" }, "Initiative"), order),
          gridBox,
          positionsBox,
          exploreBox,
          h("section", { "aria-labelledby": "cards-h" }, h("h2", { id: "cards-h" }, "Combatants"), cards),
        ),
        h(
          "div",
          { class: "right" },
          h("section", { "aria-labelledby": "actions-h" }, h("h2", { id: "actions-h" }, "Actions"), notice, actionsBox),
          toolsBox,
          talkBox,
          h("section", { "aria-labelledby": "log-h" }, h("div", { class: "log-head" }, h("h2", { id: "log-h" }, "Narrative and dice"), undoBox), logList),
          verify,
        ),
      ),
  );
  fill(root, tableRoot);
  client.connect().catch((e: unknown) => showNotice(`Cannot join: ${String(e)}`));
  return () => client.close();
}

