//! `tune openings`: openings books for the tournament runner (the module docs of
//! `main.rs` list the forms): Ataxx's block and standard books, balanced by a search,
//! and random (optionally balanced) lines for any registered game.

use engine::game::{Notation, RuleSet, Side};
use engine::games::ataxx::block_squares;
use engine::games::ataxx::{square_name, Move, Position, Rules};
use engine::protocol::text::{EngineSetup, TextDialect, TextProtocol};
use engine::rng::SplitMix64;
use engine::search::{Limits, Searcher};
use engine::variant::{Dialect, GameVisitor, Playable, Registered, Variant, VariantVisitor};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// `tune openings COUNT SEED [--variant NAME [--balanced PLIES DEPTH MARGIN] |
/// --no-blocks | --edition 2016|2008]`; `None` for a usage error.
pub fn command(args: &[&str]) -> Option<Result<(), String>> {
    let (count, seed, rest) = match args {
        [count, seed, rest @ ..] => (count.parse().ok()?, seed.parse().ok()?, rest),
        _ => return None,
    };
    match rest {
        [] => openings(count, seed, &BLOCK_BOOK, None),
        ["--no-blocks"] => openings(count, seed, &STANDARD_BOOK, None),
        // Ataxx's book is the block book above; every other game's, random lines.
        ["--variant", name] => match Variant::from_name(name)? {
            Variant::Ataxx => openings(count, seed, &BLOCK_BOOK, None),
            v => print_lines(v.visit_game(RandomOpenings {
                count,
                seed,
                balance: None,
            })),
        },
        ["--variant", name, "--balanced", plies, depth, margin] => {
            let balance = match (plies.parse(), depth.parse(), margin.parse()) {
                (Ok(plies), Ok(depth), Ok(margin)) if plies > 0 && depth > 0 => Balance {
                    plies,
                    depth,
                    margin,
                },
                _ => return None,
            };
            print_lines(Variant::from_name(name)?.visit_game(RandomOpenings {
                count,
                seed,
                balance: Some(balance),
            }))
        }
        ["--edition", name] => {
            let edition = Variant::Ataxx
                .dialects()
                .iter()
                .copied()
                .find(|d| d.edition() == Some(name))?;
            openings(count, seed, &BLOCK_BOOK, Some(edition))
        }
        _ => return None,
    }
    Some(Ok(()))
}

/// How an Ataxx openings file is made.
struct BookKind {
    /// The command's extra argument, for the file's header.
    flag: &'static str,
    /// Whether a third of the openings start with one or two random blocks.
    blocks: bool,
    /// The depth of the balance check, and the largest score (centipawns) it keeps.
    depth: u32,
    margin: i32,
}

/// The block book (`tournament/openings/ataxx-openings.txt`).
const BLOCK_BOOK: BookKind = BookKind {
    flag: "",
    blocks: true,
    depth: 5,
    margin: 120,
};

/// The standard game's book, without blocks, balanced more tightly
/// (`tournament/openings/ataxx-noblocks.txt`).
const STANDARD_BOOK: BookKind = BookKind {
    flag: " --no-blocks",
    blocks: false,
    depth: 7,
    margin: 60,
};

/// The Ataxx book of `kind`; with an `edition`, only the openings that edition's text
/// dialect can set up (the 2008 notation writes no block on the centre), the others
/// drawn and skipped, so the book without it is unchanged.
fn openings(count: usize, seed: u64, kind: &BookKind, edition: Option<Dialect>) {
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut searcher = Searcher::<Position>::new(4);
    let stop = AtomicBool::new(false);
    let flag = match edition.and_then(Dialect::edition) {
        Some(e) => format!("{} --edition {e}", kind.flag),
        None => kind.flag.to_string(),
    };
    println!(
        "# {count} Ataxx openings made by `tune openings {count} {seed}{flag}` (tune/src/openings.rs):"
    );
    if kind.blocks {
        println!(
            "# 2-4 random plies from the start, a third after 1-2 random blocks; each kept only"
        );
    } else {
        println!(
            "# 2-4 random plies from the start, no blocks (the standard game); each kept only"
        );
    }
    println!(
        "# if a depth-{} search scores it within +-{}.",
        kind.depth, kind.margin
    );
    let mut made = 0;
    while made < count {
        let mut pos = Position::startpos(Rules::Uai);
        let mut words = Vec::new();
        if kind.blocks && rng.below(3) == 0 {
            for _ in 0..1 + rng.below(2) {
                let sq = rng.below(49) as u8;
                let b = block_squares(sq);
                if b & pos.empty() == b {
                    pos.add_gaps(b).expect("the squares are empty");
                    words.push(format!("block {}", square_name(sq)));
                }
            }
        }
        let plies = 2 + rng.below(3);
        let mut ok = true;
        for _ in 0..plies {
            let moves: Vec<Move> = pos.legal_moves();
            if moves.is_empty() || moves[0].is_pass() {
                ok = false;
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
            words.push(mv.to_string());
        }
        if !ok || pos.outcome().is_some() || !seen.insert(pos.hash()) {
            continue;
        }
        if edition.is_some_and(|d| !settable(d, &words.join(" "))) {
            continue;
        }
        searcher.new_game();
        let r = searcher.search(&pos, &Limits::depth(kind.depth), &stop, None, &mut |_| {});
        if r.score.0.abs() > kind.margin {
            continue;
        }
        println!("{}", words.join(" "));
        made += 1;
    }
}

/// Whether text engines of dialect `d` can set `line` (an opening in our lines) up.
fn settable(d: Dialect, line: &str) -> bool {
    struct Settable<'a>(&'a str);
    impl VariantVisitor for Settable<'_> {
        type Output = bool;
        fn visit<D: Playable>(self) -> bool {
            <D as TextDialect>::Game::opening(self.0, <D as TextProtocol>::RULES)
                .and_then(|o| {
                    <D as TextProtocol>::setup_commands(&EngineSetup::new(
                        &o,
                        Side::First,
                        0,
                        false,
                    ))
                })
                .is_ok()
        }
    }
    d.visit(Settable(line))
}

