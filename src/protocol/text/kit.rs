//! The text-dialect kit: what every course text language does alike, written once.
//!
//! A dialect describes itself with a [`Spec`] (its colour names, comment rule, what it
//! does with extra words, where its errors go, how its prompts end, what its error lines
//! mask, its AI move and result lines) and parses its lines with the kit's
//! [`Words`]: the common commands (`quit`, `help`, `dump`, `seed`, `load`) and side
//! words are parsed here, so a dialect's `parse` only names what is its own. Every line
//! a harness reads is written and recognised here from the spec, so the engine and the
//! tournament runner's text client (through [`super::TextProtocol`]) cannot disagree.

use super::EngineSetup;
use crate::game::{Game, Outcome, Side};
use crate::protocol::remote;
use crate::search::Limits;
use std::borrow::Cow;
use std::time::Duration;

/// Words the Ataxx and Reversi harnesses read in our output (result, pass and move
/// lines, the dump marker); chatter never contains them.
pub const RESERVED_WORDS: [&str; 5] = ["wins", "passes", "moves", "draw", "==="];

/// The states of the languages with a set-up (Ataxx's two editions, Reversi).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No game in progress, none ended since the last `clear`: set-up.
    Setup,
    /// A game in progress.
    Playing,
    /// No game in progress: one ended (`clear` for a new one).
    Finished,
}

/// Where a comment starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comments {
    /// `#` anywhere on the line starts one.
    Anywhere,
    /// Only a line whose first non-blank character is `#` is one.
    FirstNonBlank,
}

/// What words after those a command needs do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraWords {
    /// They are an error (the command's usage line).
    Refused,
    /// They are ignored.
    Ignored,
}

/// Where error lines go and how they start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errors {
    /// `error: MESSAGE` on stdout (inside a `load`ed file, `error: 'FILE' line N: …`).
    Stdout,
    /// `Error: MESSAGE` on stderr.
    Stderr,
}

/// What an echo of input in an error line masks (with `?`), so it cannot be read as a
/// line the harness looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Masked {
    /// These words, in any case.
    Words(&'static [&'static str]),
    /// These characters.
    Chars(&'static [char]),
}

/// How the AI's move lines look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLines {
    /// `Red moves a7-b6.` / `Red passes.` (the colour from [`Spec::colours`]).
    Named,
    /// `* b1-d3` / `* -`.
    Starred,
}

