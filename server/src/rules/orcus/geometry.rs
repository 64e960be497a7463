//! The Orcus decide code's view of the grid: the wire's squares, sizes and map (`fray_protocol::
//! grid`) on one side, the grid library (`grid.rs`: exact lines, cover, concealment, areas,
//! flanking, forced movement) on the other. Every geometric question the rules ask goes through
//! here, so there is one answer to each. Heights (elevation, an interpretation): a [`Body`] is a
//! space and a height; [`distance_3d`], [`adjacent_3d`], [`flanking_3d`], the area heights and
//! [`in_the_way_at_height`] add the third dimension, while lines, cover by walls and
//! concealment stay on the ground plane (walls are full height, obscurement fills the column).

use super::grid;
use crate::content::model::Vision;
use fray_protocol::grid::{MapState, Size, Square};
use std::collections::BTreeSet;

/// A creature's space: its north-west square and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Space {
    /// North-west square.
    pub at: Square,
    /// Size.
    pub size: Size,
}

impl Space {
    /// A one-square space (an area's origin square).
    pub fn single(at: Square) -> Self {
        Space {
            at,
            size: Size::Medium,
        }
    }

    /// The squares it covers.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        self.g().squares().map(from_g)
    }

    /// Whether it covers `s`.
    pub fn covers(self, s: Square) -> bool {
        self.g().contains(to_g(s))
    }

    /// Whether the two spaces share a square.
    pub fn overlaps(self, other: Space) -> bool {
        self.g().intersects(&other.g())
    }

    fn g(self) -> grid::Space {
        grid::Space::new(to_g(self.at), size_g(self.size))
    }
}

fn to_g(s: Square) -> grid::Square {
    grid::Square::new(s.x, s.y)
}

fn from_g(s: grid::Square) -> Square {
    Square::new(s.x, s.y)
}

fn size_g(s: Size) -> grid::Size {
    match s {
        Size::Tiny => grid::Size::Tiny,
        Size::Small => grid::Size::Small,
        Size::Medium => grid::Size::Medium,
        Size::Large => grid::Size::Large,
        Size::Huge => grid::Size::Huge,
        Size::Gargantuan => grid::Size::Gargantuan,
    }
}

fn to_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// Range between two spaces (§ Range): 0 when they overlap, 1 when adjacent (diagonals too).
pub fn distance(a: Space, b: Space) -> i32 {
    to_i32(grid::distance(&a.g(), &b.g()))
}

/// Range from a space to a square.
pub fn distance_to_square(a: Space, s: Square) -> i32 {
    to_i32(a.g().distance_to_square(to_g(s)))
}

/// Whether two spaces are adjacent.
pub fn adjacent(a: Space, b: Space) -> bool {
    a.g().is_adjacent_to(&b.g())
}

/// Whether a square is on the map.
pub fn on_map(map: &MapState, s: Square) -> bool {
    (0..map.width).contains(&s.x) && (0..map.height).contains(&s.y)
}

/// Whether a square is solid (a wall, or a transparent obstacle): no creature can enter it.
pub fn solid(map: &MapState, s: Square) -> bool {
    map.blocking.contains(&s) || map.transparent.contains(&s)
}

/// Whether a square is difficult terrain.
pub fn difficult(map: &MapState, s: Square) -> bool {
    map.difficult.contains(&s)
}

/// Whether `s` is deep water (§ Special movement modes, Swim; § Underwater combat).
pub fn water(map: &MapState, s: Square) -> bool {
    map.water.contains(&s)
}

/// § Flanking, geometry only: `a` and `b` adjacent to `target` on opposite sides or corners.
pub fn flanking(target: Space, a: Space, b: Space) -> bool {
    grid::flanks(&target.g(), &a.g(), &b.g())
}

/// A creature in three dimensions (elevation, an interpretation: the text has no altitude
/// rules; Fourth Edition's model): its space on the ground and its `height`, the lowest of its
/// cubes in whole squares above the ground. It is as tall as its space is wide (a Medium
/// creature one cube, a Large one 2×2×2), so a creature aloft is the stack of cubes from
/// `height` up over its space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Body {
    /// Its space on the ground.
    pub space: Space,
    /// Its lowest cube, in squares above the ground.
    pub height: i32,
}

impl Body {
    /// A body on the ground (an area's origin square, for instance).
    pub fn ground(space: Space) -> Self {
        Body { space, height: 0 }
    }

