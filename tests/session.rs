//! The course text languages end to end: scripted sessions piped into the real binary of
//! each dialect, stdout compared with what the dialect must print. Written once, generic
//! over the dialect ([`Session`], a [`Playable`] with its binary's arguments and its
//! dumps): the start position's dump, errors that are one line each and change nothing,
//! set-up commands refused during a game, a set-up that already ended the game, the AI
//! moving first when the User takes the second side and answering when it does not,
//! what `clear` keeps, AI-against-AI games (replayed move by move by the library's
//! rules; the same seed gives the same game), `load`, `help`, `quit` and the end of
//! input. Each dialect's module holds its scripts and expected transcripts, and its own
//! commands (the 2008 edition's blocks and 45-jump rule; Reversi's passes, `resign` and
//! `board`). Remote play (`host`, `join`) is in `remote_games.rs` and
//! `remote_faults.rs`, the command line in `cli.rs`.
//!
//! An expected transcript is the output's lines, where `*` stands for any text within
//! a line (an AI's move, a dump's row).

use engine::game::{Game, Notation, Outcome};
use engine::protocol::text::kit::{Errors, Masked};
use engine::variant::{Playable, Variant};
use std::path::Path;

/// A dialect as these tests drive it.
trait Session: Playable {
    /// Its binary's arguments (`--edition 2008`).
    const ARGS: &'static [&'static str];
    /// The dump of the start position, as the dialect's specification shows it.
    fn start_dump() -> String;
    /// The dump of `pos` after `moves` moves (and passes) of the User playing the first
    /// side, every line followed by `\n`.
    fn dump(pos: &Self::Game, moves: usize) -> String;
}

/// A dump whatever the position: its markers and a `*` for each row.
fn any_dump<D: Session>() -> String {
    D::start_dump()
        .lines()
        .map(|l| if D::is_dump_marker(l) { "===\n" } else { "*\n" })
        .collect()
}

/// Runs the dialect's binary in `dir` on `input`, killing it after a minute; its
/// status, stdout (which must be UTF-8) and stderr.
fn run<D: Session>(dir: &Path, input: &str) -> (i32, String, String) {
    let variant = Variant::from_name(<D::Game as Notation>::NAME).expect("a registered game");
    let bin = crate::common::binary(variant);
    let out = crate::common::run_with_input(&bin, dir, D::ARGS, input.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`run`] in `dir`: it must exit with status 0, print nothing on stderr if its errors
/// go to stdout, and every line that looks like an AI move line must be one (a move
/// written as the language writes it). Stdout.
fn session_in<D: Session>(dir: &Path, input: &str) -> String {
    let (status, out, err) = run::<D>(dir, input);
    assert_eq!(status, 0, "{out}{err}");
    if D::SPEC.errors == Errors::Stdout {
        assert!(err.is_empty(), "stderr: {err}");
    }
    for l in out.lines() {
        let looks_like_a_move = D::SPEC.colours.iter().any(|c| {
            l.starts_with(&format!("{c} moves ")) || l.starts_with(&format!("{c} passes"))
        }) || (l.starts_with("* ") && D::parse_result(l).is_none());
        if looks_like_a_move {
            assert!(D::parse_ai_move(l).is_some(), "not a move line: {l:?}");
        }
    }
    out
}

/// [`session_in`] in the current directory.
fn session<D: Session>(input: &str) -> String {
    session_in::<D>(Path::new("."), input)
}

/// True if `line` matches `pattern`, where `*` stands for any text.
fn matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = &parts[..] else {
        return line == pattern;
    };
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// `out` is the transcript `want` (one pattern a line, see the module's notes).
fn assert_transcript(out: &str, want: &str) {
    let (got, want): (Vec<&str>, Vec<&str>) = (out.lines().collect(), want.lines().collect());
    let same = got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| matches(w, g));
    assert!(same, "got:\n{out}\nexpected:\n{}", want.join("\n"));
}

/// The error lines of a transcript never hold a word the harnesses read (where the
/// dialect masks words).
fn assert_no_masked_words<D: Session>(out: &str) {
    if let Masked::Words(words) = D::SPEC.masked {
        for l in out.lines().filter(|l| l.starts_with("error: ")) {
            let lower = l.to_ascii_lowercase();
            assert!(words.iter().all(|w| !lower.contains(w)), "{l}");
        }
    }
}

/// `dump` prints the start position; blanks, case and comments do not matter. (And
/// [`Session::dump`], which the checks below use, writes it so too.)
fn dump_of_the_start_position<D: Session>() {
    for input in ["dump\n", "  DUMP   # comment\n\n# only a comment\n"] {
        assert_eq!(session::<D>(input), D::start_dump(), "{input:?}");
    }
    let start = <D::Game as Notation>::startpos(D::RULES);
    assert_eq!(D::dump(&start, 0), D::start_dump());
}

