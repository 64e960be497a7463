// The lobby: the fights on this server, and a form to start one from a built-in encounter or an
// uploaded encounter file; after creation, the seats as links carrying their tokens.

import { fill, h } from "./dom.js";

interface Listed {
  number: number;
  session: string;
  ruleset: string;
  title: string;
  demo: boolean;
  phase: string;
  seq: number;
  spectator_token: string | null;
}

interface Builtin {
  name: string;
  ruleset: string;
  title: string;
  toml: string;
}

interface Created {
  session: string;
  ruleset: string;
  title: string;
  tokens: {
    gm: string;
    players: { name: string; controls: string[]; token: string }[];
    spectator: string;
  };
}

const KEY = "fray.operatorKey";

/** The operator key remembered in this browser, if any. */
export function operatorKey(): string {
  try {
    return localStorage.getItem(KEY) ?? "";
  } catch {
    return "";
  }
}

function remember(key: string): void {
  try {
    if (key) localStorage.setItem(KEY, key);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage may be off (private mode): the key is then asked for each time.
  }
}

/** The page's link to a seat (the fight's title rides along for the table's header). */
export function seatLink(token: string, title: string): string {
  const q = new URLSearchParams({ token, title });
  return `${location.origin}${location.pathname}#/table?${q.toString()}`;
}

/** A button that copies `link` to the clipboard (or says to copy it by hand). */
export function copyButton(link: string): HTMLElement {
  const copy = h("button", { type: "button", class: "small", "aria-label": "Copy the link" }, "Copy");
  copy.addEventListener("click", () => {
    void navigator.clipboard?.writeText(link).then(
      () => (copy.textContent = "Copied"),
      () => (copy.textContent = "Select and copy the link"),
    );
  });
  return copy;
}

function authHeaders(key: string): HeadersInit {
  return key ? { Authorization: `Bearer ${key}` } : {};
}

async function errorText(r: Response): Promise<string> {
  try {
    const body = (await r.json()) as { code?: string; message?: string };
    return `${body.code ?? r.status}: ${body.message ?? r.statusText}`;
  } catch {
    return `${r.status} ${r.statusText}`;
  }
}

