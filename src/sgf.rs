//! SGF (`FF[3]` and `FF[4]`) reading and writing for Go games.
//!
//! Reading follows the main line (first variation at each branch) and is
//! forgiving: anything KGS, CGoban, Sabaki, GoGui or Fox write loads, and
//! malformed input gives an [`SgfError`], never a panic.
//!
//! There are two layers. [`Collection::parse`] turns any bytes into a tree of
//! nodes whose properties are plain strings (text is decoded as UTF-8, with
//! invalid bytes replaced, so Latin-1 or GB2312 files load with a few
//! replacement characters instead of failing). [`GameRecord::from_sgf`] then
//! reads the Go meaning of the first game's main line. The parser keeps its
//! own stack and the nodes live in one arena, so deeply nested variations
//! cannot overflow the call stack, neither while parsing nor when dropped.

use crate::board::{Color, Game, Move, PlayError, Point, Rules, Vertex, MAX_SIZE};
use std::fmt;

/// One event on the main line, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A move (stone or pass) by a colour, with the node's comment if any.
    Move {
        /// Who moved.
        color: Color,
        /// The move.
        mv: Move,
        /// `C[]` of the move's node (the match runner stores time used here).
        comment: Option<String>,
    },
    /// Setup in a node after the root (`AB`, `AW`, `AE`): points become
    /// `Some(colour)` stones or empty (`None`).
    ///
    /// The reader lists the `AB` points first, then `AW`, then `AE`, each in
    /// file order, whatever order the properties had in the node; the writer
    /// writes them in that order. A record whose setups are grouped this way
    /// survives a round trip exactly.
    Setup {
        /// Points and what they become.
        points: Vec<(Point, Option<Color>)>,
    },
}

/// A game as kosumi uses it: the root's facts and the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Board side (`SZ`, default 19).
    pub size: usize,
    /// Komi (`KM`), if given. Fox's `KM[650]` is read as 6.5.
    pub komi: Option<f64>,
    /// Handicap (`HA`), 0 when absent.
    pub handicap: usize,
    /// Rules (`RU`) as written.
    pub rules: Option<String>,
    /// Black stones set up in the root (`AB`).
    pub setup_black: Vec<Point>,
    /// White stones set up in the root (`AW`).
    pub setup_white: Vec<Point>,
    /// Who plays first after the root (`PL`), if given.
    pub to_play: Option<Color>,
    /// Black player's name (`PB`).
    pub black_name: Option<String>,
    /// White player's name (`PW`).
    pub white_name: Option<String>,
    /// Result (`RE`).
    pub result: Option<String>,
    /// Date (`DT`).
    pub date: Option<String>,
    /// Root comment (`C`).
    pub comment: Option<String>,
    /// Other root properties, kept so a round trip loses nothing we read.
    pub extra: Vec<(String, Vec<String>)>,
    /// The main line after the root.
    pub events: Vec<Event>,
}

impl Default for GameRecord {
    /// An empty 19x19 record.
    fn default() -> Self {
        GameRecord::new(19)
    }
}

