//! Square-grid geometry for the Orcus ruleset (to live at `server/src/rules/orcus/grid.rs`).
//!
//! Everything here is deterministic and integer-only: no floats, no hash-map iteration, every
//! collection handed back is ordered (`BTreeSet`, or a `Vec` with a documented order). Sections
//! of the Orcus basic rules are cited as `Section › Subsection`.
//!
//! # Conventions
//!
//! - `x` grows east, `y` grows south. Square `(x, y)` is the closed unit cell
//!   `[x, x+1] × [y, y+1]`; its corners are lattice points.
//! - A [`Space`] is the `side × side` block of squares whose north-west square is `origin`
//!   (Movement and positioning › Size). Paths for creatures larger than 1×1 are given as the
//!   successive origins of the whole space.
//! - Range ([`distance`]) counts the squares between two spaces plus one, a diagonal step
//!   counting as one square (Targeting › Range). Adjacent spaces are at range 1; overlapping
//!   spaces (only possible when a creature stands in a prone creature's space) are at range 0.
//!
//! # Lines (Targeting › Line of sight, Line of effect; Combat statuses › Cover)
//!
//! A line runs from a corner of a square of the origin space to a point of the target space. It
//! is tested exactly, with rational arithmetic on lattice coordinates:
//!
//! 1. It is blocked if it passes through the *interior* of an obstacle square.
//! 2. Touching only a corner of an obstacle, or running along one of its edges, does **not**
//!    block.
//! 3. Except where the line squeezes between obstacles: running along an edge with obstacles on
//!    both sides, or passing through a grid point where obstacles on its left and right meet
//!    (e.g. the corner-to-corner "gap" of a diagonal wall). A line may go round such a grid
//!    point only on a side whose squares are free.
//! 4. At its ends the line is considered to come from the origin space and to arrive in the
//!    target space, so a line leaving a creature's corner through a diagonal-wall gap is
//!    blocked, while one that merely starts at a corner touching a wall is not.
//!
//! Squares of the origin and target spaces are never obstacles for their own lines, and
//! creatures never block lines of sight or effect (they matter for [`cover`] only). Line of
//! sight and line of effect look for *any* clear line from any corner of any square of the
//! origin space to *any* point of the target space (not just its corners), by an exact angular
//! sweep over the directions that matter. Spaces must lie on the map for line queries.
//!
//! # Interpretations
//!
//! Where the converted rules text lost list items, the D&D 4e definitions are used; each such
//! choice is marked in the code with an `Interpretation (text gap)` comment: area types
//! (bursts and blasts), areas needing line of effect from their origin, cover lines ending at
//! the corners of one target square, the concealment given by each degree of obscurement, and
//! the rules of unwilling movement (push, pull, shunt). Other judgement calls are marked
//! `Interpretation`: Tiny spaces, transparent solids being impassable, the difficult-terrain
//! cost of large creatures, ending on prone enemies, diagonal squeezing, flanking geometry for
//! large creatures, concealment of targets partly in obscured squares, obscured squares not
//! blocking sight, and adjacency for opportunity attacks when sharing a prone creature's space.

use crate::content::model::Vision;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

// ---------------------------------------------------------------------------------------------
// Squares, sizes, spaces
// ---------------------------------------------------------------------------------------------

/// One 5-foot square of the battle grid (Movement and positioning).
///
/// `x` grows east, `y` grows south. Ordering is by `x`, then `y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Square {
    /// The square at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// Range between two squares (Targeting › Range): the squares between them plus one,
    /// a diagonal step counting as one square.
    pub fn distance(self, other: Square) -> u32 {
        let dx = (i64::from(self.x) - i64::from(other.x)).abs();
        let dy = (i64::from(self.y) - i64::from(other.y)).abs();
        clamp_u32(dx.max(dy))
    }

    /// Whether `other` is one of the eight squares around this one (diagonals included).
    pub fn is_adjacent(self, other: Square) -> bool {
        self.distance(other) == 1
    }

    fn offset(self, dx: i64, dy: i64) -> Option<Square> {
        square_at(i64::from(self.x) + dx, i64::from(self.y) + dy)
    }
}

/// A creature's size category (Movement and positioning › Size, Size Categories table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// Tiny (imp, sprite).
    Tiny,
    /// Small (giant rat, goblin).
    Small,
    /// Medium (orc, werewolf).
    Medium,
    /// Large (hippogriff, ogre): 2 × 2 squares.
    Large,
    /// Huge (fire giant, treant): 3 × 3 squares.
    Huge,
    /// Gargantuan (kraken, purple worm): 4 × 4 squares.
    Gargantuan,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 6] = [
        Size::Tiny,
        Size::Small,
        Size::Medium,
        Size::Large,
        Size::Huge,
        Size::Gargantuan,
    ];

    /// Side length, in squares, of the space a creature of this size occupies.
    ///
    /// The table gives Tiny a 0.5 × 0.5 space. This grid has no fractional squares, so a Tiny
    /// creature occupies one whole square *for placement purposes* (position, range, areas,
    /// movement and occupancy); packing several Tiny creatures into one square is left to the
    /// caller.
    // Interpretation: a half-square Tiny space cannot be represented on a square grid, so it is
    // rounded up to one square.
    pub const fn side(self) -> u32 {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }

    /// Default melee reach in squares: 1 for every size (Targeting › Range; the monster powers
    /// section sets the same default). Longer reach comes from the stat block or a reach
    /// weapon.
    pub const fn default_reach(self) -> u32 {
        1
    }
}

/// The block of squares a creature (or any sized footprint) occupies: `side × side` squares
/// whose north-west square is `origin` (Movement and positioning › Size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Space {
    /// North-west (top-left) square of the space.
    pub origin: Square,
    /// Size category, which fixes the side length.
    pub size: Size,
}

impl Space {
    /// A space of `size` whose north-west square is `origin`.
    pub const fn new(origin: Square, size: Size) -> Self {
        Self { origin, size }
    }

    /// A one-square space (used for origin squares of areas and for single squares).
    pub const fn single(square: Square) -> Self {
        Self::new(square, Size::Medium)
    }

    /// Side length in squares.
    pub const fn side(&self) -> u32 {
        self.size.side()
    }

    /// The same footprint moved so that its north-west square is `origin`.
    pub const fn moved_to(&self, origin: Square) -> Self {
        Self::new(origin, self.size)
    }

    /// The squares of the space, row by row from the north-west square. Squares whose
    /// coordinates would overflow `i32` are omitted (such a space is never on a map).
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<> {
        let r = self.rect();
        (r.y0..r.y1).flat_map(move |y| (r.x0..r.x1).filter_map(move |x| square_at(x, y)))
    }

    /// Whether `square` is part of the space.
    pub fn contains(&self, square: Square) -> bool {
        self.rect()
            .contains(i64::from(square.x), i64::from(square.y))
    }

    /// Whether the two spaces share at least one square.
    pub fn intersects(&self, other: &Space) -> bool {
        self.distance_to(other) == 0
    }

    /// Range to another space (Targeting › Range): squares between the closest squares of the
    /// two spaces plus one, diagonals counting as one. 0 when they overlap.
    pub fn distance_to(&self, other: &Space) -> u32 {
        self.rect().distance(&other.rect())
    }

    /// Range from this space to a square.
    pub fn distance_to_square(&self, square: Square) -> u32 {
        self.distance_to(&Space::single(square))
    }

    /// Whether the spaces are adjacent: touching along an edge or at a corner (range 1),
    /// without overlapping.
    pub fn is_adjacent_to(&self, other: &Space) -> bool {
        self.distance_to(other) == 1
    }

    /// Whether `other` is within `reach` squares (Targeting › Range: a melee or touch action
    /// reaches targets at range ≤ reach).
    pub fn within_reach(&self, other: &Space, reach: u32) -> bool {
        self.distance_to(other) <= reach
    }

    fn rect(&self) -> Rect {
        let x0 = i64::from(self.origin.x);
        let y0 = i64::from(self.origin.y);
        let side = i64::from(self.side());
        Rect {
            x0,
            y0,
            x1: x0 + side,
            y1: y0 + side,
        }
    }
}

/// Range between two spaces (Targeting › Range); see [`Space::distance_to`].
pub fn distance(a: &Space, b: &Space) -> u32 {
    a.distance_to(b)
}

/// Where a ranged weapon attack falls relative to the weapon's ranges (Targeting › Range:
/// "Ranged 24/48"; long range costs −2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RangeBand {
    /// Within short range: no penalty.
    Short,
    /// Beyond short range but within long range: −2 to the attack roll.
    Long,
    /// Beyond long range: the attack cannot be made.
    OutOfRange,
}

impl RangeBand {
    /// Attack roll modifier for the band (`None` when out of range).
    pub const fn attack_modifier(self) -> Option<i32> {
        match self {
            RangeBand::Short => Some(0),
            RangeBand::Long => Some(-2),
            RangeBand::OutOfRange => None,
        }
    }
}

/// Classifies a range (from [`distance`]) against a weapon's short and long ranges.
pub fn range_band(range: u32, short: u32, long: u32) -> RangeBand {
    if range <= short {
        RangeBand::Short
    } else if range <= long {
        RangeBand::Long
    } else {
        RangeBand::OutOfRange
    }
}

// ---------------------------------------------------------------------------------------------
// Terrain and map
// ---------------------------------------------------------------------------------------------

/// What solid thing, if any, fills a square (Targeting › Line of sight, Line of effect).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Obstacle {
    /// Nothing solid.
    #[default]
    Clear,
    /// Solid but transparent (a wall of glass or ice): blocks line of effect, not line of
    /// sight, and cannot be entered.
    // Interpretation: the text only says such an obstruction blocks effect but not sight;
    // being solid, it is also treated as impassable.
    Transparent,
    /// Blocking terrain (a wall): blocks line of sight and line of effect and cannot be entered.
    Blocking,
}

/// How hard a square is to see into (Combat statuses › Concealment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Obscurement {
    /// Not obscured.
    #[default]
    None,
    /// Lightly obscured (dim light, light fog, foliage).
    Light,
    /// Heavily obscured (heavy fog or smoke).
    Heavy,
    /// Totally obscured (darkness).
    Total,
}

/// The light in a square (§ Senses: dim light and darkness).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Light {
    /// Bright light (or a map that says nothing of light).
    #[default]
    Bright,
    /// Dim light.
    Dim,
    /// Darkness.
    Dark,
}

impl Light {
    /// How obscured a square in this light is to a creature with `vision` (§ Senses; the
    /// degrees of § Concealment): dim light is lightly obscured to normal vision and clear to
    /// low-light vision and darkvision; darkness is totally obscured to normal and low-light
    /// vision and, seen "as if it were dim light", lightly obscured to darkvision.
    pub const fn obscurement(self, vision: Vision) -> Obscurement {
        match (self, vision) {
            (Light::Bright, _) | (Light::Dim, Vision::LowLight | Vision::Darkvision) => {
                Obscurement::None
            }
            (Light::Dim, Vision::Normal) | (Light::Dark, Vision::Darkvision) => Obscurement::Light,
            (Light::Dark, Vision::Normal | Vision::LowLight) => Obscurement::Total,
        }
    }
}

/// Terrain of one square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Terrain {
    /// Solid obstacle filling the square, if any.
    pub obstacle: Obstacle,
    /// Difficult terrain: entering the square costs 1 extra square of movement
    /// (Movement and positioning › Difficult terrain).
    pub difficult: bool,
    /// How obscured the square is (fog, smoke, foliage: the same for every viewer).
    pub obscured: Obscurement,
    /// Its light (how obscured it is depends on the viewer's vision: [`Light::obscurement`]).
    pub light: Light,
}

impl Terrain {
    /// Open, ordinary ground.
    pub const CLEAR: Terrain = Terrain {
        obstacle: Obstacle::Clear,
        difficult: false,
        obscured: Obscurement::None,
        light: Light::Bright,
    };
    /// A blocking square (wall).
    pub const BLOCKING: Terrain = Terrain {
        obstacle: Obstacle::Blocking,
        ..Terrain::CLEAR
    };
    /// A solid-but-transparent square (glass, ice).
    pub const TRANSPARENT: Terrain = Terrain {
        obstacle: Obstacle::Transparent,
        ..Terrain::CLEAR
    };
    /// Difficult terrain (rubble, undergrowth).
    pub const DIFFICULT: Terrain = Terrain {
        difficult: true,
        ..Terrain::CLEAR
    };

    /// Clear ground obscured to the given degree.
    pub const fn obscured(obscured: Obscurement) -> Terrain {
        Terrain {
            obscured,
            ..Terrain::CLEAR
        }
    }

    /// Whether the square blocks line of sight (only blocking terrain does; obscured squares
    /// give concealment instead).
    // Interpretation: as in 4e, even totally obscured squares do not block line of sight; they
    // give total concealment ([`concealment`]). Effects that do block sight can be modelled as
    // blocking terrain.
    pub const fn blocks_sight(&self) -> bool {
        matches!(self.obstacle, Obstacle::Blocking)
    }

    /// Whether the square blocks line of effect (blocking or solid-but-transparent).
    pub const fn blocks_effect(&self) -> bool {
        !matches!(self.obstacle, Obstacle::Clear)
    }

    /// Whether a creature can enter the square.
    pub const fn is_passable(&self) -> bool {
        matches!(self.obstacle, Obstacle::Clear)
    }
}

/// Errors building or querying a [`Map`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapError {
    /// A side is 0 or larger than [`Map::MAX_SIDE`].
    InvalidDimensions {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// The square is not on the map.
    SquareOffMap(Square),
    /// The space is not entirely on the map.
    SpaceOffMap(Space),
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::InvalidDimensions { width, height } => write!(
                f,
                "invalid map dimensions {width}x{height} (each side must be 1..={})",
                Map::MAX_SIDE
            ),
            MapError::SquareOffMap(s) => write!(f, "square ({}, {}) is off the map", s.x, s.y),
            MapError::SpaceOffMap(s) => write!(
                f,
                "{:?} space at ({}, {}) is not entirely on the map",
                s.size, s.origin.x, s.origin.y
            ),
        }
    }
}

impl std::error::Error for MapError {}

/// A rectangular battle map of `width × height` squares, `(0, 0)` in the north-west corner,
/// with per-square [`Terrain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    width: u32,
    height: u32,
    terrain: Vec<Terrain>,
}

impl Map {
    /// Largest allowed side length. Keeps every coordinate computed here small, so exact
    /// integer arithmetic never overflows.
    pub const MAX_SIDE: u32 = 1024;

    /// An all-clear map.
    pub fn new(width: u32, height: u32) -> Result<Map, MapError> {
        let invalid = MapError::InvalidDimensions { width, height };
        if width == 0 || height == 0 || width > Self::MAX_SIDE || height > Self::MAX_SIDE {
            return Err(invalid);
        }
        let len = usize::try_from(u64::from(width) * u64::from(height)).map_err(|_| invalid)?;
        Ok(Map {
            width,
            height,
            terrain: vec![Terrain::CLEAR; len],
        })
    }

