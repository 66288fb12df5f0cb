//! The command line every game binary shares: the interactive protocols (the game's
//! course text language by default, UAI/UGI when the first command says so or a flag
//! asks), `perft` and `bench`. A binary only names its game's dialect and adds its own
//! extras: each game's own part is a submodule here ([`loa`], [`reversi`]), registered
//! with its game in [`crate::variant`].

pub mod loa;
pub mod reversi;

use super::input::{self, Line};
use super::remote;
use super::terminal;
use super::text::{self, Playable, TextDialect};
use super::uci::{self, Flavour};
use crate::bench;
use crate::game::{Benchmark, GameIo, Notation, RuleSet};
use std::io::IsTerminal;
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};

/// One option of a binary's command line: its name (`--edition`), the name of its
/// value (`None` for a switch) and what it does, for `--help`.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    pub name: &'static str,
    pub value: Option<&'static str>,
    pub help: &'static str,
}

const fn switch(name: &'static str, help: &'static str) -> Opt {
    Opt {
        name,
        value: None,
        help,
    }
}

const fn valued(name: &'static str, value: &'static str, help: &'static str) -> Opt {
    Opt {
        name,
        value: Some(value),
        help,
    }
}

/// What a game's binary has of its own, beyond what every game binary has (the shared
/// options, the protocols, `perft`/`bench`, the editions the registry lists): registered
/// once per game in [`crate::variant`].
pub struct Binary {
    /// Its own options, after the shared ones (LOA's `--strict` and `--log`).
    pub options: &'static [Opt],
    /// Its own usage lines, after the shared ones (Reversi's `solve FILE`).
    pub usage: &'static [&'static str],
    /// What it does besides the protocols when the command line asks for it (Reversi's
    /// `solve`, LOA's course session over files): `Ok(Some(run))` to run instead of the
    /// protocols (once logging is set up), `Ok(None)` for the protocols, `Err` for a
    /// usage error. Never asked when `--help`, `--version` or `--display` is given.
    pub command: fn(&Parsed) -> Result<Option<OwnCommand>, String>,
}

/// A binary's own command, ready to run: returns the exit status.
pub type OwnCommand = Box<dyn FnOnce() -> u8>;

impl Binary {
    /// A binary with nothing of its own.
    pub const PLAIN: Binary = Binary {
        options: &[],
        usage: &[],
        command: |_| Ok(None),
    };
}

/// `--debug N`, which every binary takes (last in its help).
pub const DEBUG_OPTION: Opt = valued(
    "--debug",
    "N",
    "diagnostics on stderr: 0 none, 1 warnings, 2 info, 3 debug, 4 trace",
);

/// The remote-play options (`ataxx`, `reversi`).
pub const REMOTE_OPTIONS: [Opt; 2] = [
    valued(
        "--remote-timeout",
        "SECONDS",
        "remote play: how long a peer program may take to answer (default 10)",
    ),
    valued(
        "--listen",
        "ADDR",
        "the IPv4 interface `host` and --display listen on (default 127.0.0.1)",
    ),
];

/// The options every game binary takes, for dialect `D`'s game (`--uai` where it
/// speaks UAI, its own protocols' flags).
pub fn shared_options<D: TextDialect>() -> Vec<Opt> {
    let mut opts = vec![
        switch("--help", "print this help and exit (also -h)"),
        switch(
            "--version",
            "print the version and exit (also -V, -version)",
        ),
    ];
    if D::Game::SPEAKS_UAI {
        opts.push(switch("--uai", "speak UAI from the first line"));
    }
    opts.push(switch("--ugi", "speak UGI from the first line"));
    for p in D::other_protocols() {
        opts.push(Opt {
            name: p.flag,
            value: None,
            help: p.help,
        });
    }
    opts.extend(display_options());
    opts
}

/// `--display` and `--port`, for every game binary (`--listen` comes with the remote
/// options, or [`LISTEN_OPTION`] where there are none).
fn display_options() -> [Opt; 2] {
    [
        switch(
            "--display",
            "serve a board in the browser (its address on stderr) beside the text language",
        ),
        valued(
            "--port",
            "PORT",
            "--display: the port to serve on (default: a free one)",
        ),
    ]
}

