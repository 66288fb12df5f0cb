//! The bench signatures: each game's `bench` (the real binary, default depth) searches a
//! fixed set of positions to a fixed depth, so its node count is a fingerprint of that
//! game's search and evaluation. Any change to either shows up here, in every game.

use crate::common;

use common::Engine;
use engine::variant::Variant;
use regex::Regex;
use std::time::Duration;

/// The node count of each game's `bench` at its default depth.
///
/// A deliberate change to the search or an evaluation changes these numbers: update them
/// and the game's bench figure in its docs (`docs/strength.md`'s bench table for Ataxx,
/// "Measured figures" in `docs/loa.md` and `docs/reversi.md`) together, in the same
/// commit, saying why. A change that was not meant to alter the search must leave them as
/// they are.
const BENCH_NODES: [(Variant, u64); 3] = [
    (Variant::Ataxx, 37_365),
    (Variant::Loa, 113_261),
    (Variant::Reversi, 113_210),
];

/// The node count `bench` prints in its summary line, the last it prints.
fn bench_nodes(variant: Variant) -> u64 {
    let run =
        Engine::spawn_bin(&common::binary(variant), &["bench"]).finish(Duration::from_secs(120));
    let name = variant.name();
    assert!(
        run.status.success(),
        "{name} bench: exit {}; stderr: {}",
        run.status,
        run.stderr
    );
    let last = run.lines.last().expect("bench prints its summary line");
    let summary = Regex::new(r"^nodes (\d+) time (\d+) nps (\d+)$").unwrap();
    let c = summary
        .captures(last)
        .unwrap_or_else(|| panic!("{name} bench: bad summary line {last:?}"));
    c[1].parse().unwrap()
}

fn check(variant: Variant) {
    let pinned = BENCH_NODES
        .iter()
        .find(|(v, _)| *v == variant)
        .map(|&(_, n)| n)
        .unwrap_or_else(|| panic!("{} has no pinned bench signature", variant.name()));
    assert_eq!(
        bench_nodes(variant),
        pinned,
        "the {} bench signature changed (see BENCH_NODES)",
        variant.name()
    );
}

#[test]
fn ataxx_bench_signature_is_pinned() {
    check(Variant::Ataxx);
}

#[test]
fn loa_bench_signature_is_pinned() {
    check(Variant::Loa);
}

#[test]
fn reversi_bench_signature_is_pinned() {
    check(Variant::Reversi);
}

/// A game added to the registry gets a signature here too, so its search is watched
/// from the start.
#[test]
fn every_registered_game_has_a_pinned_signature() {
    for v in Variant::ALL.iter() {
        assert!(
            BENCH_NODES.iter().any(|(p, _)| p == v),
            "{} has no entry in BENCH_NODES",
            v.name()
        );
    }
}
