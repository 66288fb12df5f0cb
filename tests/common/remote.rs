//! What the remote-play suites (`remote_games.rs`, `remote_faults.rs`) need of a dialect
//! that plays remote games (`host ID` / `join ID@HOST`), written once: [`Remote`], a
//! [`Playable`] dialect with the messages and lines its specification gives (the
//! visitor's greeting, the acknowledgement of a game's end, what giving a game up says)
//! and the games the tests play, and the helpers that start its binary, connect two
//! programs or a program and a fake peer ([`super::fake`]), and read its dumps. Each
//! dialect's data is in its module here: `ataxx2008` (`ataxx --edition 2008`) and
//! `reversi`.

use super::fake::{self, Fake};
use super::Engine;
use engine::game::{Game, Notation, Outcome, Side};
use engine::variant::{Playable, Variant};
use std::time::Duration;

/// Ceiling for one expected line (generous: two cores are shared with other work).
pub const T: Duration = Duration::from_secs(30);
/// Ceiling for a whole AI game.
pub const GAME: Duration = Duration::from_secs(120);
/// The remote timeout (seconds) where none is to be missed (the machine is busy).
pub const LONG: &str = "20";
/// The remote timeout (seconds) of a program whose peer is to miss it.
pub const SHORT: &str = "1";

/// A game played through the connection from a set-up: the host's set-up lines, the
/// position they give and how many moves it counts.
pub struct SetUp<G> {
    pub lines: Vec<String>,
    pub pos: G,
    pub moves: usize,
}

/// A game whose last move the host's User (playing `player`) types against a fake
/// visitor: the host's set-up lines, what the fake receives of them (and of `start`),
/// the last move as typed and as sent, and the game's result.
pub struct LastMove {
    pub set_up: Vec<String>,
    pub relayed: Vec<String>,
    pub typed: String,
    pub sent: String,
    pub player: Side,
    pub outcome: Outcome,
}

/// A dialect that plays remote games, as the remote-play tests drive it.
pub trait Remote: Playable {
    /// Its binary's arguments (before the remote-play options).
    const ARGS: &'static [&'static str];
    /// The visitor's first message after the greeting.
    const HELLO: &'static str;
    /// True if the host tells the visitor its colour as soon as it has joined (else at
    /// `start`).
    const COLOR_AT_JOIN: bool;
    /// The message that acknowledges the end of a game.
    const ACK: &'static str;
    /// The message that gives a game up.
    const GIVE_UP: &'static str;
    /// What the program answers a peer's [`Remote::GIVE_UP`] with, if anything.
    const GIVE_UP_ANSWERED: Option<&'static str>;
    /// The command with which a User gives a game up (besides `quit`).
    const LEAVE: &'static str;
    /// Why a relay ended when the peer quit during the set-up.
    const PEER_LEFT: &'static str;
    /// True if set-up moves reach the visitor as they are typed (else at `start`).
    const RELAYS_AS_TYPED: bool;
    /// True if the commands that only look (`dump`, `board`, `help`) are answered while
    /// the program waits for the remote move (else only `quit` and the dialect's
    /// [`Remote::LEAVE`] are read then).
    const LOOKS_WHILE_WAITING: bool;
    /// The error a visitor's set-up command gets while the host sets the game up.
    const VISITOR_SETS_NOTHING_UP: &'static str;
    /// The host's first move from the start, and a legal reply to it.
    const FIRST_MOVE: &'static str;
    const FIRST_REPLY: &'static str;

    /// What the program prints when the peer gave the game up: why, then `winner`'s
    /// line.
    fn gave_up(winner: Side) -> [String; 2];
    /// The line that gives our Player (`winner`) the game after a fault.
    fn forfeit(winner: Side) -> String;
    /// The dump of `pos` after `moves` moves, the Player `user`, line by line.
    fn dump(pos: &Self::Game, user: Side, moves: usize) -> Vec<String>;
    /// A set-up for two AIs (it may end with a relayed `clear` and more moves).
    fn ai_set_up() -> SetUp<Self::Game>;
    /// A set-up for two Users, and the moves they then type (with passes where the
    /// dialect has them) to the end.
    fn users_game() -> (SetUp<Self::Game>, Vec<<Self::Game as Game>::Move>);
    /// A set-up that ends the game.
    fn ended_set_up() -> SetUp<Self::Game>;
    /// A short set-up for a User against a remote AI.
    fn short_set_up() -> SetUp<Self::Game>;
    /// [`LastMove`]'s game.
    fn last_move() -> LastMove;
    /// What a foreign host sends to set a game up whose last move is its own, our
    /// visitor's Player, that move, and what our visitor then prints.
    fn foreign_host_game() -> (Vec<String>, Side, String, [String; 2]);
    /// What the User of the program that gave a game up with [`Remote::LEAVE`] sees
    /// afterwards (`side` is its Player's), checked on `e`.
    fn after_leaving(e: &Engine, side: Side);
}

