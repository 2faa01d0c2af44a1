//! One input line of the analysis protocol: an action or an analysis query,
//! checked field by field as KataGo checks them, with its error wording.

use super::rules::KataRules;
use anyhow::{anyhow, bail};
use kosumi::board::{Color, Game, Move, Point, Vertex, MAX_SIZE};
use kosumi::gtp::parse_color;
use kosumi::search::Level;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// Whose point of view win rates, scores and ownership take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Black's (KataGo's `analysis_example.cfg`).
    Black,
    /// White's.
    White,
    /// The player to move's.
    SideToMove,
}

impl Perspective {
    /// `BLACK`, `WHITE` or `SIDETOMOVE`, in any case.
    pub fn parse(s: &str) -> Option<Perspective> {
        match s.trim().to_ascii_uppercase().as_str() {
            "BLACK" | "B" => Some(Perspective::Black),
            "WHITE" | "W" => Some(Perspective::White),
            "SIDETOMOVE" => Some(Perspective::SideToMove),
            _ => None,
        }
    }

    /// Whether values for `to_move` must be turned around.
    pub fn flips(self, to_move: Color) -> bool {
        match self {
            Perspective::Black => to_move == Color::White,
            Perspective::White => to_move == Color::Black,
            Perspective::SideToMove => false,
        }
    }
}

/// Settings that apply when a query does not give its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    /// Visits per position (`maxVisits`); `None`: the searcher's default
    /// playouts.
    pub max_visits: Option<u64>,
    /// Playouts a visit stands for (at least 1): the playouts searched are
    /// `max_visits` times this, and reported visits are playouts divided by
    /// it.
    pub playouts_per_visit: u64,
    /// Seconds per position (`maxTime`).
    pub max_time: Option<f64>,
    /// `reportAnalysisWinratesAs`.
    pub perspective: Perspective,
    /// Longest principal variation reported (`analysisPVLen`).
    pub pv_len: usize,
    /// A human-style model was named (`-human-model`): with a
    /// `humanSLProfile`, responses carry `humanPolicy`, the learned move
    /// patterns' own (they were learned from strong amateurs: one profile).
    pub human_model: bool,
    /// `humanSLProfile`, as a query's `overrideSettings` or the config set it.
    pub human_profile: Option<String>,
    /// A strength level (`--level`, a query's `level` or `kosumiLevel` in
    /// `overrideSettings`): final responses then also carry `levelMove`,
    /// the move kosumi plays at that level. The analysis itself is the
    /// search's own, whatever the level.
    pub level: Option<Level>,
}

impl Defaults {
    /// Playouts a visit stands for; never 0, whatever a caller set.
    pub fn per_visit(&self) -> u64 {
        self.playouts_per_visit.max(1)
    }
}

impl Default for Defaults {
    fn default() -> Defaults {
        Defaults {
            max_visits: None,
            playouts_per_visit: 1,
            max_time: None,
            perspective: Perspective::Black,
            pv_len: 15,
            human_model: false,
            human_profile: None,
            level: None,
        }
    }
}

/// How the positions of one query are searched and reported.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Search limits and reporting defaults, after `overrideSettings`.
    pub base: Defaults,
    /// Report the ownership map.
    pub ownership: bool,
    /// Report each candidate's ownership map (`includeMovesOwnership`).
    pub move_ownership: bool,
    /// Report the prior of every move.
    pub policy: bool,
    /// Report the playouts of each move of each variation.
    pub pv_visits: bool,
    /// Seconds between reports during the search.
    pub report_every: Option<f64>,
    /// Only these first moves, per colour (`allowMoves`).
    pub allow: Vec<(Color, Move)>,
    /// Never these first moves, per colour (`avoidMoves`).
    pub avoid: Vec<(Color, Move)>,
}

/// One position to analyse.
#[derive(Clone)]
pub struct Position {
    /// The query's id.
    pub id: String,
    /// Moves played before it (0: the initial position).
    pub turn: usize,
    /// The game up to this turn.
    pub game: Game,
    /// The player to move.
    pub to_move: Color,
    /// Higher runs first.
    pub priority: i64,
    /// The query's settings.
    pub settings: Arc<Settings>,
    /// A move to give at least half the search's playouts after the
    /// search, in the same tree (review's played move), so that its value
    /// stands on enough playouts to compare with the best move's.
    pub evaluate: Option<Move>,
}

