//! The analysis commands: Leela Zero's and KataGo's analyze streams, the
//! GoGui analysis menu, and the short searches behind `top_moves` and the
//! `kosumi-` display commands.

use super::Outcome::{self, Failure, Success};
use super::{parse_bool, Engine};
use crate::board::{Color, Move, Vertex};
use crate::gtp::parse::{parse_color, parse_int, parse_vertex, Command};
use crate::score::{self, PointStatus};
use crate::search::{Analysis, Limits};
use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

impl Engine {
    /// A short search for the player to move (or the given colour), for
    /// commands that show its result at once.
    fn quick_analysis(&mut self, color: Option<Color>) -> Analysis {
        let color = color.unwrap_or(self.game.to_move());
        self.begin_search(false);
        let game = self.game.clone();
        let stop = self.stop.clone();
        let limits = Limits {
            playouts: Some(quick_playouts(self.size())),
            time: Some(Duration::from_secs(3)),
            ..Limits::default()
        };
        let a = self
            .searcher
            .analyze(&game, color, limits, &stop, None, &mut |_| {});
        self.end_search();
        self.last_analysis = Some(a.clone());
        a
    }

    pub(super) fn cmd_top_moves(
        &mut self,
        cmd: &Command,
        _: &mut dyn Write,
    ) -> io::Result<Outcome> {
        let color = match cmd.arg(0).map(parse_color) {
            None => None,
            Some(Ok(c)) => Some(c),
            Some(Err(_)) => return Ok(Failure("invalid color".into())),
        };
        let a = self.quick_analysis(color);
        let parts: Vec<String> = a
            .candidates
            .iter()
            .filter(|c| c.visits > 0)
            .take(10)
            .map(|c| format!("{} {:.2}", self.vertex(c.mv), c.winrate * 100.0))
            .collect();
        Ok(Success(parts.join(" ")))
    }

    /// `lz-analyze` and `kata-analyze`: a line per update until the next
    /// command interrupts the search.
    pub(super) fn cmd_analyze(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
    ) -> io::Result<Outcome> {
        let args = match AnalyzeArgs::parse(cmd, self.game.to_move(), self.size()) {
            Ok(a) => a,
            Err(e) => return Ok(Failure(e.to_string())),
        };
        write_header(out, cmd.id)?;
        self.begin_search(true);
        let game = self.game.clone();
        let stop = self.stop.clone();
        let size = self.size();
        let color = args.color;
        let mut failed = None;
        let pick = |list: &[(Color, Move)]| -> Vec<Move> {
            list.iter()
                .filter(|(c, _)| *c == color)
                .map(|&(_, m)| m)
                .collect()
        };
        let limits = Limits {
            allow: pick(&args.allow),
            avoid: pick(&args.avoid),
            ..Limits::default()
        };
        let a = self
            .searcher
            .analyze(&game, color, limits, &stop, Some(args.interval), &mut |a| {
                if failed.is_none() {
                    if let Err(e) = write_analysis(out, a, args.format, size, color) {
                        failed = Some(e);
                    }
                }
            });
        self.end_search();
        self.last_analysis = Some(a);
        if let Some(e) = failed {
            return Err(e);
        }
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(Outcome::Streamed)
    }

    /// `genmove_analyze`, `lz-genmove_analyze` and `kata-genmove_analyze`:
    /// a move chosen with the analysis lines of its search.
    pub(super) fn cmd_genmove_analyze(
        &mut self,
        cmd: &Command,
        out: &mut dyn Write,
    ) -> io::Result<Outcome> {
        if cmd.arg(0).is_none_or(|a| parse_color(a).is_err()) {
            return Ok(Failure("invalid color".into()));
        }
        let args = match AnalyzeArgs::parse(cmd, self.game.to_move(), self.size()) {
            Ok(a) => a,
            Err(e) => return Ok(Failure(e.to_string())),
        };
        write_header(out, cmd.id)?;
        let d = self.generate(
            args.color,
            true,
            false,
            Some((out, args.format, args.interval)),
        )?;
        // The final state of the search, so the stream always shows what the
        // move was chosen from.
        if let Some(a) = &self.last_analysis {
            write_analysis(out, a, args.format, self.size(), args.color)?;
        }
        let text = format!("play {}\n\n", self.decision_text(d));
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(Outcome::Streamed)
    }

