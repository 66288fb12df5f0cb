//! The deterministic schedule: which engines meet in which game, with which colours
//! and opening. A game's `id` is its index here, so a results file written by one run
//! names the same games in any later run with the same command line (`-resume`).
//!
//! Order: round, then pair, then game within the encounter. Colours alternate within
//! an encounter (even game: the pair's first engine moves first). With `-repeat`, games
//! 2k and 2k+1 of an encounter share an opening and form a game pair (pentanomial).
//! Which opening slot a game takes follows the [`OpeningPolicy`]: by default openings
//! are indexed by (round, game-pair) and not by engine pair, so in a round robin or
//! gauntlet every pair of a round meets the same openings; cutechess-cli's policies
//! (`-openings policy=default|encounter|round`) are there too.

/// Round robin or gauntlet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    /// Every engine meets every other.
    RoundRobin,
    /// The first engine meets each of the others.
    Gauntlet,
}

/// When a game takes a new opening (`-openings policy=`). An *encounter* is one pair's
/// games of one round (`-games` of them); a *repetition* is a colour-swapped game pair
/// with `-repeat`, else a single game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningPolicy {
    /// Without `policy=`: a new opening for each repetition of an encounter and each
    /// round, the same sequence for every pair of a round (every engine meets the same
    /// openings). With two engines it is cutechess's `default`.
    Shared,
    /// cutechess `default`: a new opening for each repetition and each new encounter.
    Default,
    /// cutechess `encounter`: a new opening for each new encounter only.
    Encounter,
    /// cutechess `round`: a new opening for each new round only.
    Round,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Index in the schedule.
    pub id: u64,
    /// 0-based round.
    pub round: u32,
    /// Index of the engine pair.
    pub pair: usize,
    /// 0-based game number within the encounter.
    pub game: u32,
    /// Engine indices: `[first mover, second mover]`.
    pub players: [usize; 2],
    /// Opening slot (mapped to a line of the openings file by [`crate::game::openings`]).
    pub opening_slot: u64,
    /// With `-repeat`: the id of the first game of its colour-swapped pair.
    pub pair_key: Option<u64>,
}

/// The engine pairs that meet.
pub fn pairs(engines: usize, kind: TournamentKind) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    match kind {
        TournamentKind::RoundRobin => {
            for a in 0..engines {
                for b in a + 1..engines {
                    out.push((a, b));
                }
            }
        }
        TournamentKind::Gauntlet => {
            for b in 1..engines {
                out.push((0, b));
            }
        }
    }
    out
}

/// How colours are given within an encounter (fastchess's `-noswap` and `-reverse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Colours {
    /// Never alternate: every game of an encounter has the same first mover, and
    /// `-repeat`'s games of an opening are no colour-swapped pair.
    pub noswap: bool,
    /// The pair's second engine moves first where the first would.
    pub reverse: bool,
}

/// The whole schedule: pairs × rounds × games, colours alternating within an encounter.
pub fn build(
    engines: usize,
    kind: TournamentKind,
    rounds: u32,
    games: u32,
    repeat: bool,
    policy: OpeningPolicy,
) -> Vec<GameSpec> {
    build_coloured(
        engines,
        kind,
        rounds,
        games,
        repeat,
        policy,
        Colours::default(),
    )
}

