//! A deliberately unreliable engine for the tournament runner's integration tests.
//!
//! Speaks UAI (default) or the text language (`--text`) and plays random legal moves,
//! unless told to misbehave:
//! `--crash-after N` exits after N moves, `--hang-after N` stops answering after N moves,
//! `--illegal-after N` / `--garbage-after N` answer with an illegal move / junk after N
//! moves, `--no-handshake` never finishes the handshake, `--no-readyok` finishes it but
//! never answers `isready` (so a game's sync fails), `--slow MS` waits before every
//! move, `--seed N` seeds the move choice, `--long-line-after N` answers after N moves
//! with one 1 MiB line whose bytes from 64 KiB on are a legal move's answer (a reader that
//! split long lines would take that piece for a move). `--prompt` prints text-language
//! prompts. `--answer-at MS` (UAI) answers each `go` MS milliseconds after the time it
//! was given runs out (negative: before): its own clock (`btime` when it moves first,
//! else `wtime`) or `movetime`, for the referee's time-loss tests. `--score CP` sets
//! the score of its `info` line before each move (default 0).
//! `--refuse WORD` answers every command WORD with `error: WORD is refused` (UAI: `info
//! string error: WORD is refused`) and ignores it, as a program refuses a set-up command.
//! In UAI `go infinite` searches until `stop` (a `go` sent meanwhile waits for it), as
//! the protocol asks; for `tournament compliance` it can break that and more:
//! `--eager-infinite` answers `go infinite` at once, `--ignore-quit` reads past `quit`
//! (to the end of input), `--hang-at-eof` stays at the end of input, `--bad-option`
//! declares a spin option whose default lies outside its range.
//! Some public engines' habits (issue 53): `--stop-chatter` answers `stop` with
//! `Unknown command: stop` when nothing searches (as Moonbird does); `--huge-options`
//! declares `Hash` up to 1 TiB (in MiB) and `Threads` up to 512, and exits when either is
//! set above 1024 (as an engine that cannot allocate what it is told);
//! `--no-readyok-in-game` answers `isready` until the first `uainewgame`/`uginewgame`,
//! then never (a new-game sync that fails after a passing check).
//! `--script M1,M2,…` answers the k-th `go` since the last new game with the k-th move of
//! the list (cycling), whatever the position: a player of any game, for games a test
//! needs to go one way. The handshake's word (`uai` or `ugi`) picks the answers
//! (`uaiok` or `ugiok`), so it speaks UGI too.
//! `--gtp` speaks GTP as the Othello engines do (Reversi with our rules, squares a1–h8,
//! row 1 at the top: `boardsize 8`, `clear_board`, `play b d3`, `genmove w` answered
//! `= d3` / `= pass`, `time_settings` / `time_left`, ids echoed); there `--illegal-after`
//! answers an occupied square, `--garbage-after` answers `? cannot play` instead of a move,
//! `--resign-after N` answers `= resign`, `--refuse WORD` answers every command WORD
//! with `? WORD is refused`, `--implicit-pass` plays grhino's passes (its board passes
//! by itself, every `play COLOUR pass` is answered `? syntax error`, and `genmove` for a
//! colour without a move answers `= pass`), and `--crash-after`, `--hang-after`,
//! `--slow` act as in UAI.
//! It writes one line on stderr when it starts.

