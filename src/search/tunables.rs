//! The search's named constants, settable by name so that matches can tune
//! them (`kosumi gtp --param prior.even=14`, `kosumi tune`) without a
//! rebuild.
//!
//! Every number that shapes the search has one name here: the tree's
//! constants ([`SearchWeights`]), the tree priors ([`PriorWeights`]) and the
//! playout rule rates ([`PlayoutWeights`]).
//!
//! [`PriorWeights`]: super::policy::PriorWeights
//! [`PlayoutWeights`]: super::policy::PlayoutWeights

use super::policy::Policy;

/// Largest board the `_small` constants of [`SearchWeights`] apply to.
pub const SMALL_BOARD_MAX: usize = 13;

/// Constants of the tree search itself.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchWeights {
    /// Share of the backed-up value given to the squashed score.
    pub score_weight: f64,
    /// RAVE equivalence: visits at which RAVE and UCT weigh the same, on
    /// boards up to 13x13.
    pub rave_equiv_small: f64,
    /// The same on larger boards.
    pub rave_equiv_large: f64,
    /// Exploration constant of the UCB term (0: RAVE and the priors explore).
    pub explore: f64,
    /// Smallest board on which the learned move patterns add to the priors.
    pub learned_min_size: usize,
    /// Smallest board on which `--playout-patterns on` lets the learned 3x3
    /// shapes draw playout moves (measured on 13x13 only).
    pub playout_shapes_min_size: usize,
    /// Largest board on which the two-liberty fight rules and the ladder
    /// read before escaping run (measured on 9x9 and 19x19; 13x13 lies
    /// between, larger boards are left as they were).
    pub fights_max_size: usize,
    /// Extra AMAF weight of a move played right after a node, falling
    /// linearly to none at the end of the playout (0: every move weighs 1).
    pub rave_distance: f64,
    /// How much of the parent's value a prior is measured from: 1 makes a
    /// prior an offset from the parent's value (first-play urgency), 0
    /// takes it as it is, so in a lost-looking position untried moves
    /// still look even and get tried (as Pachi's priors do).
    pub prior_relative: f64,
    /// Visits a node needs before it gets children, on boards up to 13x13
    /// (the root always expands): more saves prior work per playout, fewer
    /// puts the priors to use sooner.
    pub expand_small: usize,
    /// The same on larger boards.
    pub expand_large: usize,
}

impl Default for SearchWeights {
    fn default() -> SearchWeights {
        SearchWeights {
            score_weight: 0.08,
            rave_equiv_small: 1000.0,
            rave_equiv_large: 3000.0,
            explore: 0.0,
            learned_min_size: 9,
            playout_shapes_min_size: 13,
            fights_max_size: 19,
            rave_distance: 3.0,
            prior_relative: 1.0,
            expand_small: 2,
            expand_large: 4,
        }
    }
}

/// A tunable's name, its current value and its setter.
type Entry<'a> = (&'static str, &'a mut dyn Value);

/// Something a tunable can be: read as and set from an `f64`.
trait Value {
    fn get(&self) -> f64;
    /// Sets the value, or says why it cannot be.
    fn set(&mut self, v: f64) -> Result<(), String>;
}

impl Value for f64 {
    fn get(&self) -> f64 {
        *self
    }
    fn set(&mut self, v: f64) -> Result<(), String> {
        *self = v;
        Ok(())
    }
}

impl Value for f32 {
    fn get(&self) -> f64 {
        *self as f64
    }
    fn set(&mut self, v: f64) -> Result<(), String> {
        *self = v as f32;
        Ok(())
    }
}

impl Value for usize {
    fn get(&self) -> f64 {
        *self as f64
    }
    fn set(&mut self, v: f64) -> Result<(), String> {
        if v.fract() != 0.0 || !(0.0..=1e6).contains(&v) {
            return Err(format!("{v} is not a whole number"));
        }
        *self = v as usize;
        Ok(())
    }
}

