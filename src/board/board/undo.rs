//! Moves that can be taken back. A reading a few dozen plies deep (the
//! confirmation search) visits millions of positions that differ from
//! their parent by one move; copying the whole board for each cost more
//! than the move itself. A logged move saves only the slots it may write.

use super::{Board, ChainInfo, EMPTY, NO_CHAIN};
use crate::board::{Color, Point};

/// A chain's entry at its head as it was: the liberties, the size and the
/// head's link in the stone list.
#[derive(Clone, Copy)]
struct SavedChain {
    at: u16,
    next: u16,
    size: u16,
    libs: ChainInfo,
}

/// A stone about to be captured, and its neighbours' counts.
#[derive(Clone, Copy)]
struct SavedStone {
    at: u16,
    cell: u8,
    head: u16,
    empty_pos: u16,
    nb_around: [u16; 4],
}

/// What a move or pass changed besides the records in the log's lists,
/// and where its records begin.
struct Frame {
    chains_from: usize,
    heads_from: usize,
    stones_from: usize,
    /// The point played (0 for a pass) and its place in the empty list.
    played: u16,
    played_pos: u16,
    /// Its slot's stale chain fields (an empty point's are never read,
    /// but put back all the same, so that undo gives back the very bytes).
    played_next: u16,
    played_size: u16,
    played_libs: ChainInfo,
    /// The neighbours' counts of the played point.
    nb_around: [u16; 4],
    /// The list's last empty point, which takes the played point's place.
    moved: u16,
    /// The scratch entry's liberties (see `NO_CHAIN`).
    scratch: ChainInfo,
    empty_count: usize,
    hash: u64,
    ko: u16,
    ko_color: u8,
    captures: [u32; 2],
    last_move: u16,
}

/// Moves played with [`Board::play_logged`] and passes made with
/// [`Board::pass_logged`], newest last, to be taken back in reverse order
/// with [`Board::undo`]. Keep one per search: its buffers are reused.
#[derive(Default)]
pub struct UndoLog {
    frames: Vec<Frame>,
    chains: Vec<SavedChain>,
    /// Stones a merge may relabel, with their heads.
    heads: Vec<(u16, u16)>,
    stones: Vec<SavedStone>,
}

impl UndoLog {
    /// An empty log.
    pub fn new() -> UndoLog {
        UndoLog::default()
    }

    /// How many moves and passes can be taken back.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether nothing can be taken back.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    fn save_chain(&mut self, b: &Board, h: usize) {
        self.chains.push(SavedChain {
            at: h as u16,
            next: b.next[h],
            size: b.sizes[h],
            libs: b.chains[h],
        });
    }
}

impl Board {
    /// Plays a legal move, as [`Board::play_unchecked`] does, and records
    /// in `log` what [`Board::undo`] needs to take it back; returns the
    /// stones captured.
    ///
    /// # Panics
    /// If `p` is not an empty point of the board. The move must be legal
    /// (checked in debug builds).
    ///
    /// ```
    /// use kosumi::board::{Board, Color, Point, UndoLog};
    /// let mut board = Board::new(9);
    /// board.play(Point::new(1, 0), Color::White).unwrap();
    /// let before = board.clone();
    /// let mut log = UndoLog::new();
    /// // Black captures White's B9 in three moves, then takes them back.
    /// board.play_logged(Point::new(0, 0), Color::Black, &mut log);
    /// assert_eq!(board.play_logged(Point::new(2, 0), Color::Black, &mut log), 0);
    /// assert_eq!(board.play_logged(Point::new(1, 1), Color::Black, &mut log), 1);
    /// for _ in 0..log.len() {
    ///     board.undo(&mut log);
    /// }
    /// assert_eq!(board, before);
    /// ```
    pub fn play_logged(&mut self, p: Point, color: Color, log: &mut UndoLog) -> u32 {
        let i = p.index();
        assert!(
            self.cells.get(i) == Some(&EMPTY),
            "play_logged on a point that is not an empty point of the board"
        );
        debug_assert!(
            self.is_legal(p, color),
            "play_logged: {color} {p:?} is not legal"
        );
        let around = Self::around(i);
        let heads = around.map(|n| self.head[n] as usize);
        let mut frame = self.frame(log, i);
        frame.nb_around = around.map(|n| self.nb[n]);
        log.frames.push(frame);
        // What the move writes besides: the chains around it (liberties
        // and links at their heads), every stone a merge relabels, and
        // every stone captured with its neighbours' counts and the chains
        // around it, which gain the freed points.
        let me = color.index() as u8;
        let unit = super::lib_unit(i);
        let mut friends = [NO_CHAIN; 4];
        for (k, (&n, &h)) in around.iter().zip(&heads).enumerate() {
            if h == NO_CHAIN || heads[..k].contains(&h) {
                continue;
            }
            log.save_chain(self, h);
            if self.cells[n] == me {
                friends[k] = h;
            } else if self.chains[h].only_liberty_is(unit) {
                self.save_captured(h, log);
            }
        }
        self.save_merged(friends, log);
        self.play_unchecked(p, color)
    }