    /// Width in squares.
    pub const fn width(&self) -> u32 {
        self.width
    }

    /// Height in squares.
    pub const fn height(&self) -> u32 {
        self.height
    }

    /// Whether the square is on the map.
    pub fn contains(&self, square: Square) -> bool {
        self.index(i64::from(square.x), i64::from(square.y))
            .is_some()
    }

    /// Whether every square of the space is on the map.
    pub fn contains_space(&self, space: &Space) -> bool {
        let r = space.rect();
        r.x0 >= 0 && r.y0 >= 0 && r.x1 <= i64::from(self.width) && r.y1 <= i64::from(self.height)
    }

    /// Terrain of a square, `None` off the map.
    pub fn terrain(&self, square: Square) -> Option<Terrain> {
        self.at(i64::from(square.x), i64::from(square.y))
    }

    /// Sets the terrain of one square.
    pub fn set_terrain(&mut self, square: Square, terrain: Terrain) -> Result<(), MapError> {
        let i = self
            .index(i64::from(square.x), i64::from(square.y))
            .ok_or(MapError::SquareOffMap(square))?;
        match self.terrain.get_mut(i) {
            Some(slot) => {
                *slot = terrain;
                Ok(())
            }
            None => Err(MapError::SquareOffMap(square)),
        }
    }

    /// Sets the terrain of every square in the rectangle spanned by two corner squares
    /// (inclusive, in any order). Nothing changes unless both corners are on the map.
    pub fn fill(&mut self, a: Square, b: Square, terrain: Terrain) -> Result<(), MapError> {
        for s in [a, b] {
            if !self.contains(s) {
                return Err(MapError::SquareOffMap(s));
            }
        }
        for y in a.y.min(b.y)..=a.y.max(b.y) {
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                self.set_terrain(Square::new(x, y), terrain)?;
            }
        }
        Ok(())
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        if (0..w).contains(&x) && (0..h).contains(&y) {
            usize::try_from(y * w + x).ok()
        } else {
            None
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<Terrain> {
        self.index(x, y).and_then(|i| self.terrain.get(i).copied())
    }

    fn impassable(&self, square: Square) -> bool {
        self.terrain(square).is_some_and(|t| !t.is_passable())
    }

    fn check_space(&self, space: &Space) -> Result<(), MapError> {
        if self.contains_space(space) {
            Ok(())
        } else {
            Err(MapError::SpaceOffMap(*space))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Movement (Movement and positioning › Speed, Occupied spaces, Difficult terrain)
// ---------------------------------------------------------------------------------------------

/// Another creature on the map, as seen by a creature that is moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Occupant {
    /// The squares it occupies.
    pub space: Space,
    /// Whether it is hostile to the mover.
    pub hostile: bool,
    /// Whether it is helpless (a hostile helpless creature can be moved through).
    pub helpless: bool,
    /// Whether it is prone (its space can be the end of a move).
    pub prone: bool,
}

impl Occupant {
    /// A non-hostile creature (moved through freely).
    pub const fn ally(space: Space) -> Self {
        Occupant {
            space,
            hostile: false,
            helpless: false,
            prone: false,
        }
    }

    /// A hostile creature.
    pub const fn enemy(space: Space) -> Self {
        Occupant {
            hostile: true,
            ..Occupant::ally(space)
        }
    }

    /// The same creature, prone.
    pub const fn prone(self) -> Self {
        Occupant {
            prone: true,
            ..self
        }
    }

    /// The same creature, helpless.
    pub const fn helpless(self) -> Self {
        Occupant {
            helpless: true,
            ..self
        }
    }
}

/// Why a path is not a legal move. `step` is the index in the path of the offending step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// A step does not go to one of the eight neighbouring positions (or stays in place).
    NotAdjacent {
        /// Index of the step.
        step: usize,
        /// Origin before the step.
        from: Square,
        /// Requested origin.
        to: Square,
    },
    /// A step would put part of the space off the map.
    OffMap {
        /// Index of the step.
        step: usize,
        /// First square of the space that is off the map.
        square: Square,
    },
    /// A step would put part of the space in blocking or solid terrain.
    Impassable {
        /// Index of the step.
        step: usize,
        /// First impassable square of the space.
        square: Square,
    },
    /// A diagonal step would squeeze between two impassable squares meeting only at a corner.
    DiagonalSqueeze {
        /// Index of the step.
        step: usize,
        /// Origin before the step.
        from: Square,
        /// Requested origin.
        to: Square,
    },
    /// A step would pass through the space of a hostile creature that is not helpless.
    HostileSpace {
        /// Index of the step.
        step: usize,
        /// First square shared with that creature.
        square: Square,
    },
    /// The move would end in another creature's space, and that creature is not prone.
    EndsInOccupiedSpace {
        /// First square shared with that creature.
        square: Square,
    },
    /// The move costs more squares than the creature's speed.
    ExceedsSpeed {
        /// Cost of the path.
        cost: u32,
        /// Speed available.
        speed: u32,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotAdjacent { step, from, to } => write!(
                f,
                "step {step}: ({}, {}) to ({}, {}) is not a move to an adjacent square",
                from.x, from.y, to.x, to.y
            ),
            MoveError::OffMap { step, square } => {
                write!(
                    f,
                    "step {step}: square ({}, {}) is off the map",
                    square.x, square.y
                )
            }
            MoveError::Impassable { step, square } => write!(
                f,
                "step {step}: square ({}, {}) cannot be entered",
                square.x, square.y
            ),
            MoveError::DiagonalSqueeze { step, from, to } => write!(
                f,
                "step {step}: ({}, {}) to ({}, {}) squeezes diagonally between obstacles",
                from.x, from.y, to.x, to.y
            ),
            MoveError::HostileSpace { step, square } => write!(
                f,
                "step {step}: square ({}, {}) is occupied by a hostile creature",
                square.x, square.y
            ),
            MoveError::EndsInOccupiedSpace { square } => write!(
                f,
                "the move cannot end in square ({}, {}): it is occupied by a creature that is not prone",
                square.x, square.y
            ),
            MoveError::ExceedsSpeed { cost, speed } => {
                write!(f, "the move costs {cost} squares but speed is {speed}")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Cost in squares of moving `mover` along `path`, or why the path is illegal.
///
/// `path` lists the successive origins of the mover's space, *excluding* its starting position;
/// an empty path costs 0. `occupants` are the other creatures (not the mover). Rules:
/// - each step goes to one of the eight neighbouring positions (diagonals allowed) and costs 1,
///   plus 1 if any square newly entered by the space is difficult terrain;
/// - the whole space must stay on the map and out of blocking or solid terrain;
/// - a space may pass through non-hostile creatures and helpless hostile ones
///   (Occupied spaces);
/// - the move may not end overlapping a creature unless that creature is prone.
pub fn path_cost(
    map: &Map,
    mover: &Space,
    path: &[Square],
    occupants: &[Occupant],
) -> Result<u32, MoveError> {
    let mut current = *mover;
    let mut cost: u32 = 0;
    for (step, &to) in path.iter().enumerate() {
        let from = current.origin;
        let dx = i64::from(to.x) - i64::from(from.x);
        let dy = i64::from(to.y) - i64::from(from.y);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Err(MoveError::NotAdjacent { step, from, to });
        }
        let next = current.moved_to(to);
        for square in next.squares() {
            match map.terrain(square) {
                None => return Err(MoveError::OffMap { step, square }),
                Some(t) if !t.is_passable() => return Err(MoveError::Impassable { step, square }),
                Some(_) => {}
            }
        }
        if diagonal_squeeze(map, &current, dx, dy) {
            return Err(MoveError::DiagonalSqueeze { step, from, to });
        }
        // Interpretation: Difficult terrain prices each square entered at +1 but does not say
        // how a space larger than 1×1 pays; as in 4e, a step costs +1 when any square newly
        // entered by the space is difficult — once per step, not once per square.
        let entered_difficult = next
            .squares()
            .any(|s| !current.contains(s) && map.terrain(s).is_some_and(|t| t.difficult));
        cost = cost.saturating_add(if entered_difficult { 2 } else { 1 });

        let last = step + 1 == path.len();
        for occupant in occupants {
            let Some(square) = next.squares().find(|s| occupant.space.contains(*s)) else {
                continue;
            };
            if last {
                // Interpretation: Occupied spaces forbids ending a move in any creature's
                // space, friend or foe, unless it is prone — so a prone creature's space is a
                // legal end even when that creature is a non-helpless enemy that could not be
                // moved *through*.
                if !occupant.prone {
                    return Err(MoveError::EndsInOccupiedSpace { square });
                }
            } else if occupant.hostile && !occupant.helpless {
                return Err(MoveError::HostileSpace { step, square });
            }
        }
        current = next;
    }
    Ok(cost)
}

/// [`path_cost`], also checking the cost against the creature's `speed`
/// (Movement and positioning › Speed).
pub fn validate_move(
    map: &Map,
    mover: &Space,
    path: &[Square],
    occupants: &[Occupant],
    speed: u32,
) -> Result<u32, MoveError> {
    let cost = path_cost(map, mover, path, occupants)?;
    if cost > speed {
        return Err(MoveError::ExceedsSpeed { cost, speed });
    }
    Ok(cost)
}

/// Whether a diagonal step of `space` by `(dx, dy)` would pass through the zero-width gap
/// between two impassable squares that meet only at a corner.
// Interpretation: the text is silent on diagonal moves past obstacles. Cutting past a single
// wall corner is allowed (diagonals are adjacent), but slipping through the corner point where
// two impassable squares meet (a diagonal wall) is not, consistently with how lines treat it.
fn diagonal_squeeze(map: &Map, space: &Space, dx: i64, dy: i64) -> bool {
    if dx == 0 || dy == 0 {
        return false;
    }
    space.squares().any(|s| {
        let side_a = s.offset(dx, 0).is_some_and(|a| map.impassable(a));
        let side_b = s.offset(0, dy).is_some_and(|b| map.impassable(b));
        side_a && side_b
    })
}

// ---------------------------------------------------------------------------------------------
// Opportunity attacks
// ---------------------------------------------------------------------------------------------

/// One enemy's chance at an opportunity attack against a mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Provocation<K> {
    /// The enemy that may attack.
    pub enemy: K,
    /// Index in the path of the step that leaves the enemy's adjacency.
    pub step: usize,
    /// Origin of the mover's space when the attack happens: just before it leaves that
    /// position.
    pub from: Square,
}

/// For a move along `path` (as in [`path_cost`]), the first step at which each enemy that was
/// adjacent to the mover stops being adjacent (Opportunity attacks). Ordered by step, then
/// enemy.
///
/// Only geometry is checked: the caller drops enemies that cannot see the mover or cannot make
/// opportunity attacks, and does not call this for steps, teleports or unwilling movement.
/// Reach weapons do not extend this (only adjacent enemies can make opportunity attacks).
// Interpretation: a mover sharing a prone enemy's space (range 0) is treated as adjacent to
// it, so leaving that space to range 2 or more provokes.
pub fn opportunity_provocations<K: Copy + Ord>(
    mover: &Space,
    path: &[Square],
    enemies: &[(K, Space)],
) -> Vec<Provocation<K>> {
    let mut first: BTreeMap<K, Provocation<K>> = BTreeMap::new();
    let mut current = *mover;
    for (step, &to) in path.iter().enumerate() {
        let next = current.moved_to(to);
        for &(enemy, space) in enemies {
            let before = current.distance_to(&space) <= 1;
            let after = next.distance_to(&space) <= 1;
            if before && !after {
                first.entry(enemy).or_insert(Provocation {
                    enemy,
                    step,
                    from: current.origin,
                });
            }
        }
        current = next;
    }
    let mut out: Vec<Provocation<K>> = first.into_values().collect();
    out.sort_by_key(|p| (p.step, p.enemy));
    out
}

// ---------------------------------------------------------------------------------------------
// Targets (Targeting › Targets, Nearest)
// ---------------------------------------------------------------------------------------------

/// The candidates at the shortest range from `from` (Targeting › Nearest). Ties are the
/// attacker's choice, so every tied candidate is returned. Empty when there are no candidates.
pub fn nearest<K: Copy + Ord>(from: &Space, candidates: &[(K, Space)]) -> BTreeSet<K> {
    let Some(best) = candidates.iter().map(|(_, s)| from.distance_to(s)).min() else {
        return BTreeSet::new();
    };
    candidates
        .iter()
        .filter(|(_, s)| from.distance_to(s) == best)
        .map(|(k, _)| *k)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Line of sight, line of effect, cover, concealment
// ---------------------------------------------------------------------------------------------

/// Whether some line from a corner of a square of `from` reaches any part of `to` without
/// passing through blocking terrain (Targeting › Line of sight). See the module docs for how
/// corners and edges are treated. Both spaces must be on the map.
pub fn line_of_sight(map: &Map, from: &Space, to: &Space) -> Result<bool, MapError> {
    has_line(map, Blocks::Sight, None, from, to)
}

/// Whether some line from a corner of a square of `from` reaches any part of `to` without
/// passing through a solid obstacle — blocking or solid-but-transparent terrain
/// (Targeting › Line of effect). Both spaces must be on the map.
pub fn line_of_effect(map: &Map, from: &Space, to: &Space) -> Result<bool, MapError> {
    has_line(map, Blocks::Effect, None, from, to)
}

/// Cover a target has against an attack (Combat statuses › Cover).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cover {
    /// No cover.
    None,
    /// Cover: −2 to attack rolls.
    Partial,
    /// Three-quarters cover: −5 to attack rolls.
    ThreeQuarters,
}

impl Cover {
    /// Attack roll modifier.
    pub const fn attack_modifier(self) -> i32 {
        match self {
            Cover::None => 0,
            Cover::Partial => -2,
            Cover::ThreeQuarters => -5,
        }
    }
}

/// Cover of `target` against an attack from `attacker` (Combat statuses › Cover).
///
/// The attacker picks the corner of its space and the square of the target's space that give
/// the least cover; lines go from that corner to the four corners of that square. Obstacles
/// are terrain that blocks line of effect plus `obstacles` — the squares the caller says block
/// for cover, normally those of the target's allies (or of every creature other than attacker
/// and target). Squares of the attacker and target never count. 1–2 blocked lines give
/// [`Cover::Partial`], 3–4 give [`Cover::ThreeQuarters`]. For near and far areas pass the
/// origin square as a one-square attacker ([`Space::single`]). Whether the attack can be made
/// at all is the separate [`line_of_effect`] question.
// Interpretation (text gap): the Cover sentence lost the words saying where the lines end; as
// in 4e, they go to the four corners of one square of the target's space, the attacker choosing
// the square.
pub fn cover(
    map: &Map,
    attacker: &Space,
    target: &Space,
    obstacles: &BTreeSet<Square>,
) -> Result<Cover, MapError> {
    map.check_space(attacker)?;
    map.check_space(target)?;
    let obs = Obstacles {
        map,
        blocks: Blocks::Effect,
        extra: Some(obstacles),
        from: attacker.rect(),
        to: target.rect(),
    };
    let mut best = 4usize;
    for p in attacker.rect().lattice_points() {
        for sq in target.squares() {
            let (x, y) = (i64::from(sq.x), i64::from(sq.y));
            let corners = [
                Pt::new(x, y),
                Pt::new(x + 1, y),
                Pt::new(x, y + 1),
                Pt::new(x + 1, y + 1),
            ];
            let blocked = corners
                .iter()
                .filter(|c| !lattice_segment_clear(&obs, p, **c))
                .count();
            best = best.min(blocked);
            if best == 0 {
                return Ok(Cover::None);
            }
        }
    }
    Ok(match best {
        0 => Cover::None,
        1 | 2 => Cover::Partial,
        _ => Cover::ThreeQuarters,
    })
}

/// Kind of attack, by origin (Targeting › Origin of effect).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AttackKind {
    /// Melee attack.
    Melee,
    /// Ranged attack.
    Ranged,
    /// Near area attack.
    Near,
    /// Far area attack.
    Far,
}

/// Concealment a target has (Combat statuses › Concealment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Concealment {
    /// No concealment.
    None,
    /// Concealment: −2 to melee and ranged attack rolls.
    Partial,
    /// Total concealment: −5 to melee and ranged attack rolls.
    Total,
}

impl Concealment {
    /// Attack roll modifier.
    pub const fn attack_modifier(self) -> i32 {
        match self {
            Concealment::None => 0,
            Concealment::Partial => -2,
            Concealment::Total => -5,
        }
    }
}

/// Concealment `target` gets from obscured squares against an attack of `kind` from
/// `attacker` (Combat statuses › Concealment). Near and far attacks ignore concealment.
/// Invisibility and other sources of total concealment are the caller's business.
// Interpretation (text gap): the list saying which concealment each degree of obscurement
// gives was lost; per 4e: lightly obscured → concealment; heavily obscured → concealment
// against adjacent attackers, total concealment otherwise; totally obscured → total
// concealment.
// Interpretation: a target spanning squares of different obscurement uses its least obscured
// square (the attacker aims at the part it sees best).
pub fn concealment(
    map: &Map,
    attacker: &Space,
    target: &Space,
    kind: AttackKind,
) -> Result<Concealment, MapError> {
    concealment_seen_by(map, attacker, target, kind, Vision::Normal)
}

/// [`concealment`] for an attacker with `vision`: each square of the target's space is as
/// obscured as the worse of its own obscurement and what its light is to that vision (§
/// Senses).
pub fn concealment_seen_by(
    map: &Map,
    attacker: &Space,
    target: &Space,
    kind: AttackKind,
    vision: Vision,
) -> Result<Concealment, MapError> {
    map.check_space(attacker)?;
    map.check_space(target)?;
    if matches!(kind, AttackKind::Near | AttackKind::Far) {
        return Ok(Concealment::None);
    }
    let least = target
        .squares()
        .filter_map(|s| map.terrain(s))
        .map(|t| t.obscured.max(t.light.obscurement(vision)))
        .min()
        .unwrap_or(Obscurement::None);
    Ok(match least {
        Obscurement::None => Concealment::None,
        Obscurement::Light => Concealment::Partial,
        Obscurement::Heavy if attacker.distance_to(target) <= 1 => Concealment::Partial,
        Obscurement::Heavy | Obscurement::Total => Concealment::Total,
    })
}

// ---------------------------------------------------------------------------------------------
// Areas of effect (Targeting › Areas of effect, Range)
// ---------------------------------------------------------------------------------------------

/// Why an area cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AreaError {
    /// The user's space is not entirely on the map.
    UserOffMap(Space),
    /// The origin square is off the map.
    OriginOffMap(Square),
    /// The origin square is farther than the power's range.
    OutOfRange {
        /// Range from the user to the origin square.
        distance: u32,
        /// The power's range.
        range: u32,
    },
    /// There is no line of effect from the user to the origin square.
    NoLineOfEffect,
    /// A blast of side 0 was requested.
    EmptyBlast,
    /// A near blast must be adjacent to the user's space.
    NotAdjacentToUser,
    /// A near blast may not include squares of the user's space.
    OverlapsUser,
    /// The origin square of a far blast must be one of the blast's squares.
    OriginOutsideBlast,
}