use engine::game::Side;
use engine::games::ataxx::{parse_square, Move, Position, Rules, TextMove};
use engine::protocol::text::ataxx::{ai_move_line, block_squares, SPEC};
use engine::rng::SplitMix64;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Opts {
    text: bool,
    gtp: bool,
    implicit_pass: bool,
    resign_after: Option<u64>,
    crash_after: Option<u64>,
    hang_after: Option<u64>,
    illegal_after: Option<u64>,
    garbage_after: Option<u64>,
    long_line_after: Option<u64>,
    no_handshake: bool,
    no_readyok: bool,
    slow_ms: u64,
    answer_at: Option<i64>,
    score: i64,
    seed: u64,
    prompt: bool,
    refuse: Option<String>,
    eager_infinite: bool,
    ignore_quit: bool,
    hang_at_eof: bool,
    bad_option: bool,
    stop_chatter: bool,
    huge_options: bool,
    no_readyok_in_game: bool,
    script: Vec<String>,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        seed: 12345,
        ..Opts::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let num = |i: usize| -> u64 { args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0) };
    while i < args.len() {
        match args[i].as_str() {
            "--text" => o.text = true,
            "--gtp" => o.gtp = true,
            "--implicit-pass" => o.implicit_pass = true,
            "--resign-after" => o.resign_after = Some(num(i)),
            "--prompt" => o.prompt = true,
            "--no-handshake" => o.no_handshake = true,
            "--no-readyok" => o.no_readyok = true,
            "--eager-infinite" => o.eager_infinite = true,
            "--ignore-quit" => o.ignore_quit = true,
            "--hang-at-eof" => o.hang_at_eof = true,
            "--bad-option" => o.bad_option = true,
            "--crash-after" => o.crash_after = Some(num(i)),
            "--hang-after" => o.hang_after = Some(num(i)),
            "--illegal-after" => o.illegal_after = Some(num(i)),
            "--garbage-after" => o.garbage_after = Some(num(i)),
            "--long-line-after" => o.long_line_after = Some(num(i)),
            "--slow" => o.slow_ms = num(i),
            "--answer-at" => o.answer_at = args.get(i + 1).and_then(|s| s.parse().ok()),
            "--seed" => o.seed = num(i),
            "--score" => o.score = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0),
            "--refuse" => o.refuse = args.get(i + 1).cloned(),
            "--stop-chatter" => o.stop_chatter = true,
            "--huge-options" => o.huge_options = true,
            "--no-readyok-in-game" => o.no_readyok_in_game = true,
            "--script" => {
                o.script = args
                    .get(i + 1)
                    .map(|s| s.split(',').map(str::to_string).collect())
                    .unwrap_or_default()
            }
            _ => {}
        }
        if args[i].starts_with("--")
            && !matches!(
                args[i].as_str(),
                "--text"
                    | "--gtp"
                    | "--implicit-pass"
                    | "--prompt"
                    | "--no-handshake"
                    | "--no-readyok"
                    | "--eager-infinite"
                    | "--ignore-quit"
                    | "--hang-at-eof"
                    | "--bad-option"
                    | "--stop-chatter"
                    | "--huge-options"
                    | "--no-readyok-in-game"
            )
        {
            i += 1;
        }
        i += 1;
    }
    o
}

/// What the engine does for its next move, given how many it has made.
enum Act {
    Play,
    Crash,
    Hang,
    Illegal,
    Garbage,
    LongLine,
}