    /// Lifts the ko ban, as a pass does, recording it in `log` so that
    /// [`Board::undo`] puts it back.
    pub fn pass_logged(&mut self, log: &mut UndoLog) {
        let frame = self.frame(log, 0);
        log.frames.push(frame);
        self.clear_ko();
    }

    /// Takes back the last move or pass recorded in `log`.
    ///
    /// # Panics
    /// If `log` is empty.
    pub fn undo(&mut self, log: &mut UndoLog) {
        let f = log.frames.pop().expect("undo with nothing logged");
        // Every record holds a value from before the move, so the order in
        // which they are put back does not matter. The stone bitboards are
        // mended point by point: copying them both ways cost more than the
        // rest of a quiet move's undo.
        for s in log.stones.drain(f.stones_from..) {
            let i = s.at as usize;
            self.cells[i] = s.cell;
            self.stones[s.cell as usize].insert(Point::from_index(i));
            self.head[i] = s.head;
            self.empty_pos[i] = s.empty_pos;
            for (n, nb) in Self::around(i).into_iter().zip(s.nb_around) {
                self.nb[n] = nb;
            }
        }
        for (at, head) in log.heads.drain(f.heads_from..) {
            self.head[at as usize] = head;
        }
        for c in log.chains.drain(f.chains_from..) {
            let h = c.at as usize;
            self.next[h] = c.next;
            self.sizes[h] = c.size;
            self.chains[h] = c.libs;
        }
        self.chains[NO_CHAIN] = f.scratch;
        let i = f.played as usize;
        if i != 0 {
            let played = std::mem::replace(&mut self.cells[i], EMPTY);
            self.stones[played as usize].remove(Point::from_index(i));
            self.head[i] = NO_CHAIN as u16;
            self.next[i] = f.played_next;
            self.sizes[i] = f.played_size;
            self.chains[i] = f.played_libs;
            for (n, nb) in Self::around(i).into_iter().zip(f.nb_around) {
                self.nb[n] = nb;
            }
            // The captures were appended after the list's last entry moved
            // into the played point's place.
            self.empties[f.played_pos as usize] = f.played;
            self.empty_pos[i] = f.played_pos;
            self.empties[f.empty_count - 1] = f.moved;
            self.empty_pos[f.moved as usize] = (f.empty_count - 1) as u16;
        }
        self.empty_count = f.empty_count;
        self.hash = f.hash;
        self.ko = f.ko;
        self.ko_color = f.ko_color;
        self.captures = f.captures;
        self.last_move = f.last_move;
    }

    /// The frame of a move on `played` (0 for a pass), its neighbours'
    /// counts left to fill.
    fn frame(&self, log: &UndoLog, played: usize) -> Frame {
        Frame {
            chains_from: log.chains.len(),
            heads_from: log.heads.len(),
            stones_from: log.stones.len(),
            played: played as u16,
            played_pos: self.empty_pos[played],
            played_next: self.next[played],
            played_size: self.sizes[played],
            played_libs: self.chains[played],
            nb_around: [0; 4],
            moved: self.empties[self.empty_count.max(1) - 1],
            scratch: self.chains[NO_CHAIN],
            empty_count: self.empty_count,
            hash: self.hash,
            ko: self.ko,
            ko_color: self.ko_color,
            captures: self.captures,
            last_move: self.last_move,
        }
    }

