//! Openings: SGF main lines played before the engines take over.

use std::fs;
use std::path::{Path, PathBuf};

use super::MatchError;
use kosumi::board::{Color, Game, Move, Vertex};
use kosumi::sgf::{Event, GameRecord};

/// An opening: moves to play before the engines take over.
#[derive(Clone, Debug)]
pub(super) struct Opening {
    pub(super) file: String,
    pub(super) moves: Vec<(Color, Move)>,
}

/// The openings in the SGF files of `dir`, each checked from `start` (the
/// empty board or the handicap stones), at most `limit` moves long.
pub(super) fn load_openings(
    dir: &Path,
    start: &Game,
    limit: Option<usize>,
) -> Result<Vec<Opening>, MatchError> {
    let usage = MatchError::Usage;
    let size = start.board().size();
    let entries = fs::read_dir(dir).map_err(|e| {
        usage(format!(
            "cannot read --openings folder '{}': {e}",
            dir.display()
        ))
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(usage(format!(
            "no .sgf files in --openings folder '{}'",
            dir.display()
        )));
    }
    let mut openings = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let bad = |why: String| usage(format!("opening '{name}': {why}"));
        let bytes = fs::read(&path).map_err(|e| bad(e.to_string()))?;
        let record = GameRecord::from_sgf(&bytes).map_err(|e| bad(e.to_string()))?;
        if record.size != size {
            return Err(bad(format!(
                "board size {} but the match is on {size}",
                record.size
            )));
        }
        if !record.setup_black.is_empty()
            || !record.setup_white.is_empty()
            || record
                .events
                .iter()
                .any(|e| matches!(e, Event::Setup { .. }))
        {
            return Err(bad(
                "setup stones (AB/AW/AE) cannot be sent over GTP; use moves".into(),
            ));
        }
        let mut moves: Vec<(Color, Move)> = record.moves().collect();
        if let Some(n) = limit {
            moves.truncate(n);
        }
        let mut game = start.clone();
        for (i, &(color, mv)) in moves.iter().enumerate() {
            game.play(color, mv).map_err(|e| {
                bad(format!(
                    "move {} ({color} {}) is illegal: {e}",
                    i + 1,
                    Vertex::from_move(mv, size)
                ))
            })?;
        }
        if game.is_over() {
            return Err(bad("the opening ends the game with two passes".into()));
        }
        openings.push(Opening { file: name, moves });
    }
    Ok(openings)
}
