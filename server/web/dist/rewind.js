// Rewind controls for the GM's log: each line that ends a tick gets a "rewind to here" button,
// and "Undo last" goes back to the end of the tick before the last one. A tick's last event is
// the one before an event of a later tick, or the latest event. Rewinding is a command like any
// other (`rewind_to {seq}`): the server refuses a seq in the middle of a tick, the latest event,
// or any rewind once the seed is revealed, and the page shows why.
import { h } from "./dom.js";
/** Follows the events' ticks as they arrive, in order. */
export class Ticks {
    lastTick = null;
    lastSeq = 0;
    before = 0;
    /** Takes the next event; returns the seq of the event it shows is no longer its tick's last
     * (the previous event, of the same tick), or null. */
    see(seq, tick) {
        const same = this.lastTick === tick ? this.lastSeq : null;
        if (this.lastTick !== tick && this.lastTick !== null)
            this.before = this.lastSeq;
        this.lastTick = tick;
        this.lastSeq = seq;
        return same;
    }
    /** Where "Undo last" goes: the last event of the tick before the last one (0: the start), or
     * null before any event. */
    undoTarget() {
        return this.lastTick === null ? null : this.before;
    }
}
/** The seqs of the events that end a tick, from `{seq, tick}` in log order. */
export function tickEnds(events) {
    return events.filter((e, i) => events[i + 1]?.tick !== e.tick).map((e) => e.seq);
}
/** A button that asks before it acts: clicked, it becomes the question with "Yes" and "No"
 * (Escape is no), the focus on "Yes". */
export function confirmButton(text, label, question, act, cls = "small") {
    const box = h("span", { class: "confirm" });
    const ask = h("button", { type: "button", class: cls, "aria-label": label }, text);
    const yes = h("button", { type: "button", class: "small danger", "data-confirm": "yes" }, "Yes");
    const no = h("button", { type: "button", class: "small", "data-confirm": "no" }, "No");
    const prompt = h("span", { class: "confirm-prompt", role: "group", "aria-label": question, hidden: true }, `${question} `, yes, " ", no);
    const open = (on) => {
        ask.hidden = on;
        prompt.hidden = !on;
        (on ? yes : ask).focus();
    };
    ask.addEventListener("click", () => open(true));
    no.addEventListener("click", () => open(false));
    prompt.addEventListener("keydown", (ev) => {
        if (ev.key === "Escape")
            open(false);
    });
    yes.addEventListener("click", () => {
        open(false);
        act();
    });
    box.append(ask, prompt);
    return box;
}
/** The "rewind to here" control of the log line of event `seq`. */
export function rewindControl(seq, rewind) {
    const c = confirmButton("⟲", `Rewind to here (after event ${seq})`, `Rewind to #${seq}?`, () => rewind(seq), "small rewind-button");
    c.classList.add("rewind");
    c.dataset["rewindTo"] = String(seq);
    return c;
}
