//! KataGo's rule names and rule objects, mapped to the rule sets kosumi plays.
//!
//! KataGo describes rules by five choices (ko, scoring, group tax, suicide,
//! button) plus White's handicap bonus. kosumi plays the nearest of its rule
//! sets: area or territory, suicide, komi and the handicap bonus as given,
//! the ko rule as the set has it (the superko variants differ only in rare
//! long cycles). What it cannot play exactly (group tax as in stone
//! scoring, the button, suicide under territory scoring) is analysed under
//! the nearest set with a warning, as KataGo warns of what it ignores.

use kosumi::board::{RuleSet, Rules};
use serde_json::Value;

/// KataGo's description of a rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct KataRules {
    /// `SIMPLE`, `POSITIONAL`, `SITUATIONAL` or `SPIGHT`.
    pub ko: String,
    /// Territory scoring (else area).
    pub territory: bool,
    /// `NONE`, `SEKI` or `ALL`.
    pub tax: String,
    /// Multi-stone suicide is legal.
    pub suicide: bool,
    /// The button (half a point to the first to pass).
    pub button: bool,
    /// White's bonus per handicap stone: `0`, `N` or `N-1`.
    pub handicap_bonus: String,
    /// Komi the rules default to.
    pub komi: f64,
}

impl KataRules {
    fn new(ko: &str, territory: bool, suicide: bool, bonus: &str) -> KataRules {
        KataRules {
            ko: ko.to_string(),
            territory,
            tax: if territory { "SEKI" } else { "NONE" }.to_string(),
            suicide,
            button: false,
            handicap_bonus: bonus.to_string(),
            komi: if territory { 6.5 } else { 7.5 },
        }
    }

    /// A rule name as KataGo knows it (`japanese`, `chinese`, `aga`, ...).
    pub fn named(name: &str) -> Option<KataRules> {
        let n = name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let r = match n.as_str() {
            "japanese" | "korean" => KataRules::new("SIMPLE", true, false, "0"),
            "chinese" => KataRules::new("SIMPLE", false, false, "N"),
            "chinese-ogs" | "chineseogs" | "chinese-kgs" | "chinesekgs" => {
                KataRules::new("POSITIONAL", false, false, "N")
            }
            "aga" | "bga" | "french" => KataRules::new("SITUATIONAL", false, false, "N-1"),
            "aga-button" | "agabutton" => KataRules {
                button: true,
                komi: 7.0,
                ..KataRules::new("SITUATIONAL", false, false, "N-1")
            },
            "new-zealand" | "newzealand" | "nz" => KataRules::new("SITUATIONAL", false, true, "0"),
            "tromp-taylor" | "tromptaylor" => KataRules::new("POSITIONAL", false, true, "0"),
            "goe" | "ing" => KataRules::new("POSITIONAL", false, true, "0"),
            "stone-scoring" | "stonescoring" | "ancient-area" | "ancientarea" => KataRules {
                tax: "ALL".to_string(),
                ..KataRules::new("SIMPLE", false, false, "0")
            },
            "ancient-territory" | "ancientterritory" => KataRules {
                tax: "ALL".to_string(),
                ..KataRules::new("SIMPLE", true, false, "0")
            },
            _ => return None,
        };
        Some(r)
    }

    /// A rule object: `{"ko":"POSITIONAL","scoring":"AREA","suicide":true,...}`
    /// (KataGo's defaults, Tromp-Taylor-like, for what is missing).
    pub fn from_object(v: &Value) -> Option<KataRules> {
        let map = v.as_object()?;
        let mut r = KataRules::new("POSITIONAL", false, true, "0");
        let mut tax = None;
        let mut komi = None;
        let upper = |v: &Value| v.as_str().map(|s| s.trim().to_ascii_uppercase());
        for (key, value) in map {
            match key.as_str() {
                "ko" | "koRule" => {
                    let k = upper(value)?;
                    ["SIMPLE", "POSITIONAL", "SITUATIONAL", "SPIGHT"]
                        .contains(&k.as_str())
                        .then_some(())?;
                    r.ko = k;
                }
                "score" | "scoring" | "scoringRule" => {
                    r.territory = match upper(value)?.as_str() {
                        "AREA" => false,
                        "TERRITORY" => true,
                        _ => return None,
                    }
                }
                "tax" | "taxRule" => {
                    let t = upper(value)?;
                    ["NONE", "SEKI", "ALL"]
                        .contains(&t.as_str())
                        .then_some(())?;
                    tax = Some(t);
                }
                "suicide" | "multiStoneSuicideLegal" => r.suicide = value.as_bool()?,
                "hasButton" => r.button = value.as_bool()?,
                "whiteHandicapBonus" => {
                    let b = upper(value)?;
                    ["0", "N", "N-1"].contains(&b.as_str()).then_some(())?;
                    r.handicap_bonus = b;
                }
                "friendlyPassOk" => {
                    value.as_bool()?;
                }
                "komi" => komi = Some(value.as_f64()?),
                _ => return None,
            }
        }
        r.tax = tax.unwrap_or_else(|| if r.territory { "SEKI" } else { "NONE" }.to_string());
        r.komi = komi.unwrap_or(if r.territory {
            6.5
        } else if r.button {
            7.0
        } else {
            7.5
        });
        Some(r)
    }