/// `--listen` alone, for a binary without remote play (`loa`).
pub const LISTEN_OPTION: Opt = valued(
    "--listen",
    "ADDR",
    "--display: the IPv4 interface to serve on (default 127.0.0.1)",
);

/// A command line as parsed: options in any order (`--opt=V` or `--opt V`), the other
/// words in order.
#[derive(Debug, Default)]
pub struct Parsed {
    switches: Vec<&'static str>,
    values: Vec<(&'static str, String)>,
    /// The words that are not options (`perft 3`, file names), in order.
    pub words: Vec<String>,
    /// Words from this index on came after `--` (never commands); `usize::MAX` if
    /// there was no `--`.
    pub literal_from: usize,
}

impl Parsed {
    /// True if switch `name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }

    /// The value of option `name` (the last one given).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// True if any option of `names` was given.
    pub fn any(&self, names: &[&str]) -> bool {
        names.iter().any(|n| self.has(n) || self.value(n).is_some())
    }
}

/// Parses `args` against `opts`: `--opt=V` and `--opt V` alike, options anywhere,
/// `--` ends them, `-h`/`-V` are `--help`/`--version`. `Err` is a one-line reason (an
/// unknown option, a missing value, a value given to a switch), with a hint for the
/// en dash that `loa.txt` prints in place of `--`.
pub fn parse_command_line(args: &[String], opts: &[Opt]) -> Result<Parsed, String> {
    let mut p = Parsed {
        literal_from: usize::MAX,
        ..Parsed::default()
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let arg = arg.as_str();
        if arg == "--" {
            p.literal_from = p.words.len();
            p.words.extend(it.by_ref().cloned());
            return Ok(p);
        }
        if let Some(rest) = arg.strip_prefix(['\u{2013}', '\u{2014}']) {
            let fixed = format!(
                "--{}",
                rest.trim_start_matches(['-', '\u{2013}', '\u{2014}'])
            );
            return Err(format!(
                "unknown option {} (a typographic dash: type {}, with two hyphens)",
                super::quote(arg),
                super::quote(&fixed)
            ));
        }
        let arg = match arg {
            "-h" => "--help",
            // `-version` too, as the tournament runners (cutechess-cli, fastchess) spell it.
            "-V" | "-version" => "--version",
            a => a,
        };
        // `-` is a word (stdin), and so is a FEN starting with `-` (a gap).
        let option_like = arg.starts_with("--")
            || (arg.starts_with('-') && arg[1..].starts_with(|c: char| c.is_ascii_alphabetic()));
        if !option_like {
            p.words.push(arg.to_string());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (arg, None),
        };
        let opt = opts
            .iter()
            .find(|o| o.name == name)
            .ok_or_else(|| format!("unknown option {}", super::quote(name)))?;
        match (opt.value, inline) {
            (None, None) => p.switches.push(opt.name),
            (None, Some(_)) => return Err(format!("{} takes no value", opt.name)),
            (Some(_), Some(v)) if !v.is_empty() => p.values.push((opt.name, v.to_string())),
            (Some(what), Some(_)) => return Err(format!("{} needs a value ({what})", opt.name)),
            (Some(what), None) => match it.next() {
                Some(v) => p.values.push((opt.name, v.clone())),
                None => return Err(format!("{} needs a value ({what})", opt.name)),
            },
        }
    }
    Ok(p)
}

/// The help text: `usage` (one or more lines, the first starting `usage: `), then
/// one line per option.
pub fn help_text(usage: &str, opts: &[Opt]) -> String {
    let mut s = format!("{usage}\noptions (in any order; --opt=V or --opt V):");
    for o in opts {
        let head = match o.value {
            Some(v) => format!("{} {v}", o.name),
            None => o.name.to_string(),
        };
        s.push_str(&format!("\n  {head:<24} {}", o.help));
    }
    s
}

/// The remote-play settings `p` gives (the defaults for those it does not).
pub fn remote_settings(p: &Parsed) -> Result<remote::Settings, String> {
    let mut settings = remote::Settings::default();
    if let Some(v) = p.value("--listen") {
        settings.listen = v
            .parse()
            .map_err(|_| format!("bad --listen {} (an IPv4 address)", super::quote(v)))?;
    }
    if let Some(v) = p.value("--remote-timeout") {
        let secs: f64 = v
            .parse()
            .ok()
            .filter(|s: &f64| (0.001..=86_400.0).contains(s))
            .ok_or(format!(
                "bad --remote-timeout {} (seconds, 0.001 to 86400)",
                super::quote(v)
            ))?;
        settings.timeout = Duration::from_secs_f64(secs);
    }
    Ok(settings)
}

/// Deepest `perft` accepted on the command line.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The usage lines of the binary `bin` of dialect `D`; `protocols` names the engine
/// protocols a first line switches to (`UGI`, `UGI/NBoard`), `extra` are its own further
/// forms (`reversi solve FILE`).
pub fn usage_for(bin: &str, protocols: &str, extra: &[&str]) -> String {
    let mut s = format!(
        "usage: {bin} [OPTIONS]    (the text language; {protocols} if the first line says so)\n       \
         {bin} perft DEPTH [FEN]\n       {bin} bench [DEPTH]"
    );
    for e in extra {
        s.push_str(&format!("\n       {bin} {e}"));
    }
    s
}

/// Runs the shared command line `p` of the binary `bin` of dialect `D` (`help` is its
/// help text; `options` the dialect's own, from the command line); returns the exit
/// status: 0 done, 2 a usage error or `--display`.
pub fn run_parsed<D: text::Playable>(bin: &str, p: &Parsed, help: &str, options: D::Options) -> u8 {
    let usage_error = |msg: &str| {
        eprintln!("{bin}: {msg}\n{help}");
        2
    };
    if p.has("--help") {
        super::emit(&mut std::io::stdout(), help);
        return 0;
    }
    if p.has("--version") {
        super::emit(
            &mut std::io::stdout(),
            &format!("{bin} {}", env!("CARGO_PKG_VERSION")),
        );
        return 0;
    }
    let remote = match remote_settings(p) {
        Ok(r) => r,
        Err(e) => return usage_error(&e),
    };
    let setup = text::Setup {
        dialect: options,
        remote,
        terminal: None,
    };
    if p.has("--display") || p.value("--port").is_some() {
        return match display_config::<D>(p) {
            Ok(config) => super::display::run::<D>(bin, config, setup),
            Err(e) => usage_error(&e),
        };
    }
    let mut protocols: Vec<&str> = ["--uai", "--ugi"]
        .into_iter()
        .filter(|f| p.has(f))
        .collect();
    let other = D::other_protocols().iter().find(|o| p.has(o.flag));
    protocols.extend(other.map(|o| o.flag));
    if protocols.len() > 1 {
        return usage_error(&format!(
            "choose one protocol, not {}",
            protocols.join(" and ")
        ));
    }
    let words: Vec<&str> = p.words.iter().map(String::as_str).collect();
    if let (Some(flag), [_, ..]) = (protocols.first(), words.as_slice()) {
        return usage_error(&format!(
            "{flag} takes no arguments ({})",
            super::quote(&words.join(" "))
        ));
    }
    if let Some(o) = other {
        return (o.run)(None, input::spawn_stdin(), &mut std::io::stdout()) as u8;
    }
    match words.as_slice() {
        [] if p.has("--uai") => interactive::<D>(Some(Flavour::Uai), setup),
        [] if p.has("--ugi") => interactive::<D>(Some(Flavour::Ugi), setup),
        [] => interactive::<D>(None, setup),
        _ => run_words::<D::Game>(&words, usage_error),
    }
}

/// `perft DEPTH [FEN]` and `bench [DEPTH]` of game `G`; anything else is a usage error
/// (`usage_error` prints it with the help and gives the status).
fn run_words<G: GameIo>(words: &[&str], usage_error: impl Fn(&str) -> u8) -> u8 {
    match words {
        ["perft", depth, fen @ ..] => match depth.parse::<u32>() {
            Ok(d) if d <= MAX_PERFT_DEPTH => match perft::<G>(d, &fen.join(" ")) {
                Ok(line) => {
                    super::emit(&mut std::io::stdout(), &line);
                    0
                }
                Err(e) => usage_error(&e),
            },
            _ => usage_error(&format!(
                "bad perft depth {} (0 to {MAX_PERFT_DEPTH})",
                super::quote(depth)
            )),
        },
        ["bench"] => bench_cmd::<G>(G::BENCH_DEPTH),
        ["bench", depth] => match depth.parse() {
            Ok(d) if (1..=30).contains(&d) => bench_cmd::<G>(d),
            _ => usage_error(&format!("bad bench depth {}", super::quote(depth))),
        },
        _ => usage_error(&format!(
            "unknown arguments {}",
            super::quote(&words.join(" "))
        )),
    }
}

/// The board page's address from `--listen` and `--port`; refuses what cannot go
/// with `--display` (another protocol, commands).
fn display_config<D: TextDialect>(p: &Parsed) -> Result<super::display::Config, String> {
    if !p.has("--display") {
        return Err("--port goes with --display".into());
    }
    let mut others = vec!["--uai", "--ugi"];
    others.extend(D::other_protocols().iter().map(|o| o.flag));
    if let Some(flag) = others.into_iter().find(|f| p.has(f)) {
        return Err(format!("--display speaks the text language, not {flag}"));
    }
    if !p.words.is_empty() {
        return Err(format!(
            "--display takes no arguments ({})",
            super::quote(&p.words.join(" "))
        ));
    }
    let listen = match p.value("--listen") {
        Some(v) => v
            .parse()
            .map_err(|_| format!("bad --listen {} (an IPv4 address)", super::quote(v)))?,
        None => Ipv4Addr::LOCALHOST,
    };
    let port = match p.value("--port") {
        Some(v) => v
            .parse()
            .map_err(|_| format!("bad --port {} (0 to 65535)", super::quote(v)))?,
        None => 0,
    };
    Ok(super::display::Config { listen, port })
}

/// Reads the first non-blank line to pick the protocol (unless a flag chose it), then
/// hands over. A person at a terminal sees the text language's prompt at once, and
/// edits lines with history when stdout is the terminal too ([`terminal`]).
fn interactive<D: Playable>(forced: Option<Flavour>, setup: text::Setup<D::Options>) -> u8 {
    let edited = if terminal::wanted() {
        terminal::spawn()
    } else {
        None
    };
    let status = match edited {
        Some((lines, prompter, mut out)) => {
            let status = choose_and_run::<D>(forced, setup, lines, &mut out, Some(&prompter));
            prompter.settle();
            drop(out);
            prompter.restore();
            status
        }
        None => choose_and_run::<D>(
            forced,
            setup,
            input::spawn_stdin(),
            &mut std::io::stdout(),
            None,
        ),
    };
    status as u8
}

/// The text language's prompt before the first line, at a terminal: through the line
/// editor when lines are edited, else on `out`.
struct FirstPrompt<'a> {
    prompt: Option<String>,
    prompter: Option<&'a terminal::Prompter>,
}