/// The game's name (`join GAME ID`, and the port's derivation).
pub fn game<D: Remote>() -> &'static str {
    <D::Game as Notation>::NAME
}

/// The start position.
pub fn start<D: Remote>() -> D::Game {
    <D::Game as Notation>::startpos(D::RULES)
}

/// The dialect's binary with remote timeout `timeout` (seconds).
pub fn spawn<D: Remote>(timeout: &str) -> Engine {
    let variant = Variant::from_name(game::<D>()).expect("a registered game");
    let mut args = D::ARGS.to_vec();
    args.extend(["--remote-timeout", timeout]);
    Engine::spawn_bin(&super::binary(variant), &args)
}

pub fn expect(e: &Engine, expected: &[&str]) {
    super::expect_lines(e, T, expected);
}

/// [`expect`] for owned lines.
pub fn expect_all(e: &Engine, expected: &[String]) {
    let lines: Vec<&str> = expected.iter().map(String::as_str).collect();
    expect(e, &lines);
}

/// The program's dump (`dump`), line by line.
pub fn dump_of<D: Remote>(e: &Engine) -> Vec<String> {
    e.send("dump");
    let n = D::dump(&start::<D>(), Side::First, 0).len();
    let lines: Vec<String> = (0..n).map(|_| e.recv(T)).collect();
    assert_eq!((lines[0].as_str(), lines[n - 1].as_str()), ("===", "==="));
    lines
}

