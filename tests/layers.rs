//! The project's layering (README, "Layout"; `src/lib.rs`): the rules (`src/games/`) stand
//! at the bottom and name neither the search nor a front end, so a game's rules can be
//! read, tested and reused without them; above them every module names only modules on
//! lower floors, up to `app`, which nothing names.
//!
//! The checks read every module path a file names: single paths (`use crate::search::X;`,
//! `crate::search::run(..)` in code), grouped imports (`use crate::{search, protocol};`,
//! nested and over several lines) and `super::` chains that climb out of the file's
//! module, each resolved to the top-level module it names.

use regex::Regex;
use std::path::{Path, PathBuf};

/// The engine crate's top-level modules by floor, lowest first. A module may name only
/// modules on lower floors; modules on one floor are peers and name none of each other
/// (the search knows a game only through `game`'s traits, the rules know no search).
const FLOORS: &[&[&str]] = &[
    &["rng"],
    &["game"],
    &["games", "search", "perft"],
    &["bench"],
    &["protocol"],
    &["variant"],
    &["app"],
];

fn floor(module: &str) -> Option<usize> {
    FLOORS.iter().position(|f| f.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/`: `games/reversi/solve.rs` is
/// `["games", "reversi", "solve"]`, `games/reversi/mod.rs` is `["games", "reversi"]`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The paths a `use` tree names, groups expanded: `crate::{a, b::{c, d}}` gives
/// `crate::a`, `crate::b::c` and `crate::b::d`.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    expand_into(&[], &tree, &mut out);
    out
}

fn expand_into(prefix: &[String], body: &str, out: &mut Vec<Vec<String>>) {
    // Split `body` at its top-level commas.
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&body[start..]);
    for item in items.into_iter().filter(|i| !i.is_empty()) {
        let mut path = prefix.to_vec();
        match item.find('{') {
            Some(open) if item.ends_with('}') => {
                path.extend(segments(&item[..open]));
                expand_into(&path, &item[open + 1..item.len() - 1], out);
            }
            _ => {
                path.extend(segments(item));
                out.push(path);
            }
        }
    }
}

fn segments(path: &str) -> impl Iterator<Item = String> + '_ {
    path.split("::").filter(|s| !s.is_empty()).map(String::from)
}

/// The top-level modules (other than its own) that the code of the file of module
/// `module` names, each once with the first path that names it, in the order found.
/// Comments are no dependency and are skipped.
fn named_modules(module: &[String], code: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for (resolved, path) in named_paths(module, code) {
        let named = match resolved.first() {
            Some(top) if top != "*" && Some(top) != module.first() => (top.clone(), path),
            _ => continue,
        };
        if !found.iter().any(|(n, _)| *n == named.0) {
            found.push(named);
        }
    }
    found
}

/// Every crate path the code of the file of module `module` names, resolved from the
/// crate's root, with the path as written; comments skipped.
fn named_paths(module: &[String], code: &str) -> Vec<(Vec<String>, String)> {
    let code: String = code
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n");
    let uses = Regex::new(r"\buse\s+([^;]+);").unwrap();
    let inline = Regex::new(r"\b(?:crate|super|self)(?:::\w+)+").unwrap();
    let mut paths: Vec<Vec<String>> = Vec::new();
    for c in uses.captures_iter(&code) {
        paths.extend(expand_use(&c[1]));
    }
    for m in inline.find_iter(&code) {
        paths.push(segments(m.as_str()).collect());
    }
    let mut found = Vec::new();
    for path in paths {
        let resolved: Vec<String> = match path.first().map(String::as_str) {
            Some("crate") => path[1..].to_vec(),
            Some("super") | Some("self") => {
                let mut base = module.to_vec();
                let mut rest = &path[..];
                while let Some(step) = rest.first().map(String::as_str) {
                    match step {
                        "super" => {
                            base.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                base
            }
            _ => continue, // std, other crates, or a child module of this one
        };
        found.push((resolved, path.join("::")));
    }
    found
}

/// Every non-test source file of the library (`src/bin/` only names `app`; `lib.rs`
/// declares the modules): its path from the repository root, its module and its text.
fn library_files() -> Vec<(String, Vec<String>, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(&src).expect("under src/").to_path_buf();
            if relative.starts_with("bin") || relative == Path::new("lib.rs") {
                return None;
            }
            let shown = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string();
            let text = std::fs::read_to_string(&file).expect("a source file");
            Some((shown, module_of(&relative), text))
        })
        .collect()
}

/// The code before a file's first `#[cfg(test)]`: unit tests may use test fixtures
/// from other floors (the search's tests search Ataxx positions).
fn non_test(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or_default()
}

/// Everything under `src/games/` imports nothing from the floors above it, its unit
/// tests included: the rules are tested by the rules (tests that drive the search over a
/// game live with the search or in `tests/`).
#[test]
fn rules_stand_alone() {
    let files = library_files();
    let rules: Vec<_> = files.iter().filter(|(_, m, _)| m[0] == "games").collect();
    assert!(rules.len() >= 10, "src/games/ has the three games' rules");
    let mut offences = Vec::new();
    for (shown, module, text) in rules {
        for (name, path) in named_modules(module, text) {
            if floor(&name).is_none_or(|f| f >= floor("games").unwrap()) {
                offences.push(format!("{shown}: names {path} (crate::{name})"));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "rules reach up:\n{}",
        offences.join("\n")
    );
}

/// Every module's code names only modules on lower floors of [`FLOORS`].
#[test]
fn every_module_names_only_lower_floors() {
    let mut offences = Vec::new();
    for (shown, module, text) in library_files() {
        let own = floor(&module[0])
            .unwrap_or_else(|| panic!("{shown}: module {} is on no floor of FLOORS", module[0]));
        for (name, path) in named_modules(&module, non_test(&text)) {
            match floor(&name) {
                None => offences.push(format!("{shown}: names {path}, on no floor")),
                Some(f) if f >= own => offences.push(format!(
                    "{shown}: names {path} (crate::{name}, not below it)"
                )),
                Some(_) => {}
            }
        }
    }
    assert!(
        offences.is_empty(),
        "imports that do not point down:\n{}",
        offences.join("\n")
    );
}

/// The front ends' modules (`protocol::cli`, `text`, `nboard`, `display`, ...) name each
/// other without a loop: a loop would tie the modules into one that can only be read,
/// tested and changed together (issue 52: `cli`, `text`, `nboard` and `display` did).
#[test]
fn protocol_modules_form_no_loop() {
    use std::collections::{BTreeMap, BTreeSet};
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut why: BTreeMap<(String, String), String> = BTreeMap::new();
    for (shown, module, text) in library_files() {
        if module[0] != "protocol" || module.len() < 2 {
            continue;
        }
        let from = module[1].clone();
        for (resolved, path) in named_paths(&module, non_test(&text)) {
            if resolved.len() < 2 || resolved[0] != "protocol" || resolved[1] == from {
                continue;
            }
            let to = resolved[1].clone();
            // Items of protocol/mod.rs itself (a shared type) are no module.
            if !to.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                || to.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            {
                continue;
            }
            why.entry((from.clone(), to.clone()))
                .or_insert_with(|| format!("{shown}: {path}"));
            edges.entry(from.clone()).or_default().insert(to);
        }
    }
    assert!(edges.len() >= 5, "{edges:?}");
    // A depth-first search from each module: reaching it again is a loop.
    for start in edges.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    let mut steps: Vec<String> = trail
                        .windows(2)
                        .map(|w| why[&(w[0].clone(), w[1].clone())].clone())
                        .collect();
                    steps.push(why[&(at.clone(), next.clone())].clone());
                    panic!(
                        "protocol modules loop: {} -> {next}\n{}",
                        trail.join(" -> "),
                        steps.join("\n")
                    );
                }
                if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
}

/// [`FLOORS`] places every module `src/lib.rs` declares, and nothing else.
#[test]
fn every_module_is_on_a_floor() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let declared = Regex::new(r"(?m)^\s*pub mod (\w+);").unwrap();
    let mut modules: Vec<&str> = declared
        .captures_iter(&lib)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    modules.sort();
    let mut placed: Vec<&str> = FLOORS.iter().flat_map(|f| f.iter().copied()).collect();
    placed.sort();
    assert_eq!(modules, placed, "src/lib.rs's modules against FLOORS");
}

/// The scanner sees what it must: grouped and nested imports over several lines,
/// `crate::app`, `super::` chains out of the module, paths in code; not comments.
#[test]
fn the_scanner_sees_every_form_of_import() {
    let module: Vec<String> = ["games", "reversi", "solve"].map(String::from).to_vec();
    let code = "use crate::{search, protocol};\n\
                use crate::{\n    game::{Game, Notation},\n    app::main as run,\n};\n\
                use super::super::super::bench::run;\n\
                use super::position::Position;\n\
                use std::{fmt, io};\n\
                // use crate::variant;\n\
                fn f() { crate::perft::perft(p, 1); } // crate::rng\n\
                /// [`crate::variant`]\n";
    let names: Vec<String> = named_modules(&module, code)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        names,
        ["search", "protocol", "game", "app", "bench", "perft"],
        "{code}"
    );
}