    /// Its lowest and highest cubes.
    pub fn heights(self) -> Heights {
        let tall = to_i32(size_g(self.space.size).side()).max(1);
        Heights {
            low: self.height,
            high: self.height.saturating_add(tall - 1),
        }
    }
}

/// A band of heights, lowest and highest cube (inclusive): a body's, or an area's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heights {
    /// Lowest cube.
    pub low: i32,
    /// Highest cube.
    pub high: i32,
}

impl Heights {
    /// The squares between two bands, counted like range: 0 when they overlap, 1 when one is
    /// right above the other.
    pub fn gap(self, other: Heights) -> i32 {
        0.max(other.low - self.high).max(self.low - other.high)
    }

    /// Whether the bands share a height.
    pub fn overlaps(self, other: Heights) -> bool {
        self.gap(other) == 0
    }
}

/// Range between two creatures counting height: the larger of the ground range and the height
/// gap between their cubes (everywhere Orcus uses a distance: reach, range, adjacency, bursts).
pub fn distance_3d(a: Body, b: Body) -> i32 {
    distance(a.space, b.space).max(a.heights().gap(b.heights()))
}

/// Whether two creatures are adjacent counting height (range 1: touching side, corner, top or
/// bottom).
pub fn adjacent_3d(a: Body, b: Body) -> bool {
    distance_3d(a, b) == 1
}

/// § Flanking counting height (interpretation): both flankers adjacent to the target counting
/// height; when both are level with it (their cubes share a height with its cubes) the ground
/// rule decides ([`flanking`], unchanged on the ground), otherwise the segment between the
/// centres of the flankers' boxes must pass through opposite faces of the target's box (west and
/// east, north and south, or bottom and top; edges and corners count for both their faces). So
/// a flier above a target does not flank with an ally on the ground, but fliers flank a flier
/// from opposite sides at its height, or one above and one below it.
pub fn flanking_3d(target: Body, a: Body, b: Body) -> bool {
    if !adjacent_3d(target, a) || !adjacent_3d(target, b) {
        return false;
    }
    let level = |x: Body| x.heights().overlaps(target.heights());
    if level(a) && level(b) {
        return flanking(target.space, a.space, b.space);
    }
    let gz = |x: Body| (x.space.g(), i64::from(x.height));
    let (t, ga, gb) = (gz(target), gz(a), gz(b));
    grid::flanks_3d((&t.0, t.1), (&ga.0, ga.1), (&gb.0, gb.1))
}

/// The heights of a burst `n` (interpretation: a burst is a cube): its origin's cubes (the
/// user's for a near burst, the cube of a far burst's origin square: on the ground, or at the
/// command's `origin_height`) and `n` more up and down, clamped at the ground.
pub fn burst_heights(origin: Heights, n: i32) -> Heights {
    Heights {
        low: origin.low.saturating_sub(n).max(0),
        high: origin.high.saturating_add(n),
    }
}

/// The heights of a blast `n` (interpretation: a cube `n` on a side touching its origin). The
/// command names no height, so Fray hangs it from the origin's highest cube down (the user's for
/// a near blast, the ground cube of a far blast's origin square), raised to rest on the ground
/// when it would go below it: on the ground it is the `n` lowest layers, and a flier's blast
/// reaches down towards the ground.
pub fn blast_heights(origin: Heights, n: i32) -> Heights {
    let low = origin.high.saturating_sub(n - 1).max(0);
    Heights {
        low,
        high: low.saturating_add(n - 1),
    }
}

/// § Cover counting height (interpretation): a creature in the way is an obstacle only at its
/// own height, so it counts when some of its cubes lie within the heights an attack from
/// `origin` to `target` passes through (from the lower of their lowest cubes to the higher of
/// their highest). Walls are full height and always count.
pub fn in_the_way_at_height(obstacle: Body, origin: Body, target: Body) -> bool {
    let (o, t) = (origin.heights(), target.heights());
    let span = Heights {
        low: o.low.min(t.low),
        high: o.high.max(t.high),
    };
    obstacle.heights().overlaps(span)
}

/// What kind of attack (§ Origin of effect): concealment only counts against melee and ranged.
pub use grid::AttackKind;

/// Why an area cannot be placed.
pub use grid::AreaError;

/// The battle map as the grid library sees it; built once per command from the state's map.
pub struct Geo(grid::Map);