/// A parsed input line.
pub enum Request {
    /// An action answered at once by echoing the query (plus fields):
    /// `query_version`, `clear_cache`, `query_models`.
    Echo(Value),
    /// `terminate` (with an id) or `terminate_all` (without).
    Terminate {
        /// The query, echoed once done.
        echo: Value,
        /// Whose positions; `None`: all.
        id: Option<String>,
        /// Which turns; `None`: all.
        turns: Option<Vec<i64>>,
    },
    /// Positions to analyse, and warnings to send first.
    Analyze {
        /// The positions, in turn order.
        positions: Vec<Position>,
        /// `{"id","field","warning"}` objects.
        warnings: Vec<Value>,
    },
}

/// kosumi's answer to `query_version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `{"error": message}`.
pub fn general_error(message: &str) -> Value {
    json!({ "error": message })
}

fn field_error(id: &str, field: &str, message: &str) -> Value {
    json!({ "id": id, "field": field, "error": message })
}

fn field_warning(id: &str, field: &str, message: &str) -> Value {
    json!({ "id": id, "field": field, "warning": message })
}

/// Parses one line; an `Err` is the single response to send.
pub fn parse(line: &str, defaults: &Defaults) -> Result<Request, Value> {
    let input: Value = serde_json::from_str(line).map_err(|e| {
        general_error(&format!(
            "{e} - could not parse input line as json request: {line}"
        ))
    })?;
    let Some(map) = input.as_object() else {
        return Err(general_error(&format!(
            "Request line was valid json but was not an object, ignoring: {input}"
        )));
    };
    let Some(id) = map.get("id").and_then(Value::as_str) else {
        return Err(general_error("Request must have a string \"id\" field"));
    };
    let id = id.to_string();
    if let Some(action) = map.get("action").and_then(Value::as_str) {
        return parse_action(action, &id, map, &input);
    }
    Query {
        id: &id,
        map,
        warnings: Vec::new(),
    }
    .parse(defaults)
}

fn parse_action(
    action: &str,
    id: &str,
    map: &Map<String, Value>,
    input: &Value,
) -> Result<Request, Value> {
    let mut echo = input.clone();
    let turns = || -> Result<Option<Vec<i64>>, Value> {
        match map.get("turnNumbers") {
            None => Ok(None),
            Some(v) => int_list(v).map(Some).ok_or_else(|| {
                field_error(
                    id,
                    "turnNumbers",
                    "If provided, must be an array of integers indicating turns to terminate",
                )
            }),
        }
    };
    match action {
        "query_version" => {
            echo["version"] = json!(VERSION);
            echo["git_hash"] = json!("<omitted>");
            Ok(Request::Echo(echo))
        }
        "clear_cache" => Ok(Request::Echo(echo)),
        "query_models" => {
            echo["models"] = json!([{
                "name": "kosumi (Monte Carlo playouts, no neural network)",
                "internalName": "kosumi",
                "maxBatchSize": 1,
                "usesHumanSLProfile": false,
                "version": 0,
                "usingFP16": "false",
            }]);
            Ok(Request::Echo(echo))
        }
        "terminate" => {
            let Some(target) = map.get("terminateId").and_then(Value::as_str) else {
                return Err(field_error(
                    id,
                    "terminateId",
                    "Requests for a terminate action must have a string \"terminateId\" field",
                ));
            };
            Ok(Request::Terminate {
                echo,
                id: Some(target.to_string()),
                turns: turns()?,
            })
        }
        "terminate_all" => Ok(Request::Terminate {
            echo,
            id: None,
            turns: turns()?,
        }),
        _ => Err(general_error(
            "'action' field must be 'query_version' or 'terminate' or 'terminate_all'",
        )),
    }
}

