//! The house's rules, checked on the source text (docs/architecture.md):
//! the library's layers depend one way, rules core <- counting <- search <-
//! GTP, the library never names the binary, and no file of the library or
//! the binary is part of an import circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source of `path` without its comments, so that a doc comment naming
/// a module is no import.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn check(layer: &str, forbidden: &[&str]) {
    let root = repo().join("src");
    let mut files = Vec::new();
    let dir = root.join(layer);
    if dir.is_dir() {
        sources(&dir, &mut files);
    } else {
        files.push(root.join(format!("{layer}.rs")));
    }
    for file in files {
        let text = code(&file);
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
    check("board", &["score", "search", "gtp", "sgf"]);
    check("sgf", &["score", "search", "gtp"]);
    check("score", &["search", "gtp"]);
    check("search", &["gtp"]);
    let mut files = Vec::new();
    sources(&repo().join("src"), &mut files);
    for file in files {
        assert!(
            !code(&file).contains("kosumi_cli"),
            "{}: the library names the binary",
            file.display()
        );
    }
}

/// A module path (`["search", "policy"]`) for each source file of a crate
/// whose root folder is `root`.
fn modules(root: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut files = Vec::new();
    sources(root, &mut files);
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(root).unwrap().with_extension("");
            let mut path: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                path.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                path.pop();
            }
            (path, f)
        })
        .collect()
}

/// Every path a `use` tree names: `use a::{b, c::{d, e}};` gives `a::b`,
/// `a::c::d` and `a::c::e`.
fn use_paths(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, rest) = (&tree[..open], &tree[open + 1..tree.len() - 1]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&rest[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            use_paths(p)
                .into_iter()
                .map(move |q| format!("{prefix}{q}"))
        })
        .collect()
}

/// The paths a file names: its `use` trees and the `crate::`, `super::` and
/// `self::` paths in its code.
fn named_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = rest.find(';') {
            paths.extend(use_paths(&rest[..end]));
        }
    }
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in text.match_indices(start) {
            let tail: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(tail);
        }
    }
    paths
}

/// The module a path names from inside module `from`, if it is one of
/// `known` (the longest prefix that is).
fn target(
    path: &str,
    from: &[String],
    known: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<Vec<String>> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut module: Vec<String> = match *segments.peek()? {
        "crate" => {
            segments.next();
            Vec::new()
        }
        "super" | "self" => {
            let mut m = from.to_vec();
            while let Some(&s) = segments.peek() {
                match s {
                    "super" => {
                        m.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.next();
            }
            m
        }
        // A child module named without `self::`.
        first => {
            let mut child = from.to_vec();
            child.push(first.to_string());
            if !known.contains_key(&child) {
                return None;
            }
            from.to_vec()
        }
    };
    let mut best = known.contains_key(&module).then(|| module.clone());
    for s in segments {
        module.push(s.to_string());
        if known.contains_key(&module) {
            best = Some(module.clone());
        }
    }
    best
}

/// The import circles among the files of a crate rooted at `root`. A module
/// naming its own submodules is its table of contents, not an import, so
/// only edges to files outside a module's own subtree count.
fn circles(root: &Path) -> Vec<Vec<PathBuf>> {
    let known = modules(root);
    let mut edges: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &known {
        let text = code(file);
        let out = edges.entry(module).or_default();
        for path in named_paths(&text) {
            if let Some(t) = target(&path, module, &known) {
                if !t.starts_with(module) {
                    out.insert(t);
                }
            }
        }
    }
    // Tarjan's strongly connected components: each with two or more files
    // is a circle.
    struct State<'a> {
        edges: &'a BTreeMap<&'a Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<Vec<String>, (usize, usize)>,
        stack: Vec<Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit(v: &Vec<String>, s: &mut State) {
        let n = s.index.len();
        s.index.insert(v.clone(), (n, n));
        s.stack.push(v.clone());
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, s);
                let low = s.index[w].1.min(s.index[v].1);
                s.index.get_mut(v).unwrap().1 = low;
            } else if s.stack.contains(w) {
                let low = s.index[w].0.min(s.index[v].1);
                s.index.get_mut(v).unwrap().1 = low;
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let at = s.stack.iter().rposition(|x| x == v).unwrap();
            let component = s.stack.split_off(at);
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        edges: &edges,
        index: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for module in known.keys() {
        if !state.index.contains_key(module) {
            visit(module, &mut state);
        }
    }
    state
        .found
        .into_iter()
        .map(|c| c.iter().map(|m| known[m].clone()).collect())
        .collect()
}

#[test]
fn no_import_circles() {
    for root in ["src", "cli/src"] {
        let found = circles(&repo().join(root));
        assert!(found.is_empty(), "import circles in {root}: {found:#?}");
    }
}

#[test]
fn use_trees_and_targets() {
    assert_eq!(
        use_paths("super::{config::{Config, usage}, Pair}"),
        [
            "super::config::Config",
            "super::config::usage",
            "super::Pair"
        ]
    );
    let known: BTreeMap<Vec<String>, PathBuf> =
        [vec![], vec!["a".into()], vec!["a".into(), "b".into()]]
            .into_iter()
            .map(|m| (m, PathBuf::new()))
            .collect();
    let from = vec!["a".to_string(), "c".to_string()];
    assert_eq!(
        target("super::b::X", &from, &known),
        Some(vec!["a".into(), "b".into()])
    );
    assert_eq!(target("crate::a::Y", &from, &known), Some(vec!["a".into()]));
    assert_eq!(target("std::fmt", &from, &known), None);
}