impl fmt::Display for AreaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AreaError::UserOffMap(s) => write!(
                f,
                "user's space at ({}, {}) is not on the map",
                s.origin.x, s.origin.y
            ),
            AreaError::OriginOffMap(s) => {
                write!(f, "origin square ({}, {}) is off the map", s.x, s.y)
            }
            AreaError::OutOfRange { distance, range } => {
                write!(
                    f,
                    "origin square is at range {distance}, beyond range {range}"
                )
            }
            AreaError::NoLineOfEffect => write!(f, "no line of effect to the origin square"),
            AreaError::EmptyBlast => write!(f, "a blast must be at least 1 square"),
            AreaError::NotAdjacentToUser => write!(f, "a near blast must be adjacent to the user"),
            AreaError::OverlapsUser => write!(f, "a near blast cannot include the user's space"),
            AreaError::OriginOutsideBlast => {
                write!(f, "the origin square must be one of the blast's squares")
            }
        }
    }
}

impl std::error::Error for AreaError {}

/// A square blast: `size × size` squares whose north-west square is `top_left`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Blast {
    /// North-west square of the blast.
    pub top_left: Square,
    /// Side length in squares (the N of "blast N").
    pub size: u32,
}

impl Blast {
    fn rect(&self) -> Rect {
        let x0 = i64::from(self.top_left.x);
        let y0 = i64::from(self.top_left.y);
        let n = i64::from(self.size);
        Rect {
            x0,
            y0,
            x1: x0 + n,
            y1: y0 + n,
        }
    }
}

// Interpretation (text gap): the list of area types was lost; per 4e, a burst N covers the
// squares within range N of its centre (square or space); a near burst is centred on the
// user's space and excludes it unless the power says otherwise; a blast N is an N × N square,
// adjacent to the user's space for a near blast, containing an origin square within range for
// a far blast.
// Interpretation (text gap): per 4e, an area affects only squares with line of effect from its
// origin (the user's space for near areas, the origin square for far ones). Squares off the
// map and solid squares (blocking or transparent terrain, where no creature can be) are
// dropped.

/// Squares of a near burst `radius` (Targeting › Areas of effect): every square within
/// `radius` of the user's space that has line of effect from it. The user's own squares are
/// included only if `include_user` (when the power says so).
pub fn near_burst(
    map: &Map,
    user: &Space,
    radius: u32,
    include_user: bool,
) -> Result<BTreeSet<Square>, AreaError> {
    if !map.contains_space(user) {
        return Err(AreaError::UserOffMap(*user));
    }
    let area = user.rect().grown(i64::from(radius));
    let squares = area_squares(map, &area, user)
        .into_iter()
        .filter(|s| include_user || !user.contains(*s))
        .collect();
    Ok(squares)
}

/// Squares of a far burst `radius` within `range` centred on `origin` (Targeting › Areas of
/// effect, Range): the origin square must be within range of the user and in its line of
/// effect; the area is every square within `radius` of it that has line of effect from it.
pub fn far_burst(
    map: &Map,
    user: &Space,
    origin: Square,
    radius: u32,
    range: u32,
) -> Result<BTreeSet<Square>, AreaError> {
    check_far_origin(map, user, origin, range)?;
    let centre = Space::single(origin);
    let area = centre.rect().grown(i64::from(radius));
    Ok(area_squares(map, &area, &centre))
}

/// Squares of a near blast (Targeting › Areas of effect): the blast must touch the user's
/// space (sharing an edge or a corner) without overlapping it; the area is its squares that
/// are on the map and have line of effect from the user's space.
pub fn near_blast(map: &Map, user: &Space, blast: Blast) -> Result<BTreeSet<Square>, AreaError> {
    if !map.contains_space(user) {
        return Err(AreaError::UserOffMap(*user));
    }
    if blast.size == 0 {
        return Err(AreaError::EmptyBlast);
    }
    let rect = blast.rect();
    match user.rect().distance(&rect) {
        0 => Err(AreaError::OverlapsUser),
        1 => Ok(area_squares(map, &rect, user)),
        _ => Err(AreaError::NotAdjacentToUser),
    }
}

/// Squares of a far blast within `range` (Targeting › Areas of effect, Range): `origin` must be
/// one of the blast's squares, within range of the user and in its line of effect; the area is
/// the blast's squares on the map with line of effect from `origin`.
pub fn far_blast(
    map: &Map,
    user: &Space,
    blast: Blast,
    origin: Square,
    range: u32,
) -> Result<BTreeSet<Square>, AreaError> {
    if blast.size == 0 {
        return Err(AreaError::EmptyBlast);
    }
    let rect = blast.rect();
    if !rect.contains(i64::from(origin.x), i64::from(origin.y)) {
        return Err(AreaError::OriginOutsideBlast);
    }
    check_far_origin(map, user, origin, range)?;
    Ok(area_squares(map, &rect, &Space::single(origin)))
}

/// The creatures whose space has at least one square in `area`, each listed once however many
/// of its squares are inside (Targeting › Areas of effect: Large or larger creatures are
/// affected once).
pub fn creatures_in_area<K: Copy + Ord>(
    area: &BTreeSet<Square>,
    creatures: &[(K, Space)],
) -> BTreeSet<K> {
    creatures
        .iter()
        .filter(|(_, space)| space.squares().any(|s| area.contains(&s)))
        .map(|(k, _)| *k)
        .collect()
}

fn check_far_origin(map: &Map, user: &Space, origin: Square, range: u32) -> Result<(), AreaError> {
    if !map.contains_space(user) {
        return Err(AreaError::UserOffMap(*user));
    }
    if !map.contains(origin) {
        return Err(AreaError::OriginOffMap(origin));
    }
    let distance = user.distance_to_square(origin);
    if distance > range {
        return Err(AreaError::OutOfRange { distance, range });
    }
    if !has_line_unchecked(map, Blocks::Effect, None, user, &Space::single(origin)) {
        return Err(AreaError::NoLineOfEffect);
    }
    Ok(())
}