/// Why SGF input could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// The input ended inside a game tree or a property value.
    UnexpectedEnd {
        /// What was still open: `"game tree"` or `"property value"`.
        inside: &'static str,
    },
    /// A byte that cannot stand where it is inside a game tree.
    UnexpectedByte {
        /// The byte.
        byte: u8,
        /// Its offset in the input.
        offset: usize,
    },
    /// A property identifier with no upper-case letter, or one appearing
    /// before the first `;` of a sequence.
    BadProperty {
        /// The identifier as written (lossily decoded).
        ident: String,
        /// Offset of the identifier in the input.
        offset: usize,
    },
    /// A property identifier not followed by `[value]`.
    MissingValue {
        /// The identifier.
        ident: String,
        /// Offset of the identifier in the input.
        offset: usize,
    },
    /// No game tree (`(;...)`) in the input.
    NoGameTree,
    /// `GM` names a game other than Go (1).
    NotGo(String),
    /// `SZ` is not a square board side in 1..=25.
    BadSize(String),
    /// A property value that does not fit its property (`KM`, `HA`, `PL`).
    BadValue {
        /// The property.
        property: String,
        /// The value.
        value: String,
    },
    /// A point value that is not two letters (or a pass, for moves).
    BadPoint {
        /// The property.
        property: String,
        /// The value.
        value: String,
    },
    /// A point that is off the board.
    PointOffBoard {
        /// The property.
        property: String,
        /// The value.
        value: String,
        /// The board side.
        size: usize,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::UnexpectedEnd { inside } => {
                write!(f, "unexpected end of SGF inside a {inside}")
            }
            SgfError::UnexpectedByte { byte, offset } => write!(
                f,
                "unexpected {} at byte {offset} of SGF",
                describe_byte(*byte)
            ),
            SgfError::BadProperty { ident, offset } => {
                write!(f, "bad SGF property '{ident}' at byte {offset}")
            }
            SgfError::MissingValue { ident, offset } => {
                write!(f, "SGF property '{ident}' at byte {offset} has no value")
            }
            SgfError::NoGameTree => f.write_str("no SGF game tree found"),
            SgfError::NotGo(gm) => write!(f, "SGF game is not Go (GM[{gm}])"),
            SgfError::BadSize(sz) => write!(f, "bad SGF board size SZ[{sz}]"),
            SgfError::BadValue { property, value } => {
                write!(f, "bad SGF value {property}[{value}]")
            }
            SgfError::BadPoint { property, value } => {
                write!(f, "bad SGF point {property}[{value}]")
            }
            SgfError::PointOffBoard {
                property,
                value,
                size,
            } => write!(
                f,
                "SGF point {property}[{value}] is off the {size}x{size} board"
            ),
        }
    }
}

impl std::error::Error for SgfError {}

fn describe_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

// ---------------------------------------------------------------------------
// Layer 1: bytes to a tree of nodes.

/// One SGF node: its properties in file order and its children in the arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfNode {
    /// Properties: identifier (upper-case letters only) and its values, with
    /// escapes and soft line breaks resolved.
    pub props: Vec<(String, Vec<String>)>,
    /// Indices of child nodes in the [`Collection`]; the first is the main line.
    pub children: Vec<usize>,
}

impl SgfNode {
    /// The values of the first property named `ident`.
    pub fn get(&self, ident: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(id, _)| id == ident)
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of the first property named `ident`.
    pub fn first(&self, ident: &str) -> Option<&str> {
        self.get(ident).and_then(|v| v.first()).map(String::as_str)
    }
}

/// A parsed SGF collection: every node of every game tree in one arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    nodes: Vec<SgfNode>,
    games: Vec<usize>,
}

impl Collection {
    /// Parses every game tree in `bytes`.
    ///
    /// Bytes outside game trees (headers, trailing junk) are skipped.
    pub fn parse(bytes: &[u8]) -> Result<Collection, SgfError> {
        Parser::new(bytes).run(usize::MAX)
    }

    /// Parses only the first game tree; anything after it is not looked at.
    pub fn parse_first(bytes: &[u8]) -> Result<Collection, SgfError> {
        Parser::new(bytes).run(1)
    }

    /// Root node index of each game, in file order.
    pub fn games(&self) -> &[usize] {
        &self.games
    }

    /// The node at `index`.
    ///
    /// # Panics
    /// If `index` is not a node of this collection.
    pub fn node(&self, index: usize) -> &SgfNode {
        &self.nodes[index]
    }

    /// Number of nodes in all games.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The main line from node `root`: the node, its first child, that
    /// child's first child, and so on.
    pub fn main_line(&self, root: usize) -> impl Iterator<Item = &SgfNode> + '_ {
        let mut next = self.nodes.get(root);
        std::iter::from_fn(move || {
            let node = next?;
            next = node.children.first().map(|&c| &self.nodes[c]);
            Some(node)
        })
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    nodes: Vec<SgfNode>,
    games: Vec<usize>,
}