/// The program still works after the game (`clear`, `dump`) and exits 0 on `quit`.
pub fn clear_dump_quit<D: Remote>(e: &Engine, user: Side) {
    e.send("clear");
    assert_eq!(dump_of::<D>(e), D::dump(&start::<D>(), user, 0));
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

/// The line that ends a relay before `start` (no result: no game was played).
pub fn relay_ended(why: &str) -> String {
    format!("Remote play ended before the start ({why}); back to local set-up, the board kept.")
}

/// The fault lines: why, then our Player's (`winner`'s) line.
pub fn expect_fault<D: Remote>(e: &Engine, why: &str, winner: Side) {
    expect_all(e, &[format!("error: {why}"), D::forfeit(winner)]);
}

/// A host and a visitor joined to it, both in set-up; each first runs its `setup`
/// lines.
pub fn connect<D: Remote>(
    tag: &str,
    host_setup: &[&str],
    visitor_setup: &[&str],
) -> (Engine, Engine, String) {
    fake::connect(|| spawn::<D>(LONG), tag, host_setup, visitor_setup)
}

/// The line of an AI's (or a remote player's) move `mv` in `pos`.
pub fn move_line<D: Remote>(pos: &D::Game, mv: <D::Game as Game>::Move) -> String {
    D::SPEC.ai_move_line(pos.side_to_move(), &D::move_text(pos, mv))
}

/// Checks the move lines `lines` from `pos` (each a legal move of the side it names)
/// and plays them; returns how many.
pub fn replay<D: Remote>(pos: &mut D::Game, lines: &[String]) -> usize {
    for l in lines {
        let (side, text) = D::parse_ai_move(l).unwrap_or_else(|| panic!("{l}"));
        assert_eq!(side, Some(pos.side_to_move()), "{l}");
        let mv = D::parse_move_text(pos, &text).unwrap_or_else(|| panic!("illegal {l}"));
        pos.make_move(mv);
    }
    lines.len()
}

/// The position after typed moves `moves` from `pos`.
pub fn play<D: Remote>(mut pos: D::Game, moves: &[&str]) -> D::Game {
    for m in moves {
        let mv = D::parse_move_text(&pos, m).unwrap_or_else(|| panic!("illegal {m}"));
        pos.make_move(mv);
    }
    pos
}

pub fn is_result_line<D: Remote>(l: &str) -> bool {
    D::parse_result(l).is_some()
}

/// The colour command that gives the visitor the `side`.
pub fn color<D: Remote>(side: Side) -> String {
    format!("color {}", D::SPEC.side_word(side))
}

/// A real host (its Player the User, on the first side) whose fake visitor has joined
/// and sent its first message (and has been told its colour, where that comes at once).
pub fn host_with_fake<D: Remote>(tag: &str, timeout: &str) -> (Engine, Fake) {
    let h = spawn::<D>(timeout);
    let id = fake::host_on(&h, tag);
    let mut f = Fake::join(game::<D>(), &id);
    f.send(D::HELLO);
    if D::COLOR_AT_JOIN {
        f.expect(&[&color::<D>(Side::Second)]);
    }
    expect(&h, &["An opponent joined game *"]);
    (h, f)
}

/// A real host in play against a fake visitor: the host has started and played its
/// first move; the second side (the fake) is to move.
pub fn host_in_play<D: Remote>(tag: &str) -> (Engine, Fake) {
    let (h, mut f) = host_with_fake::<D>(tag, LONG);
    h.send("start");
    if !D::COLOR_AT_JOIN {
        f.expect(&[&color::<D>(Side::Second)]);
    }
    f.expect(&["start"]);
    h.send(D::FIRST_MOVE);
    f.expect(&[D::FIRST_MOVE]);
    (h, f)
}

/// A real host that has just played the game's last move against a fake visitor; its
/// Player and the game's result.
pub fn host_after_last_move<D: Remote>(tag: &str, timeout: &str) -> (Engine, Fake, LastMove) {
    let game = D::last_move();
    let (h, mut f) = host_with_fake::<D>(tag, timeout);
    for l in &game.set_up {
        h.send(l);
    }
    h.send("start");
    h.send(&game.typed);
    let relayed: Vec<&str> = game.relayed.iter().map(String::as_str).collect();
    f.expect(&relayed);
    f.expect(&[&game.sent]);
    (h, f, game)
}

/// A real visitor (its Player the User) joined to a fake host that has read its first
/// message.
pub fn visitor_with_fake_host<D: Remote>(tag: &str, timeout: &str) -> (Engine, Fake) {
    fake::join_fake_host(spawn::<D>(timeout), game::<D>(), tag, D::HELLO)
}

/// After a relay ended before `start`: still in set-up with the board `board` (moves
/// typed from the start; the Player `user`): a set-up move is taken, and `start` then
/// plays the AI, which takes the first side; `quit` exits 0.
pub fn back_in_local_setup<D: Remote>(e: &Engine, board: &[&str], user: Side) {
    let pos = play::<D>(start::<D>(), board);
    assert_eq!(dump_of::<D>(e), D::dump(&pos, user, board.len()));
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let next = D::move_text(&pos, moves[0]);
    e.send(&next);
    let mut all = board.to_vec();
    all.push(&next);
    let after = play::<D>(start::<D>(), &all);
    assert_eq!(
        dump_of::<D>(e),
        D::dump(&after, user, all.len()),
        "a set-up move is taken"
    );
    e.send("quit");
    assert!(e.expect_exit(T).success());
}

/// A whole random game from the start, deterministic in `seed`.
fn random_game<G: Game>(start: G, seed: u64) -> Vec<G::Move> {
    let mut rng = engine::rng::SplitMix64::new(seed);
    let mut pos = start;
    let mut moves = Vec::new();
    while !pos.is_over() {
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        let mv = *rng.choose(&legal).unwrap();
        pos.make_move(mv);
        moves.push(mv);
    }
    moves
}

mod ataxx2008 {
    use super::{LastMove, Remote, SetUp};
    use crate::common::Engine;
    use engine::game::{Outcome, Side};
    use engine::games::ataxx::{Move, Position, Rules, TextMove};
    use engine::protocol::text::ataxx::dump;
    use engine::protocol::text::ataxx2008::{forfeit_line, parse_blocks, Ataxx2008};
    use engine::rng::SplitMix64;

    /// The start position with blocks `blocks`.
    fn blocked(blocks: &str) -> Position {
        let mut pos = Position::startpos(Rules::Text2008);
        pos.add_gaps(parse_blocks(blocks).unwrap().1).unwrap();
        pos
    }

    /// Random set-up moves on `blocks` until at most `max_empty` squares are empty
    /// (never a move that ends the game): the host's lines and the position.
    fn random_setup(blocks: &str, max_empty: u32, seed: u64) -> SetUp<Position> {
        let mut pos = blocked(blocks);
        let mut rng = SplitMix64::new(seed);
        let mut lines = vec![format!("blocks {blocks}")];
        let mut moves = 0;
        while pos.empty().count_ones() > max_empty {
            let going_on: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut p = pos.clone();
                    p.make_move(m);
                    p.outcome().is_none()
                })
                .collect();
            let Some(&mv) = rng.choose(&going_on) else {
                break;
            };
            lines.push(TextMove::format(&pos, mv));
            pos.make_move(mv);
            moves += 1;
        }
        assert!(pos.outcome().is_none());
        SetUp { lines, pos, moves }
    }

    /// Blocks and set-up moves after which red's extend to d4 (written `e3-d4`: an
    /// extend names the mover's lowest-numbered piece next to it) takes every blue
    /// piece and ends the game (only c5 e5 c3 e3 d4 and the corners are open).
    const ENDGAME_BLOCKS: &str = "123456abcdefg";
    const ENDGAME_SETUP: [&str; 4] = ["a7-c5", "g7-e5", "g1-e3", "a1-c3"];

    impl Remote for Ataxx2008 {
        const ARGS: &'static [&'static str] = &["--edition", "2008"];
        const HELLO: &'static str = "ready";
        const COLOR_AT_JOIN: bool = false;
        const ACK: &'static str = "stop";
        const GIVE_UP: &'static str = "stop";
        const GIVE_UP_ANSWERED: Option<&'static str> = None;
        const LEAVE: &'static str = "clear";
        const PEER_LEFT: &'static str = "the remote program left";
        const RELAYS_AS_TYPED: bool = false;
        const LOOKS_WHILE_WAITING: bool = false;
        const VISITOR_SETS_NOTHING_UP: &'static str =
            "error: the host sets this game up: only clear, quit, help, dump, board and load now";
        const FIRST_MOVE: &'static str = "a7-b6";
        const FIRST_REPLY: &'static str = "g7-f6";

        fn gave_up(winner: Side) -> [String; 2] {
            [
                "The remote program abandoned the game.".into(),
                forfeit_line(winner),
            ]
        }

        fn forfeit(winner: Side) -> String {
            forfeit_line(winner)
        }

        fn dump(pos: &Position, _user: Side, _moves: usize) -> Vec<String> {
            dump(pos).lines().map(String::from).collect()
        }

        fn ai_set_up() -> SetUp<Position> {
            random_setup("3gh", 9, 2008)
        }

        fn users_game() -> (SetUp<Position>, Vec<Move>) {
            let set_up = random_setup("3gh", 6, 7);
            // Each side plays its first legal move.
            let mut pos = set_up.pos.clone();
            let mut moves = Vec::new();
            while pos.outcome().is_none() {
                let mv = pos.legal_moves()[0];
                pos.make_move(mv);
                moves.push(mv);
            }
            (set_up, moves)
        }

        fn ended_set_up() -> SetUp<Position> {
            let blocks = "123456abcdefgh";
            SetUp {
                lines: vec![format!("blocks {blocks}")],
                pos: blocked(blocks),
                moves: 0,
            }
        }

        fn short_set_up() -> SetUp<Position> {
            let blocks = "123456abcdef";
            SetUp {
                lines: vec![format!("blocks {blocks}")],
                pos: blocked(blocks),
                moves: 0,
            }
        }

        fn last_move() -> LastMove {
            let blocks = format!("blocks {ENDGAME_BLOCKS}");
            let mut set_up = vec![blocks.clone()];
            set_up.extend(ENDGAME_SETUP.map(String::from));
            let mut relayed = vec!["color blue".to_string(), blocks];
            relayed.extend(ENDGAME_SETUP.map(String::from));
            relayed.push("start".into());
            LastMove {
                set_up,
                relayed,
                typed: "c5-d4".into(),
                sent: "e3-d4".into(),
                player: Side::First,
                outcome: Outcome::Win(Side::First),
            }
        }

        fn foreign_host_game() -> (Vec<String>, Side, String, [String; 2]) {
            let mut lines = vec!["color blue".into(), format!("blocks {ENDGAME_BLOCKS}")];
            lines.extend(ENDGAME_SETUP.map(String::from));
            lines.push("start".into());
            let seen = ["Red moves e3-d4.".into(), "Red wins.".into()];
            (lines, Side::Second, "c5-d4".into(), seen)
        }

        /// `clear` leaves remote play: the program is in local set-up again, its
        /// Player the User on red, playing the AI.
        fn after_leaving(e: &Engine, _side: Side) {
            assert_eq!(
                super::dump_of::<Ataxx2008>(e),
                Self::dump(&Position::startpos(Rules::Text2008), Side::First, 0)
            );
            e.send("start");
            e.send("a7-b6");
            super::expect(e, &["Blue moves *"]);
        }
    }
}