    /// Saves a chain about to be captured: its stones, their neighbours'
    /// counts and the chains around it, which gain the freed liberties
    /// (its own entry at `h`, which its removal also writes, the caller
    /// has saved).
    fn save_captured(&self, h: usize, log: &mut UndoLog) {
        let mut s = h;
        loop {
            let around = Self::around(s);
            log.stones.push(SavedStone {
                at: s as u16,
                cell: self.cells[s],
                head: self.head[s],
                empty_pos: self.empty_pos[s],
                nb_around: around.map(|n| self.nb[n]),
            });
            for n in around {
                let nh = self.head[n] as usize;
                if nh != NO_CHAIN && nh != h {
                    log.save_chain(self, nh);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
    }

    /// Saves the heads of the stones a merge of the `friends` chains
    /// (heads, or `NO_CHAIN`) with the new stone may relabel. A merge
    /// relabels the smaller side, so a chain bigger than all the others and
    /// the stone together is never relabelled: a long wall joined by one
    /// stone costs nothing.
    fn save_merged(&self, friends: [usize; 4], log: &mut UndoLog) {
        let size = |h: usize| {
            if h == NO_CHAIN {
                0
            } else {
                self.sizes[h] as usize
            }
        };
        let total: usize = friends.iter().map(|&h| size(h)).sum();
        let biggest = friends.iter().copied().max_by_key(|&h| size(h));
        for h in friends {
            if h == NO_CHAIN || (Some(h) == biggest && size(h) > 1 + total - size(h)) {
                continue;
            }
            let mut s = h;
            loop {
                log.heads.push((s as u16, self.head[s]));
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::FastRng;

    /// Every slot of every array equal, and the empty list as far as it
    /// goes: undo restores the bytes, not only what the board means.
    fn assert_same(a: &Board, b: &Board, what: &str) {
        assert!(a.cells == b.cells && a.nb == b.nb, "{what}: cells");
        assert!(a.head == b.head && a.next == b.next, "{what}: chains");
        assert!(a.sizes == b.sizes && a.empty_pos == b.empty_pos, "{what}");
        let libs = |x: &Board| x.chains.map(|c| c.libs);
        assert!(libs(a) == libs(b), "{what}: liberties");
        assert_eq!(a.empty_count, b.empty_count, "{what}");
        assert_eq!(a.empties[..a.empty_count], b.empties[..b.empty_count]);
        assert!(a.stones == b.stones && a.hash == b.hash, "{what}");
        assert_eq!(
            (a.ko, a.ko_color, a.last_move),
            (b.ko, b.ko_color, b.last_move)
        );
        assert_eq!(a.captures, b.captures, "{what}");
    }

    /// A seeded random walk of logged moves, passes and undos over games
    /// full of captures, merges and kos: each undo gives back exactly the
    /// board from before the move, and each logged move the board that
    /// playing it on a copy gives.
    #[test]
    fn undo_restores_every_slot() {
        let mut rng = FastRng::new(29);
        let mut undone = 0;
        for size in [3, 5, 9, 19] {
            for _ in 0..6 {
                let mut board = crate::board::scattered_board(size, &mut rng);
                let mut log = UndoLog::new();
                let mut before: Vec<Board> = Vec::new();
                let mut color = Color::Black;
                for step in 0..3000 {
                    if !before.is_empty() && rng.below(5) < 2 {
                        board.undo(&mut log);
                        let old = before.pop().unwrap();
                        assert_same(&board, &old, &format!("undo at step {step}"));
                        board.check_invariants().unwrap();
                        undone += 1;
                    } else {
                        let legal = board.legal_moves(color);
                        before.push(board.clone());
                        if legal.is_empty() || rng.below(20) == 0 {
                            board.pass_logged(&mut log);
                        } else {
                            let p = legal[rng.below(legal.len())];
                            let mut copy = board.clone();
                            let taken = copy.play_unchecked(p, color);
                            assert_eq!(board.play_logged(p, color, &mut log), taken);
                            assert_same(&board, &copy, &format!("play at step {step}"));
                        }
                    }
                    assert_eq!(log.len(), before.len());
                    color = color.opponent();
                }
            }
        }
        assert!(undone > 20_000, "{undone}");
    }
}