/// Each line of `cases` (typed at the start, each followed by a `dump`) gets its one
/// error line (a pattern) and changes nothing: the dump after it is the start's. No
/// error line holds a word the harnesses read.
fn every_error_is_one_line_and_changes_nothing<D: Session>(cases: &[(&str, &str)]) {
    assert_eq!(D::SPEC.errors, Errors::Stdout);
    let input: String = cases.iter().map(|(l, _)| format!("{l}\ndump\n")).collect();
    let out = session::<D>(&input);
    let start = D::start_dump();
    let each = 1 + start.lines().count();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len() * each, "{out}");
    for ((input, error), got) in cases.iter().zip(lines.chunks(each)) {
        assert_transcript(&got.join("\n"), &format!("{error}\n{start}"));
        assert!(matches(error, got[0]), "{input:?}: {:?}", got[0]);
    }
    assert_no_masked_words::<D>(&out);
}

/// Once a game is in progress the set-up commands are refused, one error line each,
/// and change nothing.
fn set_up_commands_only_in_set_up<D: Session>(script: &str, want: &str) {
    let out = session::<D>(script);
    assert_transcript(&out, want);
    assert_no_masked_words::<D>(&out);
}

/// Set-up moves that end the game: `start` announces the result, and then the game is
/// over.
fn a_set_up_that_ended_the_game_is_announced_by_start<D: Session>(script: &str, want: &str) {
    assert_transcript(&session::<D>(script), want);
}

/// The User takes the second side (`color`): the AI, playing the first, moves at once.
fn the_opponent_moves_first_when_the_user_takes_the_second_side<D: Session>(
    script: &str,
    want: &str,
) {
    assert_transcript(&session::<D>(script), want);
}

/// By default the User plays the first side against the AI, which answers each move.
fn by_default_the_user_plays_the_first_side_against_the_ai<D: Session>(script: &str, want: &str) {
    assert_transcript(&session::<D>(script), want);
}

/// `clear` empties the board for a new game; what else it keeps or resets is the
/// dialect's (the 2008 edition goes back to its defaults, Reversi keeps its settings).
fn clear_starts_a_new_game<D: Session>(scripts: &[(&str, &str)]) {
    for (script, want) in scripts {
        assert_transcript(&session::<D>(script), want);
    }
}

/// The AI plays both sides from `script` to a result: run twice, the same transcript
/// (the same seed, the same game); its move lines, replayed from `start` by the
/// library's rules, are each a legal move of the side they name, at least `min_moves`
/// of them; the result line is the rules' result; what follows is the final dump if
/// the script asks for one. With `another` (another seed) the game differs.
fn auto_plays_the_machine_against_itself<D: Session>(
    script: &str,
    start: D::Game,
    min_moves: usize,
    another: Option<&str>,
) {
    let a = session::<D>(script);
    assert_eq!(a, session::<D>(script), "same seed, same game");
    let lines: Vec<&str> = a.lines().collect();
    let end = lines
        .iter()
        .position(|l| D::is_dump_marker(l))
        .unwrap_or(lines.len());
    let (result, moves) = lines[..end].split_last().expect("output");
    let mut pos = start;
    for line in moves {
        let (side, text) = D::parse_ai_move(line).unwrap_or_else(|| panic!("{line}"));
        if let Some(side) = side {
            assert_eq!(side, pos.side_to_move(), "{line}");
        }
        let mv = D::parse_move_text(&pos, &text).unwrap_or_else(|| panic!("illegal {line}"));
        pos.make_move(mv);
    }
    assert!(pos.is_over(), "{a}");
    assert_eq!(D::parse_result(result), pos.outcome(), "{result}");
    assert!(matches!(
        D::parse_result(result),
        Some(Outcome::Win(_) | Outcome::Draw)
    ));
    assert!(moves.len() >= min_moves, "{a}");
    let rest: String = lines[end..].iter().map(|l| format!("{l}\n")).collect();
    let dumped = if script.ends_with("dump\n") {
        D::dump(&pos, moves.len())
    } else {
        String::new()
    };
    assert_eq!(rest, dumped, "the final dump");
    if let Some(other) = another {
        assert_ne!(a, session::<D>(other), "another seed, another game");
    }
}

