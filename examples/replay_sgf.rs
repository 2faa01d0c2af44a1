//! Replays the main line of an SGF game through the rules core and prints
//! the final board, the prisoners and the position hash.
//!
//! ```text
//! cargo run --example replay_sgf -- gtp-tests/games/kgs-handicap.sgf
//! cargo run --example replay_sgf -- game.sgf --rules chinese
//! ```
//!
//! Rules come from `--rules`, else from the file's `RU` when kosumi knows
//! it, else Japanese. Root setup (`AB`/`AW`) and later setup nodes are
//! applied as setup, not moves. An unreadable file, a bad SGF or an illegal
//! move is reported with its place, and the exit status is 1.

use kosumi::board::{Color, Game, Move, Rules};
use kosumi::sgf::{Event, GameRecord};
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: replay_sgf FILE.sgf [--rules japanese|swedish|chinese|tromp-taylor]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = None;
    let mut rules_arg = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rules" => match it.next() {
                Some(r) => rules_arg = Some(r.clone()),
                None => return usage(),
            },
            "-h" | "--help" => return usage(),
            _ if path.is_none() => path = Some(a.clone()),
            _ => return usage(),
        }
    }
    let Some(path) = path else {
        return usage();
    };
    match replay(&path, rules_arg.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn mv_name(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Play(p) => p.to_gtp(size),
    }
}

fn replay(path: &str, rules_arg: Option<&str>) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let record = GameRecord::from_sgf(&bytes).map_err(|e| format!("bad SGF: {e}"))?;
    let rules = match (rules_arg, record.rules.as_deref()) {
        (Some(r), _) => Rules::parse(r).map_err(|e| e.to_string())?,
        (None, Some(ru)) => Rules::parse(ru).unwrap_or_else(|_| {
            eprintln!("note: rules {ru:?} unknown to kosumi; replaying under Japanese rules");
            Rules::japanese()
        }),
        (None, None) => Rules::japanese(),
    };
    let size = record.size;
    let mut game = Game::new(size, rules);
    if let Some(komi) = record.komi {
        game.set_komi(komi);
    }
    for &p in &record.setup_black {
        game.set_stone(p, Some(Color::Black));
    }
    for &p in &record.setup_white {
        game.set_stone(p, Some(Color::White));
    }
    if record.handicap > 0 && record.setup_white.is_empty() {
        game.set_to_move(Color::White);
    }
    if let Some(c) = record.to_play {
        game.set_to_move(c);
    }
    let mut number = 0;
    for event in &record.events {
        match event {
            Event::Setup { points } => {
                for &(p, stone) in points {
                    game.set_stone(p, stone);
                }
            }
            Event::Move { color, mv, .. } => {
                number += 1;
                game.play(*color, *mv).map_err(|e| {
                    format!(
                        "move {number} ({} {}) is illegal under {} rules: {e}\n{}",
                        color.letter(),
                        mv_name(*mv, size),
                        rules.name(),
                        game.board()
                    )
                })?;
            }
        }
    }
    let board = game.board();
    println!(
        "{size}x{size}, {} rules, komi {}, {number} moves",
        rules.name(),
        game.komi()
    );
    print!("{board}");
    println!(
        "prisoners: taken by Black {}, by White {}",
        board.captures(Color::Black),
        board.captures(Color::White)
    );
    println!("to move: {}", game.to_move());
    println!("position hash: {:016x}", board.position_hash());
    if let Some(result) = &record.result {
        println!("recorded result: {result}");
    }
    Ok(())
}
