//! Bradley-Terry "team" strengths fitted by Minorization-Maximization
//! (Hunter 2004; Coulom 2007, "Computing Elo Ratings of Move Patterns in the
//! Game of Go").
//!
//! Each position is a competition between the candidate moves; a move's team
//! is its features and its strength the product of their gammas; the played
//! move won. Teams are interned (many positions share them), so a position
//! is a list of (team, how many candidates have it) plus the winner.
//! Features of one group never meet in a team, so a whole group is updated
//! at once.

use fxhash::FxHashMap;
use smallvec::SmallVec;

type Team = SmallVec<[u32; 12]>;

/// The competitions to fit.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    team_index: FxHashMap<Team, u32>,
    /// Members of team `t`: `members[team_start[t]..team_start[t + 1]]`.
    members: Vec<u32>,
    team_start: Vec<u32>,
    /// (team, count) of position `j`: `entries[pos_start[j]..pos_start[j + 1]]`.
    entries: Vec<(u32, u32)>,
    pos_start: Vec<u32>,
    winners: Vec<u32>,
}

impl Dataset {
    /// An empty data set.
    pub fn new() -> Dataset {
        Dataset {
            team_start: vec![0],
            pos_start: vec![0],
            ..Dataset::default()
        }
    }

    /// Number of positions.
    pub fn positions(&self) -> usize {
        self.winners.len()
    }

    /// Number of distinct teams.
    pub fn teams(&self) -> usize {
        self.team_start.len() - 1
    }

    /// Number of (position, team) entries.
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    fn intern(&mut self, features: &[u32]) -> u32 {
        let mut team: Team = features.iter().copied().collect();
        team.sort_unstable();
        if let Some(&t) = self.team_index.get(&team) {
            return t;
        }
        let t = self.teams() as u32;
        self.members.extend_from_slice(&team);
        self.team_start.push(self.members.len() as u32);
        self.team_index.insert(team, t);
        t
    }