fn next_act(o: &Opts, made: u64) -> Act {
    if o.crash_after.is_some_and(|n| made >= n) {
        Act::Crash
    } else if o.hang_after.is_some_and(|n| made >= n) {
        Act::Hang
    } else if o.illegal_after.is_some_and(|n| made >= n) {
        Act::Illegal
    } else if o.garbage_after.is_some_and(|n| made >= n) {
        Act::Garbage
    } else if o.long_line_after.is_some_and(|n| made >= n) {
        Act::LongLine
    } else {
        Act::Play
    }
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// A syntactically valid move that is illegal here: a single onto an occupied square.
fn illegal_move(pos: &Position) -> Move {
    let own = pos.pieces(pos.side_to_move());
    Move::single(own.trailing_zeros().min(48) as u8)
}

/// 64 KiB of blanks, `tail`, then blanks up to 1 MiB.
fn long_line(tail: &str) -> String {
    let mut line = " ".repeat(64 * 1024);
    line.push_str(tail);
    line.push(' ');
    line.push_str(&" ".repeat((1 << 20) - line.len()));
    line
}

fn out(line: &str) {
    let mut so = std::io::stdout().lock();
    let _ = writeln!(so, "{line}");
    let _ = so.flush();
}

fn main() {
    let o = parse_opts();
    // One line on stderr, for the runner's engine log.
    eprintln!("fake-engine: started, seed {}", o.seed);
    if o.text {
        text_main(&o)
    } else if o.gtp {
        gtp_main(&o)
    } else {
        uai_main(&o)
    }
}

fn uai_main(o: &Opts) {
    let mut rng = SplitMix64::new(o.seed);
    let mut pos = Position::startpos(Rules::Uai);
    let mut made = 0u64;
    // A `go infinite` under way, and the `go`s sent since, which wait for its `stop`.
    let mut infinite = false;
    let mut waiting: Vec<Position> = Vec::new();
    // `--script`: the `go`s answered since the last new game; `--no-readyok-in-game`:
    // whether a new game was announced.
    let mut scripted = 0usize;
    let mut in_game = false;
    let mut random_move = |pos: &Position| {
        let moves = pos.legal_moves();
        moves
            .get(rng.below(moves.len()))
            .copied()
            .unwrap_or(Move::PASS)
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some(w) if o.refuse.as_deref() == Some(w) => {
                out(&format!("info string error: {w} is refused"))
            }
            Some(hello @ ("uai" | "ugi")) => {
                if o.no_handshake {
                    continue;
                }
                out("id name fake-engine");
                out("id author tests");
                if o.huge_options {
                    out("option name Hash type spin default 16 min 1 max 1048576");
                    out("option name Threads type spin default 1 min 1 max 512");
                } else {
                    out("option name Hash type spin default 1 min 1 max 64");
                }
                if o.bad_option {
                    out("option name Broken type spin default 0 min 1 max 64");
                }
                out(&format!("{hello}ok"));
            }
            Some("uainewgame" | "uginewgame") => {
                scripted = 0;
                in_game = true;
            }
            // `setoption name N value V`: more than this machine has.
            Some("setoption")
                if o.huge_options
                    && words.last().and_then(|v| v.parse::<u64>().ok()) > Some(1024) =>
            {
                std::process::exit(4)
            }
            Some("isready")
                if !(o.no_handshake || o.no_readyok || (o.no_readyok_in_game && in_game)) =>
            {
                out("readyok")
            }
            Some("stop") if o.stop_chatter && !infinite => out("Unknown command: stop"),
            Some("go") if !o.script.is_empty() => {
                out(&format!("bestmove {}", o.script[scripted % o.script.len()]));
                scripted += 1;
            }
            Some("stop") if infinite => {
                infinite = false;
                out(&format!("bestmove {}", random_move(&pos)));
                for p in std::mem::take(&mut waiting) {
                    out(&format!("bestmove {}", random_move(&p)));
                }
            }
            Some("go") if infinite => waiting.push(pos.clone()),
            Some("go") if words.contains(&"infinite") && !o.eager_infinite => {
                out("info depth 1 score cp 0");
                infinite = true;
            }
            Some("position") => {
                let (base, rest) = match words.get(1).copied() {
                    Some("startpos") => (Some(Position::startpos(Rules::Uai)), &words[2..]),
                    Some("fen") => {
                        let end = words
                            .iter()
                            .position(|w| *w == "moves")
                            .unwrap_or(words.len());
                        let fen = words[2..end].join(" ");
                        (Position::from_fen(&fen, Rules::Uai).ok(), &words[end..])
                    }
                    _ => (None, &words[..0]),
                };
                if let Some(mut p) = base {
                    for m in rest.iter().skip(1) {
                        if let Ok(mv) = Move::parse_uai(m) {
                            if p.is_legal(mv) {
                                p.make_move(mv);
                            }
                        }
                    }
                    pos = p;
                }
            }
            Some("go") => {
                if o.slow_ms > 0 {
                    std::thread::sleep(Duration::from_millis(o.slow_ms));
                }
                if let Some(offset) = o.answer_at {
                    let own = if pos.side_to_move() == Side::First {
                        "btime"
                    } else {
                        "wtime"
                    };
                    let given = |key: &str| {
                        words
                            .iter()
                            .position(|w| *w == key)
                            .and_then(|k| words.get(k + 1))
                            .and_then(|v| v.parse::<i64>().ok())
                    };
                    if let Some(ms) = given("movetime").or_else(|| given(own)) {
                        let wait = (ms + offset).max(0) as u64;
                        std::thread::sleep(Duration::from_millis(wait));
                    }
                }
                match next_act(o, made) {
                    Act::Crash => std::process::exit(3),
                    Act::Hang => hang(),
                    Act::Illegal => out(&format!("bestmove {}", illegal_move(&pos))),
                    Act::Garbage => {
                        out("info \u{1}\u{2} what is this");
                        out("bestmove \u{fffd}zz9 extra words");
                    }
                    Act::LongLine => {
                        let mv = pos.legal_moves().first().copied().unwrap_or(Move::PASS);
                        out(&long_line(&format!("bestmove {mv}")));
                    }
                    Act::Play => {
                        let mv = random_move(&pos);
                        out(&format!("info depth 1 score cp {}", o.score));
                        out(&format!("bestmove {mv}"));
                    }
                }
                made += 1;
            }
            Some("quit") if !o.ignore_quit => return,
            _ => {}
        }
    }
    if o.hang_at_eof {
        hang();
    }
}

