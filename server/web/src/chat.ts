// Table talk and dice: the GM's and the players' panel for chat lines (to the table, to the GM,
// or whispered to one player seat) and free rolls (public, seen by the roller and the GM, or
// blind), with the lines and rolls this seat's events carry (protocol/README.md § GM tools:
// rewind, chat, free rolls). Spectators may not talk: the page shows them no panel. Who may
// read what is the server's business: a line or a roll not for this seat arrives without its
// text or result, and shows as private or hidden.

import { CommandRejected, type Command, type Role } from "./client.js";
import { fill, h } from "./dom.js";
import { rollElement, type Line } from "./narrate.js";

/** A choice of the recipient picker: its value (`table`, `gm`, `player:NAME`) and label. */
export interface Recipient {
  value: string;
  label: string;
}

const MAX_LINES = 200;

/** Who this seat may write to: the table, the GM (the GM's own: a note), and every other
 * player seat by name. */
export function recipients(role: Role, seats: string[]): Recipient[] {
  const me = typeof role === "object" ? role.player.name : null;
  const gm = role === "gm" ? "Note to myself (GM only)" : "The GM only";
  const whispers = seats.filter((s) => s !== me).map((s) => ({ value: `player:${s}`, label: `Whisper to ${s}` }));
  return [{ value: "table", label: "The table" }, { value: "gm", label: gm }, ...whispers];
}

/** The `chat` command for a line and a recipient's value; throws when the line is empty. */
export function chatCommand(text: string, to: string): Command {
  const line = text.trim();
  if (line === "") throw new Error("Write a line first.");
  const target = to.startsWith("player:") ? { player: to.slice("player:".length) } : to === "gm" ? "gm" : "table";
  return { chat: { text: line, to: target } } as Command;
}

/** The `free_roll` command; throws when no dice are given. */
export function rollCommand(dice: string, label: string, visibility: string): Command {
  const expr = dice.trim();
  if (expr === "") throw new Error("Give the dice, e.g. 2d6+1.");
  const what = label.trim();
  const seen = visibility === "gm" || visibility === "blind" ? visibility : "public";
  return { free_roll: { dice: expr, label: what === "" ? null : what, visibility: seen } } as Command;
}

/** The player seats' names in a log's first line (its header: the genesis' encounter). */
export function seatsInHeader(line: string): string[] {
  try {
    const header = JSON.parse(line) as { genesis?: { encounter?: { seats?: { name?: unknown }[] } } };
    const seats = header.genesis?.encounter?.seats ?? [];
    return seats.map((s) => s.name).filter((n): n is string => typeof n === "string");
  } catch {
    return [];
  }
}

/** The seats' names, from the first line of the session's log (any token of the session may
 * read it; the rest of the log is not downloaded). Empty when it cannot be read. */
export async function fetchSeats(session: string, token: string): Promise<string[]> {
  try {
    const r = await fetch(`/sessions/${encodeURIComponent(session)}/log`, { headers: { Authorization: `Bearer ${token}` } });
    const reader = r.ok ? r.body?.getReader() : undefined;
    if (!reader) return [];
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    void reader.cancel();
    return seatsInHeader(text.split("\n", 1)[0] ?? "");
  } catch {
    return [];
  }
}

function reason(e: unknown): string {
  if (e instanceof CommandRejected) return `Refused (${e.code}): ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

function field(id: string, label: string, control: HTMLElement): HTMLElement {
  return h("div", { class: "talk-field" }, h("label", { for: id }, label), control);
}

/** The panel: `show` it for a role, give it the seats' names, `add` each chat or roll line. */
export interface TalkPanel {
  show: (role: Role | null) => void;
  seats: (names: string[]) => void;
  add: (seq: number, line: Line) => void;
}

export function talkPanel(box: HTMLElement, send: (c: Command) => Promise<unknown>): TalkPanel {
  const lines = h("ol", { id: "talk-lines", class: "log talk-lines", "aria-live": "polite", "aria-relevant": "additions" });
  const answer = h("p", { id: "talk-answer", class: "tool-answer", role: "status", "data-answer": "" });
  const to = h("select", { id: "chat-to", name: "to" });
  const text = h("input", { id: "chat-text", type: "text", maxlength: 500, autocomplete: "off", enterkeyhint: "send" });
  const dice = h("input", { id: "roll-dice", type: "text", maxlength: 40, placeholder: "2d6+1", autocomplete: "off", spellcheck: "false" });
  const label = h("input", { id: "roll-label", type: "text", maxlength: 100, autocomplete: "off" });
  const seen = h("select", { id: "roll-visibility" });
  let role: Role | null = null;
  let known: string[] = [];

  const say = (message: string, kind: string) => {
    answer.textContent = message;
    answer.dataset["answer"] = kind;
  };
  const submit = async (form: HTMLFormElement, make: () => Command, after: () => void) => {
    const button = form.querySelector("button");
    try {
      const command = make();
      if (button) button.disabled = true;
      say("Sending…", "sending");
      await send(command);
      say("", "accepted");
      after();
    } catch (e) {
      say(reason(e), "refused");
    } finally {
      if (button) button.disabled = false;
    }
  };
  const form = (id: string, legend: string, fields: HTMLElement[], button: string, act: (f: HTMLFormElement) => void) => {
    const f = h("form", { id, class: "talk-form", "aria-label": legend }, fields, h("button", { type: "submit", id: `${id}-send` }, button));
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      act(f);
    });
    return f;
  };
  const chatForm = form("chat-form", "A chat line", [field("chat-to", "To", to), field("chat-text", "Line", text)], "Send", (f) => {
    void submit(f, () => chatCommand(text.value, to.value), () => (text.value = ""));
  });
  const rollForm = form(
    "roll-form",
    "A free roll",
    [field("roll-dice", "Dice", dice), field("roll-label", "For (optional)", label), field("roll-visibility", "Seen by", seen)],
    "Roll",
    (f) => void submit(f, () => rollCommand(dice.value, label.value, seen.value), () => undefined),
  );

  const pickers = () => {
    const was = to.value;
    fill(to, role ? recipients(role, known).map((r) => h("option", { value: r.value }, r.label)) : []);
    if ([...to.options].some((o) => o.value === was)) to.value = was;
    const mine = role === "gm" ? "Only me" : "Me and the GM";
    const wasSeen = seen.value || "public";
    fill(seen, h("option", { value: "public" }, "Everyone"), h("option", { value: "gm" }, mine), h("option", { value: "blind" }, "Blind: the GM only"));
    seen.value = wasSeen;
  };

  fill(
    box,
    h("h2", { id: "talk-h" }, "Table talk and dice"),
    lines,
    chatForm,
    rollForm,
    answer,
  );
  box.setAttribute("aria-labelledby", "talk-h");

  return {
    show: (r) => {
      role = r;
      box.hidden = r === null || r === "spectator";
      pickers();
    },
    seats: (names) => {
      known = names;
      pickers();
    },
    add: (seq, line) => {
      lines.append(
        h(
          "li",
          { class: `ev ev-${line.kind}${line.hidden ? " secret" : ""}`, "data-seq": seq, "data-kind": line.kind },
          line.text,
          line.rolls.length ? h("div", { class: "rolls" }, line.rolls.map(rollElement)) : null,
        ),
      );
      while (lines.childElementCount > MAX_LINES) lines.firstElementChild?.remove();
      lines.scrollTop = lines.scrollHeight;
    },
  };
}
