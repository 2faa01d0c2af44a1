//! KataGo's rule names and rule objects, mapped to the rule sets kosumi plays.
//!
//! KataGo describes rules by five choices (ko, scoring, group tax, suicide,
//! button) plus White's handicap bonus. kosumi plays four sets; the mapping
//! keeps what changes the result (area or territory, suicide, komi and the
//! handicap bonus) and lets the ko rule follow the set (the superko variants
//! differ only in rare long cycles). Group tax and the button change the
//! score in ways kosumi cannot count: those are errors.

use anyhow::{bail, ensure};
use kosumi::board::Rules;
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

    /// The kosumi rule set that plays these rules, or why none can.
    pub fn to_rules(&self) -> anyhow::Result<Rules> {
        ensure!(
            self.tax != "ALL",
            "kosumi cannot play rules with group tax (tax ALL: stone scoring, ancient territory)"
        );
        ensure!(
            !self.button,
            "kosumi cannot play the button rule (hasButton)"
        );
        let name = match (self.territory, self.suicide) {
            (true, true) => bail!("kosumi cannot play territory scoring with multi-stone suicide"),
            (true, false) => "japanese",
            (false, true) => "tromp-taylor",
            (false, false) => "chinese",
        };
        Ok(Rules::parse(name).expect("a known set"))
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
            KataRules::named(n)
                .unwrap()
                .to_rules()
                .ok()
                .map(|r| r.name())
        };
        assert_eq!(set("japanese"), Some("japanese"));
        assert_eq!(set("Korean"), Some("japanese"));
        assert_eq!(set("chinese"), Some("chinese"));
        assert_eq!(set("chinese-ogs"), Some("chinese"));
        assert_eq!(set("aga"), Some("chinese"));
        assert_eq!(set("new-zealand"), Some("tromp-taylor"));
        assert_eq!(set("tromp-taylor"), Some("tromp-taylor"));
        assert!(set("stone-scoring").is_none());
        assert!(set("aga-button").is_none());
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
        assert_eq!(r.to_rules().unwrap().name(), "japanese");
        assert_eq!(r.komi, 6.5);
        let r = KataRules::from_object(&json!({"scoring":"AREA","tax":"ALL"})).unwrap();
        assert!(r.to_rules().is_err());
        assert!(KataRules::from_object(&json!({"ko":"NONSENSE"})).is_none());
        assert!(KataRules::from_object(&json!({"colour":"red"})).is_none());
        let tt = KataRules::from_object(&json!({})).unwrap();
        assert_eq!(tt.to_rules().unwrap().name(), "tromp-taylor");
    }
}