mod reversi {
    use super::{random_game, LastMove, Remote, SetUp};
    use crate::common::Engine;
    use engine::game::{Outcome, Side};
    use engine::games::reversi::{Move, Position};
    use engine::protocol::text::reversi::{ReversiText, SPEC};

    /// The position after `moves` from the start.
    fn play(moves: &[Move]) -> Position {
        let mut pos = Position::startpos();
        for &mv in moves {
            assert!(pos.is_legal(mv));
            pos.make_move(mv);
        }
        pos
    }

    fn texts(moves: &[Move]) -> Vec<String> {
        moves.iter().map(|m| m.text()).collect()
    }

    fn game(seed: u64) -> Vec<Move> {
        random_game(Position::startpos(), seed)
    }

    /// A random game with a pass at least 8 moves after the set-up that leads to it.
    fn game_with_a_pass() -> (Vec<Move>, usize) {
        (0..)
            .map(game)
            .find_map(|g| {
                let first_pass = g.iter().position(|m| m.is_pass())?;
                (first_pass >= 20).then(|| (g, first_pass - 8))
            })
            .unwrap()
    }

    impl Remote for ReversiText {
        const ARGS: &'static [&'static str] = &[];
        const HELLO: &'static str = "";
        const COLOR_AT_JOIN: bool = true;
        const ACK: &'static str = "";
        const GIVE_UP: &'static str = "resign";
        const GIVE_UP_ANSWERED: Option<&'static str> = Some("");
        const LEAVE: &'static str = "resign";
        const PEER_LEFT: &'static str = "the remote program disconnected";
        const RELAYS_AS_TYPED: bool = true;
        const LOOKS_WHILE_WAITING: bool = true;
        const VISITOR_SETS_NOTHING_UP: &'static str =
            "error: the host sets this game up: only dump, board, help and quit now";
        const FIRST_MOVE: &'static str = "d3";
        const FIRST_REPLY: &'static str = "c5";