/// `load FILE` runs the file's lines (blanks and comments allowed); a refused line
/// names its file and line. `files` are written to a scratch directory, the session
/// runs there; `{dir}` in the script stands for that directory, and `{at:NAME}` in the
/// transcript for file NAME's path there as error lines quote it.
fn load_runs_a_file<D: Session>(tag: &str, files: &[(&str, &str)], script: &str, want: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("session-load")
        .join(tag);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let at = dir.to_str().unwrap();
    let out = session_in::<D>(&dir, &script.replace("{dir}", at));
    // `{at:NAME}` in `want`: the file's path as error lines quote it.
    let mut want = want.to_string();
    while let Some(i) = want.find("{at:") {
        let end = i + want[i..].find('}').expect("{at:NAME}");
        let quoted = engine::protocol::quote(&format!("{at}/{}", &want[i + 4..end]));
        want.replace_range(i..=end, &quoted);
    }
    assert_transcript(&out, &want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `help` lists the commands, and no line of it reads as a move, result or dump line
/// (nor, where the dialect masks words, holds one the harnesses read).
fn help_lists_the_commands<D: Session>(commands: &[&str]) {
    let text = session::<D>("help\n");
    assert!(text.starts_with("Commands"), "{text}");
    for cmd in commands {
        assert!(text.contains(cmd), "help lacks {cmd}");
    }
    for l in text.lines() {
        assert!(
            D::parse_ai_move(l).is_none() && D::parse_result(l).is_none(),
            "{l}"
        );
        assert!(!D::is_dump_marker(l), "{l}");
    }
    if let Masked::Words(words) = D::SPEC.masked {
        let lower = text.to_ascii_lowercase();
        for word in words {
            assert!(!lower.contains(word), "help uses {word}");
        }
    }
}

/// `quit` ends the session at once (what follows it is never run), as does the end of
/// input: status 0, and only what came before.
fn quit_and_end_of_input_exit_zero<D: Session>(scripts: &[(&str, &str)]) {
    for (script, want) in scripts {
        assert_transcript(&session::<D>(script), want);
    }
}

mod ataxx2008 {
    //! The 2008 edition (`ataxx --edition 2008`) in local mode: besides the promises
    //! above, set-up moves, the `3gh` block notation, and the 45-jump rule.

    use super::Session;
    use engine::games::ataxx::{Position, Rules};
    use engine::protocol::text::ataxx2008::{parse_blocks, Ataxx2008 as D};

    impl Session for D {
        const ARGS: &'static [&'static str] = &["--edition", "2008"];
        fn start_dump() -> String {
            board(START) + "\n"
        }
        fn dump(pos: &Position, _moves: usize) -> String {
            engine::protocol::text::ataxx::dump(pos) + "\n"
        }
    }

    /// Runs `script` (one command a line) to the end of input; the output's lines.
    fn session(script: &[&str]) -> Vec<String> {
        let input: String = script.iter().map(|l| format!("{l}\n")).collect();
        super::session::<D>(&input)
            .lines()
            .map(String::from)
            .collect()
    }

    /// The dumps in a transcript, each as its nine lines joined by `\n`.
    fn dumps(lines: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        let mut current: Option<Vec<&str>> = None;
        for line in lines {
            match current.as_mut() {
                None if line == "===" => current = Some(vec!["==="]),
                None => {}
                Some(d) => {
                    d.push(line);
                    if line == "===" {
                        out.push(d.join("\n"));
                        current = None;
                    }
                }
            }
        }
        out
    }

    /// A dump from its seven rows.
    fn board(rows: [&str; 7]) -> String {
        let mut s = String::from("===\n");
        for r in rows {
            s.push_str("  ");
            s.push_str(r);
            s.push('\n');
        }
        s.push_str("===");
        s
    }

    const START: [&str; 7] = [
        "r - - - - - b",
        "- - - - - - -",
        "- - - - - - -",
        "- - - - - - -",
        "- - - - - - -",
        "- - - - - - -",
        "b - - - - - r",
    ];

    /// The lines that are neither dumps nor errors.
    fn chatter(lines: &[String]) -> Vec<String> {
        let mut in_dump = false;
        let mut out = Vec::new();
        for l in lines {
            if l == "===" {
                in_dump = !in_dump;
            } else if !in_dump && !l.starts_with("error: ") {
                out.push(l.clone());
            }
        }
        out
    }

    fn errors(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("error: "))
            .cloned()
            .collect()
    }

    /// The start position's dump, and any dump, as transcript lines.
    fn start() -> String {
        D::start_dump()
    }

    fn any_dump() -> String {
        super::any_dump::<D>()
    }

    #[test]
    fn dump_of_the_start_position() {
        super::dump_of_the_start_position::<D>();
    }

    /// Issue 25, item 13: an illegal move says why, as in the 2016 edition, and a word
    /// after a move is named. Then junk of every kind.
    #[test]
    fn every_error_is_one_line_and_changes_nothing() {
        super::every_error_is_one_line_and_changes_nothing::<D>(&[
            (
                "a7-d4",
                "error: illegal move 'a7-d4': d4 is too far from a7 (one or two squares)",
            ),
            ("b2-c3", "error: illegal move 'b2-c3': no red piece on b2"),
            (
                "a7-b6 extra",
                "error: unexpected 'extra' after the move 'a7-b6' (one move a line)",
            ),
            ("g7-f7", "error: illegal move 'g7-f7': no red piece on g7"),
            ("color green", "error: usage: color*"),
            ("bogus", "error: *"),
            ("Red wins.", "error: unknown command 'Red' (type help)"),
            ("start now", "error: *"),
            ("color", "error: *"),
            ("seed x", "error: *"),
            ("seed 99999999999999999999", "error: *"),
            ("host a-b", "error: *"),
            ("host", "error: *"),
            ("join nobody", "error: *"),
            ("join g@", "error: *"),
            ("manual red", "error: *"), // a 2016 command
            ("block c4", "error: *"),   // the 2016 form
            ("a7-a4", "error: *"),
            ("g1-h1", "error: *"),
            ("a7-b6 g7-f6", "error: *"),
            ("load", "error: *"),
            ("dump now", "error: *"),
            (
                "-",
                "error: illegal move '-': red has a move, so it cannot pass",
            ),
        ]);
    }

    #[test]
    fn set_up_commands_only_in_set_up() {
        let script = "start\ncolor blue\nauto\nblocks 3\nseed 4\nhost g1\njoin g1@localhost\n\
                      start\ndump\n";
        let errors: String = ["color", "auto", "blocks", "seed", "host", "join", "start"]
            .iter()
            .map(|what| format!("error: {what} is only valid during set-up (use clear first)\n"))
            .collect();
        super::set_up_commands_only_in_set_up::<D>(script, &format!("{errors}{}", start()));
    }

    #[test]
    fn a_set_up_that_ended_the_game_is_announced_by_start() {
        let filled = board([
            "r X X X X X b",
            "X X X X X X X",
            "X X X X X X X",
            "X X X - X X X",
            "X X X X X X X",
            "X X X X X X X",
            "b X X X X X r",
        ]);
        super::a_set_up_that_ended_the_game_is_announced_by_start::<D>(
            "blocks 123456abcdefgh\na7-b6\nstart\nstart\ng1-f2\ndump\n",
            &format!(
                "error: the set-up already ended the game (start announces the result; clear for a new one)\n\
                 Draw.\n\
                 error: start is only valid during set-up (use clear first)\n\
                 error: the game is over (use clear for a new game)\n{filled}\n"
            ),
        );
    }

    /// The Player (the User) plays blue: the Opponent, an AI, is red and moves at once;
    /// the User (blue) may not move red's pieces.
    #[test]
    fn the_opponent_moves_first_when_the_user_takes_the_second_side() {
        super::the_opponent_moves_first_when_the_user_takes_the_second_side::<D>(
            "seed 1\ncolor blue\nstart\na7-a6\ndump\n",
            &format!(
                "Red moves *.\nerror: illegal move 'a7-a6': no blue piece on a7\n{}",
                any_dump()
            ),
        );
    }

    #[test]
    fn by_default_the_user_plays_the_first_side_against_the_ai() {
        super::by_default_the_user_plays_the_first_side_against_the_ai::<D>(
            "start\na7-b6\ndump\n",
            &format!("Blue moves *.\n{}", any_dump()),
        );
    }

    /// `clear` restores the defaults: the User plays red again, so nothing happens
    /// until red moves.
    #[test]
    fn clear_starts_a_new_game() {
        super::clear_starts_a_new_game::<D>(&[(
            "color blue\nauto\nblocks 3\na7-b6\nclear\ndump\nstart\na7-b6\nclear\ndump\n",
            &format!("{}Blue moves *.\n{}", start(), start()),
        )]);
    }

    /// Blocks that leave nine empty squares: a whole game takes a few AI moves.
    #[test]
    fn auto_plays_the_machine_against_itself() {
        let small = "123456abcdef";
        let mut pos = Position::startpos(Rules::Text2008);
        pos.add_gaps(parse_blocks(small).unwrap().1).unwrap();
        super::auto_plays_the_machine_against_itself::<D>(
            &format!("seed 11\nblocks {small}\nauto\nstart\ndump\n"),
            pos,
            1,
            None,
        );
    }

    #[test]
    fn load_runs_a_file() {
        let after = board([
            "r - - - - - b",
            "- r - - - b -",
            "- - - - - - -",
            "- - X - X - -",
            "- - - - - - -",
            "- - - - - - -",
            "b - - - - - r",
        ]);
        super::load_runs_a_file::<D>(
            "ataxx2008",
            &[(
                "setup.txt",
                "# a set-up\nblocks 3\n\n  a7-b6  \ng7-f6\nbogus\n",
            )],
            "load {dir}/setup.txt\ndump\nload /nonexistent/file\n",
            &format!(
                // The refused line names its file and line.
                "error: {{at:setup.txt}} line 6: unknown command 'bogus' (type help)\n\
                 {after}\nerror: cannot load '/nonexistent/file'*\n"
            ),
        );
    }

    #[test]
    fn help_lists_the_commands() {
        super::help_lists_the_commands::<D>(&[
            "clear",
            "start",
            "quit",
            "color C",
            "auto",
            "blocks CONFIG",
            "seed N",
            "host ID",
            "join ID@HOST",
            "c0r0-c1r1",
            "dump",
            "load FILE",
            "help",
        ]);
    }

    #[test]
    fn quit_and_end_of_input_exit_zero() {
        super::quit_and_end_of_input_exit_zero::<D>(&[
            ("a7-b6\nquit\ndump\n", ""),
            ("start\n", ""),
        ]);
    }

    #[test]
    fn setup_moves_and_dump() {
        let t = session(&["dump", "  a7-b6   # extend", "g7-e5", "-", "dump"]);
        assert_eq!(
            dumps(&t),
            [
                board(START),
                board([
                    "r - - - - - -",
                    "- r - - - - -",
                    "- - - - b - -",
                    "- - - - - - -",
                    "- - - - - - -",
                    "- - - - - - -",
                    "b - - - - - r",
                ])
            ]
        );
        // `-` is no pass when red can move.
        assert_eq!(
            errors(&t),
            ["error: illegal move '-': red has a move, so it cannot pass"]
        );
        assert!(chatter(&t).is_empty(), "{t:?}");
    }

    #[test]
    fn blocks_notation() {
        let t = session(&[
            "blocks 3gh",
            "dump",
            "blocks 1",
            "dump",
            "BLOCKS dEe4",
            "dump",
            "blocks 123456abcdefgh",
            "dump",
        ]);
        assert_eq!(
            dumps(&t),
            [
                board([
                    "r - - - - - b",
                    "- X - - - X -",
                    "- - X - X - -",
                    "- - X - X - -",
                    "- - X - X - -",
                    "- X - - - X -",
                    "b - - - - - r",
                ]),
                // A new `blocks` replaces the earlier ones.
                board([
                    "r - - - - - b",
                    "- - - - - - -",
                    "- - - - - - -",
                    "X - - - - - X",
                    "- - - - - - -",
                    "- - - - - - -",
                    "b - - - - - r",
                ]),
                board([
                    "r X X X X X b",
                    "- - - - - - -",
                    "- - - - - - -",
                    "- - - - - - -",
                    "- - - - - - -",
                    "- - - - - - -",
                    "b X X X X X r",
                ]),
                board([
                    "r X X X X X b",
                    "X X X X X X X",
                    "X X X X X X X",
                    "X X X - X X X",
                    "X X X X X X X",
                    "X X X X X X X",
                    "b X X X X X r",
                ]),
            ]
        );
        assert!(errors(&t).is_empty(), "{:?}", errors(&t));
    }

    #[test]
    fn blocks_errors_change_nothing() {
        let t = session(&[
            "blocks 3",
            "blocks",
            "blocks 3z",
            "blocks 7",
            "blocks 3 g",
            "a7-b6",
            "blocks g", // b6 holds a piece now
            "g7-e7",
            "b6-d7",     // red jumps away from b6 (and takes e7)
            "blocks 4g", // 4 would block d7, where red now stands
            "dump",
            "blocks g", // b6 is empty, but a7-b6 could not have been played: refused
            "dump",
        ]);
        assert_eq!(
            errors(&t),
            [
                "error: usage: blocks CONFIG (e.g. 3gh)",
                "error: no block is named 'z' (use 1-6 and a-h)",
                "error: no block is named '7' (use 1-6 and a-h)",
                "error: usage: blocks CONFIG (e.g. 3gh)",
                "error: cannot block b6: a square there holds a piece",
                "error: cannot block d7: a square there holds a piece",
                "error: those blocks would make an earlier set-up move impossible (use clear first)",
            ]
        );
        let expect = board([
            "r - - r r - -",
            "- - - - - - -",
            "- - - - - - -",
            "- - X - X - -",
            "- - - - - - -",
            "- - - - - - -",
            "b - - - - - r",
        ]);
        assert_eq!(dumps(&t), [expect.clone(), expect]);
    }

    #[test]
    fn forty_five_jumps_end_the_game() {
        let cycle = ["a7-a5", "g7-g5", "a5-a7", "g5-g7"];
        let mut script: Vec<&str> = (0..44).map(|i| cycle[i % 4]).collect();
        script.extend(["dump", "start", "a7-a5", "a5-a7", "dump"]);
        let t = session(&script);
        // 25 and more jumps are fine (the 2016 rule would have ended the game); the 45th
        // ends it: two pieces each, a draw. Then moves are refused.
        assert_eq!(chatter(&t), ["Draw."]);
        assert_eq!(
            errors(&t),
            ["error: the game is over (use clear for a new game)"]
        );
        let d = dumps(&t);
        assert_eq!(d[0], board(START));
        assert_eq!(
            d[1],
            board([
                "- - - - - - b",
                "- - - - - - -",
                "r - - - - - -",
                "- - - - - - -",
                "- - - - - - -",
                "- - - - - - -",
                "b - - - - - r",
            ])
        );
    }
}