/// Squares of `area` on the map, not solid, with line of effect from `source` (which must be on
/// the map).
fn area_squares(map: &Map, area: &Rect, source: &Space) -> BTreeSet<Square> {
    let x0 = area.x0.max(0);
    let y0 = area.y0.max(0);
    let x1 = area.x1.min(i64::from(map.width()));
    let y1 = area.y1.min(i64::from(map.height()));
    let mut out = BTreeSet::new();
    for y in y0..y1 {
        for x in x0..x1 {
            let Some(square) = square_at(x, y) else {
                continue;
            };
            if map.at(x, y).is_some_and(|t| t.blocks_effect()) {
                continue;
            }
            if has_line_unchecked(map, Blocks::Effect, None, source, &Space::single(square)) {
                out.insert(square);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Flanking (Combat statuses › Flanking)
// ---------------------------------------------------------------------------------------------

/// A creature that might help flank an enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flanker<K> {
    /// Identifier.
    pub id: K,
    /// Its space.
    pub space: Space,
    /// Whether it can attack the enemy (false when helpless or unable to make opportunity
    /// attacks, which keeps it out of flanks).
    pub can_attack: bool,
}

/// Whether creatures in spaces `a` and `b` flank the enemy in `enemy` — geometry only
/// (Combat statuses › Flanking): both must be adjacent to the enemy and on opposite sides or
/// corners of its space.
///
/// For any sizes: draw the segment between the centres of `a` and `b`; they flank when it
/// meets both of a pair of opposite sides of the enemy's space (west and east, or north and
/// south), a corner counting as part of both its sides. For a 1×1 enemy this is exactly
/// opposite edges or opposite corners; for larger enemies allies offset along opposite sides
/// still flank, while a side and a neighbouring side or corner do not.
// Interpretation: 4e's rule for large creatures ("a line between the centres passes through
// opposite sides or opposite corners"); a segment merely grazing along one whole side also
// meets both of the other pair of sides, and so flanks.
pub fn flanks(enemy: &Space, a: &Space, b: &Space) -> bool {
    if !enemy.is_adjacent_to(a) || !enemy.is_adjacent_to(b) {
        return false;
    }
    // Doubled coordinates relative to the enemy's north-west corner: small, exact integers.
    let e = enemy.rect();
    let centre = |s: &Space| {
        let r = s.rect();
        Pt::new(r.x0 + r.x1 - 2 * e.x0, r.y0 + r.y1 - 2 * e.y0)
    };
    let (ca, cb) = (centre(a), centre(b));
    let (w, h) = (2 * (e.x1 - e.x0), 2 * (e.y1 - e.y0));
    let d = Pt::new(cb.x - ca.x, cb.y - ca.y);
    segment_spans_box(&[(ca.x, d.x, w), (ca.y, d.y, h)])
}

/// Whether creatures flank an enemy in three dimensions, geometry only (Fray's elevation model,
/// an interpretation: the text has no altitude rules). Each creature is a box: its space on the
/// ground, from its lowest cube `z` (squares above the ground) up as many cubes as its space is
/// wide. As [`flanks`] with one more axis: the segment between the centres of `a` and `b` meets
/// both of a pair of opposite faces of the enemy's box (west and east, north and south, or
/// bottom and top). Adjacency (counting height) is the caller's to check.
pub fn flanks_3d(enemy: (&Space, i64), a: (&Space, i64), b: (&Space, i64)) -> bool {
    let (es, ez) = enemy;
    let e = es.rect();
    let ep = i64::from(es.side());
    // Doubled coordinates relative to the enemy's lowest north-west corner.
    let centre = |(s, z): (&Space, i64)| {
        let r = s.rect();
        let side = i64::from(s.side());
        (
            r.x0 + r.x1 - 2 * e.x0,
            r.y0 + r.y1 - 2 * e.y0,
            2 * z + side - 2 * ez,
        )
    };
    let (ca, cb) = (centre(a), centre(b));
    segment_spans_box(&[
        (ca.0, cb.0 - ca.0, 2 * ep),
        (ca.1, cb.1 - ca.1, 2 * ep),
        (ca.2, cb.2 - ca.2, 2 * ep),
    ])
}

/// Whether the segment `p + t·dc` (`t` in 0..=1), one `(p, dc, max)` per axis, meets the box
/// `[0, max]` on every axis and, inside it, runs from one face to the opposite one on some axis.
fn segment_spans_box(axes: &[(i64, i64, i64)]) -> bool {
    let mut lo = Ratio::int(0);
    let mut hi = Ratio::int(1);
    for &(p, dc, max) in axes {
        if dc == 0 {
            if p < 0 || p > max {
                return false;
            }
        } else {
            let t0 = Ratio::new(-p, dc);
            let t1 = Ratio::new(max - p, dc);
            lo = lo.max(t0.min(t1));
            hi = hi.min(t0.max(t1));
        }
    }
    if lo > hi {
        return false;
    }
    axes.iter().any(|&(p, dc, max)| {
        let v0 = lo.affine(p, dc);
        let v1 = hi.affine(p, dc);
        v0.min(v1) == Ratio::int(0) && v0.max(v1) == Ratio::int(max)
    })
}

/// Every pair of `allies` flanking the enemy in `enemy`, as `(smaller id, larger id)`. Only
/// allies that can attack count.
pub fn flanking_pairs<K: Copy + Ord>(enemy: &Space, allies: &[Flanker<K>]) -> BTreeSet<(K, K)> {
    let able: Vec<&Flanker<K>> = allies.iter().filter(|f| f.can_attack).collect();
    let mut pairs = BTreeSet::new();
    for (i, a) in able.iter().enumerate() {
        for b in able.iter().skip(i + 1) {
            if a.id != b.id && flanks(enemy, &a.space, &b.space) {
                pairs.insert((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    pairs
}

/// Whether `attacker` flanks the enemy together with at least one of `allies` (the attacker
/// itself may appear in `allies`; it is skipped).
pub fn is_flanking<K: Copy + Ord>(
    enemy: &Space,
    attacker: &Flanker<K>,
    allies: &[Flanker<K>],
) -> bool {
    attacker.can_attack
        && allies.iter().any(|b| {
            b.can_attack && b.id != attacker.id && flanks(enemy, &attacker.space, &b.space)
        })
}

// ---------------------------------------------------------------------------------------------
// Unwilling movement (Movement and positioning › Unwilling movement)
// ---------------------------------------------------------------------------------------------

// Interpretation (text gap): the list of special rules was lost; per 4e forced movement:
// push — each square moves the target farther from the source; pull — each square moves it
// closer; shunt (4e slide) — any direction. The source chooses the path and may stop early;
// difficult terrain does not slow it; it cannot enter blocking/solid terrain, leave the map or
// enter any creature's space (prone or not): such a square stops the movement where it is. It
// never provokes opportunity attacks.

/// Kind of unwilling movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ForcedKind {
    /// Each step must increase the range from the source.
    Push,
    /// Each step must decrease the range from the source.
    Pull,
    /// Steps may go in any direction (4e "slide").
    Shunt,
}

/// An unwilling movement effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ForcedMove {
    /// Push, pull or shunt.
    pub kind: ForcedKind,
    /// Space the movement is measured from (the user, or an area's origin square).
    pub source: Space,
    /// Maximum number of squares.
    pub squares: u32,
}

/// What stopped an unwilling movement early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StopReason {
    /// The next position is partly off the map.
    OffMap,
    /// The next position includes blocking or solid terrain.
    Impassable,
    /// The next position overlaps another creature.
    Occupied,
    /// The step would squeeze diagonally between two impassable squares.
    DiagonalSqueeze,
}

/// Where and why an unwilling movement stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ForcedStop {
    /// Index in the path of the step that could not be taken.
    pub step: usize,
    /// The offending square (for [`StopReason::DiagonalSqueeze`], the requested origin).
    pub square: Square,
    /// Why.
    pub reason: StopReason,
}

/// Result of an unwilling movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ForcedOutcome {
    /// Final space of the moved creature.
    pub end: Space,
    /// Squares actually moved.
    pub moved: u32,
    /// Set when an obstacle stopped the movement before the end of the path.
    pub stopped: Option<ForcedStop>,
}

/// Why a requested unwilling-movement path is not allowed at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForcedMoveError {
    /// The path has more steps than the effect allows.
    TooManySquares {
        /// Steps requested.
        requested: usize,
        /// Squares allowed.
        allowed: u32,
    },
    /// A step does not go to one of the eight neighbouring positions.
    NotAdjacent {
        /// Index of the step.
        step: usize,
        /// Origin before the step.
        from: Square,
        /// Requested origin.
        to: Square,
    },
    /// A push step does not increase the range from the source.
    NotFartherFromSource {
        /// Index of the step.
        step: usize,
        /// Requested origin.
        to: Square,
    },
    /// A pull step does not decrease the range from the source.
    NotCloserToSource {
        /// Index of the step.
        step: usize,
        /// Requested origin.
        to: Square,
    },
}

impl fmt::Display for ForcedMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ForcedMoveError::TooManySquares { requested, allowed } => {
                write!(
                    f,
                    "{requested} squares requested, at most {allowed} allowed"
                )
            }
            ForcedMoveError::NotAdjacent { step, from, to } => write!(
                f,
                "step {step}: ({}, {}) to ({}, {}) is not a move to an adjacent square",
                from.x, from.y, to.x, to.y
            ),
            ForcedMoveError::NotFartherFromSource { step, to } => write!(
                f,
                "step {step}: ({}, {}) is not farther from the source",
                to.x, to.y
            ),
            ForcedMoveError::NotCloserToSource { step, to } => write!(
                f,
                "step {step}: ({}, {}) is not closer to the source",
                to.x, to.y
            ),
        }
    }
}

impl std::error::Error for ForcedMoveError {}

/// Moves `target` unwillingly along `path` (successive origins of its space, excluding the
/// start). Each step must be to a neighbouring position in the direction the kind requires,
/// else the whole request is an error. An obstacle, the map edge or another creature
/// (`occupants`: other creatures' spaces, including the source's if it is a creature) stops
/// the movement before that step; the outcome says where it ended and why.
pub fn forced_move(
    map: &Map,
    target: &Space,
    forced: &ForcedMove,
    path: &[Square],
    occupants: &[Space],
) -> Result<ForcedOutcome, ForcedMoveError> {
    if u64::try_from(path.len()).map_or(true, |n| n > u64::from(forced.squares)) {
        return Err(ForcedMoveError::TooManySquares {
            requested: path.len(),
            allowed: forced.squares,
        });
    }
    let mut current = *target;
    let mut moved = 0u32;
    for (step, &to) in path.iter().enumerate() {
        let from = current.origin;
        let dx = i64::from(to.x) - i64::from(from.x);
        let dy = i64::from(to.y) - i64::from(from.y);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Err(ForcedMoveError::NotAdjacent { step, from, to });
        }
        let next = current.moved_to(to);
        let before = forced.source.distance_to(&current);
        let after = forced.source.distance_to(&next);
        match forced.kind {
            ForcedKind::Push if after <= before => {
                return Err(ForcedMoveError::NotFartherFromSource { step, to });
            }
            ForcedKind::Pull if after >= before => {
                return Err(ForcedMoveError::NotCloserToSource { step, to });
            }
            _ => {}
        }
        if let Some((square, reason)) = forced_obstruction(map, &current, &next, occupants) {
            return Ok(ForcedOutcome {
                end: current,
                moved,
                stopped: Some(ForcedStop {
                    step,
                    square,
                    reason,
                }),
            });
        }
        current = next;
        moved += 1;
    }
    Ok(ForcedOutcome {
        end: current,
        moved,
        stopped: None,
    })
}

/// The origins `target` could be moved to by one step of an unwilling movement of `kind` away
/// from / towards `source`, given the map and the other creatures.
pub fn forced_step_options(
    map: &Map,
    target: &Space,
    kind: ForcedKind,
    source: &Space,
    occupants: &[Space],
) -> BTreeSet<Square> {
    let before = source.distance_to(target);
    let mut out = BTreeSet::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            if dx == 0 && dy == 0 {
                continue;
            }
            let Some(to) = target.origin.offset(dx, dy) else {
                continue;
            };
            let next = target.moved_to(to);
            let after = source.distance_to(&next);
            let direction_ok = match kind {
                ForcedKind::Push => after > before,
                ForcedKind::Pull => after < before,
                ForcedKind::Shunt => true,
            };
            if direction_ok && forced_obstruction(map, target, &next, occupants).is_none() {
                out.insert(to);
            }
        }
    }
    out
}

fn forced_obstruction(
    map: &Map,
    current: &Space,
    next: &Space,
    occupants: &[Space],
) -> Option<(Square, StopReason)> {
    for square in next.squares() {
        match map.terrain(square) {
            None => return Some((square, StopReason::OffMap)),
            Some(t) if !t.is_passable() => return Some((square, StopReason::Impassable)),
            Some(_) => {}
        }
    }
    if !map.contains_space(next) {
        return Some((next.origin, StopReason::OffMap));
    }
    let dx = i64::from(next.origin.x) - i64::from(current.origin.x);
    let dy = i64::from(next.origin.y) - i64::from(current.origin.y);
    if diagonal_squeeze(map, current, dx, dy) {
        return Some((next.origin, StopReason::DiagonalSqueeze));
    }
    for other in occupants {
        if let Some(square) = next.squares().find(|s| other.contains(*s)) {
            return Some((square, StopReason::Occupied));
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Exact line machinery (private)
// ---------------------------------------------------------------------------------------------

fn clamp_u32(v: i64) -> u32 {
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}

fn square_at(x: i64, y: i64) -> Option<Square> {
    Some(Square::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?))
}

/// A block of squares `x0 <= x < x1`, `y0 <= y < y1`; as a region of the plane, the closed
/// rectangle `[x0, x1] × [y0, y1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Rect {
    fn contains(&self, x: i64, y: i64) -> bool {
        self.x0 <= x && x < self.x1 && self.y0 <= y && y < self.y1
    }

    /// Whether the lattice point lies in the closed rectangle.
    fn contains_point(&self, p: Pt) -> bool {
        self.x0 <= p.x && p.x <= self.x1 && self.y0 <= p.y && p.y <= self.y1
    }

    /// Range between two blocks of squares.
    fn distance(&self, other: &Rect) -> u32 {
        let gap = |a0: i64, a1: i64, b0: i64, b1: i64| 0.max(b0 - (a1 - 1)).max(a0 - (b1 - 1));
        let gx = gap(self.x0, self.x1, other.x0, other.x1);
        let gy = gap(self.y0, self.y1, other.y0, other.y1);
        clamp_u32(gx.max(gy))
    }

    /// The squares within range `r` of this block.
    fn grown(&self, r: i64) -> Rect {
        Rect {
            x0: self.x0 - r,
            y0: self.y0 - r,
            x1: self.x1 + r,
            y1: self.y1 + r,
        }
    }

    /// Every corner of every square of the block, row by row.
    fn lattice_points(&self) -> Vec<Pt> {
        (self.y0..=self.y1)
            .flat_map(|y| (self.x0..=self.x1).map(move |x| Pt::new(x, y)))
            .collect()
    }
}

/// A lattice point (square corner) or an integer direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pt {
    x: i64,
    y: i64,
}

impl Pt {
    const fn new(x: i64, y: i64) -> Self {
        Self { x, y }
    }
}

/// An exact rational `n / d` with `d > 0`.
#[derive(Clone, Copy, Debug)]
struct Ratio {
    n: i64,
    d: i64,
}

impl Ratio {
    /// `n / d`; callers never pass `d == 0`.
    fn new(n: i64, d: i64) -> Self {
        if d < 0 {
            Self { n: -n, d: -d }
        } else {
            Self { n, d }
        }
    }

    const fn int(v: i64) -> Self {
        Self { n: v, d: 1 }
    }

    fn floor(self) -> i64 {
        self.n.div_euclid(self.d)
    }

    /// `base + self * step`.
    fn affine(self, base: i64, step: i64) -> Ratio {
        Ratio::new(base * self.d + self.n * step, self.d)
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        (i128::from(self.n) * i128::from(other.d)).cmp(&(i128::from(other.n) * i128::from(self.d)))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blocks {
    Sight,
    Effect,
}

/// Which squares stop a line between two given spaces.
struct Obstacles<'a> {
    map: &'a Map,
    blocks: Blocks,
    extra: Option<&'a BTreeSet<Square>>,
    from: Rect,
    to: Rect,
}

impl Obstacles<'_> {
    fn at(&self, x: i64, y: i64) -> bool {
        if self.from.contains(x, y) || self.to.contains(x, y) {
            return false;
        }
        let terrain = self.map.at(x, y).is_some_and(|t| match self.blocks {
            Blocks::Sight => t.blocks_sight(),
            Blocks::Effect => t.blocks_effect(),
        });
        terrain
            || self
                .extra
                .is_some_and(|e| square_at(x, y).is_some_and(|s| e.contains(&s)))
    }
}

fn has_line(
    map: &Map,
    blocks: Blocks,
    extra: Option<&BTreeSet<Square>>,
    from: &Space,
    to: &Space,
) -> Result<bool, MapError> {
    map.check_space(from)?;
    map.check_space(to)?;
    Ok(has_line_unchecked(map, blocks, extra, from, to))
}

/// [`has_line`] for spaces already known to be on the map.
fn has_line_unchecked(
    map: &Map,
    blocks: Blocks,
    extra: Option<&BTreeSet<Square>>,
    from: &Space,
    to: &Space,
) -> bool {
    let obs = Obstacles {
        map,
        blocks,
        extra,
        from: from.rect(),
        to: to.rect(),
    };
    from.rect()
        .lattice_points()
        .into_iter()
        .any(|p| clear_from_point(&obs, p))
}