        fn gave_up(winner: Side) -> [String; 2] {
            [
                "The remote player resigned.".into(),
                SPEC.result_line(Outcome::Win(winner)).into(),
            ]
        }

        fn forfeit(winner: Side) -> String {
            SPEC.result_line(Outcome::Win(winner)).into()
        }

        fn dump(pos: &Position, user: Side, moves: usize) -> Vec<String> {
            pos.dump(user, moves as u32)
                .lines()
                .map(String::from)
                .collect()
        }

        /// Set-up moves the host then clears (the visitor clears too), and six more.
        fn ai_set_up() -> SetUp<Position> {
            let moves = &game(11)[..6];
            let mut lines = vec!["f5".to_string(), "clear".to_string()];
            lines.extend(texts(moves));
            SetUp {
                lines,
                pos: play(moves),
                moves: moves.len(),
            }
        }

        fn users_game() -> (SetUp<Position>, Vec<Move>) {
            let (game, k) = game_with_a_pass();
            let set_up = SetUp {
                lines: texts(&game[..k]),
                pos: play(&game[..k]),
                moves: k,
            };
            (set_up, game[k..].to_vec())
        }

        fn ended_set_up() -> SetUp<Position> {
            let moves = game(5);
            SetUp {
                lines: texts(&moves),
                pos: play(&moves),
                moves: moves.len(),
            }
        }