/// One course text language, as data.
#[derive(Debug)]
pub struct Spec {
    /// The sides' names in output lines (`Red`, `Blue`), by [`Side::index`].
    pub colours: [&'static str; 2],
    /// The sides' words in commands (`red`, `blue`; read in any case).
    pub side_words: [&'static str; 2],
    pub comments: Comments,
    pub extra_words: ExtraWords,
    pub errors: Errors,
    /// The character every prompt ends with (before its blank).
    pub prompt_end: char,
    pub masked: Masked,
    pub move_lines: MoveLines,
    /// The result lines: the first side wins, the second wins, a draw.
    pub results: [&'static str; 3],
    /// Result lines are recognised with runs of blanks taken as one.
    pub results_any_blanks: bool,
    /// The words `help` is (`help`, and `?` in LOA).
    pub help_words: &'static [&'static str],
    /// The language has `load FILE`.
    pub load: bool,
    /// True for a move's text as the AI move lines write it (a syntax check).
    pub move_text: fn(&str) -> bool,
    /// What the AI may spend on a move.
    pub ai: AiBudget,
}

/// The AI's per-move limits in a text language: a node budget (so the same seed and
/// input give the same moves on any machine) and a time cap that is only a safety net
/// (the course harnesses allow 10 s a move).
#[derive(Clone, Copy, Debug)]
pub struct AiBudget {
    pub nodes: u64,
    pub time_cap: Duration,
}

impl AiBudget {
    /// As search limits.
    pub fn limits(&self) -> Limits {
        Limits {
            nodes: Some(self.nodes),
            hard_time: Some(self.time_cap),
            ..Limits::default()
        }
    }
}

/// A 64-bit seed, written as a signed or unsigned decimal number.
pub fn parse_seed(s: &str) -> Option<u64> {
    s.parse::<u64>()
        .ok()
        .or_else(|| s.parse::<i64>().ok().map(|v| v as u64))
}

/// The first set-up commands of a language with a set-up state: `clear` after an
/// earlier game, then `seed`. Refused unless the opening starts `from_start` (the
/// start position with the first side to move): these languages have no FEN.
pub fn setup_start(from_start: bool, seed: u64, played: bool) -> Result<Vec<String>, String> {
    if !from_start {
        return Err("the text language starts from the start position (no FEN)".into());
    }
    let clear = played.then(|| "clear".to_string());
    Ok(clear.into_iter().chain([format!("seed {seed}")]).collect())
}

/// The first set-up commands of a language with no set-up state, where `auto` makes
/// the AI move at once (2022, LOA): both sides manual, so that nothing moves while the
/// game is set up, `new` after an earlier game, then `seed`.
pub fn manual_start<G: Game>(spec: &Spec, s: &EngineSetup<G>) -> Vec<String> {
    let manual = spec.side_words.map(|w| format!("manual {w}"));
    let new = s.played.then(|| "new".to_string());
    let seed = format!("seed {}", s.seed);
    manual.into_iter().chain(new).chain([seed]).collect()
}

/// The last set-up commands of such a language: `auto` for the AI's side and the
/// `dump` barrier. When the AI is to move (`to_move` after the opening) it moves as
/// soon as `auto` is read, so `auto` comes last: the barrier is then still read before
/// the AI's first move line.
pub fn auto_and_dump<G: Game>(
    cmds: &mut Vec<String>,
    spec: &Spec,
    s: &EngineSetup<G>,
    to_move: Side,
) {
    let auto = format!("auto {}", spec.side_word(s.ai_side));
    let dump = "dump".to_string();
    let order = if to_move == s.ai_side {
        [dump, auto]
    } else {
        [auto, dump]
    };
    cmds.extend(order);
}

impl Spec {
    /// Quotes input for an error line: printable, cut short, and with what the harness
    /// reads masked, so an echo of `Red wins.` can never be read as a result.
    pub fn quote_input(&self, s: &str) -> String {
        let mut q = super::super::quote(s);
        match self.masked {
            Masked::Words(words) => {
                for word in words {
                    while let Some(i) = q.to_ascii_lowercase().find(word) {
                        q.replace_range(i..i + word.len(), &"?".repeat(word.len()));
                    }
                }
            }
            Masked::Chars(chars) => q = q.replace(chars, "?"),
        }
        q
    }

    /// The part of an output line after the last prompt end, trimmed.
    pub fn strip_prompt<'l>(&self, line: &'l str) -> &'l str {
        match line.rfind(self.prompt_end) {
            Some(i) => line[i + 1..].trim(),
            None => line.trim(),
        }
    }