impl<'a> Parser<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Parser {
            bytes,
            pos: 0,
            nodes: Vec::new(),
            games: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Between game trees: skips to the next '(' that opens one (followed,
    /// after white space, by ';' or '('), so text around the trees such as
    /// a mail header with "(1)" in it is ignored. False if there is none.
    fn seek_game_tree(&mut self) -> bool {
        while let Some(i) = self.bytes[self.pos..].iter().position(|&b| b == b'(') {
            self.pos += i;
            let next = self.bytes[self.pos + 1..]
                .iter()
                .find(|b| !b.is_ascii_whitespace());
            if matches!(next, Some(b';' | b'(')) {
                return true;
            }
            self.pos += 1;
        }
        self.pos = self.bytes.len();
        false
    }

    /// Parses up to `max_games` game trees.
    fn run(mut self, max_games: usize) -> Result<Collection, SgfError> {
        // For each open '(' the node the variation hangs from (None: a new game).
        let mut open: Vec<Option<usize>> = Vec::new();
        let mut last: Option<usize> = None;
        // Whether properties may follow: true after ';', false after '(' or ')'.
        let mut in_node = false;
        let mut closed_games = 0;
        while closed_games < max_games {
            if open.is_empty() && !self.seek_game_tree() {
                break;
            }
            self.skip_space();
            let Some(b) = self.peek() else {
                if open.is_empty() {
                    break;
                }
                return Err(SgfError::UnexpectedEnd {
                    inside: "game tree",
                });
            };
            match b {
                b'(' => {
                    self.pos += 1;
                    open.push(last);
                    in_node = false;
                }
                b')' => {
                    self.pos += 1;
                    last = open.pop().flatten();
                    in_node = false;
                    if open.is_empty() {
                        closed_games += 1;
                        last = None;
                    }
                }
                b';' => {
                    self.pos += 1;
                    let id = self.nodes.len();
                    self.nodes.push(SgfNode::default());
                    match last {
                        Some(parent) => self.nodes[parent].children.push(id),
                        None => self.games.push(id),
                    }
                    last = Some(id);
                    in_node = true;
                }
                b if b.is_ascii_alphabetic() => {
                    let start = self.pos;
                    let prop = self.property()?;
                    match last {
                        Some(node) if in_node => self.nodes[node].props.push(prop),
                        _ => {
                            return Err(SgfError::BadProperty {
                                ident: prop.0,
                                offset: start,
                            })
                        }
                    }
                }
                _ => {
                    return Err(SgfError::UnexpectedByte {
                        byte: b,
                        offset: self.pos,
                    })
                }
            }
        }
        if self.games.is_empty() {
            return Err(SgfError::NoGameTree);
        }
        Ok(Collection {
            nodes: self.nodes,
            games: self.games,
        })
    }

    /// An identifier and its values. `FF[3]` allows lower-case letters in
    /// identifiers (`AddBlack`); only the upper-case ones count.
    fn property(&mut self) -> Result<(String, Vec<String>), SgfError> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.pos += 1;
        }
        let written = &self.bytes[start..self.pos];
        let ident: String = written
            .iter()
            .filter(|b| b.is_ascii_uppercase())
            .map(|&b| b as char)
            .collect();
        if ident.is_empty() {
            return Err(SgfError::BadProperty {
                ident: String::from_utf8_lossy(written).into_owned(),
                offset: start,
            });
        }
        let mut values = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some(b'[') {
                break;
            }
            self.pos += 1;
            values.push(self.value()?);
        }
        if values.is_empty() {
            return match self.peek() {
                None => Err(SgfError::UnexpectedEnd {
                    inside: "game tree",
                }),
                Some(_) => Err(SgfError::MissingValue {
                    ident,
                    offset: start,
                }),
            };
        }
        Ok((ident, values))
    }

    /// A value after its '[': up to the first unescaped ']'.
    fn value(&mut self) -> Result<String, SgfError> {
        let end = SgfError::UnexpectedEnd {
            inside: "property value",
        };
        let mut out = Vec::new();
        loop {
            let b = self.peek().ok_or(end.clone())?;
            self.pos += 1;
            match b {
                b']' => break,
                b'\\' => {
                    let e = self.peek().ok_or(end.clone())?;
                    self.pos += 1;
                    match e {
                        // Soft line break: '\' + newline (any of \n, \r, \r\n, \n\r) vanishes.
                        b'\n' | b'\r' => {
                            let other = if e == b'\n' { b'\r' } else { b'\n' };
                            if self.peek() == Some(other) {
                                self.pos += 1;
                            }
                        }
                        _ => out.push(e),
                    }
                }
                _ => out.push(b),
            }
        }
        Ok(match String::from_utf8(out) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
}

// ---------------------------------------------------------------------------
// Layer 2: the Go meaning of the first game's main line.

/// Root properties the reader turns into fields (or drops, like `FF`, `CA`
/// and `AP`, which the writer writes afresh); the rest go to `extra`.
const ROOT_KNOWN: &[&str] = &[
    "FF", "GM", "CA", "AP", "SZ", "KM", "HA", "RU", "PL", "PB", "PW", "RE", "DT", "C", "AB", "AW",
    "B", "W",
];

impl GameRecord {
    /// An empty record for a board of side `size`.
    pub fn new(size: usize) -> GameRecord {
        GameRecord {
            size,
            komi: None,
            handicap: 0,
            rules: None,
            setup_black: Vec::new(),
            setup_white: Vec::new(),
            to_play: None,
            black_name: None,
            white_name: None,
            result: None,
            date: None,
            comment: None,
            extra: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The game the record describes, replayed through the rules core:
    /// setup stones, handicap, komi (the rules' handicap komi when `HA` is 2
    /// or more and `KM` is missing), whose turn it is, and the main line up to
    /// but not including move `stop_before` (1-based) when given. `rules`
    /// overrides the record's `RU`; without either, `default_rules` apply.
    /// The result and territory marks play no part.
    pub fn to_game(
        &self,
        rules: Option<Rules>,
        default_rules: Rules,
        stop_before: Option<usize>,
    ) -> Result<Game, RecordError> {
        if !(1..=MAX_SIZE).contains(&self.size) {
            return Err(RecordError::BoardSize(self.size));
        }
        let rules = rules
            .or_else(|| self.rules.as_deref().and_then(|r| Rules::parse(r).ok()))
            .unwrap_or(default_rules);
        let handicap = self.handicap >= 2;
        let mut game = Game::new(self.size, rules);
        game.set_komi(self.komi.unwrap_or(if handicap {
            rules.handicap_komi()
        } else {
            rules.default_komi()
        }));
        if handicap && self.setup_white.is_empty() && !self.setup_black.is_empty() {
            game.place_handicap(&self.setup_black);
        } else {
            for &p in &self.setup_black {
                game.set_stone(p, Some(Color::Black));
            }
            for &p in &self.setup_white {
                game.set_stone(p, Some(Color::White));
            }
            if handicap {
                game.set_handicap(self.handicap);
                game.set_to_move(Color::White);
            }
        }
        if let Some(c) = self.to_play {
            game.set_to_move(c);
        }
        let mut number = 0;
        for event in &self.events {
            match event {
                Event::Move { color, mv, .. } => {
                    number += 1;
                    if stop_before.is_some_and(|n| number >= n) {
                        break;
                    }
                    game.play(*color, *mv)
                        .map_err(|error| RecordError::IllegalMove {
                            number,
                            color: *color,
                            vertex: Vertex::from_move(*mv, self.size).to_string(),
                            error,
                        })?;
                }
                Event::Setup { points } => {
                    for &(p, stone) in points {
                        game.set_stone(p, stone);
                    }
                }
            }
        }
        Ok(game)
    }

    /// The moves of the main line, in order, without comments or setup.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.events.iter().filter_map(|e| match e {
            Event::Move { color, mv, .. } => Some((*color, *mv)),
            Event::Setup { .. } => None,
        })
    }

    /// Reads the main line of the first game in `bytes`.
    pub fn from_sgf(bytes: &[u8]) -> Result<GameRecord, SgfError> {
        let collection = Collection::parse_first(bytes)?;
        let root = *collection.games().first().ok_or(SgfError::NoGameTree)?;
        GameRecord::from_main_line(collection.main_line(root))
    }

    /// Reads a main line given as its nodes, root first.
    pub fn from_main_line<'a>(
        mut nodes: impl Iterator<Item = &'a SgfNode>,
    ) -> Result<GameRecord, SgfError> {
        let root = nodes.next().ok_or(SgfError::NoGameTree)?;
        if let Some(gm) = root.first("GM") {
            if gm.trim() != "1" {
                return Err(SgfError::NotGo(gm.to_string()));
            }
        }
        let size = match root.first("SZ") {
            Some(sz) => parse_size(sz)?,
            None => 19,
        };
        let mut record = GameRecord::new(size);
        let text = |id: &str| root.first(id).map(str::to_string);
        record.komi = match root.first("KM") {
            Some(km) => parse_komi(km)?,
            None => None,
        };
        record.handicap = match root.first("HA").map(str::trim) {
            None | Some("") => 0,
            Some(ha) => ha.parse().map_err(|_| bad_value("HA", ha))?,
        };
        record.rules = text("RU");
        record.to_play = match root.first("PL") {
            Some(pl) => Some(parse_color(pl).ok_or_else(|| bad_value("PL", pl))?),
            None => None,
        };
        record.black_name = text("PB");
        record.white_name = text("PW");
        record.result = text("RE");
        record.date = text("DT");
        record.comment = text("C");
        for (ident, values) in &root.props {
            match ident.as_str() {
                "AB" => record.setup_black.extend(point_list(ident, values, size)?),
                "AW" => record.setup_white.extend(point_list(ident, values, size)?),
                id if ROOT_KNOWN.contains(&id) => {}
                _ => record.extra.push((ident.clone(), values.clone())),
            }
        }
        // A move in the root (rare, but some programs write one) still counts.
        record.read_moves(root)?;
        for node in nodes {
            let mut points = Vec::new();
            for (ident, colour) in [
                ("AB", Some(Color::Black)),
                ("AW", Some(Color::White)),
                ("AE", None),
            ] {
                for (id, values) in node.props.iter().filter(|(id, _)| id == ident) {
                    points.extend(point_list(id, values, size)?.map(|p| (p, colour)));
                }
            }
            if !points.is_empty() {
                record.events.push(Event::Setup { points });
            }
            record.read_moves(node)?;
        }
        Ok(record)
    }

    /// Pushes the node's `B` and `W` moves (with its comment) as events.
    fn read_moves(&mut self, node: &SgfNode) -> Result<(), SgfError> {
        for (ident, values) in &node.props {
            let color = match ident.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            let value = values.first().map_or("", String::as_str);
            let mv = parse_move(ident, value, self.size)?;
            let comment = node.first("C").map(str::to_string);
            self.events.push(Event::Move { color, mv, comment });
        }
        Ok(())
    }

    /// Writes the record as an `FF[4]` SGF game tree (UTF-8).
    ///
    /// Passes are written `B[]`; komi keeps a decimal point when it is
    /// large enough to pass for Fox's komi-times-100, so it reads back as is.
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        out.push_str("(;FF[4]GM[1]CA[UTF-8]AP[kosumi:");
        out.push_str(env!("CARGO_PKG_VERSION"));
        out.push(']');
        out.push_str(&format!("SZ[{}]", self.size));
        if let Some(k) = self.komi {
            let mut km = k.to_string();
            if k.abs() > KOMI_TIMES_100_ABOVE && !km.contains('.') {
                km.push_str(".0");
            }
            out.push_str(&format!("KM[{km}]"));
        }
        let props: [(&str, &Option<String>); 1] = [("RU", &self.rules)];
        write_texts(&mut out, &props);
        if self.handicap > 0 {
            out.push_str(&format!("HA[{}]", self.handicap));
        }
        if let Some(c) = self.to_play {
            out.push_str(&format!("PL[{}]", c.letter()));
        }
        write_texts(
            &mut out,
            &[
                ("PB", &self.black_name),
                ("PW", &self.white_name),
                ("DT", &self.date),
                ("RE", &self.result),
                ("C", &self.comment),
            ],
        );
        write_points(&mut out, "AB", self.setup_black.iter().copied());
        write_points(&mut out, "AW", self.setup_white.iter().copied());
        for (ident, values) in &self.extra {
            out.push_str(ident);
            for v in values {
                out.push('[');
                escape_into(&mut out, v);
                out.push(']');
            }
        }
        out.push('\n');
        for (i, event) in self.events.iter().enumerate() {
            out.push(';');
            match event {
                Event::Move { color, mv, comment } => {
                    out.push(color.letter());
                    out.push('[');
                    if let Move::Play(p) = mv {
                        push_point(&mut out, *p);
                    }
                    out.push(']');
                    write_texts(&mut out, &[("C", comment)]);
                }
                Event::Setup { points } => {
                    for (ident, colour) in [
                        ("AB", Some(Color::Black)),
                        ("AW", Some(Color::White)),
                        ("AE", None),
                    ] {
                        let of_kind = points.iter().filter(|(_, c)| *c == colour);
                        write_points(&mut out, ident, of_kind.map(|(p, _)| *p));
                    }
                }
            }
            if i % 10 == 9 {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }
}