impl Geo {
    /// The map, or `None` when its size is not a valid grid (content validation keeps maps to
    /// 1–64 squares a side, so this only happens with a corrupt state).
    pub fn new(m: &MapState) -> Option<Geo> {
        let w = u32::try_from(m.width).ok()?;
        let h = u32::try_from(m.height).ok()?;
        let mut map = grid::Map::new(w, h).ok()?;
        let mut set = |squares: &[Square], f: &dyn Fn(&mut grid::Terrain)| {
            for s in squares {
                if let Some(mut t) = map.terrain(to_g(*s)) {
                    f(&mut t);
                    // Squares off the map are left out (content validation refuses them).
                    let _ = map.set_terrain(to_g(*s), t);
                }
            }
        };
        set(&m.blocking, &|t| t.obstacle = grid::Obstacle::Blocking);
        set(&m.transparent, &|t| {
            t.obstacle = grid::Obstacle::Transparent
        });
        set(&m.difficult, &|t| t.difficult = true);
        set(&m.lightly_obscured, &|t| {
            t.obscured = t.obscured.max(grid::Obscurement::Light)
        });
        set(&m.heavily_obscured, &|t| {
            t.obscured = t.obscured.max(grid::Obscurement::Heavy)
        });
        set(&m.totally_obscured, &|t| {
            t.obscured = t.obscured.max(grid::Obscurement::Total)
        });
        set(&m.dim_light, &|t| t.light = t.light.max(grid::Light::Dim));
        set(&m.darkness, &|t| t.light = grid::Light::Dark);
        Some(Geo(map))
    }

    /// § Line of effect: some line from a corner of `from` to some point of `to` passes through
    /// no solid obstacle (a space off the map has none).
    pub fn line_of_effect(&self, from: Space, to: Space) -> bool {
        grid::line_of_effect(&self.0, &from.g(), &to.g()).unwrap_or(false)
    }

    /// § Line of sight: as line of effect, but only opaque obstacles block it.
    pub fn line_of_sight(&self, from: Space, to: Space) -> bool {
        grid::line_of_sight(&self.0, &from.g(), &to.g()).unwrap_or(false)
    }

    /// § Cover: the attack-roll modifier (0, −2 or −5) for `target` against an effect from
    /// `origin`; `obstacles` are the spaces of the target's allies (they count as obstacles).
    pub fn cover(&self, origin: Space, target: Space, obstacles: &[Space]) -> i32 {
        let extra: BTreeSet<grid::Square> = obstacles
            .iter()
            .flat_map(|s| s.g().squares())
            .filter(|q| !origin.g().contains(*q) && !target.g().contains(*q))
            .collect();
        grid::cover(&self.0, &origin.g(), &target.g(), &extra)
            .map_or(0, grid::Cover::attack_modifier)
    }

    /// § Concealment from obscured squares, and from dim light and darkness as the attacker's
    /// `vision` sees them (§ Senses): the attack-roll modifier (0, −2 or −5).
    pub fn concealment(
        &self,
        attacker: Space,
        target: Space,
        kind: AttackKind,
        vision: Vision,
    ) -> i32 {
        grid::concealment_seen_by(&self.0, &attacker.g(), &target.g(), kind, vision)
            .map_or(0, grid::Concealment::attack_modifier)
    }

    /// A near burst `n` around the user (not its own squares), squares with line of effect.
    pub fn near_burst(&self, user: Space, n: i32) -> Result<BTreeSet<Square>, AreaError> {
        let n = u32::try_from(n).unwrap_or(0);
        Ok(set(grid::near_burst(&self.0, &user.g(), n, false)?))
    }

    /// A near blast `n` whose north-west square is `corner`, touching the user's space.
    pub fn near_blast(
        &self,
        user: Space,
        corner: Square,
        n: i32,
    ) -> Result<BTreeSet<Square>, AreaError> {
        let blast = grid::Blast {
            top_left: to_g(corner),
            size: u32::try_from(n).unwrap_or(0),
        };
        Ok(set(grid::near_blast(&self.0, &user.g(), blast)?))
    }

    /// A far burst `n` centred on `centre`, within `range` of the user.
    pub fn far_burst(
        &self,
        user: Space,
        centre: Square,
        n: i32,
        range: i32,
    ) -> Result<BTreeSet<Square>, AreaError> {
        let n = u32::try_from(n).unwrap_or(0);
        let range = u32::try_from(range).unwrap_or(0);
        Ok(set(grid::far_burst(
            &self.0,
            &user.g(),
            to_g(centre),
            n,
            range,
        )?))
    }

