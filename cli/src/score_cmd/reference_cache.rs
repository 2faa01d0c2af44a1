//! The reference engine's counts kept between runs of `kosumi score
//! --gnugo`: GNU Go takes over a second a game (an hour and more for a half
//! of the counted-games table), and its answers never change, so a judge
//! change can be compared with it in the minutes kosumi's own count takes.
//!
//! A text file: a header naming the engine's command, then one line a game:
//! its name, a hash of the record the engine was given (the record without
//! its result and territory marks), the margin (Black minus White) and the
//! seconds it took. Errors are not kept: the engine is asked again.

use anyhow::{anyhow, bail, Context};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// The header's start; the command follows it.
const HEADER: &str = "# kosumi score --gnugo answers of: ";

/// Answers read from the file and the file to add new ones to.
#[derive(Debug)]
pub struct ReferenceCache {
    path: PathBuf,
    known: Mutex<HashMap<(String, u64), (f64, Duration)>>,
    file: Mutex<File>,
}

impl ReferenceCache {
    /// Opens the cache at `path` for `command`'s answers, creating it when
    /// missing. An error when the file holds another command's answers or
    /// a line that cannot be read.
    pub fn open(path: &Path, command: &str) -> anyhow::Result<ReferenceCache> {
        ReferenceCache::read(path, command).with_context(|| path.display().to_string())
    }

    fn read(path: &Path, command: &str) -> anyhow::Result<ReferenceCache> {
        let text = match std::fs::read_to_string(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            read => read?,
        };
        let mut lines = text.lines();
        let mut known = HashMap::new();
        match lines.next().map(|h| h.strip_prefix(HEADER)) {
            None => {}
            Some(Some(c)) if c == command => {}
            Some(Some(c)) => bail!("holds the answers of `{c}`, not of `{command}`"),
            Some(None) => bail!("not a cache of reference answers"),
        }
        for (n, line) in lines.enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let entry =
                parse_line(line).ok_or_else(|| anyhow!("line {}: cannot read `{line}`", n + 2))?;
            known.insert((entry.0, entry.1), (entry.2, entry.3));
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        if text.is_empty() {
            writeln!(file, "{HEADER}{command}")?;
        } else if !text.ends_with('\n') {
            writeln!(file)?;
        }
        Ok(ReferenceCache {
            path: path.to_path_buf(),
            known: Mutex::new(known),
            file: Mutex::new(file),
        })
    }

    /// The kept answer for the game `name` given as `record`.
    pub fn get(&self, name: &str, record: &str) -> Option<(f64, Duration)> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known.get(&(name.to_string(), hash(record))).copied()
    }

    /// Keeps `answer` for the game `name` given as `record`; a name with a
    /// tab or a line break is not kept.
    pub fn put(&self, name: &str, record: &str, answer: (f64, Duration)) -> anyhow::Result<()> {
        if name.contains(['\t', '\n', '\r']) {
            return Ok(());
        }
        let key = (name.to_string(), hash(record));
        let line = format!(
            "{name}\t{:016x}\t{}\t{:.3}\n",
            key.1,
            answer.0,
            answer.1.as_secs_f64()
        );
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| self.path.display().to_string())?;
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known.insert(key, answer);
        Ok(())
    }
}

/// Name, record hash, margin and time of a cache line.
fn parse_line(line: &str) -> Option<(String, u64, f64, Duration)> {
    let mut cols = line.split('\t');
    let name = cols.next()?.to_string();
    let hash = u64::from_str_radix(cols.next()?, 16).ok()?;
    let margin: f64 = cols.next()?.parse().ok()?;
    let seconds: f64 = cols.next()?.parse().ok()?;
    let time = Duration::try_from_secs_f64(seconds).ok()?;
    (cols.next().is_none() && margin.is_finite()).then_some((name, hash, margin, time))
}

/// A hash of the record's text that stays the same from run to run.
fn hash(record: &str) -> u64 {
    fxhash::hash64(record.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> PathBuf {
        std::env::temp_dir().join(format!("kosumi-cache-{tag}-{}.tsv", std::process::id()))
    }

    #[test]
    fn answers_survive_a_reopening_for_the_same_command_only() {
        let path = temp("reopen");
        let _ = std::fs::remove_file(&path);
        let cache = ReferenceCache::open(&path, "gnugo --mode gtp").unwrap();
        assert_eq!(cache.get("a.sgf", "(;SZ[9])"), None);
        let answer = (-3.5, Duration::from_millis(1250));
        cache.put("a.sgf", "(;SZ[9])", answer).unwrap();
        drop(cache);
        let cache = ReferenceCache::open(&path, "gnugo --mode gtp").unwrap();
        assert_eq!(cache.get("a.sgf", "(;SZ[9])"), Some(answer));
        // Another record under the same name is another game.
        assert_eq!(cache.get("a.sgf", "(;SZ[19])"), None);
        let e = format!(
            "{:#}",
            ReferenceCache::open(&path, "gnugo --mode gtp --level 1").unwrap_err()
        );
        assert!(
            e.ends_with(
                "holds the answers of `gnugo --mode gtp`, not of `gnugo --mode gtp --level 1`"
            ),
            "{e}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn unreadable_caches_are_named_with_the_line() {
        let path = temp("bad");
        std::fs::write(&path, format!("{HEADER}g\na.sgf\tzz\t1\t2\n")).unwrap();
        let e = format!("{:#}", ReferenceCache::open(&path, "g").unwrap_err());
        assert!(e.ends_with("line 2: cannot read `a.sgf\tzz\t1\t2`"), "{e}");
        std::fs::write(&path, "some notes\n").unwrap();
        let e = format!("{:#}", ReferenceCache::open(&path, "g").unwrap_err());
        assert!(e.ends_with("not a cache of reference answers"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}