        /// A random game but its last eight moves.
        fn short_set_up() -> SetUp<Position> {
            let moves = game(11);
            let moves = &moves[..moves.len() - 8];
            SetUp {
                lines: texts(moves),
                pos: play(moves),
                moves: moves.len(),
            }
        }

        /// The host's Player plays the side that makes the last move of a random
        /// game.
        fn last_move() -> LastMove {
            let game = game(21);
            let (last, setup) = game.split_last().unwrap();
            let player = play(setup).side_to_move();
            let mut set_up = texts(setup);
            set_up.push(format!("color {}", SPEC.side_word(player)));
            let mut relayed = texts(setup);
            relayed.push(format!("color {}", SPEC.side_word(player.opponent())));
            relayed.push("start".into());
            LastMove {
                set_up,
                relayed,
                typed: last.text(),
                sent: last.text(),
                player,
                outcome: play(&game).outcome().unwrap(),
            }
        }

        /// The fake plays the side that makes the last move; our visitor the other.
        fn foreign_host_game() -> (Vec<String>, Side, String, [String; 2]) {
            let game = game(33);
            let (last, setup) = game.split_last().unwrap();
            let pos = play(setup);
            let ours = pos.side_to_move().opponent();
            let mut lines = vec![format!("color {}", SPEC.side_word(ours)), "clear".into()];
            lines.extend(texts(setup));
            lines.push("start".into());
            let result = SPEC.result_line(play(&game).outcome().unwrap());
            let seen = [super::move_line::<ReversiText>(&pos, *last), result.into()];
            (lines, ours, last.text(), seen)
        }

        /// `resign` ends the game with the opponent's win: the game is over.
        fn after_leaving(e: &Engine, side: Side) {
            let winner = SPEC.result_line(Outcome::Win(side.opponent()));
            super::expect(e, &[winner]);
            e.send("c4");
            super::expect(e, &["error: the game is over (use clear for a new game)"]);
        }
    }
}