    /// A far blast `n` whose north-west square is `corner`: its origin square is the blast's
    /// square nearest the user (then the first in row order) that is within `range` and in the
    /// user's line of effect. Also returns that origin.
    // Interpretation: the command names the blast's corner; the text wants an origin square
    // within range, which the user would pick as favourably as it can.
    pub fn far_blast(
        &self,
        user: Space,
        corner: Square,
        n: i32,
        range: i32,
    ) -> Result<(Square, BTreeSet<Square>), AreaError> {
        let size = u32::try_from(n).unwrap_or(0);
        let range = u32::try_from(range).unwrap_or(0);
        let blast = grid::Blast {
            top_left: to_g(corner),
            size,
        };
        let side = i32::try_from(size).unwrap_or(0);
        let mut candidates: Vec<grid::Square> = (0..side)
            .flat_map(|dy| (0..side).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| grid::Square::new(corner.x + dx, corner.y + dy))
            .collect();
        candidates.sort_by_key(|s| (user.g().distance_to_square(*s), s.y, s.x));
        let mut first_err = AreaError::EmptyBlast;
        for (i, o) in candidates.iter().enumerate() {
            match grid::far_blast(&self.0, &user.g(), blast, *o, range) {
                Ok(area) => return Ok((from_g(*o), set(area))),
                Err(e) if i == 0 => first_err = e,
                Err(_) => {}
            }
        }
        Err(first_err)
    }
}

/// Unwilling movement (§ Unwilling movement): push (each square farther from the source), pull
/// (each closer), shunt (any direction).
pub use grid::ForcedKind;

impl Geo {
    /// The squares a creature in `target` is moved through by `squares` of unwilling movement
    /// from `source`, chosen square by square: farthest from (push) or nearest to (pull) the
    /// source, then the straightest line; it stops early where no square is free (walls, the
    /// map's edge, other creatures in `occupants`).
    // Interpretation: the text lets the mover choose the path (`forced` on the attack, see
    // `chosen_forced_path`); without a choice Fray picks the straightest one, and a shunt
    // moves like a push (away from its source).
    pub fn forced_path(
        &self,
        kind: ForcedKind,
        source: Space,
        target: Space,
        squares: u32,
        occupants: &[Space],
    ) -> Vec<Square> {
        let occ: Vec<grid::Space> = occupants.iter().map(|s| s.g()).collect();
        let kind = match kind {
            ForcedKind::Shunt => ForcedKind::Push,
            k => k,
        };
        let (sx, sy) = (source.at.x, source.at.y);
        let mut at = target;
        let mut path = Vec::new();
        for _ in 0..squares {
            let options = grid::forced_step_options(&self.0, &at.g(), kind, &source.g(), &occ);
            let (dx0, dy0) = (i64::from(at.at.x - sx), i64::from(at.at.y - sy));
            let best = options.into_iter().map(from_g).max_by_key(|s| {
                let next = Space {
                    at: *s,
                    size: at.size,
                };
                let d = i64::from(distance(source, next));
                let (dx, dy) = (i64::from(s.x - at.at.x), i64::from(s.y - at.at.y));
                // Straightness: how little the step turns from the source→target line.
                let off = (dx0 * dy - dy0 * dx).abs();
                let toward = if kind == ForcedKind::Pull { -d } else { d };
                (toward, -off, std::cmp::Reverse(*s))
            });
            let Some(next) = best else { break };
            path.push(next);
            at = Space {
                at: next,
                size: at.size,
            };
        }
        path
    }

