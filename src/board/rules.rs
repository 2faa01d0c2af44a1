//! Rule sets as a value type.

use std::fmt;
use std::str::FromStr;

/// The rule sets kosumi knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// Japanese club rules (1989): simple ko, territory counting.
    #[default]
    Japanese,
    /// Swedish rules: positional superko, pass stones, territory counting.
    Swedish,
    /// Chinese rules: area counting, positional superko; White gets a point
    /// for each handicap stone.
    Chinese,
    /// AGA rules with area counting (as KGS plays them): Chinese rules, but
    /// White gets a point for each handicap stone after the first.
    Aga,
    /// New Zealand rules: area counting, superko, suicide legal, komi 7;
    /// dead stones are taken off by agreement before counting.
    NewZealand,
    /// Tromp-Taylor: area counting, positional superko, suicide legal, and
    /// every stone on the board counts.
    TrompTaylor,
}

/// How repeated positions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
    /// No stone move may recreate an earlier whole-board position.
    PositionalSuperko,
}

/// What counts at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Territory plus prisoners.
    Territory,
    /// Stones plus surrounded empty points.
    Area,
}

/// A complete rule set: ko, suicide, scoring, pass stones and default komi.
///
/// ```
/// use kosumi::board::{Rules, Scoring};
/// let rules: Rules = "tromp-taylor".parse().unwrap();
/// assert_eq!(rules.scoring(), Scoring::Area);
/// assert!(rules.suicide_allowed());
/// assert_eq!(Rules::default().name(), "japanese");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    set: RuleSet,
}

/// A rule-set name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rules '{}' (known: japanese, swedish, chinese, aga, new_zealand, tromp-taylor)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRules {}

impl Rules {
    /// The rules of a set.
    pub const fn new(set: RuleSet) -> Rules {
        Rules { set }
    }

    /// Japanese rules, the default.
    pub const fn japanese() -> Rules {
        Rules::new(RuleSet::Japanese)
    }

    /// Parses a name as [`Rules::name`] writes it or as KGS does (`AGA`,
    /// `new_zealand`): any case, `_` or a space for `-`, and a few aliases.
    pub fn parse(name: &str) -> Result<Rules, UnknownRules> {
        let n = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let set = match n.as_str() {
            "japanese" | "jp" | "korean" => RuleSet::Japanese,
            "swedish" | "se" => RuleSet::Swedish,
            "chinese" | "cn" => RuleSet::Chinese,
            // AGA counts by area with pass stones and situational superko:
            // positional superko and no pass stones give the same result.
            "aga" => RuleSet::Aga,
            // New Zealand rules forbid a repeated situation; a repeated
            // position is as near as the rules core comes.
            "new-zealand" | "newzealand" | "nz" => RuleSet::NewZealand,
            // Ing's rules count stones and spaces with suicide legal and no
            // handicap points, as New Zealand rules do (their ko rule is
            // their own).
            "ing" | "goe" => RuleSet::NewZealand,
            "tromp-taylor" | "tromptaylor" | "tt" => RuleSet::TrompTaylor,
            _ => return Err(UnknownRules(name.trim().to_string())),
        };
        Ok(Rules::new(set))
    }

    /// The set these rules belong to.
    pub const fn set(&self) -> RuleSet {
        self.set
    }

