//! A deliberately simple reference model of the rules: an array board, flood
//! fills for chains, positions compared whole and the hash recomputed from
//! scratch. Slow and obvious, so the fast core can be checked against it.

use kosumi::board::{zobrist, Board, Color, Move, PlayError, Point, Rules};
use std::collections::HashMap;

/// What the reference says of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Occupied,
    Suicide,
    /// Immediate recapture (simple ko) or any whole-board repetition under superko.
    Repetition,
}

impl Verdict {
    /// The verdict matching the core's answer to a move.
    pub fn of(result: Result<(), PlayError>) -> Verdict {
        match result {
            Ok(()) => Verdict::Ok,
            Err(PlayError::Occupied) => Verdict::Occupied,
            Err(PlayError::Suicide) => Verdict::Suicide,
            Err(PlayError::Ko) | Err(PlayError::Superko) => Verdict::Repetition,
            Err(PlayError::OffBoard) => panic!("test moves stay on the board"),
        }
    }
}

#[derive(Clone)]
pub struct RefGame {
    pub size: usize,
    pub cells: Vec<Option<Color>>,
    pub captures: [u32; 2],
    pub superko: bool,
    pub suicide_allowed: bool,
    pub pass_prisoner: bool,
    /// Every position after each ply, the start included.
    pub history: Vec<Vec<Option<Color>>>,
    /// Whether each ply was a pass.
    pub passes: Vec<bool>,
    /// Captures before each ply, for undo.
    pub caps_history: Vec<[u32; 2]>,
    /// How often each position in `history` occurs.
    pub seen: HashMap<Vec<Option<Color>>, usize>,
}

impl RefGame {
    /// An empty board of side `size` playing by the ko, suicide and pass
    /// rules of `rules`.
    pub fn new(size: usize, rules: Rules) -> RefGame {
        let cells = vec![None; size * size];
        RefGame {
            size,
            history: vec![cells.clone()],
            cells,
            captures: [0; 2],
            superko: rules.superko(),
            suicide_allowed: rules.suicide_allowed(),
            pass_prisoner: rules.pass_gives_prisoner(),
            passes: Vec::new(),
            caps_history: Vec::new(),
            seen: HashMap::from([(vec![None; size * size], 1)]),
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.size, i / self.size);
        let mut v = Vec::new();
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < self.size {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - self.size);
        }
        if y + 1 < self.size {
            v.push(i + self.size);
        }
        v
    }

    /// The chain through `i` and whether it has a liberty.
    fn chain(cells: &[Option<Color>], me: &RefGame, i: usize) -> (Vec<usize>, bool) {
        let color = cells[i];
        let mut seen = vec![false; cells.len()];
        let mut stack = vec![i];
        let mut chain = Vec::new();
        let mut has_lib = false;
        seen[i] = true;
        while let Some(s) = stack.pop() {
            chain.push(s);
            for n in me.neighbours(s) {
                if cells[n].is_none() {
                    has_lib = true;
                } else if cells[n] == color && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (chain, has_lib)
    }

    /// The liberties of the chain through `i`.
    pub fn liberties(&self, i: usize) -> usize {
        let (chain, _) = RefGame::chain(&self.cells, self, i);
        let mut libs: Vec<usize> = chain
            .iter()
            .flat_map(|&s| self.neighbours(s))
            .filter(|&n| self.cells[n].is_none())
            .collect();
        libs.sort();
        libs.dedup();
        libs.len()
    }

    /// The position and captures after `color` plays on `i`, and its verdict.
    fn try_play(&self, i: usize, color: Color) -> (Verdict, Vec<Option<Color>>, [u32; 2]) {
        let mut cells = self.cells.clone();
        let mut caps = self.captures;
        if cells[i].is_some() {
            return (Verdict::Occupied, cells, caps);
        }
        cells[i] = Some(color);
        let mut captured_any = 0;
        for n in self.neighbours(i) {
            if cells[n] == Some(color.opponent()) {
                let (chain, has_lib) = RefGame::chain(&cells, self, n);
                if !has_lib {
                    for s in chain {
                        cells[s] = None;
                        captured_any += 1;
                    }
                }
            }
        }
        caps[color.index()] += captured_any;
        let (own, has_lib) = RefGame::chain(&cells, self, i);
        if !has_lib {
            if !self.suicide_allowed {
                return (Verdict::Suicide, self.cells.clone(), self.captures);
            }
            for s in &own {
                cells[*s] = None;
            }
            caps[color.opponent().index()] += own.len() as u32;
        }
        let repeats = if self.superko {
            self.seen.contains_key(&cells)
        } else {
            // Simple ko: a single-stone capture that recreates the position
            // from before the opponent's last (stone) move.
            let n = self.history.len();
            captured_any == 1
                && n >= 2
                && !self.passes.last().copied().unwrap_or(true)
                && self.history[n - 2] == cells
        };
        if repeats {
            return (Verdict::Repetition, self.cells.clone(), self.captures);
        }
        (Verdict::Ok, cells, caps)
    }

    pub fn verdict(&self, mv: Move, color: Color) -> Verdict {
        match mv {
            Move::Pass => Verdict::Ok,
            Move::Play(p) => self.try_play(p.y() * self.size + p.x(), color).0,
        }
    }

    pub fn play(&mut self, mv: Move, color: Color) -> Verdict {
        match mv {
            Move::Pass => {
                self.caps_history.push(self.captures);
                if self.pass_prisoner {
                    self.captures[color.opponent().index()] += 1;
                }
                self.remember(self.cells.clone());
                self.passes.push(true);
                Verdict::Ok
            }
            Move::Play(p) => {
                let (v, cells, caps) = self.try_play(p.y() * self.size + p.x(), color);
                if v == Verdict::Ok {
                    self.caps_history.push(self.captures);
                    self.cells = cells;
                    self.captures = caps;
                    self.remember(self.cells.clone());
                    self.passes.push(false);
                }
                v
            }
        }
    }

    fn remember(&mut self, cells: Vec<Option<Color>>) {
        *self.seen.entry(cells.clone()).or_insert(0) += 1;
        self.history.push(cells);
    }

    /// Takes back the last ply; false at the start.
    pub fn undo(&mut self) -> bool {
        let Some(caps) = self.caps_history.pop() else {
            return false;
        };
        let gone = self.history.pop().expect("one per ply");
        let n = self.seen.get_mut(&gone).expect("remembered");
        *n -= 1;
        if *n == 0 {
            self.seen.remove(&gone);
        }
        self.passes.pop();
        self.cells = self.history.last().expect("start position stays").clone();
        self.captures = caps;
        true
    }

    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.y() * self.size + p.x()]
    }

    pub fn hash(&self) -> u64 {
        let mut h = 0;
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(c) = c {
                let p = Point::new(i % self.size, i / self.size);
                h ^= zobrist::STONE[c.index()][p.index()];
            }
        }
        h
    }

    /// Asserts that `board` holds this position: every point, both prisoner
    /// counts and the position hash; `context` says where, on failure.
    pub fn assert_same(&self, board: &Board, context: &str) {
        for p in board.points() {
            assert_eq!(
                board.get(p),
                self.get(p),
                "point {p:?} differs; {context}\n{board}"
            );
        }
        for c in Color::ALL {
            assert_eq!(
                board.captures(c),
                self.captures[c.index()],
                "{c} prisoners; {context}"
            );
        }
        assert_eq!(board.position_hash(), self.hash(), "hash; {context}");
    }

    pub fn legal_count(&self, color: Color) -> usize {
        (0..self.size * self.size)
            .filter(|&i| self.try_play(i, color).0 == Verdict::Ok)
            .count()
    }
}