fn text_main(o: &Opts) {
    let mut rng = SplitMix64::new(o.seed);
    let mut pos = Position::startpos(Rules::Text);
    let mut auto = [false, true];
    let mut playing = false;
    let mut made = 0u64;
    let name = |s: Side| if s == Side::First { "Red" } else { "Blue" };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        // Let the AI move while it is its turn.
        while playing && pos.outcome().is_none() && auto[pos.side_to_move().index()] {
            if o.slow_ms > 0 {
                std::thread::sleep(Duration::from_millis(o.slow_ms));
            }
            let side = pos.side_to_move();
            match next_act(o, made) {
                Act::Crash => std::process::exit(3),
                Act::Hang => hang(),
                Act::Illegal => {
                    out(&format!("{} moves a1-g7.", name(side)));
                    made += 1;
                    break;
                }
                Act::Garbage => {
                    out("\u{7f}garbage ~~~ ###");
                    made += 1;
                    break;
                }
                Act::LongLine => {
                    let mv = pos.legal_moves().first().copied().unwrap_or(Move::PASS);
                    out(&long_line(&ai_move_line(&pos, mv)));
                    made += 1;
                    break;
                }
                Act::Play => {}
            }
            let moves = pos.legal_moves();
            let mv = moves
                .get(rng.below(moves.len()))
                .copied()
                .unwrap_or(Move::PASS);
            out(&ai_move_line(&pos, mv));
            pos.make_move(mv);
            made += 1;
        }
        if playing {
            if let Some(outcome) = pos.outcome() {
                out(SPEC.result_line(outcome));
                playing = false;
            } else if o.prompt {
                let mut so = std::io::stdout().lock();
                let _ = write!(so, "{}: ", name(pos.side_to_move()).to_lowercase());
                let _ = so.flush();
            }
        }
        let Some(Ok(line)) = lines.next() else { return };
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        let words: Vec<&str> = line.split_whitespace().collect();
        let side_of = |w: Option<&&str>| match w.map(|s| s.to_ascii_lowercase()) {
            Some(s) if s == "red" => Some(0),
            Some(s) if s == "blue" => Some(1),
            _ => None,
        };
        match words.first().copied() {
            None => {}
            Some(w) if o.refuse.as_deref() == Some(w) => out(&format!("error: {w} is refused")),
            Some("quit") => return,
            Some("clear") => {
                pos = Position::startpos(Rules::Text);
                auto = [false, true];
                playing = false;
            }
            Some("seed") => {
                if let Some(n) = words.get(1).and_then(|s| s.parse::<u64>().ok()) {
                    rng = SplitMix64::new(n);
                }
            }
            Some("auto") => {
                if let Some(i) = side_of(words.get(1)) {
                    auto[i] = true;
                }
            }
            Some("manual") => {
                if let Some(i) = side_of(words.get(1)) {
                    auto[i] = false;
                }
            }
            Some("block") => {
                if let Some(Ok(sq)) = words.get(1).map(|s| parse_square(s)) {
                    if pos.add_gaps(block_squares(sq)).is_err() {
                        out("error: square occupied");
                    }
                }
            }
            Some("start") => playing = true,
            Some("dump") => {
                out("===");
                for rank in (0..7).rev() {
                    let mut row = String::from(" ");
                    for file in 0..7 {
                        let sq = (rank * 7 + file) as u8;
                        let bit = 1u64 << sq;
                        row.push(' ');
                        row.push(if pos.pieces(Side::First) & bit != 0 {
                            'r'
                        } else if pos.pieces(Side::Second) & bit != 0 {
                            'b'
                        } else if pos.gaps() & bit != 0 {
                            'X'
                        } else {
                            '-'
                        });
                    }
                    out(&row);
                }
                out("===");
            }
            Some(w) => match TextMove::parse(w).ok().and_then(|m| m.resolve(&pos)) {
                Some(mv) => {
                    pos.make_move(mv);
                }
                None => out("error: not a legal entry"),
            },
        }
    }
}