    /// Canonical name, as [`Rules::parse`] reads it.
    pub const fn name(&self) -> &'static str {
        match self.set {
            RuleSet::Japanese => "japanese",
            RuleSet::Swedish => "swedish",
            RuleSet::Chinese => "chinese",
            RuleSet::Aga => "aga",
            RuleSet::NewZealand => "new-zealand",
            RuleSet::TrompTaylor => "tromp-taylor",
        }
    }

    /// How repeated positions are forbidden.
    pub const fn ko_rule(&self) -> KoRule {
        match self.set {
            RuleSet::Japanese => KoRule::Simple,
            _ => KoRule::PositionalSuperko,
        }
    }

    /// Whether positional superko applies.
    pub const fn superko(&self) -> bool {
        matches!(self.ko_rule(), KoRule::PositionalSuperko)
    }

    /// Whether a move may leave its own chain without liberties.
    pub const fn suicide_allowed(&self) -> bool {
        matches!(self.set, RuleSet::NewZealand | RuleSet::TrompTaylor)
    }

    /// What counts at the end.
    pub const fn scoring(&self) -> Scoring {
        match self.set {
            RuleSet::Japanese | RuleSet::Swedish => Scoring::Territory,
            RuleSet::Chinese | RuleSet::Aga | RuleSet::NewZealand | RuleSet::TrompTaylor => {
                Scoring::Area
            }
        }
    }

    /// Whether scoring is by area.
    pub const fn area_scoring(&self) -> bool {
        matches!(self.scoring(), Scoring::Area)
    }

    /// Whether each pass hands the opponent one prisoner.
    pub const fn pass_gives_prisoner(&self) -> bool {
        matches!(self.set, RuleSet::Swedish)
    }

    /// Whether a whole-board repetition voids the game (Japanese texts).
    pub const fn repetition_voids_game(&self) -> bool {
        matches!(self.set, RuleSet::Japanese)
    }

    /// Komi for an even game.
    pub const fn default_komi(&self) -> f64 {
        match self.set {
            RuleSet::Japanese => 6.5,
            RuleSet::Swedish | RuleSet::NewZealand => 7.0,
            RuleSet::Chinese | RuleSet::Aga | RuleSet::TrompTaylor => 7.5,
        }
    }

    /// Komi for a handicap game (White gets half a point to avoid jigo).
    pub const fn handicap_komi(&self) -> f64 {
        0.5
    }

    /// Points White gets, beside komi, for Black's `stones` handicap stones.
    /// Counting by area, the handicap stones are moves White never answered,
    /// each worth a point at the end: Chinese rules give White a point back
    /// for each, AGA rules for each after the first (as KGS, Pachi, KataGo
    /// and GNU Go count). Counting by territory they cost Black nothing, and
    /// Tromp-Taylor knows no handicap. A handicap is 2 to 9 stones: Sabaki
    /// sends the black stones of any set-up position (a problem, say) as
    /// `set_free_handicap`, and ten or more are no handicap game.
    pub const fn handicap_bonus(&self, stones: usize) -> f64 {
        if stones < 2 || stones > 9 {
            return 0.0;
        }
        match self.set {
            RuleSet::Chinese => stones as f64,
            RuleSet::Aga => (stones - 1) as f64,
            _ => 0.0,
        }
    }
}

impl FromStr for Rules {
    type Err = UnknownRules;
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        Rules::parse(s)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for set in [
            RuleSet::Japanese,
            RuleSet::Swedish,
            RuleSet::Chinese,
            RuleSet::Aga,
            RuleSet::NewZealand,
            RuleSet::TrompTaylor,
        ] {
            let r = Rules::new(set);
            assert_eq!(Rules::parse(r.name()).unwrap(), r);
        }
        assert_eq!(Rules::parse("AGA").unwrap().set(), RuleSet::Aga);
        assert_eq!(Rules::parse("ing").unwrap().set(), RuleSet::NewZealand);
        assert_eq!(
            Rules::parse("new_zealand").unwrap().set(),
            RuleSet::NewZealand
        );
        assert_eq!(
            Rules::parse("Tromp_Taylor").unwrap().set(),
            RuleSet::TrompTaylor
        );
        assert!(Rules::parse("klingon").is_err());
        assert!(!Rules::japanese().superko());
        assert!(Rules::parse("swedish").unwrap().pass_gives_prisoner());
    }

    #[test]
    fn white_gets_handicap_points_by_area_only() {
        let r = |name: &str| Rules::parse(name).unwrap();
        assert_eq!(r("chinese").handicap_bonus(4), 4.0);
        assert_eq!(r("aga").handicap_bonus(4), 3.0);
        assert_eq!(r("aga").handicap_bonus(2), 1.0);
        for name in ["japanese", "swedish", "new_zealand", "tromp-taylor"] {
            assert_eq!(r(name).handicap_bonus(9), 0.0, "{name}");
        }
        assert_eq!(r("chinese").handicap_bonus(9), 9.0);
        for name in ["chinese", "aga"] {
            assert_eq!(r(name).handicap_bonus(0), 0.0, "{name}");
            assert_eq!(r(name).handicap_bonus(1), 0.0, "{name}");
            assert_eq!(r(name).handicap_bonus(10), 0.0, "{name}");
        }
        assert!(r("aga").area_scoring() && r("aga").superko());
        assert_eq!(r("aga").name(), "aga");
    }
}
