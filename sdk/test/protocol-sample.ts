// Type-checks the generated protocol types against real frames (protocol/README.md, "Example
// session") and against mistakes they must refuse. Run by .ci/check-sdk with
// `tsc --noEmit --strict`; nothing here is shipped.
import type {
  ClientMessage,
  CombatantState,
  Command,
  ErrorCode,
  GameEvent,
  LegalAction,
  Role,
  ServerMessage,
  SessionState,
} from "../src/protocol.js";

// Frames from the README's example session.
export const hello: ClientMessage = {
  hello: { protocol: 1, token: "caae42ebb563b37428e31b2a903ead1c", resume_from: null },
};
export const attack: ClientMessage = {
  command: {
    id: 2,
    command: {
      attack: {
        actor: "goblin-scrapper-1",
        attack: "melee",
        targets: ["brakka"],
        mode: "standard",
        knock_out: false,
        forced: [],
        weapon: null,
        secondary_target: null,
      },
    },
  },
};
export const start: ClientMessage = { command: { id: 1, command: "start_battle" } };
export const welcome: ServerMessage = {
  welcome: {
    protocol: 1,
    session: "s-412becaae457",
    role: { player: { name: "alice", controls: ["brakka", "sela"] } },
    seq: 18,
    ruleset: "13th-age",
    commitment: "d289bdeeb7595c85baa5142c4698ff368b55561e1e6b915febb1cdaa22379065",
  },
};
export const damaged: ServerMessage = {
  event: {
    seq: 16,
    tick: 3,
    event: {
      damaged: {
        target: "brakka",
        cause: { attack: { attacker: "goblin-scrapper-1", attack: "melee" } },
        amount: 4,
        damage_type: null,
        temp_absorbed: 0,
        hp_after: 36,
      },
    },
  },
};
export const rejected: ServerMessage = {
  rejected: {
    command_id: 2,
    code: "not_engaged",
    message: "Goblin Scrapper 1 is not engaged with Brakka Ironhide: move to engage it first",
  },
};

// A family's command is flat, like a common one.
export const readyCounter: Command = { ready_counter: { actor: "vex", power: "riposte" } };
export const battleStarted: GameEvent = "battle_started";
export const gm: Role = "gm";
export const patch: ServerMessage = {
  view_patch: {
    from_seq: 4,
    seq: 9,
    patch: [
      { op: "replace", path: "/round", value: 2 },
      { op: "remove", path: "/combatants/1" },
    ],
  },
};

// Reading server messages narrows by key.
export function describe(msg: ServerMessage): string {
  if ("rejected" in msg) {
    const code: ErrorCode = msg.rejected.code;
    return `${msg.rejected.command_id}: ${code}`;
  }
  if ("snapshot" in msg) {
    const state: SessionState = msg.snapshot.state;
    const first: CombatantState | undefined = state.combatants[0];
    // Server messages carry every field; an absent Option is `null`.
    const hp: number | null = first ? first.hp : null;
    return `${state.round} ${hp}`;
  }
  if ("legal_actions" in msg) {
    const actions: LegalAction[] = msg.legal_actions.actions;
    return actions.map((a) => `${a.group}: ${a.label}`).join(", ");
  }
  return "";
}

// Mistakes the types refuse.
// @ts-expect-error a family's command is not nested in its family
export const nested: Command = { orcus: { ready_counter: { actor: "vex", power: "riposte" } } };
// @ts-expect-error no such command
export const unknownCommand: Command = { fly: { actor: "vex" } };
// @ts-expect-error no such error code
export const unknownCode: ErrorCode = "not_a_code";
// @ts-expect-error a server message has every field
export const partial: ServerMessage = { accepted: { command_id: 1, first_seq: 1 } };
// @ts-expect-error the server's patches use add, remove and replace only
export const move: ServerMessage = { view_patch: { from_seq: 1, seq: 2, patch: [{ op: "move", from: "/a", path: "/b" }] } };
