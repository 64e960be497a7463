// The replay viewer (`#/replay`): a recorded fight — one of the server's `replays/` or an
// uploaded JSON-lines log (`GET /sessions/{id}/log`, `fray export`) — stepped event by event.
// The state at each step is the server's: `POST /replay/views` folds the log with the server's
// engine and answers the view before the first event and one JSON patch per event, which this
// page applies as the table applies live `view_patch`es. It never folds events itself; they are
// the narrative. "Verify" posts the log to `POST /replay/verify`, `fray verify`'s check.
import { applyPatch } from "./client.js";
import { fill, h, words } from "./dom.js";
import { narrate, rollElement } from "./narrate.js";
const SPEEDS = [1, 2, 5, 10, 25];
async function problemText(r) {
    try {
        const body = (await r.json());
        return `${body.code ?? r.status}: ${body.message ?? r.statusText}`;
    }
    catch {
        return `${r.status} ${r.statusText}`;
    }
}
export function replay(root, params) {
    document.title = "Fray · replay";
    const problem = h("p", { id: "replay-error", class: "notice error", role: "alert", hidden: true });
    const list = h("div", { id: "replay-list", "aria-live": "polite" }, "Loading…");
    const upload = h("input", { id: "replay-file", type: "file", accept: ".jsonl,.ndjson,application/x-ndjson,text/plain" });
    const viewer = h("section", { id: "viewer", class: "viewer", hidden: true, "aria-labelledby": "viewer-h" });
    // Where the fight comes from; folded away once one is loaded.
    const sources = h("details", { class: "sources", open: true }, h("summary", {}, "Choose a fight"), h("section", { "aria-labelledby": "recorded-h" }, h("h2", { id: "recorded-h" }, "Recorded fights on this server"), list), h("section", { "aria-labelledby": "upload-h" }, h("h2", { id: "upload-h" }, "Or a log of your own"), h("label", { for: "replay-file" }, "A JSON-lines log (the table's “Download the log”, or fray export)"), upload));
    let timer = null;
    const stop = () => {
        if (timer)
            clearInterval(timer);
        timer = null;
    };
    const showProblem = (text) => {
        problem.hidden = text === null;
        problem.textContent = text ?? "";
    };
    const load = async (text, label) => {
        stop();
        showProblem(null);
        fill(viewer, h("p", {}, `Folding ${label} on the server…`));
        viewer.hidden = false;
        try {
            const r = await fetch("/replay/views", { method: "POST", body: text, headers: { "Content-Type": "application/x-ndjson" } });
            if (!r.ok) {
                showProblem(`The server cannot replay ${label}: ${await problemText(r)}`);
                viewer.hidden = true;
                return;
            }
            show((await r.json()), text);
            sources.open = false;
            viewer.scrollIntoView({ block: "start" });
        }
        catch (e) {
            showProblem(`Cannot reach the server: ${String(e)}`);
            viewer.hidden = true;
        }
    };
    const loadRecorded = async (ruleset, fight) => {
        const r = await fetch(`/replays/${encodeURIComponent(ruleset)}/${encodeURIComponent(fight)}`);
        if (!r.ok) {
            showProblem(`Cannot load ${ruleset}/${fight}: ${await problemText(r)}`);
            return;
        }
        await load(await r.text(), `${ruleset}/${fight}`);
    };
    const loadList = async () => {
        try {
            const r = await fetch("/replays");
            if (!r.ok)
                throw new Error(await problemText(r));
            const recorded = (await r.json());
            if (recorded.length === 0) {
                fill(list, h("p", { class: "muted" }, "This server has no recorded fights to offer (it serves the repository's replays/ folder when it runs from the repository). Upload a log below."));
                return;
            }
            fill(list, h("ul", { class: "session-list" }, recorded.map((f) => h("li", { "data-fight": `${f.ruleset}/${f.fight}` }, h("span", { class: "title" }, f.title), " ", h("span", { class: "badge" }, f.ruleset), h("span", { class: "muted" }, ` · ${f.events} events · ${f.fight}`), " ", h("button", {
                type: "button",
                class: "small",
                "data-load": `${f.ruleset}/${f.fight}`,
                onclick: () => {
                    const q = new URLSearchParams({ ruleset: f.ruleset, fight: f.fight });
                    history.replaceState(null, "", `#/replay?${q.toString()}`);
                    void loadRecorded(f.ruleset, f.fight);
                },
            }, "Replay")))));
        }
        catch (e) {
            fill(list, h("p", { class: "notice" }, `Cannot list the recorded fights: ${String(e)}`));
        }
    };
    upload.addEventListener("change", () => {
        const file = upload.files?.[0];
        if (file)
            void file.text().then((t) => load(t, file.name));
    });
    // ----- the viewer -----
    const show = (data, text) => {
        const n = data.events.length;
        // views[k]: the view after event k (0: before the first); filled in as they are reached.
        const views = [data.initial];
        const viewAt = (k) => {
            let j = k;
            while (views[j] === undefined)
                j--;
            let v = views[j];
            for (; j < k; j++) {
                v = applyPatch(v, data.patches[j] ?? []);
                views[j + 1] = v;
            }
            return v;
        };
        const byId = new Map(data.initial.combatants.map((c) => [c.id, c]));
        const names = {
            combatant: (id) => byId.get(id)?.name ?? id,
            attack: (actor, id) => byId.get(actor)?.attacks.find((a) => a.id === id)?.name ?? id,
        };
        let step = 0;
        const position = h("p", { id: "position", class: "position", "aria-live": "polite" });
        const state = h("div", { id: "replay-state", class: "replay-state" });
        const log = h("ol", { id: "replay-log", class: "log" });
        const lines = data.events.map((e) => {
            const line = narrate(e.event, names);
            return h("li", {
                class: `ev ev-${line.kind}${line.hidden ? " secret" : ""}`,
                "data-seq": e.seq,
                "data-kind": line.kind,
                "data-round": data.rounds[e.seq - 1] ?? 0,
            }, h("span", { class: "seq" }, `#${e.seq}`), " ", line.text, line.rolls.length ? h("div", { class: "rolls" }, line.rolls.map(rollElement)) : null);
        });
        fill(log, lines);
        const eventInput = h("input", { id: "goto-event", type: "number", min: "0", max: String(n), step: "1", inputmode: "numeric", value: "0" });
        const rounds = [...new Set(data.rounds)].filter((r) => r > 0);
        const roundSelect = h("select", { id: "goto-round" }, rounds.map((r) => h("option", { value: r }, `Round ${r}`)));
        const speed = h("select", { id: "speed", "aria-label": "Events per second" }, SPEEDS.map((s) => h("option", { value: s, selected: s === 2 }, `${s} / s`)));
        const playButton = h("button", { type: "button", id: "play" }, "Play");
        const go = (k) => {
            step = Math.max(0, Math.min(n, k));
            const v = viewAt(step);
            viewer.dataset["step"] = String(step);
            viewer.dataset["round"] = String(v.round);
            viewer.dataset["phase"] = v.phase;
            const ev = data.events[step - 1];
            fill(position, step === 0 ? "Before the first event" : `Event ${step} of ${n}`, ev ? ` · tick ${ev.tick}` : "", ` · round ${v.round}`);
            eventInput.value = String(step);
            for (const [i, li] of lines.entries()) {
                li.classList.toggle("future", i >= step);
                li.classList.toggle("now", i === step - 1);
                if (i === step - 1)
                    li.setAttribute("aria-current", "step");
                else
                    li.removeAttribute("aria-current");
            }
            // The events to come are hidden: the current one is the last shown.
            log.scrollTop = log.scrollHeight;
            renderState(v);
        };
        const renderState = (v) => {
            const current = v.current;
            const order = v.order.length ? v.order : v.combatants.map((c) => c.id);
            const cards = new Map(v.combatants.map((c) => [c.id, c]));
            const bits = [
                h("span", { class: `badge phase-${v.phase}` }, v.phase),
                h("span", { id: "replay-round" }, `Round ${v.round}`),
            ];
            if (v.ruleset === "13th-age")
                bits.push(`Escalation die ${v.escalation}`);
            if (v.ftd)
                bits.push(`Light: ${words(v.ftd.light)}`);
            if (v.ose) {
                bits.push(`Exploration turn ${v.ose.exploration.turn}`);
                for (const l of v.ose.exploration.lights)
                    bits.push(`${names.combatant(l.carrier)}'s ${l.source}: ${l.turns_left} turns`);
            }
            if (v.winner)
                bits.push(h("strong", { id: "replay-winner" }, `The ${v.winner} won`));
            fill(state, h("p", { class: "round" }, bits.map((b, i) => [i ? " · " : "", b])), h("table", { class: "replay-combatants" }, h("thead", {}, h("tr", {}, h("th", {}, "Combatant"), h("th", {}, "Hit points"), h("th", {}, "State"))), h("tbody", {}, order
                .map((id) => cards.get(id))
                .filter((c) => c !== undefined)
                .map((c) => h("tr", {
                class: `side-${c.side} status-${c.status}${c.id === current ? " current" : ""}`,
                "data-id": c.id,
                "aria-current": c.id === current ? "step" : null,
            }, h("td", {}, c.name, c.id === current ? h("span", { class: "turn" }, " ◀ turn") : null), h("td", { "data-hp": c.hp === null ? "hidden" : c.hp }, c.hp === null || c.max_hp === null
                ? c.staggered
                    ? "staggered"
                    : "hidden"
                : `${c.hp} / ${c.max_hp}${c.temp_hp ? ` (+${c.temp_hp})` : ""}`), h("td", {}, [
                c.status !== "conscious" ? words(c.status) : "",
                c.staggered ? "staggered" : "",
                c.engaged_with.length ? `engaged with ${c.engaged_with.map(names.combatant).join(", ")}` : "",
                c.far_away ? "far away" : "",
                c.grid ? `at (${c.grid.square.x}, ${c.grid.square.y})` : "",
                c.effects.length ? `${c.effects.length} effect${c.effects.length === 1 ? "" : "s"}` : "",
            ]
                .filter(Boolean)
                .join(" · ")))))));
        };
        const play = () => {
            if (timer) {
                stop();
                playButton.textContent = "Play";
                return;
            }
            if (step >= n)
                go(0);
            playButton.textContent = "Pause";
            timer = setInterval(() => {
                if (step >= n) {
                    stop();
                    playButton.textContent = "Play";
                    return;
                }
                go(step + 1);
            }, 1000 / Number(speed.value));
        };
        speed.addEventListener("change", () => {
            if (timer) {
                stop();
                play();
            }
        });
        const verifyBox = h("div", { id: "verify-result", "aria-live": "polite" });
        const verify = async () => {
            fill(verifyBox, "Verifying on the server…");
            try {
                const r = await fetch("/replay/verify", { method: "POST", body: text, headers: { "Content-Type": "application/x-ndjson" } });
                if (!r.ok) {
                    fill(verifyBox, h("p", { class: "notice error" }, `Cannot verify: ${await problemText(r)}`));
                    return;
                }
                const a = (await r.json());
                const yes = (b) => (b ? "yes" : "no");
                if (a.verified && a.checked) {
                    const c = a.checked;
                    fill(verifyBox, h("p", { class: "verified", "data-verified": "true" }, "Verified: every command re-decided from the revealed seed gives the recorded events."), h("dl", { class: "facts-list checked" }, [
                        ["Commands re-decided", c.commands, "commands"],
                        ["Events compared", c.events, "events"],
                        ["State hashes compared", c.hashes, "hashes"],
                        ["Ticks whose dice count matched (no die skipped or drawn twice)", c.draw_counts, "draw-counts"],
                        ["Seed ‖ salt hashes to the published commitment", yes(c.commitment_checked), "commitment"],
                        ["Secret seed opens the secret commitment", yes(c.secret_commitment_checked), "secret-commitment"],
                        ["Secret rolls", c.secret_rolls, "secret-rolls"],
                    ].map(([label, value, id]) => h("div", { class: "fact", "data-fact": String(id) }, h("dt", {}, String(label)), h("dd", {}, String(value))))), a.audience === "public"
                        ? h("p", { class: "help" }, "This is a public log: its events were compared as players see them, and the dice of the GM's secret rolls (from a secret stream that is never revealed) could not be checked; the GM's full log checks them too.")
                        : null);
                }
                else {
                    const p = a.problem;
                    fill(verifyBox, h("p", { class: "notice error", "data-verified": "false", "data-problem": p?.kind ?? "" }, `Not verified (${words(p?.kind ?? "unknown")}): ${p?.message ?? ""}`), p?.seq ? h("button", { type: "button", class: "small", onclick: () => go(p.seq ?? 0) }, `Show event ${p.seq}`) : null);
                }
            }
            catch (e) {
                fill(verifyBox, h("p", { class: "notice error" }, `Cannot reach the server: ${String(e)}`));
            }
        };
        const button = (id, label, title, onclick) => h("button", { type: "button", id, title, "aria-label": title, onclick }, label);
        fill(viewer, h("h2", { id: "viewer-h" }, data.title), h("p", { class: "muted" }, `${data.ruleset} · ${n} events · the ${data.audience === "gm" ? "GM's full" : "public"} log · the state folded by the server and checked against ${data.hashes_checked} recorded state hashes`), h("div", { class: "controls", role: "toolbar", "aria-label": "Step through the fight" }, button("first", "« First", "Before the first event", () => go(0)), button("prev", "◀", "Previous event", () => go(step - 1)), playButton, button("next", "▶", "Next event", () => go(step + 1)), button("last", "Last »", "The last event", () => go(n)), speed, h("label", { for: "goto-event" }, "Event"), eventInput, button("goto-event-go", "Go", "Go to the event", () => go(Number(eventInput.value) || 0)), rounds.length
            ? [
                h("label", { for: "goto-round" }, "Round"),
                roundSelect,
                button("goto-round-go", "Go", "Go to the start of the round", () => {
                    const r = Number(roundSelect.value);
                    const first = data.rounds.findIndex((x) => x >= r);
                    go(first < 0 ? n : first + 1);
                }),
            ]
            : null), position, h("div", { class: "columns" }, h("div", { class: "left" }, h("h3", {}, "State"), state), h("div", { class: "right" }, h("h3", {}, "Narrative and dice"), log)), h("div", { class: "verify" }, h("button", { type: "button", id: "verify-button", onclick: () => void verify() }, "Verify"), " Re-decide every command from the revealed seed on the server and compare every event, die and state hash (", h("code", {}, "fray verify"), ").", verifyBox));
        playButton.addEventListener("click", play);
        eventInput.addEventListener("keydown", (ev) => {
            if (ev.key === "Enter")
                go(Number(eventInput.value) || 0);
        });
        viewer.onkeydown = (ev) => {
            const t = ev.target;
            if (t && (t.tagName === "INPUT" || t.tagName === "SELECT"))
                return;
            if (ev.key === "ArrowRight")
                go(step + 1);
            else if (ev.key === "ArrowLeft")
                go(step - 1);
            else
                return;
            ev.preventDefault();
        };
        go(0);
    };
    fill(root, h("main", { class: "lobby replay" }, h("p", {}, h("a", { href: "#/" }, "⌂ Lobby")), h("h1", {}, "Replay a fight"), h("p", { class: "lead" }, "Step through a recorded fight: the server folds its log into the state at every event (the page folds nothing) and can re-decide every die from the revealed seed."), sources, problem, viewer));
    void loadList();
    const ruleset = params.get("ruleset");
    const fight = params.get("fight");
    if (ruleset && fight)
        void loadRecorded(ruleset, fight);
    return stop;
}