impl Policy {
    /// Every tunable, in a fixed order.
    fn entries(&mut self) -> Vec<Entry<'_>> {
        let s = &mut self.search;
        let p = &mut self.prior;
        let r = &mut self.playout;
        vec![
            ("search.score_weight", &mut s.score_weight),
            ("search.rave_equiv_small", &mut s.rave_equiv_small),
            ("search.rave_equiv_large", &mut s.rave_equiv_large),
            ("search.explore", &mut s.explore),
            ("search.learned_min_size", &mut s.learned_min_size),
            (
                "search.playout_shapes_min_size",
                &mut s.playout_shapes_min_size,
            ),
            ("search.fights_max_size", &mut s.fights_max_size),
            ("search.rave_distance", &mut s.rave_distance),
            ("search.prior_relative", &mut s.prior_relative),
            ("search.expand_small", &mut s.expand_small),
            ("search.expand_large", &mut s.expand_large),
            ("prior.even", &mut p.even),
            ("prior.capture", &mut p.capture),
            ("prior.capture_per_stone", &mut p.capture_per_stone),
            ("prior.escape", &mut p.escape),
            ("prior.pattern_near", &mut p.pattern_near),
            ("prior.pattern_far", &mut p.pattern_far),
            ("prior.fight", &mut p.fight),
            ("prior.fight_race", &mut p.fight_race),
            ("prior.chain_liberty", &mut p.chain_liberty),
            ("prior.eye_fix", &mut p.eye_fix),
            ("prior.nakade", &mut p.nakade),
            ("prior.self_atari", &mut p.self_atari),
            ("prior.self_atari_chain", &mut p.self_atari_chain),
            ("prior.near_last", &mut p.near_last),
            ("prior.around_last", &mut p.around_last),
            ("prior.edge_empty", &mut p.edge_empty),
            ("prior.second_line_empty", &mut p.second_line_empty),
            ("prior.third_line_empty", &mut p.third_line_empty),
            ("prior.pass_early", &mut p.pass_early),
            ("prior.learned", &mut p.learned),
            ("prior.learned_wins", &mut p.learned_wins),
            ("prior.learned_wins_large", &mut p.learned_wins_large),
            ("playout.capture", &mut r.capture),
            ("playout.escape", &mut r.escape),
            ("playout.pattern", &mut r.pattern),
            ("playout.nakade", &mut r.nakade),
            ("playout.nakade_size", &mut r.nakade_size),
            ("playout.two_liberties", &mut r.two_liberties),
            ("playout.reject_self_atari", &mut r.reject_self_atari),
            ("playout.escape_ladder", &mut r.escape_ladder),
            ("playout.counter_atari", &mut r.counter_atari),
            ("playout.eye_fix", &mut r.eye_fix),
            ("playout.pattern_last2", &mut r.pattern_last2),
            ("playout.sacrifice", &mut r.sacrifice),
            ("playout.false_seki", &mut r.false_seki),
            ("playout.ko", &mut r.ko),
            ("playout.last_good_reply", &mut r.last_good_reply),
            ("playout.self_atari_cousin", &mut r.self_atari_cousin),
            ("playout.learned_rest", &mut r.learned_rest),
            ("playout.learned_min", &mut r.learned_min),
        ]
    }

    /// Sets the tunable `name` to `value`; an unknown name or a value out
    /// of range (negative, not finite, a probability above 1) is an error.
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), String> {
        if !value.is_finite() || value < 0.0 {
            return Err(format!("{name}: {value} is not a finite number >= 0"));
        }
        let rate = name.starts_with("playout.")
            && !["playout.learned_min", "playout.nakade_size"].contains(&name);
        if rate && value > 1.0 {
            return Err(format!("{name}: {value} is a probability above 1"));
        }
        let mut entries = self.entries();
        let Some((_, v)) = entries.iter_mut().find(|(n, _)| *n == name) else {
            return Err(format!("unknown parameter '{name}'"));
        };
        v.set(value).map_err(|e| format!("{name}: {e}"))?;
        self.refresh();
        Ok(())
    }

    /// Every tunable's name and value, in a fixed order.
    pub fn params(&self) -> Vec<(&'static str, f64)> {
        let mut copy = self.clone();
        copy.entries().iter().map(|(n, v)| (*n, v.get())).collect()
    }
}

/// Parses `NAME=VALUE` as `--param` gives it.
pub fn parse_assignment(s: &str) -> Result<(String, f64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not NAME=VALUE"))?;
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("'{value}' is not a number"))?;
    let name = name.trim().to_string();
    Policy::default().set_param(&name, value)?;
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_param_reads_back_what_was_set() {
        let names: Vec<&str> = Policy::default().params().iter().map(|p| p.0).collect();
        for name in names {
            let mut p = Policy::default();
            p.set_param(name, 1.0).unwrap();
            let got = p.params().into_iter().find(|e| e.0 == name).unwrap().1;
            assert_eq!(got, 1.0, "{name}");
        }
    }

    #[test]
    fn bad_params_are_errors() {
        let mut p = Policy::default();
        assert!(p.set_param("prior.nonsense", 1.0).is_err());
        assert!(p.set_param("prior.even", -1.0).is_err());
        assert!(p.set_param("prior.even", f64::NAN).is_err());
        assert!(p.set_param("playout.capture", 1.5).is_err());
        assert!(p.set_param("search.learned_min_size", 2.5).is_err());
        assert_eq!(p.params(), Policy::default().params());
        // A size, not a rate.
        assert!(p.set_param("playout.nakade_size", 6.0).is_ok());
        assert_eq!(
            parse_assignment("prior.even = 14"),
            Ok(("prior.even".into(), 14.0))
        );
        assert!(parse_assignment("prior.even").is_err());
        assert!(parse_assignment("prior.even=x").is_err());
    }
}
