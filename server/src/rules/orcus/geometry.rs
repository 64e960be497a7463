//! Grid geometry for Orcus decide code: spaces, range, paths, line of effect, areas, flanking.
//! Distances count squares with diagonals adjacent (§ Range: "count the squares between …
//! plus a square to reach the target").

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
    /// The squares it covers.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let n = self.size.side();
        (0..n).flat_map(move |dy| (0..n).map(move |dx| Square::new(self.at.x + dx, self.at.y + dy)))
    }

    /// Whether it covers `s`.
    pub fn covers(self, s: Square) -> bool {
        let n = self.size.side();
        (self.at.x..self.at.x + n).contains(&s.x) && (self.at.y..self.at.y + n).contains(&s.y)
    }
}

/// Range between two spaces: 0 when they overlap, 1 when adjacent (diagonals included).
pub fn distance(a: Space, b: Space) -> i32 {
    let (an, bn) = (a.size.side(), b.size.side());
    let gap = |a0: i32, an: i32, b0: i32, bn: i32| {
        if b0 >= a0 + an {
            b0 - (a0 + an - 1)
        } else if a0 >= b0 + bn {
            a0 - (b0 + bn - 1)
        } else {
            0
        }
    };
    gap(a.at.x, an, b.at.x, bn).max(gap(a.at.y, an, b.at.y, bn))
}

/// Range from a space to a square.
pub fn distance_to_square(a: Space, s: Square) -> i32 {
    distance(
        a,
        Space {
            at: s,
            size: Size::Medium,
        },
    )
}

/// Whether two spaces are adjacent.
pub fn adjacent(a: Space, b: Space) -> bool {
    distance(a, b) == 1
}

/// Whether a square is on the map.
pub fn on_map(map: &MapState, s: Square) -> bool {
    (0..map.width).contains(&s.x) && (0..map.height).contains(&s.y)
}

/// Whether a square is a wall.
pub fn blocking(map: &MapState, s: Square) -> bool {
    map.blocking.contains(&s)
}

/// Whether a square is difficult terrain.
pub fn difficult(map: &MapState, s: Square) -> bool {
    map.difficult.contains(&s)
}

/// Whether a segment between two points (in half-square units: points are doubled so that
/// square centres are integers) is blocked: some point of it lies only in blocking squares (a
/// point on an edge or corner lies in every square it touches, so a line grazing a wall is not
/// blocked, while one running between two wall squares is).
fn segment_blocked(a: (i32, i32), b: (i32, i32), blocked: &dyn Fn(Square) -> bool) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let steps = (dx.abs().max(dy.abs()) * 8).max(1);
    let unit = 2 * steps; // one square, in sample units
    for i in 1..steps {
        let nx = a.0 * steps + dx * i;
        let ny = a.1 * steps + dy * i;
        let xs: Vec<i32> = if nx.rem_euclid(unit) == 0 {
            vec![nx.div_euclid(unit) - 1, nx.div_euclid(unit)]
        } else {
            vec![nx.div_euclid(unit)]
        };
        let ys: Vec<i32> = if ny.rem_euclid(unit) == 0 {
            vec![ny.div_euclid(unit) - 1, ny.div_euclid(unit)]
        } else {
            vec![ny.div_euclid(unit)]
        };
        if xs
            .iter()
            .all(|x| ys.iter().all(|y| blocked(Square::new(*x, *y))))
        {
            return true;
        }
    }
    false
}

