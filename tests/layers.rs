//! The layers depend one way: rules core <- counting <- search <- GTP and
//! CLI. No file of a lower layer may name a higher one.

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn check(layer: &str, forbidden: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let dir = root.join(layer);
    if dir.is_dir() {
        sources(&dir, &mut files);
    } else {
        files.push(root.join(format!("{layer}.rs")));
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for name in forbidden {
            for pattern in [
                format!("crate::{name}"),
                format!("kosumi::{name}"),
                format!("super::super::{name}"),
            ] {
                assert!(
                    !text.contains(&pattern),
                    "{} names {pattern}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn dependencies_point_one_way() {
    check("board", &["score", "search", "gtp", "cli", "sgf"]);
    check("sgf", &["score", "search", "gtp", "cli"]);
    check("score", &["search", "gtp", "cli"]);
    check("search", &["gtp", "cli"]);
    check("gtp", &["cli"]);
}
