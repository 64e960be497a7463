//! Where a combatant can walk this turn, on the grid as the view shows it: the cheapest path to
//! every square a walk of at most its speed can reach (Dijkstra over the north-west squares of
//! its space, ties broken by square order so that it is deterministic). Enemies standing up
//! block; nobody's square ends a walk. Shared by the demo policy and the legal actions; the
//! rules themselves decide a move (`commands.rs`), so a path from here is only a candidate.

use super::geometry::{self, Space};
use fray_protocol::SessionState;
use fray_protocol::event::{Condition, EffectKind};
use fray_protocol::grid::{MapState, Square};
use fray_protocol::state::{CombatantState, LifeStatus};
use std::collections::{BTreeMap, BTreeSet};

/// The walks from one start.
pub struct Walks {
    start: Space,
    /// Each reachable north-west square: the cheapest cost and the square before it.
    best: BTreeMap<Square, (i32, Option<Square>)>,
    /// The other squares before it at that same cost (only where there is a tie).
    ties: BTreeMap<Square, Vec<Square>>,
    /// Squares someone else stands on.
    taken: BTreeSet<Square>,
}

fn space(c: &CombatantState) -> Option<Space> {
    c.grid.as_ref().map(|g| Space {
        at: g.square,
        size: g.size,
    })
}

fn helpless(c: &CombatantState) -> bool {
    c.effects
        .iter()
        .any(|e| matches!(e.kind, EffectKind::Condition(Condition::Helpless)))
}

impl Walks {
    /// Every walk of at most `speed` squares of movement for `me` from `start`.
    pub fn new(
        s: &SessionState,
        me: &CombatantState,
        map: &MapState,
        start: Space,
        speed: i32,
    ) -> Walks {
        Self::search(s, me, map, (start, speed), None)
    }

    /// Every charge course toward `target` (§ Charge: walks whose every square brings `me`
    /// closer to it), at most `speed` squares of movement from `start`.
    pub fn toward(
        s: &SessionState,
        me: &CombatantState,
        map: &MapState,
        (start, speed): (Space, i32),
        target: Space,
    ) -> Walks {
        Self::search(s, me, map, (start, speed), Some(target))
    }

    fn search(
        s: &SessionState,
        me: &CombatantState,
        map: &MapState,
        (start, speed): (Space, i32),
        toward: Option<Space>,
    ) -> Walks {
        let mut blocked = BTreeSet::new();
        let mut taken = BTreeSet::new();
        let standing = |c: &&CombatantState| {
            c.id != me.id && !matches!(c.status, LifeStatus::Dead | LifeStatus::Slain)
        };
        for c in s.combatants.iter().filter(standing) {
            let Some(sp) = space(c) else { continue };
            for q in sp.squares() {
                taken.insert(q);
                if c.side != me.side && c.status == LifeStatus::Conscious && !helpless(c) {
                    blocked.insert(q);
                }
            }
        }
        let enterable = |sp: Space| {
            sp.squares().all(|q| {
                geometry::on_map(map, q) && !geometry::solid(map, q) && !blocked.contains(&q)
            })
        };
        let step_cost =
            |sp: Space| 1 + i32::from(sp.squares().any(|q| geometry::difficult(map, q)));
        let mut best: BTreeMap<Square, (i32, Option<Square>)> = BTreeMap::new();
        let mut ties: BTreeMap<Square, Vec<Square>> = BTreeMap::new();
        best.insert(start.at, (0, None));
        let mut frontier: BTreeSet<(i32, Square)> = BTreeSet::new();
        frontier.insert((0, start.at));
        while let Some((cost, at)) = frontier.pop_first() {
            if best.get(&at).is_some_and(|(c, _)| *c < cost) {
                continue;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let next = Square::new(at.x + dx, at.y + dy);
                    let sp = Space {
                        at: next,
                        size: start.size,
                    };
                    if !enterable(sp) {
                        continue;
                    }
                    let here = Space {
                        at,
                        size: start.size,
                    };
                    if toward
                        .is_some_and(|t| geometry::distance(sp, t) >= geometry::distance(here, t))
                    {
                        continue;
                    }
                    let c = cost + step_cost(sp);
                    if c > speed {
                        continue;
                    }
                    match best.get(&next) {
                        Some((old, _)) if c == *old => ties.entry(next).or_default().push(at),
                        Some((old, _)) if c > *old => {}
                        _ => {
                            best.insert(next, (c, Some(at)));
                            ties.remove(&next);
                            frontier.insert((c, next));
                        }
                    }
                }
            }
        }
        Walks {
            start,
            best,
            ties,
            taken,
        }
    }

    /// The squares a walk can end on (free of anyone else, not the start), with their cost.
    pub fn ends(&self) -> impl Iterator<Item = (Square, i32)> + '_ {
        self.best.iter().filter_map(|(sq, (c, _))| {
            let sp = Space {
                at: *sq,
                size: self.start.size,
            };
            let free = *sq != self.start.at && sp.squares().all(|q| !self.taken.contains(&q));
            free.then_some((*sq, *c))
        })
    }

    /// The cheapest path to `goal` (a square of [`Self::ends`]), without the start.
    pub fn path(&self, goal: Square) -> Vec<Square> {
        self.back_from(goal, |first, _| first)
    }

    /// A cheapest path to `goal` that keeps nearest the straight line from the start: walking
    /// back from `goal`, of the squares before each at the same cost, the one nearest that
    /// line (then the first found). The same cost as [`Self::path`], without its zig-zags.
    pub fn straight_path(&self, goal: Square) -> Vec<Square> {
        let from = self.start.at;
        let off_line = |q: &Square| {
            let (lx, ly) = (goal.x - from.x, goal.y - from.y);
            ((q.x - from.x) * ly - (q.y - from.y) * lx).abs()
        };
        self.back_from(goal, |first, ties| {
            std::iter::once(&first)
                .chain(ties)
                .min_by_key(|q| off_line(q))
                .copied()
                .unwrap_or(first)
        })
    }

    /// The path to `goal` walked back to the start, taking at each square the square before it
    /// that `pick` chooses among the first found and the ties of equal cost; without the start.
    fn back_from(&self, goal: Square, pick: impl Fn(Square, &[Square]) -> Square) -> Vec<Square> {
        let mut path = vec![goal];
        let mut at = goal;
        while let Some((_, Some(first))) = self.best.get(&at) {
            let ties = self.ties.get(&at).map_or(&[][..], Vec::as_slice);
            let prev = pick(*first, ties);
            if prev == self.start.at {
                break;
            }
            path.push(prev);
            at = prev;
        }
        path.reverse();
        path
    }
}