/// Fox writes komi times 100 (`KM[650]`); real komi stays far below this.
const KOMI_TIMES_100_ABOVE: f64 = 150.0;

fn bad_value(property: &str, value: &str) -> SgfError {
    SgfError::BadValue {
        property: property.to_string(),
        value: value.to_string(),
    }
}

fn parse_size(sz: &str) -> Result<usize, SgfError> {
    let bad = || SgfError::BadSize(sz.to_string());
    let side = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let size = match sz.split_once(':') {
        Some((w, h)) => {
            let (w, h) = (side(w)?, side(h)?);
            if w != h {
                return Err(bad());
            }
            w
        }
        None => side(sz)?,
    };
    if (1..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(bad())
    }
}

/// `KM`: a number, with Fox's komi-times-100 (an integer above 150 in
/// absolute value) scaled back. An empty value means no komi.
fn parse_komi(km: &str) -> Result<Option<f64>, SgfError> {
    let t = km.trim().replace(',', ".");
    if t.is_empty() {
        return Ok(None);
    }
    let k: f64 = t.parse().map_err(|_| bad_value("KM", km))?;
    if !k.is_finite() {
        return Err(bad_value("KM", km));
    }
    if !t.contains('.') && k.abs() > KOMI_TIMES_100_ABOVE {
        return Ok(Some(k / 100.0));
    }
    Ok(Some(k))
}

