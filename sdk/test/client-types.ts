// Compiled (not run) by client.test.mjs with `tsc --noEmit --strict`: the client's API speaks the
// generated protocol types, and the compiler refuses what the protocol does not allow.

import {
  applyPatch,
  CommandRejected,
  FrayClient,
  type Command,
  type EventMessage,
  type LegalAction,
  type Role,
  type ServerMessage,
  type View,
  type Welcome,
} from "../src/client.js";

const client = new FrayClient(
  { url: "ws://127.0.0.1:7878/ws", token: "t" },
  {
    welcome: (w: Welcome) => {
      const role: Role = w.role;
      if (typeof role === "object") role.player.controls.map((id: string) => id.length);
    },
    view: (v: View, seq: number) => v.combatants.map((c) => [c.id, c.hp ?? "hidden", seq]),
    legalActions: (actions: LegalAction[]) => actions.map((a) => a.command),
    event: (e: EventMessage) => {
      if (typeof e.event === "object" && "secret_rolled" in e.event) {
        const roll = e.event.secret_rolled.roll;
        return roll === null ? "hidden" : roll.total;
      }
      return e.seq;
    },
    error: (code) => code === "lagging",
  },
);

const end: Command = { end_turn: { actor: "vex" } };
void client.send(end).then((a) => a.first_seq <= a.last_seq);
void client.send("start_battle");
// @ts-expect-error: not a command of any ruleset
void client.send({ end_turn: { who: "vex" } });
// @ts-expect-error: a unit command is a string, not an object
void client.send({ start_battle: {} });
// A preview's answer: the area's squares, the path, the creatures by id.
void client.preview({ charge: { actor: "kael", target: "brute-2", path: [{ x: 1, y: 4 }] } }).then(
  (r) => r.preview.squares.length + r.preview.path.map((q) => q.x).length + r.preview.targets.join().length + r.seq,
);
// @ts-expect-error: a preview takes a command
void client.preview({ charge: { actor: "kael" } });

function onRejected(e: unknown): string | null {
  // The code is the server's reason (or the client's own "disconnected"/"closed").
  return e instanceof CommandRejected && e.code !== "not_your_turn" ? e.code : null;
}
onRejected(null);

declare const view: View;
const patched: View = applyPatch(view, [{ op: "replace", path: "/current", value: "vex" }]);
patched.order.slice();

function kind(msg: ServerMessage): string {
  if ("view_patch" in msg) return `${msg.view_patch.from_seq}→${msg.view_patch.seq}`;
  return "other";
}
kind({ pong: { nonce: 1 } });