/// GTP with the Othello engines' conventions, on our Reversi rules.
fn gtp_main(o: &Opts) {
    use engine::games::reversi::{parse_square, Move as RMove, Position as RPosition};
    let mut rng = SplitMix64::new(o.seed);
    let mut pos = RPosition::startpos();
    let mut made = 0u64;
    let colour = |w: Option<&&str>| match w.map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("b" | "black") => Some(Side::First),
        Some("w" | "white") => Some(Side::Second),
        _ => None,
    };
    let name = |mv: RMove| {
        if mv.is_pass() {
            "pass".to_string()
        } else {
            engine::games::reversi::square_name(mv.square()).to_ascii_uppercase()
        }
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let mut words: Vec<&str> = line.split_whitespace().collect();
        // An optional numeric id, echoed in the answer.
        let id = match words.first() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.remove(0).to_string(),
            _ => String::new(),
        };
        let ok = |text: &str| {
            let sep = if text.is_empty() { "" } else { " " };
            out(&format!("={id}{sep}{text}\n"));
        };
        let fail = |text: &str| out(&format!("?{id} {text}\n"));
        let Some(&cmd) = words.first() else { continue };
        if o.refuse.as_deref() == Some(cmd) {
            fail(&format!("{cmd} is refused"));
            continue;
        }
        match cmd {
            "protocol_version" => ok("2"),
            "name" => ok("fake-engine"),
            "version" => ok("1"),
            "list_commands" => ok(
                "protocol_version\nname\nversion\nlist_commands\nquit\nboardsize\n\
                 clear_board\nplay\ngenmove\ntime_settings\ntime_left",
            ),
            "boardsize" if words.get(1) == Some(&"8") => ok(""),
            "boardsize" => fail("unacceptable size"),
            "clear_board" => {
                pos = RPosition::startpos();
                ok("")
            }
            "time_settings" | "time_left" => {
                if words[1..]
                    .iter()
                    .all(|w| w.parse::<u64>().is_ok() || colour(Some(w)).is_some())
                {
                    ok("")
                } else {
                    fail("syntax error")
                }
            }
            "play" => {
                let mv = match words.get(2).map(|w| w.to_ascii_lowercase()).as_deref() {
                    Some("pass") => Some(RMove::PASS),
                    Some(w) => parse_square(w).ok().map(RMove::place),
                    None => None,
                };
                match (colour(words.get(1)), mv) {
                    (Some(_), Some(mv)) if o.implicit_pass && mv.is_pass() => fail("syntax error"),
                    (Some(side), Some(mv)) if side == pos.side_to_move() && pos.is_legal(mv) => {
                        pos.make_move(mv);
                        if o.implicit_pass && pos.is_legal(RMove::PASS) {
                            pos.make_move(RMove::PASS);
                        }
                        ok("")
                    }
                    (Some(_), Some(_)) => fail("illegal move"),
                    _ => fail("syntax error"),
                }
            }
            "genmove" => {
                if colour(words.get(1)) != Some(pos.side_to_move()) {
                    if o.implicit_pass && colour(words.get(1)).is_some() {
                        ok("pass");
                    } else {
                        fail("not that colour's turn");
                    }
                    continue;
                }
                if o.slow_ms > 0 {
                    std::thread::sleep(Duration::from_millis(o.slow_ms));
                }
                if o.resign_after.is_some_and(|n| made >= n) {
                    ok("resign");
                    continue;
                }
                match next_act(o, made) {
                    Act::Crash => std::process::exit(3),
                    Act::Hang => hang(),
                    Act::Illegal => {
                        let taken = !pos.empty();
                        ok(&name(RMove::place(taken.trailing_zeros() as u8)));
                    }
                    Act::Garbage => fail("cannot play"),
                    Act::LongLine => out(&long_line("= pass\n")),
                    Act::Play => {
                        let moves = pos.legal_moves();
                        let mv = moves
                            .get(rng.below(moves.len()))
                            .copied()
                            .unwrap_or(RMove::PASS);
                        pos.make_move(mv);
                        if o.implicit_pass && pos.is_legal(RMove::PASS) {
                            pos.make_move(RMove::PASS);
                        }
                        ok(&name(mv));
                    }
                }
                made += 1;
            }
            "quit" => {
                ok("");
                return;
            }
            _ => fail("unknown command"),
        }
    }
}
