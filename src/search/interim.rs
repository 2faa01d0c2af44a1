//! Interim stand-in (not committed).
#![allow(missing_docs, dead_code, clippy::too_many_arguments)]
use super::*;
use crate::board::{random_move, FastRng};
#[derive(Clone, Debug, Default)]
pub struct Clock {
    set: bool,
}
impl Clock {
    pub fn none() -> Clock {
        Clock::default()
    }
    pub fn from_gtp(_m: f64, _b: f64, _s: u32) -> Clock {
        Clock { set: true }
    }
    pub fn absolute(_m: f64) -> Clock {
        Clock { set: true }
    }
    pub fn japanese(_m: f64, _p: f64, _n: u32) -> Clock {
        Clock { set: true }
    }
    pub fn canadian(_m: f64, _b: f64, _s: u32) -> Clock {
        Clock { set: true }
    }
    pub fn is_set(&self) -> bool {
        self.set
    }
    pub fn set_time_left(&mut self, _c: Color, _s: f64, _n: u32) {}
    pub fn budget(&self, _c: Color, _g: &Game) -> Option<Duration> {
        None
    }
}
impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: 1,
            max_memory: 1 << 30,
            seed: 1,
            resign_threshold: 0.1,
            playouts: None,
            time_per_move: None,
            ponder: false,
            quiet: false,
        }
    }
}
pub struct Searcher {
    p: SearchParams,
    rng: FastRng,
}
impl Searcher {
    pub fn new(p: SearchParams) -> Searcher {
        let rng = FastRng::new(p.seed);
        Searcher { p, rng }
    }
    pub fn params(&self) -> &SearchParams {
        &self.p
    }
    pub fn set_params(&mut self, p: SearchParams) {
        self.p = p;
    }
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        _clock: &Clock,
        _cleanup: bool,
        _stop: &AtomicBool,
        _e: Option<Duration>,
        report: &mut dyn FnMut(&Analysis),
    ) -> (Decision, Analysis) {
        let mv = random_move(game.board(), color, &mut self.rng).map_or(Move::Pass, Move::Play);
        let a = Analysis {
            playouts: 1,
            winrate: 0.5,
            candidates: vec![Candidate {
                mv,
                visits: 1,
                winrate: 0.5,
                prior: 1.0,
                lcb: 0.4,
                score_lead: 0.0,
                pv: vec![mv],
            }],
            ..Default::default()
        };
        report(&a);
        (Decision::Play(mv), a)
    }
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        _l: Limits,
        stop: &AtomicBool,
        every: Option<Duration>,
        report: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let mut a = Analysis::default();
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(every.unwrap_or(Duration::from_millis(100)));
            let (d, b) = self.genmove(game, color, &Clock::none(), false, stop, None, &mut |_| {});
            let _ = d;
            a = b;
            a.ownership = vec![0.0; game.board().size() * game.board().size()];
            report(&a);
            if _l.playouts.is_some() {
                break;
            }
        }
        a
    }
    pub fn clear(&mut self) {}
}