/// § Line of effect: some line from a corner of the user's space to some point of the target's
/// space passes through no wall. Fray checks lines from each corner of the user's space to each
/// corner and the centre of each target square.
pub fn line_of_effect(map: &MapState, from: Space, to: Space) -> bool {
    if distance(from, to) <= 1 {
        return true;
    }
    let n = from.size.side();
    let corners: Vec<(i32, i32)> = [(0, 0), (n, 0), (0, n), (n, n)]
        .iter()
        .map(|(cx, cy)| (2 * (from.at.x + cx), 2 * (from.at.y + cy)))
        .collect();
    for t in to.squares() {
        let points = [
            (2 * t.x + 1, 2 * t.y + 1),
            (2 * t.x, 2 * t.y),
            (2 * t.x + 2, 2 * t.y),
            (2 * t.x, 2 * t.y + 2),
            (2 * t.x + 2, 2 * t.y + 2),
        ];
        for c in &corners {
            for p in &points {
                let wall = |s: Square| blocking(map, s) && !to.covers(s) && !from.covers(s);
                if !segment_blocked(*c, *p, &wall) {
                    return true;
                }
            }
        }
    }
    false
}

/// A near burst N: every square within N of the user's space, except the user's own.
pub fn near_burst(user: Space, n: i32) -> BTreeSet<Square> {
    let side = user.size.side();
    let mut out = BTreeSet::new();
    for y in user.at.y - n..user.at.y + side + n {
        for x in user.at.x - n..user.at.x + side + n {
            let s = Square::new(x, y);
            if !user.covers(s) {
                out.insert(s);
            }
        }
    }
    out
}

/// A far burst N centred on `centre`: every square within N of it.
pub fn far_burst(centre: Square, n: i32) -> BTreeSet<Square> {
    let mut out = BTreeSet::new();
    for y in centre.y - n..=centre.y + n {
        for x in centre.x - n..=centre.x + n {
            out.insert(Square::new(x, y));
        }
    }
    out
}

/// A blast N: the N×N block whose north-west square is `corner`.
pub fn blast(corner: Square, n: i32) -> BTreeSet<Square> {
    let mut out = BTreeSet::new();
    for y in corner.y..corner.y + n {
        for x in corner.x..corner.x + n {
            out.insert(Square::new(x, y));
        }
    }
    out
}

/// § Flanking: two allies adjacent to an enemy on opposite sides or corners of its space.
/// For a space of side n at (x, y), `a` and `b` flank when one lies wholly west and the other
/// wholly east of it (or north/south), or on opposite diagonals.
pub fn flanking(target: Space, a: Space, b: Space) -> bool {
    if !adjacent(target, a) || !adjacent(target, b) {
        return false;
    }
    let n = target.size.side();
    let side = |s: Space| {
        let sn = s.size.side();
        let west = s.at.x + sn <= target.at.x;
        let east = s.at.x >= target.at.x + n;
        let north = s.at.y + sn <= target.at.y;
        let south = s.at.y >= target.at.y + n;
        (west, east, north, south)
    };
    let (aw, ae, an, as_) = side(a);
    let (bw, be, bn, bs) = side(b);
    let opposite_x = (aw && be) || (ae && bw);
    let opposite_y = (an && bs) || (as_ && bn);
    let a_corner = (aw || ae) && (an || as_);
    let b_corner = (bw || be) && (bn || bs);
    if a_corner && b_corner {
        return opposite_x && opposite_y;
    }
    (opposite_x && !(an || as_ || bn || bs)) || (opposite_y && !(aw || ae || bw || be))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(x: i32, y: i32) -> Space {
        Space {
            at: Square::new(x, y),
            size: Size::Medium,
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
    fn walls_block_line_of_effect_line_of_effect() {
        // orcus-basic-rules.txt § Targeting, Line of effect.
        let map = MapState {
            width: 10,
            height: 10,
            blocking: (0..10).map(|y| Square::new(5, y)).collect(),
            difficult: vec![],
        };
        assert!(!line_of_effect(&map, sp(2, 2), sp(8, 2)));
        assert!(line_of_effect(&map, sp(1, 2), sp(4, 6)));
        let open = MapState {
            blocking: vec![Square::new(5, 5)],
            ..map
        };
        assert!(line_of_effect(&open, sp(2, 2), sp(8, 2)));
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
        assert_eq!(near_burst(sp(5, 5), 1).len(), 8);
        assert_eq!(far_burst(Square::new(5, 5), 1).len(), 9);
        assert_eq!(blast(Square::new(0, 0), 3).len(), 9);
    }
}