    /// Adds a position: the candidates' feature ids and which one was played.
    /// A winner out of range is ignored (nothing is added).
    pub fn add_position<'a>(
        &mut self,
        candidates: impl IntoIterator<Item = &'a [u32]>,
        winner: usize,
    ) {
        let mut teams: Vec<u32> = Vec::with_capacity(400);
        for c in candidates {
            let t = self.intern(c);
            teams.push(t);
        }
        let Some(&w) = teams.get(winner) else {
            return;
        };
        teams.sort_unstable();
        let start = self.entries.len();
        for &t in &teams {
            match self.entries[start..].last_mut() {
                Some((lt, n)) if *lt == t => *n += 1,
                _ => self.entries.push((t, 1)),
            }
        }
        self.pos_start.push(self.entries.len() as u32);
        self.winners.push(w);
    }

    fn members(&self, t: usize) -> &[u32] {
        &self.members[self.team_start[t] as usize..self.team_start[t + 1] as usize]
    }

    /// Fits gammas for `group.len()` features (`group[id]` is the group of
    /// feature `id`, below `groups`), `iterations` sweeps over the groups.
    /// Each feature has a prior of one win and one loss against a virtual
    /// opponent of strength 1. `progress(iteration, log_likelihood per
    /// position)` is called after each sweep.
    pub fn fit(
        &self,
        group: &[u8],
        groups: usize,
        iterations: usize,
        mut progress: impl FnMut(usize, f64),
    ) -> Vec<f64> {
        let n = group.len();
        let mut gamma = vec![1.0f64; n];
        let mut wins = vec![0.0f64; n];
        for &w in &self.winners {
            for &m in self.members(w as usize) {
                wins[m as usize] += 1.0;
            }
        }
        let mut by_group: Vec<Vec<u32>> = vec![Vec::new(); groups];
        for (id, &g) in group.iter().enumerate() {
            by_group[g as usize].push(id as u32);
        }
        let teams = self.teams();
        let mut strength = vec![0.0f64; teams];
        let mut acc = vec![0.0f64; teams];
        let mut denom = vec![0.0f64; n];
        for it in 0..iterations {
            for (g, ids) in by_group.iter().enumerate() {
                if ids.is_empty() {
                    continue;
                }
                self.strengths(&gamma, &mut strength);
                acc.iter_mut().for_each(|a| *a = 0.0);
                for j in 0..self.positions() {
                    let es =
                        &self.entries[self.pos_start[j] as usize..self.pos_start[j + 1] as usize];
                    let e: f64 = es
                        .iter()
                        .map(|&(t, c)| c as f64 * strength[t as usize])
                        .sum();
                    let inv = 1.0 / e;
                    for &(t, c) in es {
                        acc[t as usize] += c as f64 * inv;
                    }
                }
                for &id in ids {
                    denom[id as usize] = 0.0;
                }
                for t in 0..teams {
                    if acc[t] == 0.0 {
                        continue;
                    }
                    for &m in self.members(t) {
                        if group[m as usize] as usize == g {
                            denom[m as usize] += acc[t] * strength[t] / gamma[m as usize];
                        }
                    }
                }
                for &id in ids {
                    let i = id as usize;
                    gamma[i] = (wins[i] + 1.0) / (denom[i] + 2.0 / (gamma[i] + 1.0));
                }
            }
            progress(it, self.log_likelihood(&gamma));
        }
        gamma
    }

    fn strengths(&self, gamma: &[f64], out: &mut [f64]) {
        for (t, s) in out.iter_mut().enumerate() {
            *s = self.members(t).iter().map(|&m| gamma[m as usize]).product();
        }
    }

    /// Mean log-likelihood of the played moves under `gamma`.
    pub fn log_likelihood(&self, gamma: &[f64]) -> f64 {
        let mut strength = vec![0.0; self.teams()];
        self.strengths(gamma, &mut strength);
        let mut ll = 0.0;
        for j in 0..self.positions() {
            let es = &self.entries[self.pos_start[j] as usize..self.pos_start[j + 1] as usize];
            let e: f64 = es
                .iter()
                .map(|&(t, c)| c as f64 * strength[t as usize])
                .sum();
            ll += (strength[self.winners[j] as usize] / e).ln();
        }
        ll / self.positions().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn recovers_the_order_of_strengths() {
        // Two groups: group 0 has features 0..4 of true strengths 1, 2, 4, 8;
        // group 1 has features 4..6 of strengths 1, 3. Each candidate has
        // one feature of each group; the winner is drawn by strength.
        let truth = [1.0, 2.0, 4.0, 8.0, 1.0, 3.0];
        let group = [0u8, 0, 0, 0, 1, 1];
        let mut rng = StdRng::seed_from_u64(7);
        let mut data = Dataset::new();
        for _ in 0..3000 {
            let cands: Vec<[u32; 2]> = (0..6)
                .map(|_| [rng.gen_range(0..4), rng.gen_range(4..6)])
                .collect();
            let s: Vec<f64> = cands
                .iter()
                .map(|c| truth[c[0] as usize] * truth[c[1] as usize])
                .collect();
            let mut r = rng.gen::<f64>() * s.iter().sum::<f64>();
            let mut winner = 0;
            for (i, v) in s.iter().enumerate() {
                if r < *v {
                    winner = i;
                    break;
                }
                r -= v;
            }
            data.add_position(cands.iter().map(|c| &c[..]), winner);
        }
        assert_eq!(data.positions(), 3000);
        let mut lls = Vec::new();
        let g = data.fit(&group, 2, 30, |_, ll| lls.push(ll));
        // The likelihood never goes down (MM's guarantee, up to rounding).
        assert!(lls.windows(2).all(|w| w[1] >= w[0] - 1e-9));
        assert!(g[0] < g[1] && g[1] < g[2] && g[2] < g[3], "{g:?}");
        assert!(g[4] < g[5]);
        // Ratios near the truth.
        let r = g[3] / g[0];
        assert!((5.0..12.0).contains(&r), "{r}");
        let r = g[5] / g[4];
        assert!((2.2..4.0).contains(&r), "{r}");
    }
}