    /// The language's word for a side in commands.
    pub fn side_word(&self, side: Side) -> &'static str {
        self.side_words[side.index()]
    }

    /// The side's name in output lines.
    pub fn colour_name(&self, side: Side) -> &'static str {
        self.colours[side.index()]
    }

    /// A side word, in any case.
    pub fn parse_colour(&self, s: &str) -> Option<Side> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|&side| s.eq_ignore_ascii_case(self.side_word(side)))
    }

    /// The result line for a finished game.
    pub fn result_line(&self, outcome: Outcome) -> &'static str {
        match outcome {
            Outcome::Win(side) => self.results[side.index()],
            Outcome::Draw => self.results[2],
        }
    }

    /// Recognises a result line (after any prompt).
    pub fn parse_result_line(&self, line: &str) -> Option<Outcome> {
        let text = self.strip_prompt(line);
        let text = if self.results_any_blanks {
            Cow::Owned(text.split_whitespace().collect::<Vec<_>>().join(" "))
        } else {
            Cow::Borrowed(text)
        };
        [
            Outcome::Win(Side::First),
            Outcome::Win(Side::Second),
            Outcome::Draw,
        ]
        .into_iter()
        .find(|&o| text == self.result_line(o))
    }

    /// The line announcing an AI move by `side` written `text` (`-` is a pass).
    pub fn ai_move_line(&self, side: Side, text: &str) -> String {
        match self.move_lines {
            MoveLines::Starred => format!("* {text}"),
            MoveLines::Named if text == "-" => format!("{} passes.", self.colour_name(side)),
            MoveLines::Named => format!("{} moves {text}.", self.colour_name(side)),
        }
    }

    /// Recognises an AI move line (after any prompt): the side that moved if the line
    /// names it, and the move's text (`-` for a pass). Moves are written in lower case.
    pub fn parse_ai_move_line(&self, line: &str) -> Option<(Option<Side>, String)> {
        let text = self.strip_prompt(line);
        let lower = |mv: &str| (self.move_text)(mv) && !mv.bytes().any(|c| c.is_ascii_uppercase());
        match self.move_lines {
            MoveLines::Starred => match text
                .strip_prefix('*')?
                .split_whitespace()
                .collect::<Vec<_>>()[..]
            {
                [mv] if lower(mv) => Some((None, mv.to_string())),
                _ => None,
            },
            MoveLines::Named => {
                let words: Vec<&str> = text.split_whitespace().collect();
                let side = [Side::First, Side::Second]
                    .into_iter()
                    .find(|&s| words.first() == Some(&self.colour_name(s)))?;
                match words[1..] {
                    ["passes."] => Some((Some(side), "-".into())),
                    ["moves", mv] => {
                        let mv = mv.strip_suffix('.')?;
                        lower(mv).then(|| (Some(side), mv.to_string()))
                    }
                    _ => None,
                }
            }
        }
    }

    /// True for a line that delimits a dump (`===`), prompts removed.
    pub fn is_dump_marker(&self, line: &str) -> bool {
        self.strip_prompt(line) == "==="
    }

    /// Parses one line of this language: `Ok(None)` for a line with nothing on it, a
    /// command every language shares ([`Words::common`]) as `common` wraps it, else
    /// what `own` makes of the line's words.
    pub fn parse_line<C>(
        &'static self,
        line: &str,
        common: fn(Common) -> C,
        own: impl FnOnce(&Words) -> Result<C, TextError>,
    ) -> Result<Option<C>, TextError> {
        let Some(w) = self.words(line) else {
            return Ok(None);
        };
        match w.common() {
            Some(c) => c.map(|c| Some(common(c))),
            None => own(&w).map(Some),
        }
    }

    /// The words of one input line, comments removed; `None` for a line with nothing
    /// on it.
    pub fn words<'l>(&'static self, line: &'l str) -> Option<Words<'l>> {
        let line = match self.comments {
            Comments::Anywhere => line.split('#').next().unwrap_or(""),
            Comments::FirstNonBlank if line.trim_start().starts_with('#') => "",
            Comments::FirstNonBlank => line,
        };
        let mut all = line.split_whitespace();
        let first = all.next()?;
        Some(Words {
            spec: self,
            line,
            first,
            word: first.to_ascii_lowercase(),
            args: all.collect(),
        })
    }

    /// The unknown-command error for `word`.
    pub fn unknown(&self, word: &str) -> TextError {
        TextError::Unknown(self.quote_input(word))
    }

    /// `illegal move 'TEXT': WHY`.
    pub fn illegal(&self, text: &str, why: String) -> TextError {
        TextError::IllegalBecause(self.quote_input(text), why)
    }
}

