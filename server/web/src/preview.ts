// What an Orcus command would cover on the map, before it is sent: a walk's path (the squares
// the legal action's `move_to` carries), an area power's squares (computed here from the
// power's `range` in the view and the command's `origin`: the command does not carry them),
// and the squares the combatant whose turn it is can reach (its walks' destinations).
// Pure functions of a legal action and the view.

import type { CombatantState, Command, LegalAction, Square, View } from "./client.js";
import { variant } from "./dom.js";

/** A creature's side in squares, by size (Orcus § Size: large 2, huge 3, gargantuan 4). */
export const SQUARES: Record<CombatantState["size"], number> = { tiny: 1, small: 1, medium: 1, large: 2, huge: 3, gargantuan: 4 };

/** The shape of an area power, from its `range` (`near burst 1`, `far blast 3 within 10`). */
export interface AreaShape {
  kind: "near burst" | "near blast" | "far burst" | "far blast";
  size: number;
}

/** What a command would cover. */
export interface Preview {
  kind: "path" | "area";
  /** The path's squares in order (not the start), or the area's squares. */
  squares: Square[];
  /** Where the mover starts (a path), or the area's origin square (an area, when it has one). */
  from: Square | null;
  /** What it covers, for the confirm bar (after the action's group and label). */
  text: string;
}

export function areaShape(range: string): AreaShape | null {
  const m = /^(near|far) (burst|blast) (\d+)/.exec(range);
  if (!m) return null;
  return { kind: `${m[1]} ${m[2]}` as AreaShape["kind"], size: Number(m[3]) };
}

function isSquare(v: unknown): v is Square {
  return v !== null && typeof v === "object" && typeof (v as Square).x === "number" && typeof (v as Square).y === "number";
}

/** A block of squares: `w` × `h` from `(x, y)`. */
function block(x: number, y: number, w: number, h: number): Square[] {
  const out: Square[] = [];
  for (let dy = 0; dy < h; dy++) for (let dx = 0; dx < w; dx++) out.push({ x: x + dx, y: y + dy });
  return out;
}

/**
 * The squares of an area by its shape alone. The server also drops the squares the user has no
 * line of effect to (behind walls) and those off the map; the page draws the shape, cut to the
 * map's edges and without the walls themselves — so the preview can be a little larger than
 * what the power hits (a square behind a wall is drawn).
 * `user` is the user's north-west square and side in squares; `origin` the command's origin (a
 * far burst's centre, a blast's north-west square; none for a near burst).
 */
export function areaSquares(shape: AreaShape, origin: Square | null, user: Square, side: number): Square[] {
  const n = shape.size;
  switch (shape.kind) {
    case "near burst": {
      const inner = (q: Square) => q.x >= user.x && q.x < user.x + side && q.y >= user.y && q.y < user.y + side;
      return block(user.x - n, user.y - n, side + 2 * n, side + 2 * n).filter((q) => !inner(q));
    }
    case "far burst":
      return origin ? block(origin.x - n, origin.y - n, 2 * n + 1, 2 * n + 1) : [];
    default:
      return origin ? block(origin.x, origin.y, n, n) : [];
  }
}

/** The squares on the map and not walls (no area reaches into a wall: no line of effect). */
function onMap(view: View, squares: Square[]): Square[] {
  const m = view.map;
  if (!m) return squares;
  const walls = new Set(m.blocking.map((q) => `${q.x},${q.y}`));
  return squares.filter((q) => q.x >= 0 && q.y >= 0 && q.x < m.width && q.y < m.height && !walls.has(`${q.x},${q.y}`));
}

function pathPreview(body: Record<string, unknown>, me: CombatantState): Preview | null {
  const path = body["path"];
  if (!Array.isArray(path) || !path.every(isSquare) || path.length === 0) return null;
  const end = path[path.length - 1] as Square;
  const n = path.length;
  return {
    kind: "path",
    squares: path,
    from: me.grid?.square ?? null,
    text: `${me.name} moves ${n} square${n === 1 ? "" : "s"} to (${end.x}, ${end.y}) along the path shown`,
  };
}

function areaPreview(view: View, body: Record<string, unknown>, me: CombatantState): Preview | null {
  const power = me.attacks.find((a) => a.id === body["attack"]);
  const shape = power ? areaShape(power.range) : null;
  const grid = me.grid;
  if (!power || !shape || !grid) return null;
  const origin = isSquare(body["origin"]) ? body["origin"] : null;
  const squares = onMap(view, areaSquares(shape, origin, grid.square, SQUARES[grid.size] ?? 1));
  const at = origin ? ` from (${origin.x}, ${origin.y})` : ` around ${me.name}`;
  return { kind: "area", squares, from: origin, text: `${shape.kind} ${shape.size}${at}, ${squares.length} squares shown` };
}

/** What a legal action's command would cover on the map, or null (not a move or an area). */
export function previewOf(view: View, action: LegalAction): Preview | null {
  const [name, body] = variant(action.command);
  const me = view.combatants.find((c) => c.id === action.actor);
  if (!me?.grid) return null;
  if (name === "move_to" || name === "charge") return pathPreview(body, me);
  if (name === "area_attack") return areaPreview(view, body, me);
  return null;
}

/** The square a command goes to or aims at: a move's last step, an area's origin. */
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