    /// § Unwilling movement, the user's choice: `path` (successive north-west squares of the
    /// target's space) checked step by step — at most `squares` steps, each to an adjacent
    /// square, farther from (push; a shunt too, as in [`Geo::forced_path`]) or closer to (pull)
    /// the source, on the map, clear of walls and of the spaces in `occupants`. Returns the
    /// squares that can be taken: all of them, or (`Err`) the first reason a step cannot be.
    pub fn chosen_forced_path(
        &self,
        kind: ForcedKind,
        source: Space,
        target: Space,
        squares: u32,
        path: &[Square],
        occupants: &[Space],
    ) -> Result<Vec<Square>, (Vec<Square>, String)> {
        let kind = match kind {
            ForcedKind::Shunt => ForcedKind::Push,
            k => k,
        };
        let occ: Vec<grid::Space> = occupants.iter().map(|s| s.g()).collect();
        let forced = grid::ForcedMove {
            kind,
            source: source.g(),
            squares,
        };
        let steps: Vec<grid::Square> = path.iter().map(|s| to_g(*s)).collect();
        match grid::forced_move(&self.0, &target.g(), &forced, &steps, &occ) {
            Err(e) => Err((Vec::new(), e.to_string())),
            Ok(out) => {
                let taken =
                    path[..usize::try_from(out.moved).unwrap_or(0).min(path.len())].to_vec();
                match out.stopped {
                    None => Ok(taken),
                    Some(stop) => {
                        let why = match stop.reason {
                            grid::StopReason::OffMap => "off the map",
                            grid::StopReason::Impassable => "a wall",
                            grid::StopReason::Occupied => "another creature's space",
                            grid::StopReason::DiagonalSqueeze => {
                                "a squeeze between two walls' corners"
                            }
                        };
                        let at = from_g(stop.square);
                        Err((taken, format!("step {}: {at} is {why}", stop.step)))
                    }
                }
            }
        }
    }
}