fn int_list(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

const PAIRS: &str = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
const BOOLEAN: &str = "Must be a boolean";
const KOMI: &str = "Must be a integer or half-integer from -400.0 to 400.0";

/// Fields KataGo reads that kosumi accepts and does not use.
const IGNORED_FIELDS: &[&str] = &[
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "includeMovesOwnershipStdev",
    "includeOwnershipStdev",
    "includeNoResultValue",
    "humanSLProfile",
];

struct Query<'a> {
    id: &'a str,
    map: &'a Map<String, Value>,
    warnings: Vec<Value>,
}

impl Query<'_> {
    fn err(&self, field: &str, message: &str) -> Value {
        field_error(self.id, field, message)
    }

    fn int(&self, field: &str, min: i64, max: i64, message: &str) -> Result<Option<i64>, Value> {
        match self.map.get(field) {
            None => Ok(None),
            Some(v) => match v.as_i64() {
                Some(x) if (min..=max).contains(&x) && !v.is_f64() => Ok(Some(x)),
                _ => Err(self.err(field, message)),
            },
        }
    }

    fn float(&self, field: &str, min: f64, max: f64, message: &str) -> Result<Option<f64>, Value> {
        match self.map.get(field) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() && x >= min && x <= max => Ok(Some(x)),
                _ => Err(self.err(field, message)),
            },
        }
    }

    fn boolean(&self, field: &str) -> Result<bool, Value> {
        match self.map.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.err(field, BOOLEAN)),
        }
    }

    fn moves(
        &self,
        field: &str,
        size: usize,
        allow_pass: bool,
    ) -> Result<Vec<(Color, Move)>, Value> {
        let Some(list) = self.map.get(field).and_then(Value::as_array) else {
            return Err(self.err(field, PAIRS));
        };
        let mut out = Vec::with_capacity(list.len());
        for pair in list {
            let (Some(c), Some(v)) = (
                pair.get(0).and_then(Value::as_str),
                pair.get(1).and_then(Value::as_str),
            ) else {
                return Err(self.err(field, PAIRS));
            };
            if pair.as_array().map_or(0, Vec::len) != 2 {
                return Err(self.err(field, PAIRS));
            }
            let color = parse_color(c)
                .map_err(|_| self.err(field, &format!("Could not parse player: {c}")))?;
            let mv = vertex(v, size)
                .filter(|m| allow_pass || *m != Move::Pass)
                .ok_or_else(|| self.err(field, &format!("Could not parse board location: {v}")))?;
            out.push((color, mv));
        }
        Ok(out)
    }

    fn parse(mut self, defaults: &Defaults) -> Result<Request, Value> {
        let size_error = format!("Must provide an integer from 2 to {MAX_SIZE}");
        for f in ["boardXSize", "boardYSize"] {
            if !self.map.contains_key(f) {
                return Err(self.err(f, &size_error));
            }
        }
        let x = self.int("boardXSize", 2, MAX_SIZE as i64, &size_error)?;
        let y = self.int("boardYSize", 2, MAX_SIZE as i64, &size_error)?;
        let size = x.expect("checked") as usize;
        if y != x {
            return Err(self.err(
                "boardYSize",
                "kosumi plays square boards only: boardYSize must equal boardXSize",
            ));
        }
        let stones = if self.map.contains_key("initialStones") {
            self.moves("initialStones", size, false)?
        } else {
            Vec::new()
        };
        if !self.map.contains_key("moves") {
            return Err(self.err("moves", "Must specify an array of [player,location] pairs"));
        }
        let moves = self.moves("moves", size, true)?;
        let initial_player = match self.map.get("initialPlayer") {
            None => None,
            Some(v) => Some(
                v.as_str()
                    .and_then(|s| parse_color(s).ok())
                    .ok_or_else(|| self.err("initialPlayer", "Must be \"b\" or \"w\""))?,
            ),
        };
        let mut turns = vec![false; moves.len() + 1];
        let analyze_turns = match self.map.get("analyzeTurns") {
            None => None,
            Some(v) => Some(int_list(v).ok_or_else(|| {
                self.err(
                    "analyzeTurns",
                    "Must specify an array of integers indicating turns to analyze",
                )
            })?),
        };
        match &analyze_turns {
            None => turns[moves.len()] = true,
            Some(list) => {
                for &t in list {
                    if t < 0 || t as usize >= turns.len() {
                        return Err(self.err("analyzeTurns", &format!("Invalid turn number: {t}")));
                    }
                    turns[t as usize] = true;
                }
            }
        }
        let priorities = self.priorities(analyze_turns.as_deref())?;
        let kata_rules = self.rules()?;
        let (rules, warning) = kata_rules.to_rules();
        if let Some(w) = warning {
            self.warnings.push(field_warning(self.id, "rules", &w));
        }
        let mut komi = kata_rules.komi;
        if let Some(k) = self.float("komi", -400.0, 400.0, KOMI)? {
            if (k * 2.0).fract() != 0.0 {
                return Err(self.err("komi", KOMI));
            }
            komi = k;
        }
        let bonus = match self.map.get("whiteHandicapBonus") {
            None => kata_rules.clone(),
            Some(v) => {
                let b = v
                    .as_str()
                    .ok_or_else(|| self.err("whiteHandicapBonus", "Must be a string"))?;
                if !["0", "N", "N-1"].contains(&b.trim()) {
                    return Err(self.err(
                        "whiteHandicapBonus",
                        &format!("Could not parse white handicap bonus rule: {b}"),
                    ));
                }
                KataRules {
                    handicap_bonus: b.trim().to_string(),
                    ..kata_rules.clone()
                }
            }
        };
        komi += bonus.handicap_bonus(handicap_count(&stones, &moves));
        let settings = Arc::new(self.settings(defaults, size)?);
        let priority = self
            .int(
                "priority",
                -(1 << 62),
                1 << 62,
                "Must be a number between -2^62 and 2^62",
            )?
            .unwrap_or(0);
        for field in IGNORED_FIELDS {
            if self.map.contains_key(*field) {
                let w = field_warning(self.id, field, "kosumi accepts this field and ignores it");
                self.warnings.push(w);
            }
        }

        let mut game = Game::new(size, rules);
        game.set_komi(komi);
        for &(c, mv) in &stones {
            if let Move::Play(p) = mv {
                game.set_stone(p, Some(c));
            }
        }
        let mut to_move = initial_player.unwrap_or_else(|| match moves.first() {
            Some(&(c, _)) => c,
            None if stones.iter().any(|s| s.0 == Color::Black)
                && !stones.iter().any(|s| s.0 == Color::White) =>
            {
                Color::White
            }
            None => Color::Black,
        });
        game.set_to_move(to_move);
        let mut positions = Vec::new();
        for (turn, &wanted) in turns.iter().enumerate() {
            if wanted {
                positions.push(Position {
                    id: self.id.to_string(),
                    turn,
                    game: game.clone(),
                    to_move,
                    priority: priorities
                        .as_ref()
                        .map_or(priority, |p| p.get(&turn).copied().unwrap_or(priority)),
                    settings: Arc::clone(&settings),
                    evaluate: None,
                });
            }
            let Some(&(c, mv)) = moves.get(turn) else {
                break;
            };
            if game.play(c, mv).is_err() {
                let name = Vertex::from_move(mv, size);
                return Err(self.err("moves", &format!("Illegal move {turn}: {name}")));
            }
            to_move = c.opponent();
        }
        Ok(Request::Analyze {
            positions,
            warnings: self.warnings,
        })
    }

    fn priorities(
        &self,
        turns: Option<&[i64]>,
    ) -> Result<Option<std::collections::HashMap<usize, i64>>, Value> {
        let Some(v) = self.map.get("priorities") else {
            return Ok(None);
        };
        let list = int_list(v).ok_or_else(|| {
            self.err(
                "priorities",
                "Must specify an array of integers indicating priorities",
            )
        })?;
        let Some(turns) = turns else {
            return Err(self.err(
                "priorities",
                "Can only specify when also specifying analyzeTurns",
            ));
        };
        if list.len() != turns.len() {
            return Err(self.err("priorities", "Must be of matching length to analyzeTurns"));
        }
        if self.map.contains_key("priority") {
            return Err(self.err("priority", "Cannot specify both priority and priorities"));
        }
        Ok(Some(turns.iter().map(|&t| t as usize).zip(list).collect()))
    }

    fn rules(&self) -> Result<KataRules, Value> {
        let missing = "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.";
        match self.map.get("rules") {
            Some(Value::String(s)) => KataRules::named(s)
                .ok_or_else(|| self.err("rules", &format!("Could not parse rules: {s}"))),
            Some(v @ Value::Object(_)) => KataRules::from_object(v)
                .ok_or_else(|| self.err("rules", &format!("Could not parse rules: {v}"))),
            _ => Err(self.err("rules", missing)),
        }
    }

    fn settings(&mut self, defaults: &Defaults, size: usize) -> Result<Settings, Value> {
        let mut base = defaults.clone();
        if let Some(o) = self.map.get("overrideSettings") {
            let Some(o) = o.as_object() else {
                return Err(self.err("overrideSettings", "Must be an object"));
            };
            let ignored = apply_overrides(&mut base, o).map_err(|e| {
                self.err("overrideSettings", &format!("Could not set settings: {e}"))
            })?;
            if !ignored.is_empty() {
                let w = field_warning(
                    self.id,
                    "overrideSettings",
                    &format!("kosumi ignores these settings: {}", ignored.join(",")),
                );
                self.warnings.push(w);
            }
        }
        if let Some(v) = self.int("maxVisits", 1, 1 << 50, "Must be an integer from 1 to 2^50")? {
            base.max_visits = Some(v as u64);
        }
        if let Some(v) = self.int("level", 1, 10, "Must be an integer from 1 to 10")? {
            base.level = Some(Level::new(v as u32).expect("in range"));
        }
        if let Some(v) = self.int(
            "analysisPVLen",
            1,
            1000,
            "Must be an integer from 1 to 1000",
        )? {
            base.pv_len = v as usize;
        }
        let seconds = "Must be number of seconds from 0.001 to 1000000.0";
        let every = self.float("reportDuringSearchEvery", 0.001, 1e6, seconds)?;
        let first = self.float("firstReportDuringSearchAfter", 0.001, 1e6, seconds)?;
        self.float(
            "rootFpuReductionMax",
            0.0,
            2.0,
            "Must be a number from 0.0 to 2.0",
        )?;
        self.float(
            "rootPolicyTemperature",
            0.01,
            100.0,
            "Must be a number from 0.01 to 100.0",
        )?;
        for f in ["includeOwnershipStdev", "includeMovesOwnershipStdev"] {
            self.boolean(f)?;
        }
        let (allow, avoid) = self.allow_avoid(size)?;
        Ok(Settings {
            base,
            ownership: self.boolean("includeOwnership")?,
            move_ownership: self.boolean("includeMovesOwnership")?,
            policy: self.boolean("includePolicy")?,
            pv_visits: self.boolean("includePVVisits")?,
            report_every: every.or(first),
            allow,
            avoid,
        })
    }

    /// `allowMoves` / `avoidMoves`: kosumi applies them to the first move of
    /// the search only, whatever `untilDepth` says.
    #[allow(clippy::type_complexity)]
    fn allow_avoid(&self, size: usize) -> Result<(Vec<(Color, Move)>, Vec<(Color, Move)>), Value> {
        let has_allow = self.map.contains_key("allowMoves");
        let has_avoid = self.map.contains_key("avoidMoves");
        if has_allow && has_avoid {
            return Err(self.err(
                "allowMoves",
                "Cannot specify both allowMoves and avoidMoves",
            ));
        }
        let field = if has_allow {
            "allowMoves"
        } else {
            "avoidMoves"
        };
        let Some(list) = self.map.get(field) else {
            return Ok((Vec::new(), Vec::new()));
        };
        let shape = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
        let Some(list) = list.as_array() else {
            return Err(self.err(field, shape));
        };
        if has_allow && list.len() > 1 {
            return Err(self.err(field, "Currently allowMoves only allows one entry"));
        }
        let mut out = Vec::new();
        for entry in list {
            let (Some(p), Some(ms), Some(depth)) = (
                entry.get("player"),
                entry.get("moves"),
                entry.get("untilDepth"),
            ) else {
                return Err(self.err(field, shape));
            };
            let color = p
                .as_str()
                .and_then(|s| parse_color(s).ok())
                .ok_or_else(|| self.err("player", "Must be \"b\" or \"w\""))?;
            let Some(ms) = ms.as_array() else {
                return Err(self.err("moves", "Must be an array of GTP board vertices"));
            };
            for m in ms {
                let s = m
                    .as_str()
                    .ok_or_else(|| self.err("moves", "Must be an array of GTP board vertices"))?;
                let mv = vertex(s, size).ok_or_else(|| {
                    self.err("moves", &format!("Could not parse board location: {s}"))
                })?;
                out.push((color, mv));
            }
            if !depth
                .as_i64()
                .is_some_and(|d| (1..=1_000_000_000).contains(&d))
            {
                return Err(self.err("untilDepth", "Must be a positive integer"));
            }
        }
        Ok(if has_allow {
            (out, Vec::new())
        } else {
            (Vec::new(), out)
        })
    }
}

