// What an Orcus command would cover on the map, before it is sent: a walk's path and a charge's
// course (the squares the legal action's command carries: the server computed them), an area
// power's squares (the server's answer to `preview`: the area after its own line of effect and
// the map's edges, so a square behind a wall is never drawn — the page knows no rule to compute
// it), and the squares the combatant whose turn it is can reach (its walks' destinations).
// Pure functions of a legal action, the view and the server's answer.

import type { CombatantState, Command, LegalAction, PreviewResult, Square, View } from "./client.js";
import { variant } from "./dom.js";

/** A creature's side in squares, by size, to draw its token (Orcus § Size). */
export const SQUARES: Record<CombatantState["size"], number> = { tiny: 1, small: 1, medium: 1, large: 2, huge: 3, gargantuan: 4 };

/** The server's answer to a `preview`: its result, or why it refused. */
export type Answer = { result: PreviewResult } | { refused: string };

/** What a command would cover. */
export interface Preview {
  kind: "path" | "area";
  /** The path's squares in order (not the start), or the area's squares. */
  squares: Square[];
  /** Where the mover starts (a path), or the area's origin square (an area, when it has one). */
  from: Square | null;
  /** What it covers, for the confirm bar (after the action's group and label). */
  text: string;
  /** An area still waiting for the server's answer (nothing drawn but its origin). */
  waiting: boolean;
}

function isSquare(v: unknown): v is Square {
  return v !== null && typeof v === "object" && typeof (v as Square).x === "number" && typeof (v as Square).y === "number";
}

/** Whether the action's preview is the server's to compute (an area power's squares). */
export function asksServer(action: LegalAction): boolean {
  return variant(action.command)[0] === "area_attack";
}

/** The key of an action's answer: its command as sent. */
export function answerKey(action: LegalAction): string {
  return JSON.stringify(action.command);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function names(view: View, ids: string[]): string {
  return ids.map((id) => view.combatants.find((c) => c.id === id)?.name ?? id).join(", ");
}

function pathPreview(view: View, name: string, body: Record<string, unknown>, me: CombatantState): Preview | null {
  const path = body["path"];
  if (!Array.isArray(path) || !path.every(isSquare)) return null;
  const from = me.grid?.square ?? null;
  if (name === "charge") {
    const target = names(view, typeof body["target"] === "string" ? [body["target"]] : []);
    const text = path.length
      ? `${me.name} charges ${target}, ${plural(path.length, "square")} along the path shown`
      : `${me.name} charges ${target} from where it stands`;
    return { kind: "path", squares: path, from, text, waiting: false };
  }
  if (path.length === 0) return null;
  const end = path[path.length - 1] as Square;
  const text = `${me.name} moves ${plural(path.length, "square")} to (${end.x}, ${end.y}) along the path shown`;
  return { kind: "path", squares: path, from, text, waiting: false };
}

function areaPreview(view: View, body: Record<string, unknown>, me: CombatantState, answer: Answer | undefined): Preview {
  const origin = isSquare(body["origin"]) ? body["origin"] : null;
  const power = me.attacks.find((a) => a.id === body["attack"])?.name ?? String(body["attack"]);
  const at = origin ? ` from (${origin.x}, ${origin.y})` : ` around ${me.name}`;
  if (!answer) return { kind: "area", squares: [], from: origin, text: `${power}${at}: asking the server what it covers…`, waiting: true };
  if ("refused" in answer) return { kind: "area", squares: [], from: origin, text: `${power}${at}: ${answer.refused}`, waiting: false };
  const { squares, targets } = answer.result.preview;
  const who = targets.length ? `, affects ${names(view, targets)}` : ", affects nobody";
  return { kind: "area", squares, from: origin, text: `${power}${at}: ${plural(squares.length, "square")}${who}`, waiting: false };
}

/** What a legal action's command would cover on the map, or null (not a move, a charge or an
 * area). An area's squares are the server's `answer` (undefined: not arrived yet). */
export function previewOf(view: View, action: LegalAction, answer?: Answer): Preview | null {
  const [name, body] = variant(action.command);
  const me = view.combatants.find((c) => c.id === action.actor);
  if (!me?.grid) return null;
  if (name === "move_to" || name === "charge") return pathPreview(view, name, body, me);
  if (name === "area_attack") return areaPreview(view, body, me, answer);
  return null;
}

/** The square a command goes to or aims at: a move's or a charge's last step, an area's origin. */
export function squareOf(command: Command): Square | null {
  const [, body] = variant(command);
  const path = body["path"];
  const at = Array.isArray(path) && path.length ? path[path.length - 1] : body["origin"];
  return isSquare(at) ? { x: at.x, y: at.y } : null;
}

/** The squares the combatant whose turn it is can walk to, from this seat's legal actions. */
export function reach(view: View, actions: LegalAction[]): Square[] {
  const isWalk = (a: LegalAction) => {
    const [name, body] = variant(a.command);
    return name === "move_to" && (body["mode"] ?? "walk") === "walk";
  };
  return actions
    .filter((a) => a.actor !== null && a.actor === view.current && isWalk(a))
    .map((a) => squareOf(a.command))
    .filter((q): q is Square => q !== null);
}