/// Prints a book's lines (what [`RandomOpenings`] makes) to stdout.
fn print_lines(lines: Vec<String>) {
    for line in lines {
        println!("{line}");
    }
}

/// `tune openings COUNT SEED --variant NAME` for any game (see the module docs).
struct RandomOpenings {
    count: usize,
    seed: u64,
    balance: Option<Balance>,
}

/// `--balanced PLIES DEPTH MARGIN`: exactly `PLIES` random plies, each line kept only if
/// a depth-`DEPTH` search scores it within ±`MARGIN` (the game's own units), so that
/// neither colour starts out won and a pair of games measures the engines, not the line.
struct Balance {
    plies: usize,
    depth: u32,
    margin: i32,
}

impl GameVisitor for RandomOpenings {
    type Output = Vec<String>;
    /// The file's lines: its header, then one opening a line.
    fn visit<G: Registered>(self) -> Vec<String> {
        let (count, seed) = (self.count, self.seed);
        let mut rng = SplitMix64::new(seed);
        let mut seen = HashSet::new();
        let name = G::NAME;
        let mut out = Vec::new();
        let mut searcher = Searcher::<G>::new(16);
        let stop = AtomicBool::new(false);
        match &self.balance {
            None => {
                out.push(format!("# {count} {name} openings made by `tune openings {count} {seed} --variant {name}`"));
                out.push(
                    "# (tune/src/openings.rs): 4-6 random plies from the start, distinct, no"
                        .to_string(),
                );
                out.push("# pass, game not over; no balance check (play each with both colours: -repeat).".to_string());
            }
            Some(b) => {
                let (plies, depth, margin) = (b.plies, b.depth, b.margin);
                out.push(format!("# {count} {name} openings made by `tune openings {count} {seed} --variant {name} --balanced {plies} {depth} {margin}`"));
                out.push(format!(
                    "# (tune/src/openings.rs): {plies} random plies from the start, distinct, no pass,"
                ));
                out.push(format!("# game not over; each kept only if a depth-{depth} search scores it within +-{margin}."));
            }
        }
        let mut made = 0;
        let mut moves = Vec::new();
        while made < count {
            let mut pos = G::startpos(G::Rules::ENGINE);
            let mut words = Vec::new();
            let plies = self.balance.as_ref().map_or(4 + rng.below(3), |b| b.plies);
            for _ in 0..plies {
                moves.clear();
                pos.generate_moves(&mut moves);
                if moves.is_empty() || pos.is_over() || moves.iter().any(|&m| pos.is_pass(m)) {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                words.push(pos.move_name(mv));
                pos.make_move(mv);
            }
            if words.len() < plies.min(4) || pos.is_over() || !seen.insert(pos.hash()) {
                continue;
            }
            if let Some(b) = &self.balance {
                if words.len() < b.plies {
                    continue;
                }
                searcher.new_game();
                let r = searcher.search(&pos, &Limits::depth(b.depth), &stop, None, &mut |_| {});
                if r.score.0.abs() > b.margin {
                    continue;
                }
            }
            out.push(words.join(" "));
            made += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of a balanced book scores within the margin when searched again, and
    /// the same seed gives the same book.
    #[test]
    fn a_balanced_book_keeps_only_lines_a_search_scores_level() {
        let book = |balance| {
            Variant::Reversi.visit_game(RandomOpenings {
                count: 6,
                seed: 3,
                balance,
            })
        };
        let lines = book(Some(Balance {
            plies: 8,
            depth: 6,
            margin: 24,
        }));
        assert!(lines[0].contains("--balanced 8 6 24"), "{}", lines[0]);
        let openings: Vec<&String> = lines.iter().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(openings.len(), 6);
        let mut searcher = Searcher::<engine::games::reversi::Position>::new(16);
        let stop = AtomicBool::new(false);
        for line in openings {
            let o = <engine::games::reversi::Position as Notation>::opening(
                line,
                engine::games::reversi::Rules::Standard,
            )
            .expect("a legal line");
            let pos = o.end();
            assert_eq!(line.split(' ').count(), 8);
            searcher.new_game();
            let r = searcher.search(&pos, &Limits::depth(6), &stop, None, &mut |_| {});
            assert!(r.score.0.abs() <= 24, "{line}: {}", r.score.0);
        }
        // Deterministic for a seed; without a balance check, the book as before.
        assert_eq!(book(None), book(None));
        assert!(book(None)
            .iter()
            .all(|l| l.starts_with('#') || (4..=6).contains(&l.split(' ').count())));
    }

    /// The 2008 edition's dialect cannot set up a block on the centre; the 2016 one can.
    #[test]
    fn openings_are_kept_for_the_edition_that_can_set_them_up() {
        let (centre, corner) = ("block d4 a7-b6", "block c3 a7-b6 g7-f6");
        assert!(settable(Dialect::Ataxx2016, centre));
        assert!(!settable(Dialect::Ataxx2008, centre));
        assert!(settable(Dialect::Ataxx2008, corner));
        assert!(!settable(Dialect::Ataxx2008, "x5o/7/7/7/7/7/o5x o 0 1"));
    }
}