export function lobby(root: HTMLElement): void {
  const sessions = h("div", { id: "sessions", "aria-live": "polite" }, "Loading…");
  const created = h("div", { id: "created", "aria-live": "polite" });
  const problem = h("p", { id: "lobby-error", class: "notice", role: "alert", hidden: true });

  const keyInput = h("input", {
    id: "operator-key",
    type: "password",
    autocomplete: "off",
    spellcheck: "false",
    value: operatorKey(),
    "aria-describedby": "key-help",
  });
  const encounterSelect = h("select", { id: "encounter", "aria-describedby": "encounter-help" });
  const fileInput = h("input", { id: "encounter-file", type: "file", accept: ".toml,text/plain" });
  const seedInput = h("input", { id: "seed", type: "number", min: "0", step: "1", inputmode: "numeric", placeholder: "random" });
  const createButton = h("button", { id: "create", type: "submit" }, "Create the fight");

  const showProblem = (text: string | null) => {
    problem.hidden = text === null;
    problem.textContent = text ?? "";
  };

  const loadSessions = async () => {
    try {
      const r = await fetch("/sessions", { headers: authHeaders(keyInput.value.trim()) });
      if (!r.ok) throw new Error(await errorText(r));
      const list = (await r.json()) as Listed[];
      if (list.length === 0) {
        fill(sessions, h("p", {}, "No fights yet. Start one below."));
        return;
      }
      fill(
        sessions,
        h(
          "ul",
          { class: "session-list" },
          list.map((s) =>
            h(
              "li",
              { "data-session": s.session },
              h("span", { class: "title" }, s.title),
              " ",
              h("span", { class: "badge" }, s.ruleset),
              " ",
              h("span", { class: `badge phase-${s.phase}` }, s.phase),
              s.demo ? [" ", h("span", { class: "badge demo" }, "demo")] : null,
              h("span", { class: "muted" }, ` · ${s.seq} events · ${s.session}`),
              " ",
              s.spectator_token
                ? h("a", { class: "button", href: seatLink(s.spectator_token, s.title), "data-watch": s.session }, "Watch")
                : null,
            ),
          ),
        ),
        keyInput.value.trim()
          ? null
          : h("p", { class: "muted" }, "Only the demo fights are listed; with the operator key, every fight."),
      );
    } catch (e) {
      fill(sessions, h("p", { class: "notice" }, `Cannot list the fights: ${String(e)}`));
    }
  };

  const loadEncounters = async () => {
    try {
      const r = await fetch("/encounters");
      if (!r.ok) throw new Error(await errorText(r));
      const list = (await r.json()) as Builtin[];
      const byRuleset = new Map<string, Builtin[]>();
      for (const e of list) byRuleset.set(e.ruleset, [...(byRuleset.get(e.ruleset) ?? []), e]);
      fill(
        encounterSelect,
        h("option", { value: "" }, "— an uploaded file (below) —"),
        [...byRuleset].map(([ruleset, es]) =>
          h(
            "optgroup",
            { label: ruleset },
            es.map((e) => h("option", { value: e.name }, `${e.title} (${e.name})`)),
          ),
        ),
      );
      encounterSelect.value = list[0]?.name ?? "";
      builtins = list;
    } catch (e) {
      showProblem(`Cannot list the built-in encounters: ${String(e)}`);
    }
  };
  let builtins: Builtin[] = [];

  const showSeats = (c: Created) => {
    const seat = (who: string, what: string, token: string) => {
      const link = seatLink(token, c.title);
      return h(
        "li",
        {},
        h("strong", {}, who),
        what ? h("span", { class: "muted" }, ` ${what}`) : null,
        h("br"),
        h("a", { href: link, "data-seat": who }, link),
        " ",
        copyButton(link),
      );
    };
    fill(
      created,
      h("h3", {}, `${c.title} (${c.ruleset}) is ready`),
      h(
        "p",
        {},
        "Send each player their own link: the token in it is their seat. Keep the GM's link to yourself.",
      ),
      h(
        "ul",
        { class: "seats" },
        seat("gm", "the game master: every command, the full view", c.tokens.gm),
        c.tokens.players.map((p) => seat(`player:${p.name}`, `controls ${p.controls.join(", ")}`, p.token)),
        seat("spectator", "watches the public view", c.tokens.spectator),
      ),
    );
  };

  const create = async (ev: Event) => {
    ev.preventDefault();
    showProblem(null);
    const key = keyInput.value.trim();
    remember(key);
    let text: string;
    let name: string;
    const file = fileInput.files?.[0];
    const chosen = builtins.find((b) => b.name === encounterSelect.value);
    if (file) {
      text = await file.text();
      name = file.name;
    } else if (chosen) {
      text = chosen.toml;
      name = `${chosen.name}.toml`;
    } else {
      showProblem("Choose a built-in encounter or an encounter file.");
      return;
    }
    const body: { encounter: string; name: string; seed?: number } = { encounter: text, name };
    if (seedInput.value !== "") {
      const seed = Number(seedInput.value);
      if (!Number.isSafeInteger(seed) || seed < 0) {
        showProblem("The seed is a whole number from 0 to 9007199254740991.");
        return;
      }
      body.seed = seed;
    }
    createButton.disabled = true;
    try {
      const r = await fetch("/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...authHeaders(key) },
        body: JSON.stringify(body),
      });
      if (!r.ok) {
        showProblem(`The server refused: ${await errorText(r)}`);
        return;
      }
      showSeats((await r.json()) as Created);
      void loadSessions();
    } catch (e) {
      showProblem(`Cannot reach the server: ${String(e)}`);
    } finally {
      createButton.disabled = false;
    }
  };

  fill(
    root,
    h(
      "main",
      { class: "lobby" },
      h("h1", {}, "Fray"),
      h(
        "p",
        { class: "lead" },
        "Tabletop fights with the rules enforced and every die verifiable. Watch a fight, or start one and send the players their links.",
      ),
      h("section", { "aria-labelledby": "sessions-h" }, h("h2", { id: "sessions-h" }, "Fights on this server"), sessions),
      h("p", {}, h("a", { href: "#/replay", id: "replay-link" }, "Replay a recorded fight"), " — step through it event by event and verify its dice."),
      h(
        "section",
        { "aria-labelledby": "create-h" },
        h("h2", { id: "create-h" }, "Start a fight"),
        h(
          "form",
          { id: "create-form", onsubmit: (e: Event) => void create(e) },
          h("label", { for: "operator-key" }, "Operator key"),
          keyInput,
          h(
            "p",
            { id: "key-help", class: "help" },
            "Starting a fight needs the server's operator key. It is in the file ",
            h("code", {}, "<data dir>/admin-token"),
            " (by default ",
            h("code", {}, "fray-data/admin-token"),
            ", written at the server's first start), unless the server was given ",
            h("code", {}, "--admin-token"),
            " or ",
            h("code", {}, "FRAY_ADMIN_TOKEN"),
            ". This browser remembers it.",
          ),
          h("label", { for: "encounter" }, "Built-in encounter"),
          encounterSelect,
          h("p", { id: "encounter-help", class: "help" }, "Or your own encounter file (docs/content.md describes the format):"),
          h("label", { for: "encounter-file" }, "Encounter file (.toml)"),
          fileInput,
          h("label", { for: "seed" }, "Seed (optional)"),
          seedInput,
          h("div", { class: "row" }, createButton),
        ),
        problem,
        created,
      ),
    ),
  );
  keyInput.addEventListener("change", () => {
    remember(keyInput.value.trim());
    void loadSessions();
  });
  fileInput.addEventListener("change", () => {
    if (fileInput.files?.length) encounterSelect.value = "";
  });
  void loadSessions();
  void loadEncounters();
}
