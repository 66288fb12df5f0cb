//! The bench signature: `ataxx bench` (the real binary, default depth) searches a fixed
//! set of positions to a fixed depth, so its node count is a fingerprint of the search
//! and evaluation. Any change to either shows up here.

use crate::common;

use common::Engine;
use regex::Regex;
use std::time::Duration;

/// The node count of `ataxx bench` at the default depth.
///
/// A deliberate change to the search or the evaluation changes this number: update it
/// and the bench table in `docs/strength.md` together, in the same commit, saying why.
/// A change that was not meant to alter the search must leave it as it is.
const BENCH_NODES: u64 = 36_468;

#[test]
fn bench_signature_is_pinned() {
    let run = Engine::spawn(&["bench"]).finish(Duration::from_secs(120));
    assert!(
        run.status.success(),
        "exit {}; stderr: {}",
        run.status,
        run.stderr
    );
    let last = run.lines.last().expect("bench prints its summary line");
    let summary = Regex::new(r"^nodes (\d+) time (\d+) nps (\d+)$").unwrap();
    let c = summary
        .captures(last)
        .unwrap_or_else(|| panic!("bad summary line {last:?}"));
    let nodes: u64 = c[1].parse().unwrap();
    assert_eq!(
        nodes, BENCH_NODES,
        "the bench signature changed (see BENCH_NODES): {last}"
    );
}
