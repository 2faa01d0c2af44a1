//! The match's engines: started and checked, and told the match's rules.

use std::time::Duration;

use super::config::Config;
use super::MatchError;
use crate::client::Client;

/// A worker's two engines, in `--engine` order; `None` until started.
pub(super) type Pair = [Option<Client>; 2];

/// Starts an engine and checks that it speaks GTP; returns it with its GTP name.
pub(super) fn start_engine(cfg: &Config, e: usize) -> Result<(Client, String), MatchError> {
    let label = cfg
        .names
        .as_ref()
        .map_or_else(|| format!("engine {}", e + 1), |n| n[e].clone());
    let mut engine = Client::start(&label, &cfg.engines[e], &cfg.stderr)?;
    // Engines loading a network can be slow to answer the first command.
    let first = cfg.move_timeout.max(Duration::from_secs(30));
    match engine.send("protocol_version", first)? {
        Ok(v) if v.trim() == "2" => {}
        Ok(v) => {
            return Err(MatchError::Failed(format!(
                "engine '{label}' ({}) speaks GTP version {v:?}, not 2",
                cfg.engines[e]
            )))
        }
        Err(_) => {} // GTP v1 engines may not know it; `name` below still checks the framing.
    }
    let name = match engine.send("name", cfg.move_timeout)? {
        Ok(n) if !n.trim().is_empty() => n.trim().to_string(),
        _ => label.clone(),
    };
    Ok((engine, name))
}

/// Tells an engine that knows `kgs-rules` the match's rules (before `komi`,
/// which some engines reset with the rules): without it an engine plays
/// and counts by its own default rules, for example simple ko where the
/// match forbids a superko repetition. An engine that refuses the name
/// keeps its own rules, with a warning.
pub(super) fn tell_rules(engine: &mut Client, rules: &str, t: Duration) -> Result<(), MatchError> {
    // An engine that does not answer `known_command` does not know it either.
    if !matches!(engine.send("known_command kgs-rules", t)?, Ok(ref yes) if yes == "true") {
        return Ok(());
    }
    if let Err(msg) = engine.send(&format!("kgs-rules {rules}"), t)? {
        eprintln!(
            "kosumi match: engine '{}' refused 'kgs-rules {rules}' ({msg}); it plays by its own rules",
            engine.name()
        );
    }
    Ok(())
}