    /// The kosumi rule set nearest these rules, and what it cannot play
    /// exactly (a warning for the client), if anything.
    pub fn to_rules(&self) -> (Rules, Option<String>) {
        let set = match (self.territory, self.suicide, self.ko.as_str()) {
            (true, _, _) => RuleSet::Japanese,
            (false, true, "POSITIONAL") => RuleSet::TrompTaylor,
            (false, true, _) => RuleSet::NewZealand,
            (false, false, _) if self.handicap_bonus == "N-1" => RuleSet::Aga,
            (false, false, _) => RuleSet::Chinese,
        };
        let rules = Rules::new(set);
        let mut differences = Vec::new();
        let tax = if self.territory { "SEKI" } else { "NONE" };
        if self.tax != tax {
            differences.push(format!("group tax {} (counted as {tax})", self.tax));
        }
        if self.territory && self.suicide {
            differences.push("multi-stone suicide (played as illegal)".to_string());
        }
        if self.button {
            differences.push("the button (not counted)".to_string());
        }
        let warning = (!differences.is_empty()).then(|| {
            format!(
                "kosumi plays these rules as {}: {}",
                rules.name(),
                differences.join(", ")
            )
        });
        (rules, warning)
    }

    /// Komi points White receives for `handicap` stones under these rules.
    pub fn handicap_bonus(&self, handicap: usize) -> f64 {
        match self.handicap_bonus.as_str() {
            "N" if handicap >= 2 => handicap as f64,
            "N-1" if handicap >= 2 => handicap as f64 - 1.0,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_map_to_our_sets() {
        let set = |n: &str| {
            let (rules, warning) = KataRules::named(n).unwrap().to_rules();
            (rules.name(), warning.is_some())
        };
        assert_eq!(set("japanese"), ("japanese", false));
        assert_eq!(set("Korean"), ("japanese", false));
        assert_eq!(set("chinese"), ("chinese", false));
        assert_eq!(set("chinese-ogs"), ("chinese", false));
        assert_eq!(set("aga"), ("aga", false));
        assert_eq!(set("new zealand"), ("new-zealand", false));
        assert_eq!(set("tromp-taylor"), ("tromp-taylor", false));
        assert_eq!(set("stone_scoring"), ("chinese", true));
        assert_eq!(set("aga-button"), ("aga", true));
        assert!(KataRules::named("klingon").is_none());
        assert_eq!(KataRules::named("aga").unwrap().handicap_bonus(4), 3.0);
        assert_eq!(KataRules::named("chinese").unwrap().handicap_bonus(4), 4.0);
        assert_eq!(KataRules::named("japanese").unwrap().handicap_bonus(4), 0.0);
    }

    #[test]
    fn objects() {
        let r =
            KataRules::from_object(&json!({"ko":"SIMPLE","scoring":"TERRITORY","suicide":false}))
                .unwrap();
        assert_eq!(r.to_rules().0.name(), "japanese");
        assert_eq!(r.komi, 6.5);
        let (rules, warning) = KataRules::from_object(&json!({"scoring":"AREA","tax":"ALL"}))
            .unwrap()
            .to_rules();
        assert_eq!(rules.name(), "tromp-taylor");
        assert!(warning.unwrap().contains("group tax ALL"));
        let r =
            KataRules::from_object(&json!({"scoring":"TERRITORY","suicide":true,"hasButton":true}));
        let warning = r.unwrap().to_rules().1.unwrap();
        assert!(
            warning.contains("suicide") && warning.contains("button"),
            "{warning}"
        );
        assert!(KataRules::from_object(&json!({"ko":"NONSENSE"})).is_none());
        assert!(KataRules::from_object(&json!({"colour":"red"})).is_none());
        let tt = KataRules::from_object(&json!({})).unwrap();
        assert_eq!(tt.to_rules(), (Rules::new(RuleSet::TrompTaylor), None));
    }
}