mod loa {
    //! LOA's text language: it has no set-up state (moves are played as typed, white is
    //! the AI at first) and its errors go to stderr.

    use super::Session;
    use engine::games::loa::{Position, Rules};
    use engine::protocol::text::loa::LoaText as D;

    impl Session for D {
        const ARGS: &'static [&'static str] = &[];
        fn start_dump() -> String {
            "===\n    - b b b b b b -\n    w - - - - - - w\n    w - - - - - - w\n    \
             w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    w - - - - - - w\n    \
             - b b b b b b -\nNext move: black\n===\n"
                .to_string()
        }
        fn dump(pos: &Position, _moves: usize) -> String {
            pos.dump() + "\n"
        }
    }

    #[test]
    fn dump_of_the_start_position() {
        super::dump_of_the_start_position::<D>();
    }

    #[test]
    fn by_default_the_user_plays_the_first_side_against_the_ai() {
        super::by_default_the_user_plays_the_first_side_against_the_ai::<D>(
            "b1-d3\ndump\n",
            &format!("* *\n{}", super::any_dump::<D>()),
        );
    }

    /// Same seed, same game; another seed, another game.
    #[test]
    fn auto_plays_the_machine_against_itself() {
        super::auto_plays_the_machine_against_itself::<D>(
            "seed 5\nauto black\n",
            Position::startpos(Rules::Text),
            1,
            Some("seed 6\nauto black\n"),
        );
    }

    #[test]
    fn help_lists_the_commands() {
        super::help_lists_the_commands::<D>(&[
            "c1r1-c2r2",
            "new",
            "auto P",
            "manual P",
            "set cr P N",
            "seed N",
            "limit N",
            "dump",
            "help, ?",
            "quit",
        ]);
    }

    #[test]
    fn quit_and_end_of_input_exit_zero() {
        super::quit_and_end_of_input_exit_zero::<D>(&[
            ("manual white\nb1-d3\nquit\ndump\n", ""),
            ("manual white\nb1-d3\n", ""),
        ]);
    }
}