    pub(super) fn cmd_gogui_analyze_commands(
        &mut self,
        _: &Command,
        _: &mut dyn Write,
    ) -> io::Result<Outcome> {
        self.gogui_gfx = true;
        let entries = [
            "dboard/Ownership/kosumi-ownership %c",
            "gfx/Territory and dead stones/kosumi-territory",
            "plist/Dead stones/final_status_list dead",
            "string/Final score/final_score",
            "pspairs/Best moves (win rate)/kosumi-best_moves %c",
            "gfx/Principal variation/kosumi-pv %c",
            "string/Search statistics/kosumi-statistics",
            "param/Search parameters/kosumi-param",
            "string/Show board/showboard",
        ];
        Ok(Success(entries.join("\n")))
    }

    pub(super) fn cmd_gogui_interrupt(
        &mut self,
        _: &Command,
        _: &mut dyn Write,
    ) -> io::Result<Outcome> {
        Ok(Success(String::new()))
    }

    pub(super) fn cmd_ownership(
        &mut self,
        cmd: &Command,
        _: &mut dyn Write,
    ) -> io::Result<Outcome> {
        let color = cmd.arg(0).and_then(|a| parse_color(a).ok());
        let a = self.quick_analysis(color);
        let size = self.size();
        let own = if a.ownership.len() == size * size {
            a.ownership
        } else {
            self.judgement().1.ownership()
        };
        let rows: Vec<String> = own
            .chunks(size)
            .map(|row| {
                row.iter()
                    .map(|v| format!("{v:.2}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        Ok(Success(format!("\n{}", rows.join("\n"))))
    }

    pub(super) fn cmd_territory(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let (game, j) = self.judgement();
        let scoring = game.rules().scoring();
        let black = j.counted_territory(Some(Color::Black), scoring);
        let white = j.counted_territory(Some(Color::White), scoring);
        let dead = j.stones_with(PointStatus::Dead);
        let seki = j.stones_with(PointStatus::Seki);
        let score = score::count(game, j);
        let mut lines = Vec::new();
        if !black.is_empty() {
            lines.push(format!("BLACK {}", self.points_text(black)));
        }
        if !white.is_empty() {
            lines.push(format!("WHITE {}", self.points_text(white)));
        }
        if !dead.is_empty() {
            lines.push(format!("MARK {}", self.points_text(dead)));
        }
        if !seki.is_empty() {
            lines.push(format!("TRIANGLE {}", self.points_text(seki)));
        }
        lines.push(format!("TEXT {score}"));
        Ok(Success(lines.join("\n")))
    }

    pub(super) fn cmd_best_moves(
        &mut self,
        cmd: &Command,
        _: &mut dyn Write,
    ) -> io::Result<Outcome> {
        let color = cmd.arg(0).and_then(|a| parse_color(a).ok());
        let a = self.quick_analysis(color);
        let pairs: Vec<String> = a
            .candidates
            .iter()
            .filter_map(|c| c.mv.point().filter(|_| c.visits > 0).map(|p| (p, c)))
            .take(10)
            .map(|(p, c)| format!("{} {:.1}", p.to_gtp(self.size()), c.winrate * 100.0))
            .collect();
        Ok(Success(pairs.join(" ")))
    }

    pub(super) fn cmd_pv(&mut self, cmd: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let color = cmd
            .arg(0)
            .and_then(|a| parse_color(a).ok())
            .unwrap_or(self.game.to_move());
        let a = self.quick_analysis(Some(color));
        let Some(best) = a.candidates.first() else {
            return Ok(Success(String::new()));
        };
        Ok(Success(format!(
            "VAR {}",
            pv_text(&best.pv, color, self.size())
        )))
    }

    pub(super) fn cmd_statistics(&mut self, _: &Command, _: &mut dyn Write) -> io::Result<Outcome> {
        let Some(a) = &self.last_analysis else {
            return Ok(Success("no search yet".into()));
        };
        let secs = a.elapsed.as_secs_f64();
        let mut text = format!(
            "playouts {} in {:.2} s ({:.0}/s), win rate {:.1}%, score lead {:+.1}",
            a.playouts,
            secs,
            if secs > 0.0 {
                a.playouts as f64 / secs
            } else {
                0.0
            },
            a.winrate * 100.0,
            a.score_lead
        );
        for c in a.candidates.iter().take(5) {
            text.push_str(&format!(
                "\n{} visits {} win {:.1}% prior {:.3}",
                self.vertex(c.mv),
                c.visits,
                c.winrate * 100.0,
                c.prior
            ));
        }
        Ok(Success(text))
    }
}

/// A progress line while pondering: the search is on the opponent's
/// (`color`'s) turn, for the side that just moved, so the best move and
/// win rate are the opponent's.
pub(super) fn ponder_line(a: &Analysis, size: usize, color: Color) -> String {
    let (side, us) = (color.name(), color.opponent().name());
    let rate = a.playouts as f64 / a.elapsed.as_secs_f64().max(1e-9);
    let mut line = format!(
        "kosumi: pondering for {us} on {side}'s turn: {} playouts ({rate:.0}/s)",
        a.playouts
    );
    if let Some(c) = a.candidates.first() {
        let pv: Vec<String> =
            c.pv.iter()
                .take(10)
                .map(|&m| Vertex::from_move(m, size).to_string())
                .collect();
        line.push_str(&format!(
            ", {side}'s best reply {} win {:.1}% for {side}, pv {}",
            Vertex::from_move(c.mv, size),
            a.winrate * 100.0,
            pv.join(" ")
        ));
    }
    line
}

fn quick_playouts(size: usize) -> u64 {
    if size <= 9 {
        3000
    } else {
        1500
    }
}

/// How analysis lines are written.
#[derive(Clone, Copy, Debug)]
pub(super) struct AnalyzeFormat {
    /// KataGo's form: win rate as a float in [0, 1], score fields.
    kata: bool,
    /// Append ownership (KataGo form only).
    ownership: bool,
}

struct AnalyzeArgs {
    color: Color,
    interval: Duration,
    /// KataGo's form for the `kata-` commands, Leela Zero's for the others.
    format: AnalyzeFormat,
    /// `allow` and `avoid` lists: the colour they bind and its moves.
    allow: Vec<(Color, Move)>,
    avoid: Vec<(Color, Move)>,
}

/// Why the arguments of an analysis command were refused; the command's
/// failure answer is the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnalyzeArgError<'a> {
    /// An `interval` that is not an integer.
    Interval(&'a str),
    /// An `ownership` that is not a boolean.
    Ownership,
    /// `allow` or `avoid` (the key) without its `vertices` or `depth`.
    Missing(&'a str, &'static str),
    /// An `allow` or `avoid` (the key) whose `color`, `depth` or `vertex`
    /// does not parse, and its text.
    Invalid(&'a str, &'static str, &'a str),
    /// A key no analysis command takes.
    Unknown(&'a str),
}

impl fmt::Display for AnalyzeArgError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeArgError::Interval(v) => write!(f, "invalid interval '{v}'"),
            AnalyzeArgError::Ownership => write!(f, "invalid ownership value"),
            AnalyzeArgError::Missing(key, part) => write!(f, "missing {key} {part}"),
            AnalyzeArgError::Invalid(key, part, v) => write!(f, "invalid {key} {part} '{v}'"),
            AnalyzeArgError::Unknown(key) => write!(f, "invalid analyze argument '{key}'"),
        }
    }
}

impl std::error::Error for AnalyzeArgError<'_> {}

impl AnalyzeArgs {
    /// `[color] [interval] [key value]...` as Leela Zero and KataGo take them.
    fn parse(
        cmd: &Command,
        default: Color,
        size: usize,
    ) -> Result<AnalyzeArgs, AnalyzeArgError<'_>> {
        use AnalyzeArgError::{Invalid, Missing};
        let args = &cmd.args;
        let mut out = AnalyzeArgs {
            color: default,
            interval: Duration::from_millis(500),
            format: AnalyzeFormat {
                kata: cmd.name.starts_with("kata-"),
                ownership: false,
            },
            allow: Vec::new(),
            avoid: Vec::new(),
        };
        let mut i = 0;
        if let Some(c) = args.first().and_then(|a| parse_color(a).ok()) {
            out.color = c;
            i += 1;
        }
        if let Some(Ok(cs)) = args.get(i).map(|a| parse_int(a)) {
            out.interval = Duration::from_millis((cs.clamp(1, 100_000) * 10) as u64);
            i += 1;
        }
        while i < args.len() {
            let key = args[i].as_str();
            let value = args.get(i + 1).map(String::as_str);
            match (key, value) {
                ("interval", Some(v)) => {
                    let cs = parse_int(v).map_err(|_| AnalyzeArgError::Interval(v))?;
                    out.interval = Duration::from_millis((cs.clamp(1, 100_000) * 10) as u64);
                }
                ("ownership", Some(v)) => {
                    out.format.ownership = parse_bool(v).ok_or(AnalyzeArgError::Ownership)?
                }
                (
                    "minmoves" | "maxmoves" | "ownershipStdev" | "movesOwnership" | "pvVisits"
                    | "rootInfo",
                    Some(_),
                ) => {}
                ("allow" | "avoid", Some(c)) => {
                    // `allow|avoid <color> <vertex,vertex,...> <until depth>`:
                    // applied to the first move of that colour.
                    let color = parse_color(c).map_err(|_| Invalid(key, "color", c))?;
                    let list = args.get(i + 2).ok_or(Missing(key, "vertices"))?;
                    let depth = args.get(i + 3).ok_or(Missing(key, "depth"))?;
                    parse_int(depth).map_err(|_| Invalid(key, "depth", depth))?;
                    for v in list.split(',').filter(|v| !v.is_empty()) {
                        let mv = parse_vertex(v, size).map_err(|_| Invalid(key, "vertex", v))?;
                        if key == "allow" {
                            out.allow.push((color, mv));
                        } else {
                            out.avoid.push((color, mv));
                        }
                    }
                    i += 2;
                }
                _ => return Err(AnalyzeArgError::Unknown(key)),
            }
            i += 2;
        }
        Ok(out)
    }
}

fn write_header(out: &mut dyn Write, id: Option<u64>) -> io::Result<()> {
    let head = match id {
        Some(id) => format!("={id}\n"),
        None => "=\n".into(),
    };
    out.write_all(head.as_bytes())?;
    out.flush()
}

fn pv_text(pv: &[Move], first: Color, size: usize) -> String {
    let mut color = first;
    let mut parts = Vec::new();
    for &mv in pv {
        parts.push(format!(
            "{} {}",
            color.letter(),
            Vertex::from_move(mv, size)
        ));
        color = color.opponent();
    }
    parts.join(" ")
}

/// How often live graphics are drawn while `genmove` thinks for GoGui.
pub(super) const GOGUI_GFX_INTERVAL: Duration = Duration::from_millis(500);

/// The search as GoGui draws it: win rates (percent) on the best moves,
/// the principal variation and a status line.
fn gogui_gfx_text(a: &Analysis, size: usize, color: Color) -> String {
    let labels: Vec<String> = a
        .candidates
        .iter()
        .filter(|c| c.visits > 0)
        .filter_map(|c| c.mv.point().map(|p| (p, c)))
        .take(10)
        .map(|(p, c)| format!("{} {:.0}", p.to_gtp(size), c.winrate * 100.0))
        .collect();
    let mut lines = Vec::new();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    if let Some(best) = a.candidates.first().filter(|c| !c.pv.is_empty()) {
        lines.push(format!("VAR {}", pv_text(&best.pv, color, size)));
    }
    lines.push(format!(
        "TEXT {} playouts, win rate {:.1}%",
        a.playouts,
        a.winrate * 100.0
    ));
    lines.join("\n")
}

/// A multi-line `gogui-gfx:` block on stderr (ended by an empty line), drawn
/// live by GoGui.
pub(super) fn write_gogui_gfx(a: &Analysis, size: usize, color: Color) {
    let block = format!("gogui-gfx:\n{}\n\n", gogui_gfx_text(a, size, color));
    let mut err = io::stderr().lock();
    let _ = err.write_all(block.as_bytes());
    let _ = err.flush();
}

/// One `info ...` line for all candidates in Leela Zero or KataGo form.
fn analysis_line(a: &Analysis, format: AnalyzeFormat, size: usize, color: Color) -> String {
    let mut line = String::new();
    for (order, c) in a.candidates.iter().filter(|c| c.visits > 0).enumerate() {
        let Some(_) = c.mv.point() else { continue };
        let pv: Vec<String> =
            c.pv.iter()
                .take_while(|m| **m != Move::Pass)
                .map(|&m| Vertex::from_move(m, size).to_string())
                .collect();
        if !line.is_empty() {
            line.push(' ');
        }
        if format.kata {
            line.push_str(&format!(
                "info move {} visits {} utility {:.4} winrate {:.6} scoreMean {:.2} scoreLead {:.2} prior {:.4} lcb {:.6} order {} pv {}",
                Vertex::from_move(c.mv, size),
                c.visits,
                2.0 * c.winrate - 1.0,
                c.winrate,
                c.score_lead,
                c.score_lead,
                c.prior,
                c.lcb,
                order,
                pv.join(" ")
            ));
        } else {
            line.push_str(&format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                Vertex::from_move(c.mv, size),
                c.visits,
                (c.winrate * 10000.0).round() as i64,
                (c.prior * 10000.0).round() as i64,
                (c.lcb.max(0.0) * 10000.0).round() as i64,
                order,
                pv.join(" ")
            ));
        }
    }
    if format.kata && format.ownership && a.ownership.len() == size * size {
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        line.push_str(" ownership");
        for v in &a.ownership {
            line.push_str(&format!(" {:.3}", v * sign));
        }
    }
    line
}

pub(super) fn write_analysis(
    out: &mut dyn Write,
    a: &Analysis,
    format: AnalyzeFormat,
    size: usize,
    color: Color,
) -> io::Result<()> {
    let line = analysis_line(a, format, size, color);
    if line.is_empty() {
        return Ok(());
    }
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}