/// True for a word shaped like a square: a letter, then one or two digits (`z9`, `a10`),
/// whether or not the board has it.
pub fn square_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    (2..=3).contains(&b.len())
        && b[0].is_ascii_alphabetic()
        && b[1..].iter().all(u8::is_ascii_digit)
}

/// Why a move refers off the board, naming the first square-shaped part of `parts`
/// that `on_board` rejects: `no square h1 on the board (a1..g7)` (`range` is the board's).
pub fn off_board<'p>(
    parts: impl IntoIterator<Item = &'p str>,
    on_board: impl Fn(&str) -> bool,
    range: &str,
) -> Option<String> {
    parts
        .into_iter()
        .find(|p| square_shaped(p) && !on_board(p))
        .map(|p| {
            format!(
                "no square {} on the board ({range})",
                p.to_ascii_lowercase()
            )
        })
}

/// The commands every language shares (`load` where the spec has it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Common {
    Quit,
    Help,
    Dump,
    Seed(u64),
    Load(String),
}

/// One input line split into words, under its language's rules.
pub struct Words<'l> {
    pub spec: &'static Spec,
    /// The line, comment removed.
    pub line: &'l str,
    /// The first word as typed, and in lower case.
    pub first: &'l str,
    pub word: String,
    /// The words after the first.
    pub args: Vec<&'l str>,
}

impl Words<'_> {
    /// The common commands: `Some` if the first word is one of them.
    pub fn common(&self) -> Option<Result<Common, TextError>> {
        let w = self.word.as_str();
        Some(match w {
            "quit" => self.no_args(Common::Quit, "quit"),
            "dump" => self.no_args(Common::Dump, "dump"),
            _ if self.spec.help_words.contains(&w) => self.no_args(Common::Help, "help"),
            "seed" => {
                const USAGE: &str = "seed N (a 64-bit integer)";
                self.args(1, USAGE)
                    .and_then(|a| parse_seed(a[0]).ok_or(TextError::BadArgs(USAGE)))
                    .map(Common::Seed)
            }
            "load" if self.spec.load => super::super::rest_of_line(self.line, self.first)
                .map(Common::Load)
                .ok_or(TextError::BadArgs("load FILE")),
            _ => return None,
        })
    }

    /// `cmd` if the line has no more words than it (extra words as the spec says),
    /// else its usage.
    pub fn no_args<C>(&self, cmd: C, usage: &'static str) -> Result<C, TextError> {
        self.args(0, usage).map(|_| cmd)
    }

    /// The `n` arguments a command takes (extra words as the spec says), else its
    /// usage.
    pub fn args(&self, n: usize, usage: &'static str) -> Result<&[&str], TextError> {
        let ok = match self.spec.extra_words {
            ExtraWords::Refused => self.args.len() == n,
            ExtraWords::Ignored => self.args.len() >= n,
        };
        if ok {
            Ok(&self.args[..n])
        } else {
            Err(TextError::BadArgs(usage))
        }
    }

    /// `host ID`: the game ID (letters, digits and `_`), else the usage.
    pub fn host_id(&self) -> Result<String, TextError> {
        const USAGE: &str = "host ID (1 to 64 letters, digits or _)";
        let id = self.args(1, USAGE)?[0];
        remote::valid_id(id)
            .then(|| id.to_string())
            .ok_or(TextError::BadArgs(USAGE))
    }

    /// `join ID@HOST[:PORT]`: the address, else why not.
    pub fn join_address(&self) -> Result<String, TextError> {
        let address = self.args(1, "join ID@HOST")?[0];
        match remote::parse_address(address) {
            Ok(_) => Ok(address.to_string()),
            Err(why) => Err(TextError::refused(format!(
                "cannot join {}: {why}",
                self.spec.quote_input(address)
            ))),
        }
    }

    /// A command's one side word, else its usage.
    pub fn side(&self, usage: &'static str) -> Result<Side, TextError> {
        let a = self.args(1, usage)?;
        self.spec
            .parse_colour(a[0])
            .ok_or(TextError::BadArgs(usage))
    }
}

