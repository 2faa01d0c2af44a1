//! Where `kosumi score` finds the games it checks: a list of SGF paths, or
//! the counted-games table (`kgs-counted.tsv`) whose games stay inside
//! their `.tar.gz` archives and are read straight out of them.

use anyhow::{anyhow, bail, ensure};
use flate2::read::GzDecoder;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One game to check: a name for reports and its SGF text, or why it could
/// not be read.
pub struct GameFile {
    /// `archive:member` for archived games, the path for files.
    pub name: String,
    /// The SGF bytes.
    pub sgf: anyhow::Result<Vec<u8>>,
}

/// Which games of a source to take.
#[derive(Clone, Copy, Debug)]
pub struct Pick<'a> {
    /// Only rows of this half (`tune`, `validate`); all when `None`.
    pub half: Option<&'a str>,
    /// Every n-th game (the n-th, 2n-th, ...), after the half is chosen.
    pub every: usize,
    /// Leave out this many games, after `every` (to count a long table in parts).
    pub skip: usize,
    /// At most this many games, after `every` and `skip`.
    pub first: Option<usize>,
}

/// Every game of the source.
impl Default for Pick<'_> {
    fn default() -> Self {
        Pick {
            half: None,
            every: 1,
            skip: 0,
            first: None,
        }
    }
}

impl Pick<'_> {
    fn apply<T>(&self, items: Vec<T>) -> Vec<T> {
        let every = self.every.max(1);
        items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| (i + 1).is_multiple_of(every))
            .map(|(_, x)| x)
            .skip(self.skip)
            .take(self.first.unwrap_or(usize::MAX))
            .collect()
    }
}

/// The SGF paths of a list file (one a line, relative to its folder; `#`
/// starts a comment line), read into memory.
pub fn from_list(list: &Path, pick: &Pick) -> anyhow::Result<Vec<GameFile>> {
    let text = std::fs::read_to_string(list)?;
    let dir = list.parent().unwrap_or(Path::new("."));
    let paths: Vec<PathBuf> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| dir.join(l))
        .collect();
    Ok(pick
        .apply(paths)
        .into_iter()
        .map(|p| GameFile {
            name: p.display().to_string(),
            sgf: std::fs::read(&p).map_err(Into::into),
        })
        .collect())
}

/// One row of the counted-games table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Archive file name.
    pub archive: String,
    /// Path of the SGF inside the archive.
    pub member: String,
    /// `tune` or `validate`.
    pub half: String,
}

/// Parses the table: `archive<TAB>member<TAB>half` per line, `#` comments.
pub fn parse_table(text: &str) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [archive, member, half] = cols[..] else {
            bail!(
                "line {}: expected 3 tab-separated columns (archive, member, half), got {}",
                n + 1,
                cols.len()
            );
        };
        rows.push(Row {
            archive: archive.to_string(),
            member: member.to_string(),
            half: half.to_string(),
        });
    }
    Ok(rows)
}

/// The folder the archives of a table lie in by default: `../kgs-6d/`
/// beside the table's folder, as in the shared data layout.
pub fn default_archives(table: &Path) -> PathBuf {
    let dir = table.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    dir.join("..").join("kgs-6d")
}

/// The games a table picks, read out of their archives in `archives`: each
/// archive is streamed once. Rows keep the table's order; a member missing
/// from its archive, or an unreadable archive, becomes an error for that
/// game.
pub fn from_table(table: &Path, archives: &Path, pick: &Pick) -> anyhow::Result<Vec<GameFile>> {
    let rows = parse_table(&std::fs::read_to_string(table)?)?;
    if let Some(h) = pick.half {
        ensure!(rows.iter().any(|r| r.half == h), "no rows of half `{h}`");
    }
    let rows = pick.apply(
        rows.into_iter()
            .filter(|r| pick.half.is_none_or(|h| r.half == h))
            .collect(),
    );
    // archive -> member -> position in `rows`.
    let mut wanted: HashMap<&str, HashMap<&str, usize>> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        wanted
            .entry(r.archive.as_str())
            .or_default()
            .insert(r.member.as_str(), i);
    }
    let mut sgf: Vec<Option<anyhow::Result<Vec<u8>>>> = rows.iter().map(|_| None).collect();
    let mut names: Vec<&str> = wanted.keys().copied().collect();
    names.sort_unstable();
    for name in names {
        let members = &wanted[name];
        let path = archives.join(name);
        let read = std::fs::File::open(&path)
            .map_err(Into::into)
            .and_then(|f| read_members(f, members, &mut sgf));
        if let Err(e) = read {
            for &i in members.values() {
                sgf[i].get_or_insert_with(|| Err(anyhow!("{}: {e:#}", path.display())));
            }
        }
    }
    Ok(rows
        .iter()
        .zip(sgf)
        .map(|(r, s)| GameFile {
            name: format!("{}:{}", r.archive, r.member),
            sgf: s.unwrap_or_else(|| Err(anyhow!("not in the archive"))),
        })
        .collect())
}

/// Streams a `.tar.gz` and stores the bytes of each wanted member at its
/// position.
fn read_members(
    file: impl Read,
    members: &HashMap<&str, usize>,
    out: &mut [Option<anyhow::Result<Vec<u8>>>],
) -> anyhow::Result<()> {
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let mut left = members.len();
    for entry in archive.entries()? {
        let mut entry = entry?;
        let path = entry.path()?;
        let Some(&i) = path.to_str().and_then(|p| members.get(p)) else {
            continue;
        };
        if out[i].is_some() {
            continue;
        }
        let mut bytes = Vec::new();
        out[i] = Some(
            entry
                .read_to_end(&mut bytes)
                .map(|_| bytes)
                .map_err(Into::into),
        );
        left -= 1;
        if left == 0 {
            break;
        }
    }
    Ok(())
}