mod reversi {
    //! Reversi's text language: besides the promises above, set-up moves that alternate
    //! and count, the User's pass when forced, `resign`, and `board`.

    use super::{session, Session};
    use engine::game::Side;
    use engine::games::reversi::Position;
    use engine::protocol::text::reversi::{parse_ai_move_line, ReversiText as D};

    impl Session for D {
        const ARGS: &'static [&'static str] = &[];
        fn start_dump() -> String {
            start_dump()
        }
        fn dump(pos: &Position, moves: usize) -> String {
            pos.dump(Side::First, moves as u32) + "\n"
        }
    }

    /// A dump block (with its final newline) for 8 rows.
    fn dump(rows: [&str; 8], user: &str, moves: u32) -> String {
        let mut s = String::from("===\n");
        for r in rows {
            s.push_str(r);
            s.push('\n');
        }
        s.push_str(&format!("User: {user}\nMoves: {moves}\n===\n"));
        s
    }

    const E: &str = "- - - - - - - -";

    fn start_dump() -> String {
        dump(
            [E, E, E, "- - - w b - - -", "- - - b w - - -", E, E, E],
            "black",
            0,
        )
    }

    /// The 9-move game that ends with white wiped out (set-up moves).
    const SHORT_GAME: &str = "d3\nc3\nb3\nd2\ne1\nd6\nd7\ne3\nf4\n";

    fn short_game_dump(user: &str) -> String {
        dump(
            [
                "- - - - b - - -",
                "- - - b - - - -",
                "- b b b b - - -",
                "- - - b b b - -",
                "- - - b b - - -",
                "- - - b - - - -",
                "- - - b - - - -",
                E,
            ],
            user,
            9,
        )
    }

    /// The position after d3 and c3.
    fn after_d3_c3() -> String {
        dump(
            [
                E,
                E,
                "- - w b - - - -",
                "- - - w b - - -",
                "- - - b w - - -",
                E,
                E,
                E,
            ],
            "black",
            2,
        )
    }

    #[test]
    fn dump_of_the_start_position() {
        super::dump_of_the_start_position::<D>();
    }

    #[test]
    fn every_error_is_one_line_and_changes_nothing() {
        super::every_error_is_one_line_and_changes_nothing::<D>(&[
            ("start now", "error: usage: start"),
            ("clear 1", "error: usage: clear"),
            ("quit now", "error: usage: quit"),
            ("auto black", "error: usage: auto"),
            ("manual 2", "error: usage: manual"),
            ("resign x", "error: usage: resign"),
            ("help me", "error: usage: help"),
            ("dump x", "error: usage: dump"),
            ("resign", "error: no game is in progress"),
            ("color green", "error: usage: color black|white"),
            ("color", "error: usage: color black|white"),
            ("seed x", "error: usage: seed N (a 64-bit integer)"),
            (
                "seed 18446744073709551616",
                "error: usage: seed N (a 64-bit integer)",
            ),
            (
                "e3",
                "error: illegal move 'e3': e3 turns over no white piece",
            ),
            ("d4", "error: illegal move 'd4': d4 is occupied"),
            (
                "-",
                "error: illegal move '-': black can place a piece, so it cannot skip",
            ),
            (
                "i9",
                "error: illegal move 'i9': no square i9 on the board (a1..h8)",
            ),
            ("d3 d3", "error: unknown command 'd3' (type help)"),
            ("Black wins.", "error: unknown command 'Black' (type help)"),
            ("load", "error: usage: load FILE"),
            (
                "load a b",
                "error: cannot load 'a b': No such file or directory (os error 2)",
            ),
            (
                "load /nonexistent/reversi-x",
                "error: cannot load '/nonexistent/reversi-x': No such file or directory (os error 2)",
            ),
        ]);
    }

    #[test]
    fn set_up_commands_only_in_set_up() {
        let after_d3_c5 = dump(
            [
                E,
                E,
                "- - - b - - - -",
                "- - - b b - - -",
                "- - w w w - - -",
                E,
                E,
                E,
            ],
            "black",
            2,
        );
        let input = "start\ncolor white\nauto\nmanual\nseed 5\nclear\nstart\nd3\ndump\n\
                     e3\nc3\nd3\ndump\n";
        let expected = format!(
            "error: color is only valid when no game is in progress\n\
             error: auto is only valid when no game is in progress\n\
             error: manual is only valid when no game is in progress\n\
             error: seed is only valid when no game is in progress\n\
             error: clear is refused while a game is in progress (resign first)\n\
             error: a game is already in progress\n\
             White moves c5.\n{after_d3_c5}\
             error: illegal move 'e3': e3 turns over no white piece\n\
             error: illegal move 'c3': c3 turns over no white piece\n\
             error: illegal move 'd3': d3 is occupied\n{after_d3_c5}"
        );
        super::set_up_commands_only_in_set_up::<D>(input, &expected);
    }

    #[test]
    fn a_set_up_that_ended_the_game_is_announced_by_start() {
        let input =
            format!("{SHORT_GAME}dump\nc4\n-\nstart\ndump\nstart\nd3\nresign\nclear\ndump\n");
        let expected = format!(
            "{}\
             error: the set-up already ended the game (start announces the result; clear for a new one)\n\
             error: the set-up already ended the game (start announces the result; clear for a new one)\n\
             Black wins.\n{}\
             error: the game is over (use clear for a new game)\n\
             error: the game is over (use clear for a new game)\n\
             error: no game is in progress\n{}",
            short_game_dump("black"),
            short_game_dump("black"),
            start_dump()
        );
        super::a_set_up_that_ended_the_game_is_announced_by_start::<D>(&input, &expected);
    }

    /// The Player plays white: the AI (black) moves first, then white resigns.
    #[test]
    fn the_opponent_moves_first_when_the_user_takes_the_second_side() {
        super::the_opponent_moves_first_when_the_user_takes_the_second_side::<D>(
            "color white\nseed 4\nstart\nresign\nd3\n",
            "Black moves *.\nBlack wins.\nerror: the game is over (use clear for a new game)\n",
        );
    }

    #[test]
    fn by_default_the_user_plays_the_first_side_against_the_ai() {
        super::by_default_the_user_plays_the_first_side_against_the_ai::<D>(
            "start\nd3\ndump\n",
            &format!("White moves *.\n{}", super::any_dump::<D>()),
        );
    }

    /// `clear` keeps the colour, the AI's sides and the seed.
    #[test]
    fn clear_starts_a_new_game() {
        let white = start_dump().replace("User: black", "User: white");
        super::clear_starts_a_new_game::<D>(&[
            (
                "color white\nseed 9\nauto\nmanual\nclear\ndump\ncolor BLACK\ndump\n",
                &format!("{white}{}", start_dump()),
            ),
            ("color white\nclear\ndump\n", &white),
            (
                "d3\nc3\ndump\nclear\ndump\n",
                &format!("{}{}", after_d3_c3(), start_dump()),
            ),
        ]);
    }

    #[test]
    fn auto_plays_the_machine_against_itself() {
        super::auto_plays_the_machine_against_itself::<D>(
            "seed 3\nauto\nstart\ndump\n",
            Position::startpos(),
            9,
            None,
        );
    }

    #[test]
    fn load_runs_a_file_and_nests() {
        let after = after_d3_c3();
        super::load_runs_a_file::<D>(
            "reversi",
            &[
                ("inner.txt", "c3 # white\n"),
                ("outer.txt", "d3\nload inner.txt\nbogus\n"),
                ("self.txt", "load self.txt\n"),
            ],
            "load outer.txt\ndump\nload self.txt\ndump\n",
            &format!(
                "error: 'outer.txt' line 3: unknown command 'bogus' (type help)\n{after}\
                 error: 'self.txt' line 1: cannot load: files nested too deeply\n{after}"
            ),
        );
    }

    #[test]
    fn help_lists_the_commands() {
        super::help_lists_the_commands::<D>(&["resign", "load FILE"]);
    }

    #[test]
    fn quit_and_end_of_input_exit_zero() {
        super::quit_and_end_of_input_exit_zero::<D>(&[("d3\nquit\ndump\n", ""), ("start\n", "")]);
    }

    #[test]
    fn set_up_moves_alternate_and_count() {
        let out = session::<D>("d3\nc3\ndump\nclear\ndump\n");
        assert_eq!(out, format!("{}{}", after_d3_c3(), start_dump()));
    }

    /// (With the Player on white: `the_opponent_moves_first_when_the_user_takes_the_second_side`.)
    #[test]
    fn resign_gives_the_opponent_the_game() {
        assert_eq!(
            session::<D>("start\nresign\ndump\n"),
            format!("White wins.\n{}", start_dump())
        );
    }

    #[test]
    fn the_user_passes_only_when_forced() {
        // After these 8 set-up moves black, to move, has no placement.
        let setup = "d3\nc3\nb3\nb2\nf5\na3\na1\nc1\n";
        let before = dump(
            [
                "b - w - - - - -",
                "- w - - - - - -",
                "w w b b - - - -",
                "- - - b b - - -",
                "- - - b b b - -",
                E,
                E,
                E,
            ],
            "black",
            8,
        );
        let out = session::<D>(&format!("{setup}dump\nstart\nd4\ne3\ndump\n-\n"));
        let mut lines = out.lines();
        let head: String = lines.by_ref().take(12).map(|l| format!("{l}\n")).collect();
        assert_eq!(head, before);
        assert_eq!(
            lines.next(),
            Some("error: illegal move 'd4': d4 is occupied")
        );
        assert_eq!(
            lines.next(),
            Some("error: illegal move 'e3': black has no placement: skip the turn with -")
        );
        let again: String = lines.by_ref().take(12).map(|l| format!("{l}\n")).collect();
        assert_eq!(again, before);
        // The pass is accepted; the AI answers.
        let answer = lines.next().expect("an AI line");
        assert_eq!(
            parse_ai_move_line(answer).map(|(s, _)| s),
            Some(Side::Second),
            "{answer}"
        );
    }

    #[test]
    fn board_shows_coordinates_and_whose_turn() {
        let out = session::<D>("d3\nboard\ndump\n");
        let want = "  a b c d e f g h\n\
                    1 . . . . . . . .\n\
                    2 . . . . . . . .\n\
                    3 . . * x * . . .\n\
                    4 . . . x x . . .\n\
                    5 . . * x o . . .\n\
                    6 . . . . . . . .\n\
                    7 . . . . . . . .\n\
                    8 . . . . . . . .\n\
                    white (o) to play; black 4 white 1\n";
        assert!(out.starts_with(want), "{out}");
        // It changes nothing: the dump after it is the set-up move's.
        assert!(out.ends_with("User: black\nMoves: 1\n===\n"), "{out}");
        assert!(session::<D>("board x\n").starts_with("error: usage: board"));
    }
}