/// Why a command was refused: one line, with any echo of input already quoted by the
/// language's [`Spec::quote_input`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// An unknown command (the word, quoted).
    Unknown(String),
    /// Wrong arguments: the usage.
    BadArgs(&'static str),
    /// A refusal in so many words.
    Refused(Cow<'static, str>),
    /// An illegal move (quoted) and why.
    IllegalBecause(String, String),
}

impl TextError {
    /// A refusal in so many words.
    pub fn refused(why: impl Into<Cow<'static, str>>) -> TextError {
        TextError::Refused(why.into())
    }
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Unknown(q) => write!(f, "unknown command {q} (type help)"),
            TextError::BadArgs(usage) => write!(f, "usage: {usage}"),
            TextError::Refused(why) => write!(f, "{why}"),
            TextError::IllegalBecause(q, why) => write!(f, "illegal move {q}: {why}"),
        }
    }
}

/// The checks every dialect's tests make of its AI move and result lines, on its own
/// lines and prompts.
#[cfg(test)]
pub mod checks {
    use super::Spec;
    use crate::game::{Outcome, Side};
    use std::fmt::Debug;

    /// Every result line of `spec` reads back as its outcome, printed after `prompt`.
    pub fn result_lines_read_back(spec: &Spec, prompt: &str) {
        for o in [
            Outcome::Win(Side::First),
            Outcome::Win(Side::Second),
            Outcome::Draw,
        ] {
            assert_eq!(
                spec.parse_result_line(&format!("{prompt}{}", spec.result_line(o))),
                Some(o)
            );
        }
    }

    /// None of `junk` reads as an AI move line by `parse`.
    pub fn not_ai_moves<T: Debug + PartialEq>(parse: fn(&str) -> Option<T>, junk: &[&str]) {
        for junk in junk {
            assert_eq!(parse(junk), None, "{junk}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The 2016 Ataxx language: the kit's behaviour is checked on a real spec rather
    // than a copy of one.
    use super::super::ataxx::SPEC;

    #[test]
    fn seeds_and_sides() {
        assert_eq!(parse_seed("-1"), Some(u64::MAX));
        assert_eq!(parse_seed("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_seed("18446744073709551616"), None);
        assert_eq!(SPEC.parse_colour("BLUE"), Some(Side::Second));
        assert_eq!(SPEC.parse_colour("green"), None);
    }

    #[test]
    fn common_commands_parse_once() {
        let w = SPEC.words(" SEED -1 # x").unwrap();
        assert_eq!(w.common(), Some(Ok(Common::Seed(u64::MAX))));
        let w = SPEC.words("quit now").unwrap();
        assert_eq!(w.common(), Some(Err(TextError::BadArgs("quit"))));
        assert!(SPEC.words("  # only").is_none());
        assert_eq!(
            SPEC.words("load a b").unwrap().common(),
            Some(Ok(Common::Load("a b".into())))
        );
        assert_eq!(SPEC.words("start").unwrap().common(), None);
    }

    #[test]
    fn lines_round_trip() {
        let line = SPEC.ai_move_line(Side::First, "a7-b6");
        assert_eq!(line, "Red moves a7-b6.");
        assert_eq!(
            SPEC.parse_ai_move_line(&format!("red: {line}")),
            Some((Some(Side::First), "a7-b6".into()))
        );
        assert_eq!(SPEC.ai_move_line(Side::Second, "-"), "Blue passes.");
        assert_eq!(SPEC.parse_ai_move_line("Red moves A7-b6."), None);
        assert_eq!(SPEC.parse_result_line("x: Draw."), Some(Outcome::Draw));
        assert_eq!(SPEC.quote_input("Red wins."), "'Red ????.'");
    }
}