fn parse_color(pl: &str) -> Option<Color> {
    match pl.trim().bytes().next()? {
        b'B' | b'b' => Some(Color::Black),
        b'W' | b'w' => Some(Color::White),
        _ => None,
    }
}

/// An SGF coordinate letter: `a`..`z` are 0..25, `A`..`Z` 26..51 (`FF[4]`).
fn coord(b: u8) -> Option<usize> {
    match b {
        b'a'..=b'z' => Some(usize::from(b - b'a')),
        b'A'..=b'Z' => Some(usize::from(b - b'A') + 26),
        _ => None,
    }
}

fn parse_point(property: &str, value: &str, size: usize) -> Result<Point, SgfError> {
    let (x, y) = match value.trim().as_bytes() {
        &[a, b] => match (coord(a), coord(b)) {
            (Some(x), Some(y)) => (x, y),
            _ => return Err(bad_point(property, value)),
        },
        _ => return Err(bad_point(property, value)),
    };
    Point::checked(x, y, size).ok_or_else(|| SgfError::PointOffBoard {
        property: property.to_string(),
        value: value.to_string(),
        size,
    })
}

fn bad_point(property: &str, value: &str) -> SgfError {
    SgfError::BadPoint {
        property: property.to_string(),
        value: value.to_string(),
    }
}

