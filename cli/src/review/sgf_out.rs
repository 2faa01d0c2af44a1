//! The annotated SGF: the game as its main line, a comment on every move,
//! Sabaki's win-rate property `SBKV` (Black's win rate in percent, which
//! Sabaki draws as a graph), `BM` on mistakes and kosumi's variation beside
//! each mistake.

use super::{move_text, Review};
use kosumi::board::{Color, Move};
use kosumi::sgf::Event;

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn point(mv: Move) -> String {
    match mv {
        Move::Pass => String::new(),
        Move::Play(p) => {
            let c = |v: usize| char::from(b'a' + v as u8);
            format!("{}{}", c(p.x()), c(p.y()))
        }
    }
}

fn lead(score: f64) -> String {
    if score >= 0.0 {
        format!("B+{score:.1}")
    } else {
        format!("W+{:.1}", -score)
    }
}

/// The root comment: how the review was made, the agreement figures and
/// the biggest mistakes.
fn root_comment(r: &Review, top: usize) -> String {
    let mut c = String::new();
    if let Some(old) = &r.record.comment {
        c.push_str(old);
        c.push_str("\n\n");
    }
    c.push_str(&format!(
        "Reviewed by kosumi {} ({}). Each comment gives Black's win rate and the expected score after the move. A mistake, from move {} to move {}, loses at least {:.0} points against kosumi's choice in the same search, by {:.1} standard errors or more; kosumi's move is shown as a variation.\n",
        env!("CARGO_PKG_VERSION"),
        r.effort,
        r.bar.first,
        r.bar.last,
        r.bar.min_points,
        r.bar.confidence
    ));
    for color in [Color::Black, Color::White] {
        let (a, n) = r.agreement(color);
        let name = color.name();
        c.push_str(&format!(
            "{name}: kosumi's first choice played {a} of {n} moves; {} mistakes.\n",
            r.moves
                .iter()
                .filter(|m| m.color == color && m.mistake)
                .count()
        ));
    }
    let mut worst: Vec<_> = r.moves.iter().filter(|m| m.mistake).collect();
    worst.sort_by(|a, b| b.score_loss.total_cmp(&a.score_loss));
    if !worst.is_empty() {
        c.push_str("\nBiggest mistakes:\n");
    }
    for m in worst.iter().take(top) {
        let better = m.best.as_ref().map_or(String::new(), |b| {
            format!(", better {}", move_text(m.color, b.0, r.size))
        });
        c.push_str(&format!(
            "Move {} ({}): -{:.1} points, -{:.1}% win rate{}\n",
            m.number,
            move_text(m.color, m.mv, r.size),
            m.score_loss,
            m.loss * 100.0,
            better
        ));
    }
    c
}

/// The SGF text of the review.
pub fn write(r: &Review, top: usize) -> String {
    let mut head = r.record.clone();
    head.events.clear();
    head.comment = Some(root_comment(r, top));
    let root = head.to_sgf();
    let mut out = root
        .trim_end()
        .strip_suffix(')')
        .unwrap_or(&root)
        .to_string();
    out.push_str(&format!("SBKV[{:.2}]", r.black[0].0 * 100.0));
    // Variations still to write, innermost last: each closes the branch
    // holding the rest of the main line.
    let mut pending: Vec<String> = Vec::new();
    let mut number = 0;
    for event in &r.record.events {
        match event {
            Event::Setup { points } => {
                out.push(';');
                for (ident, colour) in [
                    ("AB", Some(Color::Black)),
                    ("AW", Some(Color::White)),
                    ("AE", None),
                ] {
                    let pts: Vec<String> = points
                        .iter()
                        .filter(|(_, c)| *c == colour)
                        .map(|(p, _)| format!("[{}]", point(Move::Play(*p))))
                        .collect();
                    if !pts.is_empty() {
                        out.push_str(ident);
                        out.push_str(&pts.concat());
                    }
                }
            }
            Event::Move { color, mv, comment } => {
                let m = &r.moves[number];
                number += 1;
                if m.mistake {
                    if let Some(v) = variation(r, m.color, m.best.as_ref()) {
                        out.push('(');
                        pending.push(v);
                    }
                }
                out.push_str(&format!("\n;{}[{}]", color.letter(), point(*mv)));
                let mut text = comment.clone().map_or(String::new(), |c| c + "\n\n");
                text.push_str(&move_comment(r, m));
                out.push_str(&format!(
                    "C[{}]SBKV[{:.2}]",
                    escape(&text),
                    m.after.0 * 100.0
                ));
                if m.mistake {
                    // SGF's "very bad": ten points or more.
                    let bad = if m.score_loss >= 10.0 { 2 } else { 1 };
                    out.push_str(&format!("BM[{bad}]"));
                }
            }
        }
    }
    while let Some(v) = pending.pop() {
        out.push_str(")\n(");
        out.push_str(&v);
        out.push(')');
    }
    out.push_str(")\n");
    out
}

fn move_comment(r: &Review, m: &super::MoveReview) -> String {
    let mut c = format!(
        "Move {}: {}\nBlack's win rate {:.1}% (was {:.1}%), score {} (was {})",
        m.number,
        move_text(m.color, m.mv, r.size),
        m.after.0 * 100.0,
        m.before.0 * 100.0,
        lead(m.after.1),
        lead(m.before.1)
    );
    match &m.best {
        Some(b) if b.0 == m.mv => c.push_str("\nkosumi's first choice too."),
        Some(b) => {
            c.push_str(&format!(
                "\nkosumi prefers {} (Black {:.1}%, {}).",
                move_text(m.color, b.0, r.size),
                b.2 * 100.0,
                lead(b.3)
            ));
            if m.mistake {
                c.push_str(&format!(
                    "\nMistake: {} lost {:.1} points ({:.1} standard errors) and {:.1}% win rate; see the variation.",
                    m.color.name(),
                    m.score_loss,
                    m.confidence,
                    m.loss * 100.0
                ));
            }
        }
        None => {}
    }
    c
}

/// kosumi's move and its principal variation as a branch of nodes.
fn variation(
    r: &Review,
    color: Color,
    best: Option<&(Move, Vec<Move>, f64, f64)>,
) -> Option<String> {
    let (_, pv, w, s) = best?;
    let mut out = String::new();
    let mut c = color;
    for (i, &mv) in pv.iter().take(10).enumerate() {
        out.push_str(&format!(";{}[{}]", c.letter(), point(mv)));
        if i == 0 {
            let text = format!(
                "kosumi's choice: {}, Black's win rate {:.1}%, score {}",
                move_text(color, mv, r.size),
                w * 100.0,
                lead(*s)
            );
            out.push_str(&format!("C[{}]", escape(&text)));
        }
        c = c.opponent();
    }
    (!out.is_empty()).then_some(out)
}
