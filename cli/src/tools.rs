//! Finding the outside programs kosumi's commands and tests use.
//!
//! GNU Go is the usual opponent, referee and rules oracle. Debian and Ubuntu
//! install it as `/usr/games/gnugo`, and `/usr/games` is often not on a
//! user's PATH, so a bare `gnugo` in an engine command line would not start.

use anyhow::{anyhow, bail};
use std::env;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Where Debian's package puts GNU Go.
pub const GNUGO_DEBIAN: &str = "/usr/games/gnugo";

/// GNU Go's program: `$GNUGO` if set (a path, or a name on PATH), else `gnugo` on PATH,
/// else `/usr/games/gnugo`. An error says where it looked.
pub fn gnugo() -> anyhow::Result<PathBuf> {
    if let Some(path) = env::var_os("GNUGO").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Ok(path);
        }
        // A bare name (`GNUGO=gnugo-3.8`) is looked up on PATH.
        let bare = path.components().count() == 1;
        return bare
            .then(|| on_path(&path.to_string_lossy()))
            .flatten()
            .ok_or_else(|| anyhow!("GNUGO={} is not a file", path.display()));
    }
    if let Some(path) = on_path("gnugo") {
        return Ok(path);
    }
    let debian = Path::new(GNUGO_DEBIAN);
    if debian.is_file() {
        return Ok(debian.to_path_buf());
    }
    bail!(
        "GNU Go not found: GNUGO is not set, no gnugo on PATH, no {GNUGO_DEBIAN} \
         (apt-get install gnugo)"
    )
}

/// The program to start for the first word of an engine command line. A
/// bare `gnugo` that is not on PATH becomes wherever [`gnugo`] finds it;
/// everything else is left to the operating system.
pub fn resolve_program(program: &str) -> PathBuf {
    if program == "gnugo" && on_path(program).is_none() {
        if let Ok(path) = gnugo() {
            return path;
        }
    }
    PathBuf::from(program)
}

/// `name` in one of PATH's folders, as a file.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(OsStr::new(name)))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_programs_are_left_alone() {
        assert_eq!(resolve_program("pachi"), PathBuf::from("pachi"));
        assert_eq!(
            resolve_program("/opt/gnugo/bin/gnugo"),
            PathBuf::from("/opt/gnugo/bin/gnugo")
        );
    }

    #[test]
    fn bare_gnugo_resolves_where_the_helper_finds_it() {
        // Whatever this machine has: the resolved program is either on PATH
        // (left bare), or the helper's answer.
        let resolved = resolve_program("gnugo");
        match (on_path("gnugo"), gnugo()) {
            (Some(_), _) => assert_eq!(resolved, PathBuf::from("gnugo")),
            (None, Ok(found)) => assert_eq!(resolved, found),
            (None, Err(_)) => assert_eq!(resolved, PathBuf::from("gnugo")),
        }
    }
}
