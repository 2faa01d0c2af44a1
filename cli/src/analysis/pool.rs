//! The searches behind the analysis protocol: a priority queue of positions
//! and a fixed number of worker threads, each running one search at a time
//! with its share of the cores.
//!
//! Every position ends with exactly one final report (the analysis, or "no
//! results" when it was terminated before any playout), as KataGo promises.

use super::query::Position;
use kosumi::search::{Analysis, Clock, Decision, Limits, Policy, SearchParams, Searcher};
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What a worker hands to the sink.
pub enum Report<'a> {
    /// A snapshot of the search (`during`: more will follow).
    Analysis {
        /// The position searched.
        position: &'a Position,
        /// What the search found so far.
        analysis: &'a Analysis,
        /// Whether the search goes on.
        during: bool,
        /// The move of the query's strength level, in final reports of
        /// queries that name one.
        level_move: Option<Decision>,
    },
    /// The position was terminated before any playout.
    NoResults(&'a Position),
}

/// Receives every report, from any thread.
pub type Sink = Arc<dyn Fn(Report) + Send + Sync>;

const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const TERMINATED: u8 = 2;

struct Task {
    position: Position,
    state: AtomicU8,
    stop: AtomicBool,
}

struct Entry {
    priority: i64,
    seq: u64,
    task: Arc<Task>,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Entry) -> bool {
        (self.priority, self.seq) == (o.priority, o.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Entry) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    /// Highest priority first, then the earliest.
    fn cmp(&self, o: &Entry) -> std::cmp::Ordering {
        self.priority.cmp(&o.priority).then(o.seq.cmp(&self.seq))
    }
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Entry>,
    seq: u64,
    closed: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Positions queued or being searched.
    open: Mutex<Vec<Arc<Task>>>,
    sink: Sink,
    params: SearchParams,
    policy: Policy,
}

/// The worker pool.
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// `workers` concurrent searches, each with `params` (threads, seed,
    /// memory) and its own copy of `policy`.
    pub fn new(workers: usize, params: SearchParams, policy: Policy, sink: Sink) -> Pool {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            open: Mutex::new(Vec::new()),
            sink,
            params: SearchParams {
                quiet: true,
                ..params
            },
            policy,
        });
        let workers = (0..workers.max(1))
            .map(|_| {
                let sh = Arc::clone(&shared);
                std::thread::spawn(move || work(&sh))
            })
            .collect();
        Pool { shared, workers }
    }

    /// Queues positions.
    pub fn submit(&self, positions: Vec<Position>) {
        let mut q = lock(&self.shared.queue);
        let mut open = lock(&self.shared.open);
        for position in positions {
            let task = Arc::new(Task {
                position,
                state: AtomicU8::new(QUEUED),
                stop: AtomicBool::new(false),
            });
            open.push(Arc::clone(&task));
            q.seq += 1;
            let seq = q.seq;
            q.heap.push(Entry {
                priority: task.position.priority,
                seq,
                task,
            });
        }
        drop(open);
        drop(q);
        self.shared.ready.notify_all();
    }

    /// Terminates the open positions of query `id` (all queries when `None`)
    /// and of these turns (all when `None`). Queued ones are reported with
    /// no results at once; running ones stop and report what they found.
    pub fn terminate(&self, id: Option<&str>, turns: Option<&[i64]>) {
        let open = lock(&self.shared.open);
        for task in open.iter() {
            let p = &task.position;
            if id.is_some_and(|id| id != p.id)
                || turns.is_some_and(|t| !t.contains(&(p.turn as i64)))
            {
                continue;
            }
            task.stop.store(true, SeqCst);
            if task.state.swap(TERMINATED, SeqCst) == QUEUED {
                (self.shared.sink)(Report::NoResults(p));
            }
        }
    }

    /// Waits for every queued position to be searched, then stops the workers.
    pub fn finish(mut self) {
        self.close();
    }

    /// Stops the searches at once and drops what is queued (no reports).
    pub fn abandon(mut self) {
        lock(&self.shared.queue).heap.clear();
        for task in lock(&self.shared.open).iter() {
            task.stop.store(true, SeqCst);
        }
        self.close();
    }

    fn close(&mut self) {
        lock(&self.shared.queue).closed = true;
        self.shared.ready.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        if !self.workers.is_empty() {
            self.close();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn work(sh: &Shared) {
    loop {
        let task = {
            let mut q = lock(&sh.queue);
            loop {
                if let Some(e) = q.heap.pop() {
                    break e.task;
                }
                if q.closed {
                    return;
                }
                q = sh.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        if task
            .state
            .compare_exchange(QUEUED, RUNNING, SeqCst, SeqCst)
            .is_ok()
        {
            search(sh, &task);
        }
        lock(&sh.open).retain(|t| !Arc::ptr_eq(t, &task));
    }
}

fn search(sh: &Shared, task: &Task) {
    let p = &task.position;
    let s = &p.settings;
    let pick = |list: &[(kosumi::board::Color, kosumi::board::Move)]| {
        list.iter()
            .filter(|(c, _)| *c == p.to_move)
            .map(|&(_, m)| m)
            .collect::<Vec<_>>()
    };
    let size = p.game.board().size();
    let limits = Limits {
        playouts: Some(s.base.max_visits.map_or_else(
            || kosumi::search::default_playouts(size),
            |v| v.saturating_mul(s.base.per_visit()),
        )),
        time: s.base.max_time.map(Duration::from_secs_f64),
        allow: pick(&s.allow),
        avoid: pick(&s.avoid),
        move_ownership: s.move_ownership,
    };
    // A fresh searcher per position: the result does not depend on which
    // worker took it or what it searched before.
    let mut searcher = Searcher::with_policy(sh.params.clone(), sh.policy.clone());
    let every = s.report_every.map(Duration::from_secs_f64);
    let mut a = searcher.analyze(&p.game, p.to_move, limits, &task.stop, every, &mut |a| {
        (sh.sink)(Report::Analysis {
            position: p,
            analysis: a,
            during: true,
            level_move: None,
        })
    });
    if let Some(mv) = p.evaluate {
        let want = a.playouts / 2;
        let have = a
            .candidates
            .iter()
            .find(|c| c.mv == mv)
            .map_or(0, |c| c.visits);
        if have < want && !task.stop.load(SeqCst) {
            // The same tree, the move alone at the root: the other moves
            // keep the values the search gave them.
            let more = Limits {
                playouts: Some(want - have),
                allow: vec![mv],
                ..Limits::default()
            };
            let b = searcher.analyze(&p.game, p.to_move, more, &task.stop, None, &mut |_| {});
            if let Some(c) = b.candidates.into_iter().find(|c| c.mv == mv) {
                a.candidates.retain(|x| x.mv != mv);
                a.candidates.push(c);
            }
        }
    }
    // The level's move comes from its own short search, as in a game; the
    // analysis above stays the full one.
    let level_move = s
        .base
        .level
        .filter(|_| !task.stop.load(SeqCst))
        .map(|level| {
            let params = SearchParams {
                level,
                ..sh.params.clone()
            };
            let mut player = Searcher::with_policy(params, sh.policy.clone());
            let clock = Clock::none();
            let (d, _) = player.genmove(
                &p.game,
                p.to_move,
                &clock,
                false,
                &task.stop,
                None,
                &mut |_| {},
            );
            d
        });
    if a.playouts == 0 && a.candidates.is_empty() && task.stop.load(SeqCst) {
        (sh.sink)(Report::NoResults(p));
    } else {
        (sh.sink)(Report::Analysis {
            position: p,
            analysis: &a,
            during: false,
            level_move,
        });
    }
}