/// Whether some clear line goes from lattice point `p` (a corner of `obs.from`) to any point of
/// `obs.to`.
///
/// Candidate lines are parametrised by direction; the first point of the target on each ray is
/// its end. Which obstacle interiors a ray crosses can only change at directions through an
/// obstacle corner or a target corner ("critical" directions), and grid points where lines
/// squeeze between obstacles are obstacle corners too. So testing every critical direction
/// within the target's cone, plus one direction strictly between each consecutive pair, is
/// exact.
fn clear_from_point(obs: &Obstacles<'_>, p: Pt) -> bool {
    let to = obs.to;
    if to.contains_point(p) {
        // The corner is on the target: a zero-length line, clear unless it is pinched.
        return segment_clear(obs, p, Pt::new(1, 0), Ratio::int(0));
    }
    let (bx0, bx1) = (p.x.min(to.x0), p.x.max(to.x1));
    let (by0, by1) = (p.y.min(to.y0), p.y.max(to.y1));
    let mut points: BTreeSet<Pt> = [
        Pt::new(to.x0, to.y0),
        Pt::new(to.x1, to.y0),
        Pt::new(to.x0, to.y1),
        Pt::new(to.x1, to.y1),
    ]
    .into_iter()
    .collect();
    for y in (by0 - 1)..=by1 {
        for x in (bx0 - 1)..=bx1 {
            if !obs.at(x, y) {
                continue;
            }
            for c in [
                Pt::new(x, y),
                Pt::new(x + 1, y),
                Pt::new(x, y + 1),
                Pt::new(x + 1, y + 1),
            ] {
                if (bx0..=bx1).contains(&c.x) && (by0..=by1).contains(&c.y) {
                    points.insert(c);
                }
            }
        }
    }
    let mut dirs: Vec<Pt> = points
        .into_iter()
        .filter(|c| *c != p)
        .map(|c| primitive(c.x - p.x, c.y - p.y))
        .filter(|d| ray_entry(p, *d, &to).is_some())
        .collect();
    // All directions lie in the target's cone, narrower than a half-turn, so "counter-clockwise
    // of" is a total order on them.
    dirs.sort_by(|a, b| 0.cmp(&cross(*a, *b)));
    dirs.dedup();
    let between: Vec<Pt> = dirs
        .windows(2)
        .filter_map(|w| match w {
            [a, b] => Some(primitive(a.x + b.x, a.y + b.y)),
            _ => None,
        })
        .collect();
    dirs.iter()
        .chain(between.iter())
        .any(|d| ray_entry(p, *d, &to).is_some_and(|t| segment_clear(obs, p, *d, t)))
}

/// Whether the segment between two lattice points is clear.
fn lattice_segment_clear(obs: &Obstacles<'_>, p: Pt, q: Pt) -> bool {
    let (vx, vy) = (q.x - p.x, q.y - p.y);
    let g = gcd(vx.abs(), vy.abs());
    if g == 0 {
        segment_clear(obs, p, Pt::new(1, 0), Ratio::int(0))
    } else {
        segment_clear(obs, p, Pt::new(vx / g, vy / g), Ratio::int(g))
    }
}

/// Whether the segment `p + t·d`, `0 <= t <= t_end`, is clear; `d` is primitive (its
/// components are coprime), so the lattice points on the segment are exactly `p + k·d`.
fn segment_clear(obs: &Obstacles<'_>, p: Pt, d: Pt, t_end: Ratio) -> bool {
    // Rule 1: obstacle interiors. A segment along a grid line crosses no interior.
    if d.x != 0 && d.y != 0 {
        let (ax, ay) = (d.x.abs(), d.y.abs());
        let l = ax * ay;
        // Parameter u = t·l: x is an integer exactly when u is a multiple of ay, y when u is a
        // multiple of ax; between such events the segment stays inside one square.
        let u_end = Ratio::new(t_end.n * l, t_end.d);
        let mut u = 0i64;
        while Ratio::int(u) < u_end {
            if obs.at(cell_coord(p.x, u, d.x, l), cell_coord(p.y, u, d.y, l)) {
                return false;
            }
            let next_x = (u / ay + 1) * ay;
            let next_y = (u / ax + 1) * ax;
            u = next_x.min(next_y);
        }
    }
    // Rules 3 and 4: squeezing at grid points and along edges.
    let last = t_end.floor();
    let mut k = 0i64;
    while k <= last {
        let at = Pt::new(p.x + k * d.x, p.y + k * d.y);
        let incoming = if k == 0 {
            Side::Own(obs.from)
        } else {
            Side::Dir(Pt::new(-d.x, -d.y))
        };
        let outgoing = if Ratio::int(k) == t_end {
            Side::Own(obs.to)
        } else {
            Side::Dir(d)
        };
        if !local_clear(obs, at, incoming, outgoing) {
            return false;
        }
        k += 1;
    }
    true
}

/// Square coordinate (along one axis) of the segment just after parameter `u`.
fn cell_coord(p: i64, u: i64, dc: i64, l: i64) -> i64 {
    let num = p * l + u * dc;
    if dc > 0 {
        num.div_euclid(l)
    } else {
        -(-num).div_euclid(l) - 1
    }
}

/// One side of a line at a grid point: the direction it leaves in, or a space it comes from /
/// arrives in.
#[derive(Clone, Copy)]
enum Side {
    Dir(Pt),
    Own(Rect),
}

/// The four squares around grid point `p`, in turning order: NE, NW, SW, SE.
fn quadrants(p: Pt) -> [(i64, i64); 4] {
    [
        (p.x, p.y - 1),
        (p.x - 1, p.y - 1),
        (p.x - 1, p.y),
        (p.x, p.y),
    ]
}

/// Quadrants (bit i = entry i of [`quadrants`]) a direction runs through or along.
fn sector_mask(d: Pt) -> u8 {
    match (d.x.signum(), d.y.signum()) {
        (1, -1) => 0b0001,
        (-1, -1) => 0b0010,
        (-1, 1) => 0b0100,
        (1, 1) => 0b1000,
        (1, 0) => 0b1001,
        (0, -1) => 0b0011,
        (-1, 0) => 0b0110,
        (0, 1) => 0b1100,
        _ => 0,
    }
}

/// Whether a line can pass grid point `p` from `incoming` to `outgoing`: it may turn round `p`
/// only through free quadrants. A diagonal direction needs its quadrant free; a direction along
/// an edge needs one of the two squares beside it free (otherwise it is sandwiched).
fn local_clear(obs: &Obstacles<'_>, p: Pt, incoming: Side, outgoing: Side) -> bool {
    let quads = quadrants(p);
    let mut free = 0u8;
    for (i, (x, y)) in quads.iter().enumerate() {
        if !obs.at(*x, *y) {
            free |= 1 << i;
        }
    }
    let mask = |side: Side| match side {
        Side::Dir(d) => sector_mask(d) & free,
        Side::Own(r) => quads
            .iter()
            .enumerate()
            .filter(|(_, (x, y))| r.contains(*x, *y))
            .fold(0u8, |m, (i, _)| m | (1 << i)),
    };
    let start = mask(incoming);
    let goal = mask(outgoing);
    if start == 0 || goal == 0 {
        return false;
    }
    let mut reach = start;
    loop {
        let turned = ((reach << 1) | (reach >> 3) | (reach >> 1) | (reach << 3)) & 0b1111;
        let grown = reach | (turned & free);
        if grown == reach {
            break;
        }
        reach = grown;
    }
    reach & goal != 0
}

/// First parameter `t >= 0` at which the ray `p + t·d` meets the closed rectangle.
fn ray_entry(p: Pt, d: Pt, r: &Rect) -> Option<Ratio> {
    let mut lo = Ratio::int(0);
    let mut hi: Option<Ratio> = None;
    for (pc, dc, min, max) in [(p.x, d.x, r.x0, r.x1), (p.y, d.y, r.y0, r.y1)] {
        if dc == 0 {
            if pc < min || pc > max {
                return None;
            }
        } else {
            let a = Ratio::new(min - pc, dc);
            let b = Ratio::new(max - pc, dc);
            lo = lo.max(a.min(b));
            hi = Some(hi.map_or(a.max(b), |h| h.min(a.max(b))));
        }
    }
    match hi {
        Some(h) if lo <= h => Some(lo),
        _ => None,
    }
}