impl FirstPrompt<'_> {
    fn show(&self, out: &mut dyn std::io::Write) {
        if let Some(p) = self.prompt.as_deref() {
            match self.prompter {
                Some(t) => t.ask(p),
                None => {
                    let _ = write!(out, "{p}");
                    let _ = out.flush();
                }
            }
        }
    }

    /// The first line that is not blank (a blank line at a terminal gets the prompt
    /// again, as every later one does); `None` at the end of input.
    fn first_line(
        &self,
        lines: &crossbeam_channel::Receiver<Line>,
        out: &mut dyn std::io::Write,
    ) -> Option<Line> {
        self.show(out);
        for l in lines.iter() {
            if let Some(t) = self.prompter {
                t.took();
            }
            if l.too_long || !l.text.trim().is_empty() {
                return Some(l);
            }
            self.show(out);
        }
        None
    }
}

/// [`interactive`] once the input is chosen: `prompter` is the line editor's, when
/// lines are edited (prompts then go to it, not to `out`).
fn choose_and_run<D: Playable>(
    forced: Option<Flavour>,
    mut setup: text::Setup<D::Options>,
    lines: crossbeam_channel::Receiver<Line>,
    stdout: &mut dyn std::io::Write,
    prompter: Option<&terminal::Prompter>,
) -> i32 {
    // The engine protocols print no prompts: their lines are read as they come.
    let without_prompts = || {
        if let Some(t) = prompter {
            t.without_prompts();
        }
    };
    if let Some(dialect) = forced {
        without_prompts();
        return uci::run::<D::Game>(dialect, None, lines, stdout);
    }
    let terminal = std::io::stdin().is_terminal();
    let ask = FirstPrompt {
        prompt: D::new().prompt().filter(|_| terminal),
        prompter,
    };
    let mut first = ask.first_line(&lines, stdout);
    if first.is_none() && terminal {
        if prompter.is_none() {
            // Ctrl-D at the prompt: the shell's prompt starts on a line of its own (the
            // line editor has already ended the line).
            let _ = writeln!(stdout);
            let _ = stdout.flush();
        }
        return 0;
    }
    let word = first.as_ref().map(|l| l.text.trim());
    let chosen = Flavour::spoken_by::<D::Game>().find(|d| word == Some(d.hello()));
    let first_word = word.and_then(|w| w.split_whitespace().next());
    let other = D::other_protocols()
        .iter()
        .find(|p| first_word == Some(p.hello));
    let hint = match (chosen, other) {
        (None, None) => first_word.and_then(protocol_hint::<D>),
        _ => None,
    };
    if let Some(hint) = hint {
        // A GUI's first word that is not ours (chess's `uci`, `UAI` in capitals): say
        // which protocols this program speaks instead of "unknown command".
        match D::SPEC.errors {
            text::kit::Errors::Stdout => {
                let _ = writeln!(stdout, "error: {hint}");
                let _ = stdout.flush();
            }
            text::kit::Errors::Stderr => eprintln!("Error: {hint}"),
        }
        first = None;
        ask.show(stdout);
    }
    match (chosen, other) {
        (Some(dialect), _) => {
            without_prompts();
            uci::run::<D::Game>(dialect, first, lines, stdout)
        }
        (None, Some(p)) => {
            without_prompts();
            (p.run)(first, lines, stdout)
        }
        (None, None) => {
            setup.terminal = prompter.cloned();
            let err = &mut std::io::stderr();
            text::run::<D>(first, lines, stdout, err, terminal, setup, None)
        }
    }
}