/// Applies KataGo config settings kosumi understands; returns the names of
/// the others. `numSearchThreads` cannot change per query, as in KataGo.
pub fn apply_overrides(
    base: &mut Defaults,
    settings: &Map<String, Value>,
) -> anyhow::Result<Vec<String>> {
    let mut ignored = Vec::new();
    for (key, value) in settings {
        let text = match value {
            Value::String(s) => s.trim().to_string(),
            other => other.to_string(),
        };
        match key.as_str() {
            "maxVisits" | "maxPlayouts" => {
                let n: u64 = text
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| anyhow!("{key} must be a positive integer"))?;
                base.max_visits = Some(n);
            }
            "maxTime" => {
                let t: f64 = text
                    .parse()
                    .ok()
                    .filter(|t: &f64| t.is_finite() && *t > 0.0)
                    .ok_or_else(|| anyhow!("{key} must be a positive number of seconds"))?;
                base.max_time = Some(t);
            }
            "reportAnalysisWinratesAs" => {
                base.perspective = Perspective::parse(&text)
                    .ok_or_else(|| anyhow!("{key} must be BLACK, WHITE or SIDETOMOVE"))?;
            }
            "analysisPVLen" => {
                base.pv_len = text
                    .parse()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| anyhow!("{key} must be an integer from 1 to 1000"))?;
            }
            "numSearchThreads" | "numSearchThreadsPerAnalysisThread" => {
                bail!("{key} cannot be changed in a query");
            }
            "humanSLProfile" => base.human_profile = Some(text),
            "kosumiLevel" => {
                base.level = Some(text.parse().map_err(|e| anyhow!("{key}: {e}"))?);
            }
            _ => ignored.push(key.clone()),
        }
    }
    Ok(ignored)
}

/// A location: `Q16`, `pass`, or KataGo's `(x,y)` from the top-left corner.
pub fn vertex(text: &str, size: usize) -> Option<Move> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let x: usize = x.trim().parse().ok()?;
        let y: usize = y.trim().parse().ok()?;
        return Point::checked(x, y, size).map(Move::Play);
    }
    t.parse::<Vertex>().ok()?.to_move(size).ok()
}

/// Handicap stones as KataGo counts them for the handicap bonus: Black's
/// setup stones when White has none, else Black's moves before White's first.
fn handicap_count(stones: &[(Color, Move)], moves: &[(Color, Move)]) -> usize {
    let black = |list: &[(Color, Move)]| list.iter().filter(|s| s.0 == Color::Black).count();
    if !stones.is_empty() {
        if stones.iter().all(|s| s.0 == Color::Black) {
            black(stones)
        } else {
            0
        }
    } else {
        let lead = moves.iter().take_while(|m| m.0 == Color::Black).count();
        if lead >= 2 && lead < moves.len() {
            lead
        } else {
            0
        }
    }
}
