//! The project's layering (README, "Layout"): the rules (`src/games/`) stand at the bottom and
//! name neither the search nor a front end, so a game's rules can be read, tested and
//! reused without them.

use std::path::{Path, PathBuf};

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

/// Non-test code under `src/games/` imports nothing from the floors above it. Unit tests
/// (after `#[cfg(test)]`) may drive the search over the rules they test.
#[test]
fn rules_stand_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/games"), &mut files);
    assert!(files.len() >= 10, "src/games/ has the three games' rules");
    let above = [
        "crate::protocol",
        "crate::search",
        "crate::variant",
        "crate::perft",
        "crate::bench",
    ];
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue; // a doc link up is no dependency
            }
            if let Some(name) = above.iter().find(|a| line.contains(*a)) {
                let shown = file
                    .strip_prefix(root)
                    .unwrap_or(file)
                    .display()
                    .to_string();
                offences.push(format!("{shown}:{}: names {name}", n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "rules reach up:\n{}",
        offences.join("\n")
    );
}