/// The engine protocols dialect `D`'s binary speaks besides its text language, each as
/// its first line and its name: `uai`/`UAI` where the game speaks it, `ugi`/`UGI`, and
/// the game's own (Reversi's `nboard`/`NBoard`).
pub fn engine_protocols<D: TextDialect>() -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<(&'static str, &'static str)> = Flavour::spoken_by::<D::Game>()
        .map(|d| (d.hello(), d.name()))
        .collect();
    all.extend(D::other_protocols().iter().map(|p| (p.hello, p.name)));
    all
}

/// The hint for a first word that names an engine protocol this program does not speak
/// as written (`uci`, `UAI`, `uai` to a game without UAI, ...); `None` for any other
/// word, which the text language reads.
fn protocol_hint<D: TextDialect>(word: &str) -> Option<String> {
    const PROTOCOLS: [&str; 7] = ["uci", "uai", "ugi", "nboard", "usi", "ucci", "xboard"];
    let lower = word.to_ascii_lowercase();
    if !PROTOCOLS.contains(&lower.as_str()) {
        return None;
    }
    let ours: Vec<&str> = engine_protocols::<D>().iter().map(|p| p.0).collect();
    let list = match ours.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    Some(format!(
        "{} is not a protocol of this program: {} speaks {list}, chosen by the first line (in lower case); \
         any other line is the text language (type help)",
        super::quote(word),
        D::Game::NAME,
    ))
}

/// `perft DEPTH [FEN]` under the engine rule set: the summary line.
pub fn perft<G: Notation + Benchmark>(depth: u32, fen: &str) -> Result<String, String> {
    let mut pos = if fen.trim().is_empty() {
        G::startpos(G::Rules::ENGINE)
    } else {
        G::from_fen(fen, G::Rules::ENGINE)?
    };
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let time = start.elapsed();
    Ok(format!(
        "nodes {nodes} time {} nps {}",
        time.as_millis(),
        crate::search::nps(nodes, time)
    ))
}

fn bench_cmd<G: Benchmark>(depth: u32) -> u8 {
    super::emit(
        &mut std::io::stdout(),
        &bench::run(&G::bench_positions(), depth).line(),
    );
    0
}