fn cross(a: Pt, b: Pt) -> i64 {
    a.x * b.y - a.y * b.x
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn primitive(x: i64, y: i64) -> Pt {
    let g = gcd(x.abs(), y.abs());
    if g == 0 {
        Pt::new(x, y)
    } else {
        Pt::new(x / g, y / g)
    }
}

#[cfg(test)]
// Test names read `<behaviour>__<rules section>`; the double underscore separates the two.
#[allow(non_snake_case, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    // ----- helpers -----

    fn sq(x: i32, y: i32) -> Square {
        Square::new(x, y)
    }

    fn med(x: i32, y: i32) -> Space {
        Space::new(sq(x, y), Size::Medium)
    }

    fn large(x: i32, y: i32) -> Space {
        Space::new(sq(x, y), Size::Large)
    }

    fn open(w: u32, h: u32) -> Map {
        Map::new(w, h).unwrap()
    }

    /// `.` clear, `#` blocking, `g` solid glass, `~` difficult, `l`/`h`/`t` lightly, heavily,
    /// totally obscured.
    fn map_of(rows: &[&str]) -> Map {
        let h = u32::try_from(rows.len()).unwrap();
        let w = u32::try_from(rows[0].len()).unwrap();
        let mut map = Map::new(w, h).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let t = match c {
                    '.' => Terrain::CLEAR,
                    '#' => Terrain::BLOCKING,
                    'g' => Terrain::TRANSPARENT,
                    '~' => Terrain::DIFFICULT,
                    'l' => Terrain::obscured(Obscurement::Light),
                    'h' => Terrain::obscured(Obscurement::Heavy),
                    't' => Terrain::obscured(Obscurement::Total),
                    other => panic!("bad map char {other}"),
                };
                let s = sq(i32::try_from(x).unwrap(), i32::try_from(y).unwrap());
                map.set_terrain(s, t).unwrap();
            }
        }
        map
    }

    fn set(squares: &[(i32, i32)]) -> BTreeSet<Square> {
        squares.iter().map(|&(x, y)| sq(x, y)).collect()
    }

    fn los(map: &Map, a: &Space, b: &Space) -> bool {
        line_of_sight(map, a, b).unwrap()
    }

    fn loe(map: &Map, a: &Space, b: &Space) -> bool {
        line_of_effect(map, a, b).unwrap()
    }

    /// Whether the single segment between lattice points `p` and `q` is clear for sight.
    fn seg(map: &Map, from: &Space, to: &Space, p: (i64, i64), q: (i64, i64)) -> bool {
        let obs = Obstacles {
            map,
            blocks: Blocks::Sight,
            extra: None,
            from: from.rect(),
            to: to.rect(),
        };
        lattice_segment_clear(&obs, Pt::new(p.0, p.1), Pt::new(q.0, q.1))
    }

    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n
        }
    }

    // ----- sizes, spaces, range (Movement and positioning › Size; Targeting › Range) -----

    #[test]
    fn size_sides_follow_table__movement_size() {
        let sides: Vec<u32> = Size::ALL.iter().map(|s| s.side()).collect();
        assert_eq!(sides, vec![1, 1, 1, 2, 3, 4]);
        assert_eq!(large(0, 0).squares().count(), 4);
        assert_eq!(Space::new(sq(0, 0), Size::Gargantuan).squares().count(), 16);
    }

    #[test]
    fn tiny_occupies_one_square_for_placement__movement_size() {
        let tiny = Space::new(sq(3, 3), Size::Tiny);
        assert_eq!(tiny.squares().collect::<Vec<_>>(), vec![sq(3, 3)]);
        assert!(tiny.is_adjacent_to(&med(4, 4)));
    }

    #[test]
    fn default_reach_is_one_for_every_size__targeting_range() {
        assert!(Size::ALL.iter().all(|s| s.default_reach() == 1));
    }

    #[test]
    fn space_squares_listed_row_by_row__movement_size() {
        let got: Vec<Square> = large(5, 7).squares().collect();
        assert_eq!(got, vec![sq(5, 7), sq(6, 7), sq(5, 8), sq(6, 8)]);
        assert!(large(5, 7).contains(sq(6, 8)));
        assert!(!large(5, 7).contains(sq(7, 8)));
    }

    #[test]
    fn range_counts_diagonals_as_adjacent__targeting_range() {
        assert_eq!(distance(&med(0, 0), &med(1, 1)), 1);
        assert_eq!(distance(&med(0, 0), &med(3, 3)), 3);
        assert!(med(0, 0).is_adjacent_to(&med(1, 1)));
        assert!(sq(0, 0).is_adjacent(sq(-1, 1)));
    }

    #[test]
    fn range_counts_squares_between_plus_one__targeting_range() {
        // Two squares between, plus one to reach.
        assert_eq!(distance(&med(0, 0), &med(3, 0)), 3);
        assert_eq!(distance(&med(0, 0), &med(5, 2)), 5);
        assert_eq!(sq(2, 9).distance(sq(-3, 7)), 5);
    }

    #[test]
    fn range_between_large_spaces_uses_closest_squares__targeting_range() {
        // Large at (0,0) spans x 0..=1; Huge at (4,0) spans x 4..=6.
        let huge = Space::new(sq(4, 0), Size::Huge);
        assert_eq!(distance(&large(0, 0), &huge), 3);
        assert_eq!(distance(&large(0, 0), &med(2, 2)), 1);
        assert_eq!(large(0, 0).distance_to_square(sq(-2, 1)), 2);
    }

    #[test]
    fn overlapping_spaces_are_at_range_zero_not_adjacent__targeting_range() {
        assert_eq!(distance(&large(0, 0), &med(1, 1)), 0);
        assert!(large(0, 0).intersects(&med(1, 1)));
        assert!(!large(0, 0).is_adjacent_to(&med(1, 1)));
    }

    #[test]
    fn reach_two_covers_range_two__targeting_range() {
        assert!(med(0, 0).within_reach(&med(2, 1), 2));
        assert!(!med(0, 0).within_reach(&med(3, 1), 2));
        assert!(med(0, 0).within_reach(&med(1, 0), Size::Medium.default_reach()));
    }

    #[test]
    fn long_range_band_costs_two__targeting_range() {
        assert_eq!(range_band(24, 24, 48), RangeBand::Short);
        assert_eq!(range_band(25, 24, 48), RangeBand::Long);
        assert_eq!(range_band(49, 24, 48), RangeBand::OutOfRange);
        assert_eq!(RangeBand::Long.attack_modifier(), Some(-2));
        assert_eq!(RangeBand::OutOfRange.attack_modifier(), None);
    }

    #[test]
    fn distances_far_from_origin_do_not_overflow__targeting_range() {
        let a = Space::new(sq(i32::MIN, i32::MIN), Size::Gargantuan);
        let b = Space::new(sq(i32::MAX, 0), Size::Medium);
        assert_eq!(distance(&a, &b), u32::MAX - 3);
        let edge = Space::new(sq(i32::MAX, i32::MAX), Size::Large);
        assert_eq!(edge.squares().count(), 1);
    }

    // ----- map -----

    #[test]
    fn map_rejects_bad_dimensions__movement_and_positioning() {
        assert_eq!(
            Map::new(0, 5),
            Err(MapError::InvalidDimensions {
                width: 0,
                height: 5
            })
        );
        assert!(Map::new(Map::MAX_SIDE + 1, 1).is_err());
        assert!(Map::new(Map::MAX_SIDE, Map::MAX_SIDE).is_ok());
    }

    #[test]
    fn map_bounds_checks__movement_and_positioning() {
        let mut map = open(4, 3);
        assert!(map.contains(sq(3, 2)));
        assert!(!map.contains(sq(4, 2)));
        assert!(!map.contains(sq(-1, 0)));
        assert_eq!(map.terrain(sq(0, 3)), None);
        assert_eq!(
            map.set_terrain(sq(9, 9), Terrain::BLOCKING),
            Err(MapError::SquareOffMap(sq(9, 9)))
        );
        assert!(map.contains_space(&large(2, 1)));
        assert!(!map.contains_space(&large(3, 1)));
        assert_eq!(
            map.fill(sq(0, 0), sq(4, 0), Terrain::BLOCKING),
            Err(MapError::SquareOffMap(sq(4, 0)))
        );
        map.fill(sq(2, 2), sq(0, 1), Terrain::DIFFICULT).unwrap();
        assert_eq!(map.terrain(sq(1, 1)), Some(Terrain::DIFFICULT));
        assert_eq!(map.terrain(sq(3, 1)), Some(Terrain::CLEAR));
    }

    #[test]
    fn terrain_kinds_block_sight_effect_and_movement__targeting_line_of_effect() {
        assert!(Terrain::BLOCKING.blocks_sight() && Terrain::BLOCKING.blocks_effect());
        assert!(!Terrain::TRANSPARENT.blocks_sight() && Terrain::TRANSPARENT.blocks_effect());
        assert!(!Terrain::BLOCKING.is_passable() && !Terrain::TRANSPARENT.is_passable());
        assert!(Terrain::DIFFICULT.is_passable() && !Terrain::DIFFICULT.blocks_effect());
        let fog = Terrain::obscured(Obscurement::Total);
        assert!(!fog.blocks_sight() && fog.is_passable());
    }

    // ----- nearest (Targeting › Targets, Nearest) -----

    #[test]
    fn nearest_returns_every_tied_candidate__targeting_nearest() {
        let me = med(5, 5);
        let candidates = [
            (1, med(7, 5)),
            (2, med(3, 3)),
            (3, med(8, 8)),
            (4, med(5, 7)),
        ];
        assert_eq!(nearest(&me, &candidates), [1, 2, 4].into_iter().collect());
    }

    #[test]
    fn nearest_measures_to_closest_square_of_large__targeting_nearest() {
        let me = med(0, 0);
        // The ogre's nearest square is at range 2; the goblin is at range 3.
        let candidates = [("goblin", med(3, 0)), ("ogre", large(2, 2))];
        assert_eq!(nearest(&me, &candidates), ["ogre"].into_iter().collect());
    }

    #[test]
    fn nearest_of_no_candidates_is_empty__targeting_nearest() {
        assert!(nearest::<u8>(&med(0, 0), &[]).is_empty());
    }

    // ----- lines (Targeting › Line of sight, Line of effect) -----

    #[test]
    fn open_ground_has_line_of_sight_and_effect__targeting_line_of_sight() {
        let map = open(10, 10);
        assert!(los(&map, &med(0, 0), &med(9, 9)));
        assert!(loe(&map, &med(0, 9), &large(8, 0)));
        assert!(los(&map, &med(4, 4), &med(4, 4)));
    }

    #[test]
    fn wall_blocks_line_of_sight_and_effect__targeting_line_of_sight() {
        let map = map_of(&[".....", "..#..", "..#..", "..#..", "....."]);
        assert!(!los(&map, &med(0, 2), &med(4, 2)));
        assert!(!loe(&map, &med(0, 2), &med(4, 2)));
        // Over the top of the wall there is a line.
        assert!(los(&map, &med(0, 0), &med(4, 1)));
    }

    #[test]
    fn transparent_solid_blocks_effect_not_sight__targeting_line_of_effect() {
        let map = map_of(&[".....", "..g..", "..g..", "..g..", "....."]);
        assert!(los(&map, &med(0, 2), &med(4, 2)));
        assert!(!loe(&map, &med(0, 2), &med(4, 2)));
    }

    #[test]
    fn line_along_wall_faces_in_corridor_is_clear__targeting_line_of_sight() {
        let map = map_of(&["#######", ".......", "#######"]);
        assert!(los(&map, &med(0, 1), &med(6, 1)));
        // The segment running exactly along the wall face is itself clear.
        assert!(seg(&map, &med(0, 1), &med(6, 1), (0, 1), (7, 1)));
    }

    #[test]
    fn segment_touching_one_wall_corner_is_clear__targeting_line_of_sight() {
        // Diagonal through (2,2), the north-west corner of the wall at (2,2).
        let map = map_of(&[".....", ".....", "..#..", ".....", "....."]);
        assert!(seg(&map, &med(0, 3), &med(3, 0), (1, 3), (3, 1)));
        // A slightly steeper line through the wall's interior is blocked.
        assert!(!seg(&map, &med(0, 3), &med(3, 0), (1, 4), (3, 1)));
    }

    #[test]
    fn segment_sandwiched_between_walls_is_blocked__targeting_line_of_sight() {
        // The line y = 2 runs between the walls at (2,1) and (2,2).
        let map = map_of(&[".....", "..#..", "..#..", "....."]);
        assert!(!seg(&map, &med(0, 1), &med(4, 1), (1, 2), (4, 2)));
        // With only one of them it merely grazes.
        let map = map_of(&[".....", "..#..", ".....", "....."]);
        assert!(seg(&map, &med(0, 1), &med(4, 1), (1, 2), (4, 2)));
    }

    #[test]
    fn diagonal_wall_blocks_through_its_corner_gaps__targeting_line_of_sight() {
        let map = map_of(&["....#", "...#.", "..#..", ".#...", "#...."]);
        assert!(!los(&map, &med(0, 0), &med(4, 4)));
        assert!(!los(&map, &med(1, 1), &med(3, 3)));
        assert!(!loe(&map, &med(2, 1), &med(3, 2)));
        // The exact corner-to-corner segment through a gap is blocked.
        assert!(!seg(&map, &med(0, 0), &med(4, 4), (1, 1), (4, 4)));
    }

    #[test]
    fn diagonally_adjacent_across_wall_gap_has_no_line__targeting_line_of_sight() {
        let map = map_of(&[".#", "#."]);
        assert!(!los(&map, &med(0, 0), &med(1, 1)));
        let map = map_of(&[".#", ".."]);
        assert!(los(&map, &med(0, 0), &med(1, 1)));
    }

    #[test]
    fn adjacent_creatures_always_have_line__targeting_line_of_sight() {
        let map = map_of(&["###", "...", "###"]);
        assert!(los(&map, &med(0, 1), &med(1, 1)));
        assert!(loe(&map, &large(0, 0), &med(2, 1)));
    }

    #[test]
    fn line_reaches_any_part_not_only_corners__targeting_line_of_sight() {
        let map = map_of(&[
            "#.....##.",
            ".........",
            "###..#...",
            ".........",
            "...#..#..",
            "....#....",
            "#........",
            "......#..",
            "......#.#",
        ]);
        let (a, b) = (med(8, 1), med(1, 4));
        let obs = Obstacles {
            map: &map,
            blocks: Blocks::Sight,
            extra: None,
            from: a.rect(),
            to: b.rect(),
        };
        // Every corner-to-corner line is blocked...
        for p in a.rect().lattice_points() {
            for q in b.rect().lattice_points() {
                assert!(!lattice_segment_clear(&obs, p, q), "{p:?} -> {q:?}");
            }
        }
        // ...but the line from (9,2) to (2, 13/3), a point on the target's east edge, is clear.
        assert!(segment_clear(
            &obs,
            Pt::new(9, 2),
            Pt::new(-3, 1),
            Ratio::new(7, 3)
        ));
        assert!(los(&map, &a, &b));
    }

    #[test]
    fn large_viewer_uses_corners_of_all_its_squares__targeting_line_of_sight() {
        let map = map_of(&["......", "......", "......", "..#...", "..#...", "......"]);
        // Neither Medium square of the Large creature's space sees the target...
        assert!(!los(&map, &med(0, 2), &med(4, 5)));
        assert!(!los(&map, &med(1, 3), &med(4, 5)));
        // ...but the Large creature does, from the corner (2,2) of its space.
        assert!(los(&map, &large(0, 2), &med(4, 5)));
    }

    #[test]
    fn large_target_seen_through_any_of_its_squares__targeting_line_of_sight() {
        let map = map_of(&["......", "......", "..#...", "..#...", "..#...", "......"]);
        assert!(!los(&map, &med(0, 3), &med(3, 2)));
        assert!(los(&map, &med(0, 3), &large(3, 1)));
    }

    #[test]
    fn lines_need_spaces_on_the_map__targeting_line_of_sight() {
        let map = open(3, 3);
        assert_eq!(
            line_of_sight(&map, &med(0, 0), &large(2, 2)),
            Err(MapError::SpaceOffMap(large(2, 2)))
        );
        assert_eq!(
            line_of_effect(&map, &med(-1, 0), &med(2, 2)),
            Err(MapError::SpaceOffMap(med(-1, 0)))
        );
    }

    /// Brute force over many target points (every point with denominator 12 on the target's
    /// boundary) never finds a clear line the exact sweep misses.
    #[test]
    fn sweep_finds_every_sampled_clear_line__targeting_line_of_effect() {
        let mut rng = Lcg(2024);
        for _ in 0..400 {
            let mut map = open(8, 8);
            for y in 0..8 {
                for x in 0..8 {
                    let t = match rng.below(100) {
                        0..=21 => Terrain::BLOCKING,
                        22..=29 => Terrain::TRANSPARENT,
                        _ => Terrain::CLEAR,
                    };
                    map.set_terrain(sq(x, y), t).unwrap();
                }
            }
            let place = |rng: &mut Lcg| {
                let size = Size::ALL[usize::try_from(rng.below(4)).unwrap() + 2];
                let room = u64::from(9 - size.side());
                let x = i32::try_from(rng.below(room)).unwrap();
                let y = i32::try_from(rng.below(room)).unwrap();
                Space::new(sq(x, y), size)
            };
            let (a, b) = (place(&mut rng), place(&mut rng));
            let obs = Obstacles {
                map: &map,
                blocks: Blocks::Effect,
                extra: None,
                from: a.rect(),
                to: b.rect(),
            };
            let den = 12;
            let to = b.rect();
            let sampled = a.rect().lattice_points().into_iter().any(|p| {
                ((to.y0 * den)..=(to.y1 * den)).any(|qy| {
                    ((to.x0 * den)..=(to.x1 * den)).any(|qx| {
                        let edge = qx == to.x0 * den
                            || qx == to.x1 * den
                            || qy == to.y0 * den
                            || qy == to.y1 * den;
                        let (vx, vy) = (qx - p.x * den, qy - p.y * den);
                        let g = gcd(vx.abs(), vy.abs());
                        edge && if g == 0 {
                            segment_clear(&obs, p, Pt::new(1, 0), Ratio::int(0))
                        } else {
                            segment_clear(&obs, p, Pt::new(vx / g, vy / g), Ratio::new(g, den))
                        }
                    })
                })
            });
            if sampled {
                assert!(loe(&map, &a, &b), "{a:?} -> {b:?}");
            }
        }
    }

    // ----- cover (Combat statuses › Cover) -----

    #[test]
    fn no_cover_in_the_open__combat_statuses_cover() {
        let map = open(8, 8);
        assert_eq!(
            cover(&map, &med(0, 0), &med(6, 3), &BTreeSet::new()),
            Ok(Cover::None)
        );
    }

    #[test]
    fn pillar_between_gives_cover__combat_statuses_cover() {
        // Lines to the near corners graze the pillar's faces; the other two cross it.
        let map = map_of(&["......", "......", "..#...", "......", "......"]);
        let c = cover(&map, &med(0, 2), &med(4, 2), &BTreeSet::new()).unwrap();
        assert_eq!(c, Cover::Partial);
        assert_eq!(c.attack_modifier(), -2);
    }

    #[test]
    fn wall_corner_gives_three_quarters_cover_with_line_of_effect__combat_statuses_cover() {
        let map = map_of(&[".......", ".......", "..#....", ".......", "......."]);
        let (a, t) = (med(0, 3), med(4, 1));
        let c = cover(&map, &a, &t, &BTreeSet::new()).unwrap();
        assert_eq!(c, Cover::ThreeQuarters);
        assert_eq!(c.attack_modifier(), -5);
        assert!(loe(&map, &a, &t));
    }

    #[test]
    fn target_ally_blocks_for_cover_only_when_listed__combat_statuses_cover() {
        let map = open(6, 5);
        let (a, t) = (med(0, 2), med(4, 2));
        let ally_of_target = set(&[(2, 2)]);
        assert_eq!(cover(&map, &a, &t, &ally_of_target), Ok(Cover::Partial));
        assert_eq!(cover(&map, &a, &t, &BTreeSet::new()), Ok(Cover::None));
        // Creatures never block line of effect itself.
        assert!(loe(&map, &a, &t));
    }

    #[test]
    fn cover_only_from_the_far_side_of_an_obstacle__combat_statuses_cover() {
        // The wall is beside the target, not between it and the attacker.
        let map = map_of(&["......", "...#..", "......", "...#..", "......"]);
        assert_eq!(
            cover(&map, &med(0, 2), &med(3, 2), &BTreeSet::new()),
            Ok(Cover::None)
        );
        assert_eq!(
            cover(&map, &med(2, 2), &med(3, 2), &BTreeSet::new()),
            Ok(Cover::None)
        );
    }

    #[test]
    fn large_attacker_picks_its_best_corner__combat_statuses_cover() {
        let map = map_of(&["......", "......", "..#...", "......", "......"]);
        assert_eq!(
            cover(&map, &med(0, 2), &med(4, 2), &BTreeSet::new()),
            Ok(Cover::Partial)
        );
        // A Large attacker also has the corner (2,4) below the pillar.
        assert_eq!(
            cover(&map, &large(0, 3), &med(4, 2), &BTreeSet::new()),
            Ok(Cover::None)
        );
    }

    #[test]
    fn transparent_solid_gives_cover__combat_statuses_cover() {
        let map = map_of(&["......", "......", "..g...", "......", "......"]);
        assert_eq!(
            cover(&map, &med(0, 2), &med(4, 2), &BTreeSet::new()),
            Ok(Cover::Partial)
        );
    }

    // ----- concealment (Combat statuses › Concealment) -----

    #[test]
    fn lightly_obscured_gives_concealment__combat_statuses_concealment() {
        let map = map_of(&["....l"]);
        let c = concealment(&map, &med(0, 0), &med(4, 0), AttackKind::Ranged).unwrap();
        assert_eq!(c, Concealment::Partial);
        assert_eq!(c.attack_modifier(), -2);
    }

    #[test]
    fn heavily_obscured_is_total_unless_adjacent__combat_statuses_concealment() {
        let map = map_of(&["...h"]);
        let far = concealment(&map, &med(0, 0), &med(3, 0), AttackKind::Ranged).unwrap();
        assert_eq!(far, Concealment::Total);
        assert_eq!(far.attack_modifier(), -5);
        let near = concealment(&map, &med(2, 0), &med(3, 0), AttackKind::Melee).unwrap();
        assert_eq!(near, Concealment::Partial);
    }

    #[test]
    fn totally_obscured_gives_total_concealment__combat_statuses_concealment() {
        let map = map_of(&["..t"]);
        let c = concealment(&map, &med(1, 0), &med(2, 0), AttackKind::Melee).unwrap();
        assert_eq!(c, Concealment::Total);
    }

    #[test]
    fn near_and_far_attacks_ignore_concealment__combat_statuses_concealment() {
        let map = map_of(&["..t"]);
        for kind in [AttackKind::Near, AttackKind::Far] {
            assert_eq!(
                concealment(&map, &med(0, 0), &med(2, 0), kind),
                Ok(Concealment::None)
            );
        }
    }

    /// orcus-basic-rules.txt § Senses: what dim light and darkness are to each vision.
    #[test]
    fn light_is_obscured_by_vision__senses() {
        use Obscurement as O;
        for (light, normal, low, dark) in [
            (Light::Bright, O::None, O::None, O::None),
            (Light::Dim, O::Light, O::None, O::None),
            (Light::Dark, O::Total, O::Total, O::Light),
        ] {
            assert_eq!(light.obscurement(Vision::Normal), normal, "{light:?}");
            assert_eq!(light.obscurement(Vision::LowLight), low, "{light:?}");
            assert_eq!(light.obscurement(Vision::Darkvision), dark, "{light:?}");
        }
    }

    #[test]
    fn large_target_uses_least_obscured_square__combat_statuses_concealment() {
        let map = map_of(&["...tt", "...t."]);
        let c = concealment(&map, &med(0, 0), &large(3, 0), AttackKind::Ranged).unwrap();
        assert_eq!(c, Concealment::None);
        let map = map_of(&["...tt", "...tl"]);
        let c = concealment(&map, &med(0, 0), &large(3, 0), AttackKind::Ranged).unwrap();
        assert_eq!(c, Concealment::Partial);
    }

    // ----- areas (Targeting › Areas of effect, Range) -----

    #[test]
    fn near_burst_one_surrounds_user_without_user__targeting_areas_of_effect() {
        let map = open(9, 9);
        let area = near_burst(&map, &med(4, 4), 1, false).unwrap();
        assert_eq!(area.len(), 8);
        assert!(!area.contains(&sq(4, 4)));
        assert!(area.contains(&sq(3, 5)));
        let with_user = near_burst(&map, &med(4, 4), 1, true).unwrap();
        assert_eq!(with_user.len(), 9);
    }

    #[test]
    fn near_burst_centred_on_large_space__targeting_areas_of_effect() {
        let map = open(9, 9);
        let area = near_burst(&map, &large(3, 3), 2, false).unwrap();
        assert_eq!(area.len(), 36 - 4);
        assert!(area.contains(&sq(1, 1)) && area.contains(&sq(6, 6)));
        assert!(!area.contains(&sq(0, 3)));
    }

    #[test]
    fn burst_is_clipped_at_the_map_edge__targeting_areas_of_effect() {
        let map = open(5, 5);
        let area = near_burst(&map, &med(0, 0), 2, false).unwrap();
        assert_eq!(area.len(), 8);
        assert!(area.iter().all(|s| map.contains(*s)));
    }

    #[test]
    fn burst_does_not_reach_behind_walls__targeting_areas_of_effect() {
        let map = map_of(&[".....", ".###.", ".#...", ".#...", "....."]);
        let area = near_burst(&map, &med(2, 2), 2, false).unwrap();
        // Behind the wall's west side and north side.
        assert!(!area.contains(&sq(0, 2)));
        assert!(!area.contains(&sq(2, 0)));
        assert!(area.contains(&sq(4, 4)));
        assert!(area.contains(&sq(0, 4)));
    }

    #[test]
    fn far_burst_origin_within_range__targeting_range() {
        let map = open(20, 20);
        let user = med(0, 0);
        let area = far_burst(&map, &user, sq(10, 5), 1, 10).unwrap();
        assert_eq!(area.len(), 9);
        assert!(area.contains(&sq(11, 6)));
        assert_eq!(
            far_burst(&map, &user, sq(11, 5), 1, 10),
            Err(AreaError::OutOfRange {
                distance: 11,
                range: 10
            })
        );
        assert_eq!(
            far_burst(&map, &user, sq(10, 5), 0, 10).unwrap(),
            set(&[(10, 5)])
        );
        assert_eq!(
            far_burst(&map, &user, sq(25, 5), 1, 30),
            Err(AreaError::OriginOffMap(sq(25, 5)))
        );
    }

    #[test]
    fn far_burst_needs_line_of_effect_to_origin__targeting_line_of_effect() {
        let map = map_of(&["..g..", "..g..", "..g..", "..g..", "..g.."]);
        assert!(los(&map, &med(0, 2), &med(4, 2)));
        assert_eq!(
            far_burst(&map, &med(0, 2), sq(4, 2), 1, 10),
            Err(AreaError::NoLineOfEffect)
        );
        // A burst on the user's side stops at the glass.
        let area = far_burst(&map, &med(0, 2), sq(1, 2), 2, 10).unwrap();
        assert!(area.iter().all(|s| s.x <= 1));
    }

    #[test]
    fn near_blast_must_touch_the_user__targeting_areas_of_effect() {
        let map = open(10, 10);
        let user = med(4, 4);
        let east = near_blast(
            &map,
            &user,
            Blast {
                top_left: sq(5, 3),
                size: 3,
            },
        )
        .unwrap();
        assert_eq!(east.len(), 9);
        assert!(east.contains(&sq(7, 5)));
        let corner = near_blast(
            &map,
            &user,
            Blast {
                top_left: sq(5, 5),
                size: 2,
            },
        )
        .unwrap();
        assert_eq!(corner, set(&[(5, 5), (6, 5), (5, 6), (6, 6)]));
        assert_eq!(
            near_blast(
                &map,
                &user,
                Blast {
                    top_left: sq(4, 3),
                    size: 3
                }
            ),
            Err(AreaError::OverlapsUser)
        );
        assert_eq!(
            near_blast(
                &map,
                &user,
                Blast {
                    top_left: sq(6, 4),
                    size: 3
                }
            ),
            Err(AreaError::NotAdjacentToUser)
        );
        assert_eq!(
            near_blast(
                &map,
                &user,
                Blast {
                    top_left: sq(5, 4),
                    size: 0
                }
            ),
            Err(AreaError::EmptyBlast)
        );
    }

    #[test]
    fn near_blast_from_large_user__targeting_areas_of_effect() {
        let map = open(10, 10);
        let area = near_blast(
            &map,
            &large(2, 2),
            Blast {
                top_left: sq(0, 0),
                size: 2,
            },
        )
        .unwrap();
        assert_eq!(area.len(), 4);
        assert_eq!(
            near_blast(
                &map,
                &large(2, 2),
                Blast {
                    top_left: sq(1, 1),
                    size: 2
                }
            ),
            Err(AreaError::OverlapsUser)
        );
    }

    #[test]
    fn far_blast_origin_in_blast_and_in_range__targeting_areas_of_effect() {
        let map = open(12, 12);
        let user = med(0, 0);
        let blast = Blast {
            top_left: sq(5, 5),
            size: 3,
        };
        assert_eq!(far_blast(&map, &user, blast, sq(5, 5), 5).unwrap().len(), 9);
        assert_eq!(
            far_blast(&map, &user, blast, sq(4, 4), 10),
            Err(AreaError::OriginOutsideBlast)
        );
        assert_eq!(
            far_blast(&map, &user, blast, sq(7, 7), 5),
            Err(AreaError::OutOfRange {
                distance: 7,
                range: 5
            })
        );
        let edge = Blast {
            top_left: sq(10, 10),
            size: 3,
        };
        assert_eq!(
            far_blast(&map, &user, edge, sq(10, 10), 20).unwrap().len(),
            4
        );
    }

    #[test]
    fn large_creature_in_area_affected_once__targeting_areas_of_effect() {
        let map = open(10, 10);
        let area = near_burst(&map, &med(4, 4), 2, false).unwrap();
        let creatures = [
            ("ogre", large(5, 5)),
            ("goblin", med(2, 2)),
            ("far", med(9, 9)),
            ("ogre", large(5, 5)),
        ];
        assert_eq!(
            creatures_in_area(&area, &creatures),
            ["goblin", "ogre"].into_iter().collect()
        );
        // The ogre has all four squares inside, yet appears once.
        assert_eq!(
            large(5, 5).squares().filter(|s| area.contains(s)).count(),
            4
        );
    }

    #[test]
    fn areas_need_the_user_on_the_map__targeting_areas_of_effect() {
        let map = open(5, 5);
        assert_eq!(
            near_burst(&map, &med(5, 0), 1, false),
            Err(AreaError::UserOffMap(med(5, 0)))
        );
        assert_eq!(
            far_burst(&map, &large(4, 4), sq(0, 0), 1, 10),
            Err(AreaError::UserOffMap(large(4, 4)))
        );
    }

    // ----- movement (Movement and positioning › Speed, Occupied spaces, Difficult terrain) -----

    #[test]
    fn straight_and_diagonal_steps_cost_one__movement_speed() {
        let map = open(8, 8);
        let path = [sq(1, 1), sq(2, 2), sq(3, 2), sq(3, 3)];
        assert_eq!(path_cost(&map, &med(0, 0), &path, &[]), Ok(4));
        assert_eq!(path_cost(&map, &med(0, 0), &[], &[]), Ok(0));
    }

    #[test]
    fn difficult_terrain_costs_one_extra__movement_difficult_terrain() {
        let map = map_of(&["..~~.", "....."]);
        let path = [sq(1, 0), sq(2, 0), sq(3, 0), sq(4, 0)];
        assert_eq!(path_cost(&map, &med(0, 0), &path, &[]), Ok(6));
        // Leaving difficult terrain costs nothing extra.
        assert_eq!(path_cost(&map, &med(3, 0), &[sq(4, 1)], &[]), Ok(1));
    }

    #[test]
    fn large_creature_pays_difficult_once_per_step__movement_difficult_terrain() {
        let map = map_of(&["..~.", "..~.", "....", "...."]);
        // Stepping east from (0,0) enters (2,0) and (2,1), both difficult: +1 once.
        assert_eq!(path_cost(&map, &large(0, 0), &[sq(1, 0)], &[]), Ok(2));
        // Stepping south from (1,0) enters (1,2),(2,2): clear, though (2,1) stays under it.
        assert_eq!(path_cost(&map, &large(1, 0), &[sq(1, 1)], &[]), Ok(1));
    }

    #[test]
    fn speed_limits_the_cost__movement_speed() {
        let map = map_of(&[".~~~."]);
        let path = [sq(1, 0), sq(2, 0), sq(3, 0)];
        assert_eq!(validate_move(&map, &med(0, 0), &path, &[], 6), Ok(6));
        assert_eq!(
            validate_move(&map, &med(0, 0), &path, &[], 5),
            Err(MoveError::ExceedsSpeed { cost: 6, speed: 5 })
        );
    }

    #[test]
    fn steps_must_go_to_adjacent_squares__movement_speed() {
        let map = open(8, 8);
        assert_eq!(
            path_cost(&map, &med(0, 0), &[sq(1, 0), sq(3, 0)], &[]),
            Err(MoveError::NotAdjacent {
                step: 1,
                from: sq(1, 0),
                to: sq(3, 0)
            })
        );
        assert_eq!(
            path_cost(&map, &med(0, 0), &[sq(0, 0)], &[]),
            Err(MoveError::NotAdjacent {
                step: 0,
                from: sq(0, 0),
                to: sq(0, 0)
            })
        );
    }

    #[test]
    fn cannot_enter_walls_or_solid_glass__movement_and_positioning() {
        let map = map_of(&[".#.", ".g.", "..."]);
        assert_eq!(
            path_cost(&map, &med(0, 0), &[sq(1, 0)], &[]),
            Err(MoveError::Impassable {
                step: 0,
                square: sq(1, 0)
            })
        );
        assert_eq!(
            path_cost(&map, &med(0, 2), &[sq(1, 2), sq(1, 1)], &[]),
            Err(MoveError::Impassable {
                step: 1,
                square: sq(1, 1)
            })
        );
    }

    #[test]
    fn cannot_leave_the_map__movement_and_positioning() {
        let map = open(3, 3);
        assert_eq!(
            path_cost(&map, &med(0, 0), &[sq(-1, 0)], &[]),
            Err(MoveError::OffMap {
                step: 0,
                square: sq(-1, 0)
            })
        );
        assert_eq!(
            path_cost(&map, &large(0, 0), &[sq(1, 1), sq(2, 1)], &[]),
            Err(MoveError::OffMap {
                step: 1,
                square: sq(3, 1)
            })
        );
    }

    #[test]
    fn whole_large_space_must_be_passable__movement_size() {
        let map = map_of(&["....", "....", "...#", "...."]);
        assert_eq!(
            path_cost(&map, &large(1, 0), &[sq(2, 1)], &[]),
            Err(MoveError::Impassable {
                step: 0,
                square: sq(3, 2)
            })
        );
        assert_eq!(
            path_cost(&map, &large(1, 0), &[sq(1, 1), sq(1, 2)], &[]),
            Ok(2)
        );
    }

    #[test]
    fn diagonal_squeeze_between_wall_corners_is_refused__movement_and_positioning() {
        let map = map_of(&[".#", "#."]);
        assert_eq!(
            path_cost(&map, &med(0, 0), &[sq(1, 1)], &[]),
            Err(MoveError::DiagonalSqueeze {
                step: 0,
                from: sq(0, 0),
                to: sq(1, 1)
            })
        );
        // Cutting past a single corner is fine.
        let map = map_of(&[".#", ".."]);
        assert_eq!(path_cost(&map, &med(0, 0), &[sq(1, 1)], &[]), Ok(1));
    }

    #[test]
    fn may_pass_allies_and_helpless_enemies__movement_occupied_spaces() {
        let map = open(6, 1);
        let path = [sq(1, 0), sq(2, 0), sq(3, 0)];
        let others = [
            Occupant::ally(med(1, 0)),
            Occupant::enemy(med(2, 0)).helpless(),
        ];
        assert_eq!(path_cost(&map, &med(0, 0), &path, &others), Ok(3));
    }

    #[test]
    fn may_not_pass_hostile_creature__movement_occupied_spaces() {
        let map = open(6, 1);
        let path = [sq(1, 0), sq(2, 0), sq(3, 0)];
        // Prone is not helpless: still in the way.
        let others = [Occupant::enemy(med(2, 0)).prone()];
        assert_eq!(
            path_cost(&map, &med(0, 0), &path, &others),
            Err(MoveError::HostileSpace {
                step: 1,
                square: sq(2, 0)
            })
        );
    }

    #[test]
    fn cannot_end_in_a_standing_creatures_space__movement_occupied_spaces() {
        let map = open(6, 1);
        for other in [
            Occupant::ally(med(2, 0)),
            Occupant::enemy(med(2, 0)).helpless(),
        ] {
            assert_eq!(
                path_cost(&map, &med(0, 0), &[sq(1, 0), sq(2, 0)], &[other]),
                Err(MoveError::EndsInOccupiedSpace { square: sq(2, 0) })
            );
        }
    }

    #[test]
    fn may_end_on_a_prone_creature__movement_occupied_spaces() {
        let map = open(6, 1);
        for other in [
            Occupant::ally(med(2, 0)).prone(),
            Occupant::enemy(med(2, 0)).prone(),
        ] {
            assert_eq!(
                path_cost(&map, &med(0, 0), &[sq(1, 0), sq(2, 0)], &[other]),
                Ok(2)
            );
        }
    }

    #[test]
    fn large_mover_ending_over_prone_and_standing_fails__movement_occupied_spaces() {
        let map = open(6, 6);
        let others = [Occupant::ally(med(2, 1)).prone(), Occupant::ally(med(3, 2))];
        assert_eq!(
            path_cost(&map, &large(1, 1), &[sq(2, 1)], &others),
            Err(MoveError::EndsInOccupiedSpace { square: sq(3, 2) })
        );
        assert_eq!(
            path_cost(&map, &large(1, 1), &[sq(2, 0)], &others[..1]),
            Ok(1)
        );
    }

    // ----- opportunity attacks -----

    #[test]
    fn leaving_adjacency_provokes_at_that_step__opportunity_attacks() {
        let enemies = [("orc", med(3, 3))];
        let got = opportunity_provocations(&med(2, 2), &[sq(1, 1), sq(0, 0)], &enemies);
        assert_eq!(
            got,
            vec![Provocation {
                enemy: "orc",
                step: 0,
                from: sq(2, 2)
            }]
        );
    }

    #[test]
    fn moving_around_while_adjacent_does_not_provoke__opportunity_attacks() {
        let enemies = [("orc", med(3, 3))];
        let round = [sq(3, 2), sq(4, 2), sq(4, 3), sq(4, 4)];
        assert!(opportunity_provocations(&med(2, 2), &round, &enemies).is_empty());
        // Leaving afterwards provokes at the step that leaves.
        let round_then_leave = [sq(3, 2), sq(4, 2), sq(5, 2)];
        let got = opportunity_provocations(&med(2, 2), &round_then_leave, &enemies);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].step, got[0].from), (2, sq(4, 2)));
    }

    #[test]
    fn only_first_departure_is_reported__opportunity_attacks() {
        let enemies = [(7u32, med(3, 3))];
        let path = [sq(1, 2), sq(2, 2), sq(1, 2)];
        let got = opportunity_provocations(&med(2, 2), &path, &enemies);
        assert_eq!(
            got,
            vec![Provocation {
                enemy: 7,
                step: 0,
                from: sq(2, 2)
            }]
        );
    }

    #[test]
    fn several_enemies_ordered_by_step__opportunity_attacks() {
        let enemies = [(1u8, med(5, 1)), (2u8, med(3, 1)), (3u8, med(9, 9))];
        let path = [sq(4, 0), sq(5, 0), sq(6, 0), sq(7, 0)];
        let got = opportunity_provocations(&med(3, 0), &path, &enemies);
        let summary: Vec<(u8, usize)> = got.iter().map(|p| (p.enemy, p.step)).collect();
        assert_eq!(summary, vec![(2, 1), (1, 3)]);
    }

    #[test]
    fn large_enemy_threatens_along_its_whole_side__opportunity_attacks() {
        let enemies = [("ogre", large(2, 2))];
        // Sliding along the ogre's west side keeps adjacency; stepping away provokes.
        let path = [sq(1, 2), sq(1, 3), sq(1, 4), sq(0, 5)];
        let got = opportunity_provocations(&med(1, 1), &path, &enemies);
        assert_eq!(
            got,
            vec![Provocation {
                enemy: "ogre",
                step: 3,
                from: sq(1, 4)
            }]
        );
        assert!(opportunity_provocations(&med(0, 0), &[sq(0, 1)], &enemies).is_empty());
    }

    // ----- flanking (Combat statuses › Flanking) -----

    #[test]
    fn opposite_sides_flank__combat_statuses_flanking() {
        let enemy = med(5, 5);
        assert!(flanks(&enemy, &med(5, 4), &med(5, 6)));
        assert!(flanks(&enemy, &med(4, 5), &med(6, 5)));
    }

    #[test]
    fn opposite_corners_flank__combat_statuses_flanking() {
        let enemy = med(5, 5);
        assert!(flanks(&enemy, &med(4, 4), &med(6, 6)));
        assert!(flanks(&enemy, &med(6, 4), &med(4, 6)));
    }

    #[test]
    fn side_and_non_opposite_corner_do_not_flank__combat_statuses_flanking() {
        let enemy = med(5, 5);
        assert!(!flanks(&enemy, &med(4, 4), &med(6, 5)));
        assert!(!flanks(&enemy, &med(5, 4), &med(6, 6)));
        assert!(!flanks(&enemy, &med(4, 5), &med(5, 4)));
    }

    #[test]
    fn flankers_must_be_adjacent__combat_statuses_flanking() {
        let enemy = med(5, 5);
        assert!(!flanks(&enemy, &med(3, 5), &med(6, 5)));
        assert!(!flanks(&enemy, &med(5, 5), &med(6, 5)));
    }

    #[test]
    fn large_enemy_flanked_across_opposite_sides__combat_statuses_flanking() {
        let ogre = large(4, 4); // squares x 4..=5, y 4..=5
        assert!(flanks(&ogre, &med(3, 4), &med(6, 5)));
        assert!(flanks(&ogre, &med(4, 3), &med(5, 6)));
        assert!(flanks(&ogre, &med(3, 3), &med(6, 6)));
        // West side against the south side: adjacent sides, no flank.
        assert!(!flanks(&ogre, &med(3, 4), &med(4, 6)));
        // Corner against a square of the far side off the diagonal: no flank.
        assert!(!flanks(&ogre, &med(3, 3), &med(4, 6)));
    }

    #[test]
    fn large_allies_flank_medium_enemy__combat_statuses_flanking() {
        let enemy = med(5, 5);
        assert!(flanks(&enemy, &large(3, 4), &large(6, 5)));
        assert!(flanks(&enemy, &large(3, 3), &med(6, 6)));
        assert!(!flanks(&enemy, &large(3, 3), &med(6, 5)));
    }

    #[test]
    fn only_allies_able_to_attack_flank__combat_statuses_flanking() {
        let enemy = med(5, 5);
        let allies = [
            Flanker {
                id: 1,
                space: med(4, 5),
                can_attack: true,
            },
            Flanker {
                id: 2,
                space: med(6, 5),
                can_attack: false,
            },
            Flanker {
                id: 3,
                space: med(5, 4),
                can_attack: true,
            },
            Flanker {
                id: 4,
                space: med(5, 6),
                can_attack: true,
            },
        ];
        assert_eq!(
            flanking_pairs(&enemy, &allies),
            [(3, 4)].into_iter().collect()
        );
        assert!(is_flanking(&enemy, &allies[2], &allies));
        assert!(!is_flanking(&enemy, &allies[0], &allies));
        assert!(!is_flanking(&enemy, &allies[1], &allies));
    }

    // ----- unwilling movement (Movement and positioning › Unwilling movement) -----

    fn push(source: Space, squares: u32) -> ForcedMove {
        ForcedMove {
            kind: ForcedKind::Push,
            source,
            squares,
        }
    }

    #[test]
    fn push_steps_must_increase_range__movement_unwilling_movement() {
        let map = open(10, 10);
        let target = med(3, 3);
        let ok = forced_move(
            &map,
            &target,
            &push(med(2, 2), 2),
            &[sq(4, 3), sq(5, 4)],
            &[],
        )
        .unwrap();
        assert_eq!(
            ok,
            ForcedOutcome {
                end: med(5, 4),
                moved: 2,
                stopped: None
            }
        );
        assert_eq!(
            forced_move(
                &map,
                &target,
                &push(med(2, 2), 2),
                &[sq(3, 4), sq(2, 4)],
                &[]
            ),
            Err(ForcedMoveError::NotFartherFromSource {
                step: 1,
                to: sq(2, 4)
            })
        );
    }

    #[test]
    fn pull_steps_must_decrease_range__movement_unwilling_movement() {
        let map = open(10, 10);
        let pull = ForcedMove {
            kind: ForcedKind::Pull,
            source: med(0, 0),
            squares: 3,
        };
        let out = forced_move(&map, &med(4, 4), &pull, &[sq(3, 3), sq(2, 2)], &[]).unwrap();
        assert_eq!(out.end, med(2, 2));
        // Chebyshev range: (2,3) is still at range 3 from (0,0).
        assert_eq!(
            forced_move(&map, &med(4, 4), &pull, &[sq(3, 3), sq(2, 3)], &[]),
            Err(ForcedMoveError::NotCloserToSource {
                step: 1,
                to: sq(2, 3)
            })
        );
        assert_eq!(
            forced_move(&map, &med(4, 4), &pull, &[sq(4, 3)], &[]),
            Err(ForcedMoveError::NotCloserToSource {
                step: 0,
                to: sq(4, 3)
            })
        );
    }

    #[test]
    fn shunt_goes_any_direction__movement_unwilling_movement() {
        let map = open(10, 10);
        let shunt = ForcedMove {
            kind: ForcedKind::Shunt,
            source: med(0, 0),
            squares: 3,
        };
        let out = forced_move(
            &map,
            &med(4, 4),
            &shunt,
            &[sq(3, 3), sq(4, 3), sq(5, 4)],
            &[],
        )
        .unwrap();
        assert_eq!((out.end, out.moved), (med(5, 4), 3));
        assert_eq!(
            forced_move(&map, &med(4, 4), &shunt, &[sq(4, 6)], &[]),
            Err(ForcedMoveError::NotAdjacent {
                step: 0,
                from: sq(4, 4),
                to: sq(4, 6)
            })
        );
    }

    #[test]
    fn wall_stops_a_push__movement_unwilling_movement() {
        let map = map_of(&["......", "....#.", "......"]);
        let out = forced_move(
            &map,
            &med(1, 1),
            &push(med(0, 1), 4),
            &[sq(2, 1), sq(3, 1), sq(4, 1), sq(5, 1)],
            &[],
        )
        .unwrap();
        assert_eq!(out.end, med(3, 1));
        assert_eq!(out.moved, 2);
        assert_eq!(
            out.stopped,
            Some(ForcedStop {
                step: 2,
                square: sq(4, 1),
                reason: StopReason::Impassable
            })
        );
    }

    #[test]
    fn occupied_square_stops_a_pull__movement_unwilling_movement() {
        let map = open(8, 1);
        let pull = ForcedMove {
            kind: ForcedKind::Pull,
            source: med(0, 0),
            squares: 5,
        };
        let others = [med(2, 0)]; // prone or not, any creature stops it
        let out = forced_move(
            &map,
            &med(5, 0),
            &pull,
            &[sq(4, 0), sq(3, 0), sq(2, 0), sq(1, 0)],
            &others,
        )
        .unwrap();
        assert_eq!((out.end, out.moved), (med(3, 0), 2));
        assert_eq!(out.stopped.map(|s| s.reason), Some(StopReason::Occupied));
    }

    #[test]
    fn map_edge_stops_a_push__movement_unwilling_movement() {
        let map = open(4, 4);
        let out = forced_move(
            &map,
            &med(2, 2),
            &push(med(1, 1), 3),
            &[sq(3, 3), sq(4, 4)],
            &[],
        )
        .unwrap();
        assert_eq!(out.end, med(3, 3));
        assert_eq!(
            out.stopped.map(|s| (s.step, s.reason)),
            Some((1, StopReason::OffMap))
        );
    }

    #[test]
    fn forced_movement_limited_to_its_squares__movement_unwilling_movement() {
        let map = open(8, 8);
        assert_eq!(
            forced_move(
                &map,
                &med(1, 1),
                &push(med(0, 0), 1),
                &[sq(2, 2), sq(3, 3)],
                &[]
            ),
            Err(ForcedMoveError::TooManySquares {
                requested: 2,
                allowed: 1
            })
        );
    }

    #[test]
    fn forced_movement_ignores_difficult_terrain__movement_unwilling_movement() {
        let map = map_of(&["..~~~."]);
        let out = forced_move(
            &map,
            &med(1, 0),
            &push(med(0, 0), 3),
            &[sq(2, 0), sq(3, 0), sq(4, 0)],
            &[],
        )
        .unwrap();
        assert_eq!((out.end, out.moved, out.stopped), (med(4, 0), 3, None));
    }

    #[test]
    fn large_target_is_pushed_whole__movement_unwilling_movement() {
        let map = map_of(&["......", "......", "......", ".....#"]);
        let out = forced_move(
            &map,
            &large(1, 1),
            &push(med(0, 1), 3),
            &[sq(2, 1), sq(3, 2), sq(4, 2)],
            &[],
        )
        .unwrap();
        assert_eq!(out.end, large(3, 2));
        assert_eq!(
            out.stopped,
            Some(ForcedStop {
                step: 2,
                square: sq(5, 3),
                reason: StopReason::Impassable
            })
        );
    }

    #[test]
    fn push_options_from_adjacent_source__movement_unwilling_movement() {
        let map = map_of(&[".....", ".....", "....#", "....."]);
        let options =
            forced_step_options(&map, &med(2, 2), ForcedKind::Push, &med(1, 2), &[med(3, 1)]);
        // Range from (1,2) grows only by stepping to column 3; (3,1) is occupied, (3,3) free,
        // (3,2) free.
        assert_eq!(options, set(&[(3, 2), (3, 3)]));
        let pulls = forced_step_options(&map, &med(3, 3), ForcedKind::Pull, &med(0, 0), &[]);
        assert_eq!(pulls, set(&[(2, 2)]));
    }

    // ----- error display -----

    #[test]
    fn errors_explain_themselves__movement_and_positioning() {
        let e = MoveError::EndsInOccupiedSpace { square: sq(2, 3) };
        assert!(e.to_string().contains("(2, 3)"));
        assert!(
            AreaError::NoLineOfEffect
                .to_string()
                .contains("line of effect")
        );
        assert!(
            MapError::SquareOffMap(sq(-1, 0))
                .to_string()
                .contains("off the map")
        );
        let f = ForcedMoveError::TooManySquares {
            requested: 3,
            allowed: 1,
        };
        assert!(f.to_string().contains('3'));
    }
}