/// A move: empty is a pass, and so is `tt` on boards up to 19x19 (`FF[3]`).
fn parse_move(property: &str, value: &str, size: usize) -> Result<Move, SgfError> {
    let v = value.trim();
    if v.is_empty() || (v == "tt" && size <= 19) {
        return Ok(Move::Pass);
    }
    parse_point(property, value, size).map(Move::Play)
}

/// A list of points, each value a point or a compressed rectangle `aa:cc`.
fn point_list<'a>(
    property: &'a str,
    values: &'a [String],
    size: usize,
) -> Result<impl Iterator<Item = Point> + 'a, SgfError> {
    let mut rects = Vec::new();
    for v in values {
        if v.trim().is_empty() {
            continue; // FF[4] allows an empty list
        }
        let (a, b) = match v.split_once(':') {
            Some((a, b)) => (
                parse_point(property, a, size)?,
                parse_point(property, b, size)?,
            ),
            None => {
                let p = parse_point(property, v, size)?;
                (p, p)
            }
        };
        // Corners are meant to be upper-left then lower-right; accept any two.
        rects.push((
            a.x().min(b.x())..=a.x().max(b.x()),
            a.y().min(b.y())..=a.y().max(b.y()),
        ));
    }
    Ok(rects
        .into_iter()
        .flat_map(|(xs, ys)| ys.flat_map(move |y| xs.clone().map(move |x| Point::new(x, y)))))
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
}

fn write_texts(out: &mut String, props: &[(&str, &Option<String>)]) {
    for (ident, value) in props {
        if let Some(v) = value {
            out.push_str(ident);
            out.push('[');
            escape_into(out, v);
            out.push(']');
        }
    }
}

fn push_point(out: &mut String, p: Point) {
    out.push(char::from(b'a' + p.x() as u8));
    out.push(char::from(b'a' + p.y() as u8));
}