/// The whole schedule, colours given as `colours` says. With `noswap` no game has a
/// [`GameSpec::pair_key`]: its games are no colour-swapped pairs, so they count for
/// the trinomial statistics only.
pub fn build_coloured(
    engines: usize,
    kind: TournamentKind,
    rounds: u32,
    games: u32,
    repeat: bool,
    policy: OpeningPolicy,
    colours: Colours,
) -> Vec<GameSpec> {
    let pairs = pairs(engines, kind);
    // Repetitions per encounter.
    let per_encounter = if repeat {
        games.div_ceil(2) as u64
    } else {
        games as u64
    };
    let npairs = pairs.len() as u64;
    let mut out = Vec::with_capacity(pairs.len() * rounds as usize * games as usize);
    let mut id = 0u64;
    for round in 0..rounds {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for game in 0..games {
                let first_moves = colours.noswap || game % 2 == 0;
                let players = if first_moves != colours.reverse {
                    [a, b]
                } else {
                    [b, a]
                };
                let repetition = if repeat { game / 2 } else { game } as u64;
                let (round_no, pair_no) = (round as u64, p as u64);
                let opening_slot = match policy {
                    OpeningPolicy::Shared => round_no * per_encounter + repetition,
                    OpeningPolicy::Default => {
                        (round_no * npairs + pair_no) * per_encounter + repetition
                    }
                    OpeningPolicy::Encounter => round_no * npairs + pair_no,
                    OpeningPolicy::Round => round_no,
                };
                let pair_key = if repeat && !colours.noswap && game / 2 * 2 + 1 < games {
                    Some(id - (game % 2) as u64)
                } else {
                    None
                };
                out.push(GameSpec {
                    id,
                    round,
                    pair: p,
                    game,
                    players,
                    opening_slot,
                    pair_key,
                });
                id += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noswap_and_reverse_give_the_colours() {
        let firsts = |noswap, reverse, repeat| {
            let c = Colours { noswap, reverse };
            let s = build_coloured(
                2,
                TournamentKind::RoundRobin,
                1,
                4,
                repeat,
                OpeningPolicy::Shared,
                c,
            );
            let keys = s.iter().map(|g| g.pair_key).collect::<Vec<_>>();
            (s.iter().map(|g| g.players[0]).collect::<Vec<_>>(), keys)
        };
        assert_eq!(
            firsts(false, false, true),
            (vec![0, 1, 0, 1], vec![Some(0), Some(0), Some(2), Some(2)])
        );
        assert_eq!(firsts(false, true, true).0, vec![1, 0, 1, 0]);
        // -noswap: the first engine always moves first, and no game pairs.
        assert_eq!(firsts(true, false, true), (vec![0, 0, 0, 0], vec![None; 4]));
        assert_eq!(firsts(true, true, false).0, vec![1, 1, 1, 1]);
        // The openings are those of the swapped schedule.
        let slots = |c| {
            build_coloured(
                2,
                TournamentKind::RoundRobin,
                2,
                4,
                true,
                OpeningPolicy::Shared,
                c,
            )
            .iter()
            .map(|g| g.opening_slot)
            .collect::<Vec<_>>()
        };
        assert_eq!(
            slots(Colours {
                noswap: true,
                reverse: false
            }),
            slots(Colours::default())
        );
    }

    #[test]
    fn round_robin_counts() {
        let s = build(
            4,
            TournamentKind::RoundRobin,
            2,
            3,
            false,
            OpeningPolicy::Shared,
        );
        assert_eq!(s.len(), 6 * 2 * 3);
        assert!(s.iter().enumerate().all(|(i, g)| g.id == i as u64));
        assert_eq!(
            build(
                4,
                TournamentKind::Gauntlet,
                2,
                3,
                false,
                OpeningPolicy::Shared
            )
            .len(),
            3 * 2 * 3
        );
    }

    #[test]
    fn repeat_pairs_share_openings_and_swap_colours() {
        let s = build(
            2,
            TournamentKind::RoundRobin,
            2,
            5,
            true,
            OpeningPolicy::Shared,
        );
        assert_eq!(s[0].players, [0, 1]);
        assert_eq!(s[1].players, [1, 0]);
        assert_eq!(s[0].opening_slot, s[1].opening_slot);
        assert_ne!(s[1].opening_slot, s[2].opening_slot);
        assert_eq!(s[0].pair_key, Some(0));
        assert_eq!(s[1].pair_key, Some(0));
        assert_eq!(s[3].pair_key, Some(2));
        assert_eq!(s[4].pair_key, None); // odd game out
        assert_eq!(s[5].opening_slot, 3); // round 2 starts after 3 slots
        assert_eq!(s[5].pair_key, Some(5));
    }

    #[test]
    fn opening_policies() {
        // Three engines (three pairs), two rounds, four games per encounter, -repeat.
        let slots = |policy| {
            build(3, TournamentKind::RoundRobin, 2, 4, true, policy)
                .iter()
                .map(|g| g.opening_slot)
                .collect::<Vec<_>>()
        };
        #[rustfmt::skip]
        assert_eq!(slots(OpeningPolicy::Shared), [
            0, 0, 1, 1,  0, 0, 1, 1,  0, 0, 1, 1,
            2, 2, 3, 3,  2, 2, 3, 3,  2, 2, 3, 3,
        ]);
        #[rustfmt::skip]
        assert_eq!(slots(OpeningPolicy::Default), [
            0, 0, 1, 1,  2, 2, 3, 3,  4, 4, 5, 5,
            6, 6, 7, 7,  8, 8, 9, 9,  10, 10, 11, 11,
        ]);
        #[rustfmt::skip]
        assert_eq!(slots(OpeningPolicy::Encounter), [
            0, 0, 0, 0,  1, 1, 1, 1,  2, 2, 2, 2,
            3, 3, 3, 3,  4, 4, 4, 4,  5, 5, 5, 5,
        ]);
        #[rustfmt::skip]
        assert_eq!(slots(OpeningPolicy::Round), [
            0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,
            1, 1, 1, 1,  1, 1, 1, 1,  1, 1, 1, 1,
        ]);
        // Two engines: the default is cutechess's `default`.
        let two = |policy| {
            build(2, TournamentKind::RoundRobin, 3, 3, false, policy)
                .iter()
                .map(|g| g.opening_slot)
                .collect::<Vec<_>>()
        };
        assert_eq!(two(OpeningPolicy::Shared), two(OpeningPolicy::Default));
    }
}