fn set(s: BTreeSet<grid::Square>) -> BTreeSet<Square> {
    s.into_iter().map(from_g).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(x: i32, y: i32) -> Space {
        Space::single(Square::new(x, y))
    }

    fn map(blocking: Vec<Square>) -> MapState {
        MapState {
            width: 10,
            height: 10,
            blocking,
            difficult: vec![],
            transparent: vec![],
            lightly_obscured: vec![],
            heavily_obscured: vec![],
            totally_obscured: vec![],
            water: vec![],
            climbable: vec![],
            climb_dc: 15,
            swim_dc: 10,
            earshot: None,
            dim_light: vec![],
            darkness: vec![],
        }
    }

    #[test]
    fn range_counts_diagonals_as_adjacent_range() {
        // orcus-basic-rules.txt § Range: diagonal squares are adjacent.
        assert_eq!(distance(sp(0, 0), sp(1, 1)), 1);
        assert_eq!(distance(sp(0, 0), sp(3, 1)), 3);
        assert_eq!(distance(sp(0, 0), sp(0, 0)), 0);
        let large = Space {
            at: Square::new(2, 2),
            size: Size::Large,
        };
        assert_eq!(distance(sp(0, 0), large), 2);
        assert_eq!(distance(sp(4, 4), large), 1);
    }

    #[test]
    fn walls_block_line_of_effect_and_glass_only_line_of_effect() {
        // orcus-basic-rules.txt § Targeting, Line of sight / Line of effect.
        let wall = map((0..10).map(|y| Square::new(5, y)).collect());
        let g = Geo::new(&wall).unwrap();
        assert!(!g.line_of_effect(sp(2, 2), sp(8, 2)));
        assert!(!g.line_of_sight(sp(2, 2), sp(8, 2)));
        assert!(g.line_of_effect(sp(1, 2), sp(4, 6)));
        let glass = MapState {
            blocking: vec![],
            transparent: (0..10).map(|y| Square::new(5, y)).collect(),
            ..wall
        };
        let g = Geo::new(&glass).unwrap();
        assert!(!g.line_of_effect(sp(2, 2), sp(8, 2)));
        assert!(g.line_of_sight(sp(2, 2), sp(8, 2)));
        assert!(solid(&glass, Square::new(5, 3)));
    }

    #[test]
    fn a_wall_corner_gives_cover_and_allies_count_as_obstacles_cover() {
        // orcus-basic-rules.txt § Combat statuses, Cover.
        let g = Geo::new(&map(vec![])).unwrap();
        assert_eq!(g.cover(sp(0, 0), sp(5, 0), &[]), 0);
        // A target's ally squarely in the way gives cover.
        assert_eq!(g.cover(sp(0, 0), sp(5, 0), &[sp(4, 0)]), -2);
        // A wall ending level with the target's lower edge: from the attacker's best corner
        // (1, 2) the lines to the target square's lower corners run along the wall's clear
        // side, the two to its upper corners cross the wall: 2 of 4 blocked, cover (−2).
        let g = Geo::new(&map(vec![Square::new(4, 0), Square::new(4, 1)])).unwrap();
        assert_eq!(g.cover(sp(0, 1), sp(5, 1), &[]), -2);
        assert!(g.line_of_effect(sp(0, 1), sp(5, 1)));
        assert_eq!(g.cover(sp(3, 4), sp(5, 1), &[]), -2);
        // A pillar close to the attacker's line past its corner: 3 of the 4 lines from the
        // best corner cross it (three-quarters cover, −5) while a line of effect remains.
        let g = Geo::new(&map(vec![Square::new(2, 2)])).unwrap();
        assert_eq!(g.cover(sp(0, 3), sp(4, 1), &[]), -5);
        assert!(g.line_of_effect(sp(0, 3), sp(4, 1)));
    }

    #[test]
    fn obscured_squares_conceal_against_melee_and_ranged_only_concealment() {
        // orcus-basic-rules.txt § Combat statuses, Concealment.
        let mut m = map(vec![]);
        m.lightly_obscured = vec![Square::new(5, 5)];
        m.heavily_obscured = vec![Square::new(7, 7)];
        m.totally_obscured = vec![Square::new(2, 8)];
        let g = Geo::new(&m).unwrap();
        assert_eq!(
            g.concealment(sp(0, 0), sp(5, 5), AttackKind::Ranged, Vision::Normal),
            -2
        );
        assert_eq!(
            g.concealment(sp(0, 0), sp(5, 5), AttackKind::Far, Vision::Normal),
            0
        );
        assert_eq!(
            g.concealment(sp(0, 0), sp(7, 7), AttackKind::Ranged, Vision::Normal),
            -5
        );
        assert_eq!(
            g.concealment(sp(6, 6), sp(7, 7), AttackKind::Melee, Vision::Normal),
            -2
        );
        assert_eq!(
            g.concealment(sp(2, 7), sp(2, 8), AttackKind::Melee, Vision::Normal),
            -5
        );
        assert_eq!(
            g.concealment(sp(0, 0), sp(1, 1), AttackKind::Melee, Vision::Normal),
            0
        );
    }

    #[test]
    fn flanking_needs_opposite_sides_or_corners_flanking() {
        // orcus-basic-rules.txt § Combat statuses, Flanking.
        let t = sp(5, 5);
        assert!(flanking(t, sp(4, 5), sp(6, 5)));
        assert!(flanking(t, sp(5, 4), sp(5, 6)));
        assert!(flanking(t, sp(4, 4), sp(6, 6)));
        assert!(!flanking(t, sp(4, 5), sp(5, 4)));
        assert!(!flanking(t, sp(4, 4), sp(6, 4)));
        assert!(!flanking(t, sp(3, 5), sp(6, 5)));
    }

    #[test]
    fn bursts_and_blasts_areas_of_effect() {
        // orcus-basic-rules.txt § Areas of effect (burst/blast per Fourth Edition; text gap).
        let g = Geo::new(&map(vec![])).unwrap();
        assert_eq!(g.near_burst(sp(5, 5), 1).unwrap().len(), 8);
        assert_eq!(
            g.far_burst(sp(0, 0), Square::new(5, 5), 1, 10)
                .unwrap()
                .len(),
            9
        );
        assert_eq!(
            g.near_blast(sp(0, 0), Square::new(1, 0), 3).unwrap().len(),
            9
        );
        assert!(g.near_blast(sp(0, 0), Square::new(3, 0), 3).is_err());
        // A far blast 3 whose corner is 6 away: its nearest square (range 6) is in range 6.
        let (o, area) = g.far_blast(sp(0, 0), Square::new(6, 0), 3, 6).unwrap();
        assert_eq!((o, area.len()), (Square::new(6, 0), 9));
        assert!(g.far_blast(sp(0, 0), Square::new(7, 0), 3, 6).is_err());
        // A wall between the user and the burst's centre: no line of effect.
        let wall = map((0..10).map(|y| Square::new(3, y)).collect());
        let g = Geo::new(&wall).unwrap();
        assert_eq!(
            g.far_burst(sp(0, 5), Square::new(6, 5), 1, 10),
            Err(AreaError::NoLineOfEffect)
        );
    }

    fn body(x: i32, y: i32, size: Size, height: i32) -> Body {
        Body {
            space: Space {
                at: Square::new(x, y),
                size,
            },
            height,
        }
    }

    #[test]
    fn distance_counts_the_height_gap_between_cubes_elevation() {
        // orcus-basic-rules.txt § Range; heights: interpretation (Fourth Edition's 3-D reading,
        // a creature as tall as it is wide).
        let m = |x, y, h| body(x, y, Size::Medium, h);
        assert_eq!(distance_3d(m(0, 0, 0), m(1, 0, 0)), 1);
        assert_eq!(distance_3d(m(0, 0, 0), m(1, 0, 2)), 2);
        assert_eq!(distance_3d(m(0, 0, 0), m(5, 0, 2)), 5);
        assert!(adjacent_3d(m(0, 0, 0), m(1, 1, 1)));
        assert!(!adjacent_3d(m(0, 0, 0), m(1, 1, 2)));
        // A Large creature on the ground fills heights 0 and 1: a Medium flier 2 up over the
        // square next to it is adjacent to it, not to a Medium creature beside it.
        let large = body(2, 2, Size::Large, 0);
        assert_eq!(large.heights(), Heights { low: 0, high: 1 });
        assert!(adjacent_3d(large, m(4, 2, 2)));
        assert!(!adjacent_3d(m(5, 2, 0), m(4, 2, 2)));
    }

    #[test]
    fn bursts_and_blasts_are_cubes_areas_of_effect() {
        // orcus-basic-rules.txt § Areas of effect; cube heights: interpretation.
        let ground = Heights { low: 0, high: 0 };
        assert_eq!(burst_heights(ground, 2), Heights { low: 0, high: 2 });
        let aloft = body(0, 0, Size::Medium, 3).heights();
        assert_eq!(burst_heights(aloft, 1), Heights { low: 2, high: 4 });
        assert_eq!(blast_heights(ground, 3), Heights { low: 0, high: 2 });
        assert_eq!(blast_heights(aloft, 3), Heights { low: 1, high: 3 });
        assert_eq!(
            blast_heights(Heights { low: 1, high: 1 }, 3),
            Heights { low: 0, high: 2 }
        );
    }

    #[test]
    fn flanking_counts_height_flanking() {
        // orcus-basic-rules.txt § Combat statuses, Flanking; heights: interpretation.
        let m = |x, y, h| body(x, y, Size::Medium, h);
        // On the ground the rule is the ground rule, for every size.
        let sizes = [Size::Medium, Size::Large, Size::Huge];
        for ts in sizes {
            for sa in sizes {
                for sb in sizes {
                    let t = body(5, 5, ts, 0);
                    for (ax, ay, bx, by) in [(2, 5, 8, 5), (3, 3, 8, 8), (4, 5, 5, 4), (3, 6, 6, 3)]
                    {
                        let (a, b) = (body(ax, ay, sa, 0), body(bx, by, sb, 0));
                        assert_eq!(
                            flanking_3d(t, a, b),
                            flanking(t.space, a.space, b.space),
                            "{ts:?} {sa:?} {sb:?} {ax},{ay} {bx},{by}"
                        );
                    }
                }
            }
        }
        // A flier above the target does not flank with a creature on the ground.
        assert!(!flanking_3d(m(5, 5, 0), m(4, 5, 0), m(6, 5, 1)));
        assert!(!flanking_3d(m(5, 5, 0), m(4, 5, 1), m(6, 5, 1)));
        // One above and one below a flier flank it, straight or across.
        assert!(flanking_3d(m(5, 5, 2), m(5, 4, 3), m(5, 6, 1)));
        assert!(flanking_3d(m(5, 5, 2), m(4, 5, 1), m(6, 5, 3)));
        assert!(!flanking_3d(m(5, 5, 2), m(4, 5, 1), m(4, 5, 3)));
        // Level with a flier, the ground rule.
        assert!(flanking_3d(m(5, 5, 2), m(4, 5, 2), m(6, 5, 2)));
        assert!(!flanking_3d(m(5, 5, 2), m(4, 5, 2), m(6, 5, 4)));
    }

    #[test]
    fn creatures_give_cover_only_at_their_height_cover() {
        // orcus-basic-rules.txt § Combat statuses, Cover; heights: interpretation.
        let m = |x, h| body(x, 0, Size::Medium, h);
        assert!(in_the_way_at_height(m(2, 0), m(0, 0), m(4, 0)));
        assert!(!in_the_way_at_height(m(2, 2), m(0, 0), m(4, 0)));
        assert!(in_the_way_at_height(m(2, 2), m(0, 0), m(4, 3)));
        assert!(in_the_way_at_height(m(2, 2), m(0, 2), m(4, 2)));
        assert!(!in_the_way_at_height(m(2, 0), m(0, 2), m(4, 2)));
    }
}