/// Appends the property `ident` listing `points` (`AB[aa][bb]`), or nothing
/// when there are none.
pub fn write_points(out: &mut String, ident: &str, points: impl Iterator<Item = Point>) {
    let mut points = points.peekable();
    if points.peek().is_none() {
        return;
    }
    out.push_str(ident);
    for p in points {
        out.push('[');
        push_point(out, p);
        out.push(']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Result<GameRecord, SgfError> {
        GameRecord::from_sgf(s.as_bytes())
    }

    fn fails(s: &str) -> SgfError {
        read(s).unwrap_err()
    }

    #[test]
    fn main_line_takes_first_variation() {
        let r = read("(;SZ[9](;B[aa](;W[bb])(;W[cc]))(;B[dd]))").unwrap();
        let moves: Vec<_> = r.moves().collect();
        assert_eq!(
            moves,
            vec![
                (Color::Black, Move::Play(Point::new(0, 0))),
                (Color::White, Move::Play(Point::new(1, 1))),
            ]
        );
    }

    #[test]
    fn escapes_and_soft_line_breaks() {
        let r = read("(;C[a\\]b\\\\c\\\nd\\\r\ne\\x])").unwrap();
        assert_eq!(r.comment.as_deref(), Some("a]b\\cdex"));
    }

    #[test]
    fn ff3_lower_case_identifiers() {
        let r = read("(;FF[3]SZ[9]AddBlack[aa][bb]AddWhite[cc];Black[dd]Comment[hi])").unwrap();
        assert_eq!(r.setup_black, vec![Point::new(0, 0), Point::new(1, 1)]);
        assert_eq!(r.setup_white, vec![Point::new(2, 2)]);
        assert_eq!(
            r.events,
            vec![Event::Move {
                color: Color::Black,
                mv: Move::Play(Point::new(3, 3)),
                comment: Some("hi".into())
            }]
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(read("(;SZ[19:19])").unwrap().size, 19);
        assert_eq!(read("(;)").unwrap().size, 19);
        assert_eq!(read("(;SZ[ 1 ])").unwrap().size, 1);
        for bad in ["19:13", "26", "0", "x", "", "-1"] {
            assert_eq!(
                read(&format!("(;SZ[{bad}])")),
                Err(SgfError::BadSize(bad.into()))
            );
        }
    }

    #[test]
    fn komi_forms() {
        let km = |v: &str| read(&format!("(;KM[{v}])")).map(|r| r.komi);
        assert_eq!(km("6.5"), Ok(Some(6.5)));
        assert_eq!(km("650"), Ok(Some(6.5)));
        assert_eq!(km("375"), Ok(Some(3.75)));
        assert_eq!(km("-650"), Ok(Some(-6.5)));
        assert_eq!(km("7"), Ok(Some(7.0)));
        assert_eq!(km("0.50"), Ok(Some(0.5)));
        assert_eq!(km("200.0"), Ok(Some(200.0)));
        assert_eq!(km(""), Ok(None));
        assert!(km("abc").is_err());
        assert!(km("inf").is_err());
    }

    #[test]
    fn passes_and_points() {
        let r = read("(;SZ[19];B[];W[tt];B[ss])").unwrap();
        let moves: Vec<_> = r.moves().map(|(_, m)| m).collect();
        assert_eq!(
            moves,
            vec![Move::Pass, Move::Pass, Move::Play(Point::new(18, 18))]
        );
        let r = read("(;SZ[21];B[tt])").unwrap();
        assert_eq!(r.moves().next().unwrap().1, Move::Play(Point::new(19, 19)));
        assert!(matches!(
            fails("(;SZ[9];B[jj])"),
            SgfError::PointOffBoard { .. }
        ));
        assert!(matches!(fails("(;SZ[9];B[a])"), SgfError::BadPoint { .. }));
    }

    #[test]
    fn compressed_point_lists_and_setup_nodes() {
        let r = read("(;SZ[5]AB[aa:bb][ee];AE[aa]AW[cc:cd]C[x];B[dd])").unwrap();
        assert_eq!(
            r.setup_black,
            vec![
                Point::new(0, 0),
                Point::new(1, 0),
                Point::new(0, 1),
                Point::new(1, 1),
                Point::new(4, 4)
            ]
        );
        assert_eq!(
            r.events[0],
            Event::Setup {
                points: vec![
                    (Point::new(2, 2), Some(Color::White)),
                    (Point::new(2, 3), Some(Color::White)),
                    (Point::new(0, 0), None),
                ]
            }
        );
    }

    #[test]
    fn errors() {
        assert_eq!(read(""), Err(SgfError::NoGameTree));
        assert_eq!(read("hello"), Err(SgfError::NoGameTree));
        for (text, inside) in [("(;B[aa", "property value"), ("(;B[aa]", "game tree")] {
            assert_eq!(fails(text), SgfError::UnexpectedEnd { inside });
        }
        assert_eq!(read("(;GM[2])"), Err(SgfError::NotGo("2".into())));
        assert!(matches!(fails("(;B)"), SgfError::MissingValue { .. }));
        assert_eq!(read("(B[aa])"), Err(SgfError::NoGameTree));
        assert!(matches!(
            fails("(;B[aa](B[bb]))"),
            SgfError::BadProperty { .. }
        ));
        assert!(matches!(fails("(;b[aa])"), SgfError::BadProperty { .. }));
        let byte = fails("(;B[aa]%)");
        assert!(matches!(byte, SgfError::UnexpectedByte { byte: b'%', .. }));
        assert!(matches!(fails("(;PL[X])"), SgfError::BadValue { .. }));
        let msg = read("(;SZ[30])").unwrap_err().to_string();
        assert!(msg.contains("SZ[30]"), "{msg}");
    }

    #[test]
    fn text_around_game_trees_is_skipped() {
        let r = read("From: someone (1)\n\n(;SZ[9];B[aa])\ntrailing ) junk ( x").unwrap();
        assert_eq!(r.size, 9);
        let c = Collection::parse(b"x (;C[1]) (2) ( ;C[2])").unwrap();
        assert_eq!(c.games().len(), 2);
        assert_eq!(c.node(c.games()[1]).first("C"), Some("2"));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 200_000;
        let mut s = String::from("(;SZ[9]");
        for _ in 0..depth {
            s.push_str("(;B[aa]");
        }
        s.push_str(&")".repeat(depth + 1));
        let r = GameRecord::from_sgf(s.as_bytes()).unwrap();
        assert_eq!(r.events.len(), depth);
        // Unclosed: an error, not a crash.
        let open = "(".repeat(depth);
        assert!(GameRecord::from_sgf(open.as_bytes()).is_err());
    }

    #[test]
    fn lossy_text() {
        let mut bytes = b"(;PB[".to_vec();
        bytes.extend_from_slice(&[0xc4, 0xe3, 0xba, 0xc3]); // GB2312
        bytes.extend_from_slice(b"]C[caf\xe9])");
        let r = GameRecord::from_sgf(&bytes).unwrap();
        assert!(r.black_name.unwrap().contains('\u{fffd}'));
        assert_eq!(r.comment.as_deref(), Some("caf\u{fffd}"));
    }

    #[test]
    fn writer_output() {
        let mut r = GameRecord::new(9);
        r.komi = Some(7.0);
        r.black_name = Some("a]b\\".into());
        r.events.push(Event::Move {
            color: Color::Black,
            mv: Move::Play(Point::new(2, 3)),
            comment: None,
        });
        r.events.push(Event::Move {
            color: Color::White,
            mv: Move::Pass,
            comment: Some("t=1.5".into()),
        });
        let s = r.to_sgf();
        assert!(s.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[kosumi:"), "{s}");
        assert!(s.contains("SZ[9]KM[7]PB[a\\]b\\\\]"), "{s}");
        assert!(s.contains(";B[cd];W[]C[t=1.5])"), "{s}");
        assert_eq!(read(&s).unwrap(), r);
    }
}

/// Why a record cannot be replayed as a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// The board size is outside 1..=25.
    BoardSize(usize),
    /// A move of the main line breaks the rules.
    IllegalMove {
        /// 1-based move number.
        number: usize,
        /// Who played it.
        color: Color,
        /// Where, as a GTP vertex.
        vertex: String,
        /// What rule it breaks.
        error: PlayError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BoardSize(n) => write!(f, "board size {n} not supported"),
            RecordError::IllegalMove {
                number,
                color,
                vertex,
                error,
            } => write!(f, "move {number} ({color} {vertex}) is illegal: {error}"),
        }
    }
}

impl std::error::Error for RecordError {}
