//! Old-School Essentials (`ose-adventuring.txt`) § Wilderness Adventuring by terrain, for
//! `ose` sessions' `pass_day` (`wilderness.rs`): Terrain Modifiers, Losing Direction and
//! Wandering Monsters, Chance by Terrain. The `basic-fantasy` ruleset reads the same
//! `Terrain` values by their class (`Terrain::bf_class`, `travel.rs`).

use fray_protocol::bf::Terrain;

/// § Terrain Modifiers: the day's distance × numerator / denominator — broken lands, desert,
/// forest, hills "33% slower" (×⅔); jungle, mountains, swamp "50% slower" (×½); maintained
/// roads "50% faster" (×1½); others (clear, grasslands, settled lands) unchanged.
/// *Interpretation*: `barren` lands are the text's "broken lands".
pub fn speed(t: Terrain) -> (u32, u32) {
    match t {
        Terrain::Barren | Terrain::Desert | Terrain::Forest | Terrain::Hills => (2, 3),
        Terrain::Jungle | Terrain::Mountains | Terrain::Swamp => (1, 2),
        Terrain::Road => (3, 2),
        Terrain::Clear | Terrain::Grasslands | Terrain::Settled => (1, 1),
    }
}

/// § Losing Direction: the chance in six — clear, grasslands 1; barren lands, hills,
/// mountains, woods 2; desert, jungle, swamp 3. *Interpretation*: a `road` and `settled`
/// lands 1, as clear land (the text names neither here).
pub fn lost(t: Terrain) -> u32 {
    match t {
        Terrain::Clear | Terrain::Grasslands | Terrain::Road | Terrain::Settled => 1,
        Terrain::Barren | Terrain::Hills | Terrain::Mountains | Terrain::Forest => 2,
        Terrain::Desert | Terrain::Jungle | Terrain::Swamp => 3,
    }
}

/// § Wandering Monsters, Chance by Terrain: city, clear, grasslands, settled lands 1-in-6;
/// barren, desert, forest, hills 2; jungle, mountains, swamp 3 (aerial 2: `wilderness.rs`).
/// *Interpretation*: a `road` 1, as settled lands.
pub fn wandering(t: Terrain) -> u32 {
    match t {
        Terrain::Clear | Terrain::Grasslands | Terrain::Road | Terrain::Settled => 1,
        Terrain::Barren | Terrain::Desert | Terrain::Forest | Terrain::Hills => 2,
        Terrain::Jungle | Terrain::Mountains | Terrain::Swamp => 3,
    }
}
