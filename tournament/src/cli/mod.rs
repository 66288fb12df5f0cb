//! The command line, in the cutechess-cli/fastchess style: `-option key=value …`.
//!
//! Hand-written because that style (repeatable `-engine` groups of `key=value` words,
//! `-each` defaults) fits no general-purpose parser. Every failure is a one-line `Err`
//! (the binary prints it and exits with status 2); nothing here can panic on input.
//!
//! It only parses: the types it fills belong to the modules that use them
//! ([`crate::config::Config`], [`crate::engines::player::EngineSpec`] (read by [`crate::cli::spec`]),
//! [`crate::game::openings::OpeningsSpec`], [`crate::output::stats::SprtSpec`],
//! [`crate::game::referee::Adjudication`], [`crate::matchmaking::schedule::TournamentKind`]), so nothing in
//! the runner depends on this module.

pub mod spec;

use crate::cli::spec::{build_engine, key_value, parse_num};
use crate::config::Config;
use crate::game::openings::{BookFormat, OpeningOrder, OpeningsSpec};
use crate::game::pgn::PgnOut;
use crate::game::referee::{Adjudication, DrawAdjudication, ResignAdjudication};
use crate::matchmaking::schedule::{OpeningPolicy, TournamentKind};
use crate::output::stats::{SprtModel, SprtSpec};
use engine::variant::Variant;
use std::path::PathBuf;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run a tournament.
    Run(Box<Config>),
    /// Print the help text.
    Help,
    /// Print the version (`-version`).
    Version,
}

/// The version line: `tournament <version>`.
pub fn version() -> String {
    format!("tournament {}", env!("CARGO_PKG_VERSION"))
}

/// The help text (`-help`), naming the games this build knows.
pub fn help() -> String {
    HELP.replace("{games}", &variant_names())
        .replace("{default}", Variant::ALL[0].name())
        .replace("{rules}", &rule_set_names())
}

/// Each game's rule sets, as `-rules` takes them: `ataxx: engine|text|2008|2022; …`.
fn rule_set_names() -> String {
    Variant::ALL
        .iter()
        .map(|v| format!("{}: {}", v.name(), v.rule_sets().join("|")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The games, as `-variant` takes them: `a|b|c`.
fn variant_names() -> String {
    Variant::ALL
        .iter()
        .map(|v| v.name())
        .collect::<Vec<_>>()
        .join("|")
}

const HELP: &str = "\
tournament: pit board-game engines against each other

usage: tournament [-variant GAME] -engine KEY=VALUE... -engine KEY=VALUE... [options]

engine keys (in -engine, or in -each for every engine):
  name=N              display name (default: the command's file name)
  cmd=PATH            program to run            builtin=random|greedy  a built-in player
  args=\"A B\"          arguments                 dir=PATH               working directory
  proto=uai|ugi|text|nboard|gtp  protocol (default: uai where the game speaks it, else ugi;
                      nboard and gtp: Othello engines, reversi only)
  option.NAME=VALUE   sent as setoption (NAME must be an option the engine declares)
  tc=[MOVES/]TIME[+INC]  clock in seconds       st=SECONDS             fixed time per move
  depth=N (plies=N)  nodes=N  search limits      timemargin=MS          grace past the deadline (default 50)
  inittimeout=SECONDS handshake deadline (default 10)
  stop=ping           nboard with st=: a ping when st runs out makes the engine move (NTest)

options:
  -variant {games}   the game (default {default})
  -tournament round-robin|gauntlet   -games N   -rounds N   -repeat   -concurrency N
  -noswap   -reverse   (colours: never swapped; the second engine first)
  -use-affinity [CPUS]  pin each game's engines to CPUs of their own (Linux; CPUS: 0,1 or 0-3)
  -wait MS  (pause between a worker's games)   -scoreinterval N  (score line every N games)
  -openings file=F [format=epd|pgn] [order=sequential|random] [start=N] [plies=N]
            [policy=default|encounter|round] [replays=allow]
  -sprt elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic]
  -pgnout FILE [min] | file=FILE [min=true] [notation=uci]   -results FILE   -resume   -recover
            [nodes|seldepth|nps|hashfull|pv|timeleft|latency=true]  figures in move comments
  -epdout FILE | file=FILE   the final position of every game, one FEN line each
  -maxmoves N   -seed N (or -srand N)   -event NAME   -site NAME
  -rules NAME         the rules that judge (needed when text and UAI/UGI engines meet): text,
                      engine (uai, ugi) or a game's own; text engines speak the edition
                      that plays by them
                      ({rules})
  -adjudicate material=M [plies=P]
  -draw movenumber=N movecount=M score=S   -resign movecount=M score=S [twosided=true]
  -ratinginterval N   -report [penta=true|false] [latency=true|false] [html=FILE]
  -output format=cutechess|fastchess  progress and report lines as that manager prints them
  -log FILE | file=FILE [engine=true]   -debug
  -check              run the quick part of 'tournament compliance' on every engine first
  -shard I/N|auto/N [dir=DIR] [poll=SECONDS]   play one shard of the run
  (tournament merge [-pgnout FILE] [-report] [-sprt ...] [-output format=...]
   RESULTS... [PGNS...])
  (tournament compliance [-variant GAME] [-rules NAME] [-quick] [-debug] KEY=VALUE...:
   protocol checks of one engine; see tournament compliance -help)
  (tournament rate [OPTIONS] FILE|DIR...: ratings from all games at once, as Ordo
   computes them; see tournament rate -help)
  -version   -help
";

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut draft = RunDraft::new();
    let mut i = 0;
    while i < args.len() {
        let opt = args[i].as_str();
        // The words of this option: everything up to the next `-option`.
        let start = i + 1;
        i = start;
        while i < args.len()
            && !(args[i].starts_with('-') && args[i].len() > 1 && !is_number(&args[i]))
        {
            i += 1;
        }
        if let Some(answer) = draft.option(opt, &args[start..i])? {
            return Ok(answer);
        }
    }
    draft.finish(args.is_empty())
}

/// The run as the options read so far have set it.
struct RunDraft {
    cfg: Config,
    /// Each `-engine`'s words, built into engines once the `-each` words are all in.
    engines: Vec<Vec<(String, String)>>,
    each: Vec<(String, String)>,
}

/// `what` takes exactly one word.
fn one<'a>(what: &str, words: &'a [String]) -> Result<&'a str, String> {
    match words {
        [w] => Ok(w.as_str()),
        _ => Err(format!("{what}: expected one value")),
    }
}

/// `what` is a switch: no words.
fn none(what: &str, words: &[String]) -> Result<(), String> {
    match words.first() {
        None => Ok(()),
        Some(w) => Err(format!("{what}: takes no value, got '{w}'")),
    }
}

impl RunDraft {
    fn new() -> RunDraft {
        RunDraft {
            cfg: Config {
                variant: Variant::ALL[0],
                engines: Vec::new(),
                tournament: TournamentKind::RoundRobin,
                games: 1,
                rounds: 1,
                repeat: false,
                noswap: false,
                reverse: false,
                wait_ms: 0,
                score_interval: 1,
                affinity: None,
                concurrency: 1,
                openings: None,
                sprt: None,
                pgnout: None,
                epdout: None,
                event: "tournament".into(),
                site: "?".into(),
                results: None,
                resume: false,
                maxmoves: None,
                recover: false,
                seed: 1,
                shard: None,
                adjudicate: None,
                draw: None,
                resign: None,
                log: None,
                debug: false,
                rating_interval: 0,
                report: false,
                penta: true,
                latency: false,
                report_html: None,
                rules: None,
                check: false,
                output: crate::config::OutputFormat::Default,
            },
            engines: Vec::new(),
            each: Vec::new(),
        }
    }

    /// One option (`opt` as written, dashes and all) and its words; `Some` answers the
    /// command line at once (`-help`, `-version`).
    fn option(&mut self, opt: &str, words: &[String]) -> Result<Option<Command>, String> {
        let cfg = &mut self.cfg;
        match opt.trim_start_matches('-') {
            "help" | "h" => return Ok(Some(Command::Help)),
            "version" | "v" => return Ok(Some(Command::Version)),
            "variant" => cfg.variant = variant_arg(one("-variant", words)?)?,
            "engine" => self.engines.push(key_values("-engine", words)?),
            "each" => self.each.extend(key_values("-each", words)?),
            "tournament" => cfg.tournament = tournament_arg(one("-tournament", words)?)?,
            "games" => cfg.games = positive("-games", one("-games", words)?)?,
            "rounds" => cfg.rounds = positive("-rounds", one("-rounds", words)?)?,
            "repeat" => cfg.repeat = repeat_arg(words)?,
            "noswap" => cfg.noswap = switch("-noswap", words)?,
            "reverse" => cfg.reverse = switch("-reverse", words)?,
            "wait" => cfg.wait_ms = parse_num("-wait", one("-wait", words)?)?,
            "use-affinity" => {
                cfg.affinity = Some(match words {
                    [] => Vec::new(),
                    [w] => crate::engines::affinity::parse_list(w)
                        .map_err(|e| format!("-use-affinity: {e}"))?,
                    _ => {
                        return Err("-use-affinity: expected one CPU list (like 0,1 or 0-3)".into())
                    }
                })
            }
            "scoreinterval" => {
                cfg.score_interval = positive("-scoreinterval", one("-scoreinterval", words)?)?
            }
            "concurrency" => {
                cfg.concurrency =
                    positive::<u32>("-concurrency", one("-concurrency", words)?)? as usize
            }
            "openings" => cfg.openings = Some(openings_arg(words)?),
            "sprt" => cfg.sprt = Some(sprt_arg(words)?),
            "pgnout" => cfg.pgnout = Some(pgnout_arg(words)?),
            "epdout" => cfg.epdout = Some(file_arg("-epdout", words)?),
            // One argument in cutechess-cli; several words are joined with blanks.
            "event" => cfg.event = name_arg(opt, words)?,
            "site" => cfg.site = name_arg(opt, words)?,
            "shard" => cfg.shard = Some(crate::config::ShardSpec::parse(words)?),
            "results" => cfg.results = Some(file_arg("-results", words)?),
            "resume" => cfg.resume = switch("-resume", words)?,
            "recover" => cfg.recover = switch("-recover", words)?,
            "log" => cfg.log = Some(log_arg(words)?),
            "ratinginterval" => {
                cfg.rating_interval = parse_num("-ratinginterval", one("-ratinginterval", words)?)?
            }
            "debug" => cfg.debug = switch("-debug", words)?,
            "check" => cfg.check = switch("-check", words)?,
            "output" => cfg.output = output_arg(words)?,
            "report" => {
                // html=FILE: the run's HTML page (src/output/rating/html.rs).
                let (html, words): (Vec<String>, Vec<String>) =
                    words.iter().cloned().partition(|w| w.starts_with("html="));
                if let Some(file) = html.last().map(|w| &w["html=".len()..]) {
                    if file.is_empty() {
                        return Err("-report html=: no file name".into());
                    }
                    cfg.report_html = Some(file.into());
                }
                (cfg.penta, cfg.latency) = report_arg(&words, (cfg.penta, cfg.latency))?;
                cfg.report = true
            }
            "maxmoves" => cfg.maxmoves = Some(positive("-maxmoves", one("-maxmoves", words)?)?),
            // Read for the game once every option is in (`-variant` may follow).
            "rules" => cfg.rules = Some(one("-rules", words)?.to_string()),
            // cutechess-cli calls it -srand.
            "seed" | "srand" => cfg.seed = parse_num(opt, one(opt, words)?)?,
            "adjudicate" => cfg.adjudicate = Some(adjudicate_arg(words)?),
            "draw" => cfg.draw = Some(draw_arg(words)?),
            "resign" => cfg.resign = Some(resign_arg(words)?),
            _ => return Err(format!("unknown option '{opt}' (try -help)")),
        }
        Ok(None)
    }

    /// The run, once every option is in: the engines built, what options need of each
    /// other checked, the rules read for the game.
    fn finish(mut self, no_arguments: bool) -> Result<Command, String> {
        let cfg = &mut self.cfg;
        for (n, words) in self.engines.iter().enumerate() {
            let mut all = self.each.clone();
            all.extend(words.iter().cloned());
            cfg.engines.push(build_engine(n, &all, true)?);
        }
        if cfg.engines.len() < 2 {
            return Err(if no_arguments {
                "no arguments: a run needs at least two -engine (tournament -help lists the options)"
                    .into()
            } else {
                "need at least two -engine (try -help)".into()
            });
        }
        for (a, e) in cfg.engines.iter().enumerate() {
            if cfg.engines[..a].iter().any(|o| o.name == e.name) {
                return Err(format!("two engines are named '{}': give name=", e.name));
            }
        }
        if cfg.sprt.is_some() && cfg.engines.len() != 2 {
            return Err("-sprt needs exactly two engines".into());
        }
        if cfg.resume && cfg.results.is_none() {
            return Err("-resume needs -results file=F".into());
        }
        if let Some(word) = cfg.rules.take() {
            cfg.rules = Some(rules_arg(cfg.variant, &word)?);
        }
        if let Some(asked) = cfg.affinity.take() {
            let slots = cfg.concurrency * cfg.engines.len();
            let allowed = crate::engines::affinity::allowed();
            cfg.affinity = Some(crate::engines::affinity::resolve(
                &asked,
                allowed.as_deref(),
                slots,
            )?);
        }
        crate::matchmaking::shard::check_config(cfg)?;
        Ok(Command::Run(Box::new(self.cfg)))
    }
}

/// Every word of `option` as `key=value`.
fn key_values(option: &str, words: &[String]) -> Result<Vec<(String, String)>, String> {
    words.iter().map(|w| key_value(w, option)).collect()
}

/// A switch that is there: `true`.
fn switch(what: &str, words: &[String]) -> Result<bool, String> {
    none(what, words)?;
    Ok(true)
}

/// `-variant NAME`.
fn variant_arg(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| {
        format!(
            "-variant: unknown game '{name}' (known: {})",
            variant_names().replace('|', ", ")
        )
    })
}

/// `-tournament round-robin|gauntlet`.
fn tournament_arg(v: &str) -> Result<TournamentKind, String> {
    match v {
        "round-robin" | "roundrobin" => Ok(TournamentKind::RoundRobin),
        "gauntlet" => Ok(TournamentKind::Gauntlet),
        v => Err(format!(
            "-tournament: unknown kind '{v}' (known: round-robin, gauntlet)"
        )),
    }
}

/// `-repeat` or `-repeat 2`.
fn repeat_arg(words: &[String]) -> Result<bool, String> {
    match words {
        [] => Ok(true),
        [w] if w == "2" => Ok(true),
        _ => Err("-repeat: only 2 repetitions are supported".into()),
    }
}

/// `-event NAME…`, `-site NAME…`: the words joined with blanks.
fn name_arg(opt: &str, words: &[String]) -> Result<String, String> {
    if words.is_empty() {
        return Err(format!("{opt}: needs a name"));
    }
    Ok(words.join(" "))
}

/// fastchess's `-report penta=true|false` (whether the pentanomial line is shown) and
/// `latency=true|false` (the runner's turnaround line, fastchess's `-show-latency`);
/// returns `(penta, latency)`.
fn report_arg(
    words: &[String],
    (mut penta, mut latency): (bool, bool),
) -> Result<(bool, bool), String> {
    for w in words {
        match key_value(w, "-report")? {
            (k, v) if k == "penta" => penta = parse_bool("-report penta", &v)?,
            (k, v) if k == "latency" => latency = parse_bool("-report latency", &v)?,
            (k, _) => {
                return Err(format!(
                    "-report: unknown key '{k}' (penta=, latency=, html=)"
                ))
            }
        }
    }
    Ok((penta, latency))
}

/// fastchess's `-output format=cutechess|fastchess` (also `default`, ours).
fn output_arg(words: &[String]) -> Result<crate::config::OutputFormat, String> {
    let [w] = words else {
        return Err("-output: expected format=cutechess|fastchess|default".into());
    };
    match key_value(w, "-output")? {
        (k, v) if k == "format" => crate::config::OutputFormat::parse(&v).ok_or_else(|| {
            format!("-output: unknown format '{v}' (cutechess, fastchess, default)")
        }),
        (k, _) => Err(format!("-output: unknown key '{k}' (format=)")),
    }
}

/// `-rules NAME`, read for the game: the game's name for the rule set.
fn rules_arg(variant: Variant, word: &str) -> Result<String, String> {
    let name = variant.rules_named(word).ok_or_else(|| {
        let mut known = variant.rule_sets();
        for generic in ["engine", "text", "uai", "ugi"] {
            if !known.contains(&generic) {
                known.push(generic);
            }
        }
        format!(
            "-rules: unknown rules '{word}' for {} (known: {})",
            variant.name(),
            known.join(", ")
        )
    })?;
    Ok(name.to_string())
}

/// `-openings file=F [format=…] [order=…] [start=N] [plies=N] [policy=…] [replays=…]`.
fn openings_arg(words: &[String]) -> Result<OpeningsSpec, String> {
    let mut spec = OpeningsSpec {
        file: PathBuf::new(),
        format: None,
        order: OpeningOrder::Sequential,
        start: 1,
        plies: None,
        policy: OpeningPolicy::Shared,
        allow_replays: false,
    };
    let mut have_file = false;
    for w in words {
        let (k, v) = key_value(w, "-openings")?;
        match k.as_str() {
            "file" => {
                spec.file = PathBuf::from(v);
                have_file = true;
            }
            "order" => {
                spec.order = match v.as_str() {
                    "sequential" => OpeningOrder::Sequential,
                    "random" => OpeningOrder::Random,
                    _ => return Err(format!("-openings: unknown order '{v}'")),
                }
            }
            "start" => spec.start = positive::<usize>("-openings start", &v)?,
            "format" => spec.format = Some(book_format(&v)?),
            "plies" => spec.plies = Some(parse_num("-openings plies", &v)?),
            "policy" => spec.policy = opening_policy(&v)?,
            "replays" => {
                spec.allow_replays = match v.as_str() {
                    "allow" => true,
                    "refuse" => false,
                    _ => return Err(format!("-openings: replays={v}: allow or refuse")),
                }
            }
            _ => return Err(format!("-openings: unknown key '{k}'")),
        }
    }
    if !have_file {
        return Err("-openings: needs file=F".into());
    }
    Ok(spec)
}

/// `-openings format=epd|pgn`.
fn book_format(v: &str) -> Result<BookFormat, String> {
    match v {
        "epd" => Ok(BookFormat::Epd),
        "pgn" => Ok(BookFormat::Pgn),
        _ => Err(format!(
            "-openings: unknown format '{v}' (epd or pgn; our \
             lines format is used for other file names)"
        )),
    }
}

/// `-openings policy=default|encounter|round`.
fn opening_policy(v: &str) -> Result<OpeningPolicy, String> {
    match v {
        "default" => Ok(OpeningPolicy::Default),
        "encounter" => Ok(OpeningPolicy::Encounter),
        "round" => Ok(OpeningPolicy::Round),
        _ => Err(format!(
            "-openings: unknown policy '{v}' (default, encounter or round)"
        )),
    }
}

/// `-sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=normalized|logistic]`.
fn sprt_arg(words: &[String]) -> Result<SprtSpec, String> {
    let (mut e0, mut e1, mut a, mut b) = (None, None, 0.05, 0.05);
    let mut model = SprtModel::Normalized;
    for w in words {
        let (k, v) = key_value(w, "-sprt")?;
        match k.as_str() {
            "elo0" => e0 = Some(parse_num::<f64>("-sprt elo0", &v)?),
            "elo1" => e1 = Some(parse_num::<f64>("-sprt elo1", &v)?),
            "alpha" => a = parse_num::<f64>("-sprt alpha", &v)?,
            "beta" => b = parse_num::<f64>("-sprt beta", &v)?,
            "model" => {
                model = match v.as_str() {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    _ => return Err(format!("-sprt: unknown model '{v}'")),
                }
            }
            _ => return Err(format!("-sprt: unknown key '{k}'")),
        }
    }
    let (elo0, elo1) = match (e0, e1) {
        (None, None) => return Err("-sprt: needs elo0=E0 and elo1=E1".into()),
        (None, Some(_)) => return Err("-sprt: elo0=E0 is missing".into()),
        (Some(_), None) => return Err("-sprt: elo1=E1 is missing".into()),
        (Some(x), Some(y)) if !x.is_finite() || !y.is_finite() => {
            return Err("-sprt: elo0 and elo1 must be finite numbers".into())
        }
        (Some(x), Some(y)) if x >= y => {
            return Err(format!("-sprt: needs elo0 < elo1 (elo0={x}, elo1={y})"))
        }
        (Some(x), Some(y)) => (x, y),
    };
    let ok = |p: f64| p > 0.0 && p < 0.5;
    if !ok(a) || !ok(b) {
        return Err("-sprt: alpha and beta must lie in (0, 0.5)".into());
    }
    if model == SprtModel::Logistic && (elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0) {
        return Err("-sprt: logistic Elo bounds must be within ±1000".into());
    }
    Ok(SprtSpec {
        elo0,
        elo1,
        alpha: a,
        beta: b,
        model,
    })
}

/// `-adjudicate material=M [plies=P]`.
fn adjudicate_arg(words: &[String]) -> Result<Adjudication, String> {
    let mut adj = Adjudication {
        material: 0,
        plies: 2,
    };
    for w in words {
        let (k, v) = key_value(w, "-adjudicate")?;
        match k.as_str() {
            "material" => adj.material = positive::<u32>("-adjudicate material", &v)? as i32,
            "plies" => adj.plies = positive("-adjudicate plies", &v)?,
            _ => return Err(format!("-adjudicate: unknown key '{k}'")),
        }
    }
    if adj.material == 0 {
        return Err("-adjudicate: needs material=M".into());
    }
    Ok(adj)
}

/// `-draw movenumber=N movecount=M score=S`.
fn draw_arg(words: &[String]) -> Result<DrawAdjudication, String> {
    let (mut number, mut count, mut score) = (0, None, None);
    for w in words {
        let (k, v) = key_value(w, "-draw")?;
        match k.as_str() {
            "movenumber" => number = parse_num("-draw movenumber", &v)?,
            "movecount" => count = Some(positive("-draw movecount", &v)?),
            "score" => score = Some(non_negative("-draw score", &v)?),
            _ => return Err(format!("-draw: unknown key '{k}'")),
        }
    }
    let (Some(move_count), Some(score)) = (count, score) else {
        return Err("-draw: needs movecount=M score=S [movenumber=N]".into());
    };
    Ok(DrawAdjudication {
        move_number: number,
        move_count,
        score,
    })
}

/// `-resign movecount=M score=S [twosided=true]`.
fn resign_arg(words: &[String]) -> Result<ResignAdjudication, String> {
    let (mut count, mut score, mut two_sided) = (None, None, false);
    for w in words {
        let (k, v) = key_value(w, "-resign")?;
        match k.as_str() {
            "movecount" => count = Some(positive("-resign movecount", &v)?),
            "score" => score = Some(non_negative("-resign score", &v)?),
            "twosided" => {
                two_sided = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("-resign: twosided={v}: true or false")),
                }
            }
            _ => return Err(format!("-resign: unknown key '{k}'")),
        }
    }
    let (Some(move_count), Some(score)) = (count, score) else {
        return Err("-resign: needs movecount=M score=S [twosided=true]".into());
    };
    Ok(ResignAdjudication {
        move_count,
        score,
        two_sided,
    })
}

fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok()
}

fn non_negative<T: std::str::FromStr + PartialOrd + Default>(
    what: &str,
    s: &str,
) -> Result<T, String> {
    let v: T = parse_num(what, s)?;
    if v >= T::default() {
        Ok(v)
    } else {
        Err(format!("{what}: must not be negative"))
    }
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(what: &str, s: &str) -> Result<T, String> {
    let v: T = parse_num(what, s)?;
    if v > T::default() {
        Ok(v)
    } else {
        Err(format!("{what}: must be positive"))
    }
}

/// `-results FILE` or `-results file=FILE`.
fn file_arg(what: &str, words: &[String]) -> Result<PathBuf, String> {
    match words {
        [w] => {
            let f = match w.split_once('=') {
                Some(("file", f)) => f,
                Some((k, _)) => return Err(format!("{what}: unknown key '{k}'")),
                None => w.as_str(),
            };
            if f.is_empty() {
                return Err(format!("{what}: needs a file name"));
            }
            Ok(PathBuf::from(f))
        }
        [] => Err(format!("{what}: needs a file name (FILE or file=FILE)")),
        _ => Err(format!("{what}: expected one file (FILE or file=FILE)")),
    }
}

/// `true` or `false`, as fastchess writes its switches.
fn parse_bool(what: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{what}={v}: expected true or false")),
    }
}

/// `-log FILE`, `-log file=FILE`, or fastchess's `-log file=FILE [engine=true]
/// [append=true] [level=L]`: our log is the engine traffic, always appended to, so
/// `engine=true` and `append=true` say what it does and `level=` (fastchess's own
/// messages) changes nothing; `engine=false` or `append=false` would ask for another
/// log than ours and are refused.
fn log_arg(words: &[String]) -> Result<PathBuf, String> {
    let (file, rest) = match words {
        [first, rest @ ..] if !first.contains('=') || first.starts_with("file=") => {
            (file_arg("-log", std::slice::from_ref(first))?, rest)
        }
        _ => return Err("-log: needs a file name (FILE or file=FILE)".into()),
    };
    for w in rest {
        match key_value(w, "-log")? {
            (k, v) if k == "engine" || k == "append" => {
                if !parse_bool(&format!("-log {k}"), &v)? {
                    return Err(format!(
                        "-log: {k}=false is not supported (the log is the engine traffic, appended to)"
                    ));
                }
            }
            (k, v) if k == "level" => {
                if !["trace", "info", "warn", "err", "fatal"].contains(&v.as_str()) {
                    return Err(format!("-log: unknown level '{v}'"));
                }
            }
            (k, _) => return Err(format!("-log: unknown key '{k}'")),
        }
    }
    Ok(file)
}

/// `-pgnout FILE [min] [fi]` (cutechess) or `-pgnout file=FILE [min=true|false]`
/// (fastchess). `fi` (only finished games) is what the runner always does. Anything
/// else is refused, never ignored.
fn pgnout_arg(words: &[String]) -> Result<PgnOut, String> {
    let mut file: Option<&str> = None;
    let mut min = false;
    let mut track = crate::game::pgn::PgnTrack::default();
    for w in words {
        match w.split_once('=') {
            Some(("file", f)) if file.is_none() && !f.is_empty() => file = Some(f),
            Some(("min", v)) => min = parse_bool("-pgnout min", v)?,
            Some((k, v)) if track.set(k, false) => {
                track.set(k, parse_bool(&format!("-pgnout {k}"), v)?);
            }
            // fastchess's notation for coordinate moves: ours, the protocol's.
            Some(("notation", "uci")) => {}
            Some(("notation", v)) => {
                return Err(format!(
                    "-pgnout: notation={v}: only notation=uci (the protocol's move notation) is written"
                ))
            }
            Some((k, _)) => {
                return Err(format!(
                    "-pgnout: unsupported '{k}=' (supported: file=, min=, notation=uci, \
                     nodes=, seldepth=, nps=, hashfull=, pv=, timeleft=, latency=)"
                ))
            }
            None => match w.as_str() {
                "min" => min = true,
                "fi" => {}
                f if file.is_none() => file = Some(f),
                f => return Err(format!("-pgnout: a second file name '{f}'")),
            },
        }
    }
    match file {
        Some(f) => Ok(PgnOut {
            file: PathBuf::from(f),
            min,
            track,
        }),
        None => Err("-pgnout: needs a file name (FILE [min] or file=FILE [min=true])".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::player::EngineKind;
    use crate::testing::words;

    fn run(s: &str) -> Result<Config, String> {
        match parse(&words(s))? {
            Command::Run(c) => Ok(*c),
            Command::Help => Err("help".into()),
            Command::Version => Err("version".into()),
        }
    }

    #[test]
    fn full_command_line() {
        let c = run(
            "-engine name=a cmd=./a tc=10+0.1 option.Hash=16 -engine builtin=greedy \
                     -each timemargin=100 -tournament gauntlet -games 4 -rounds 3 -repeat \
                     -concurrency 2 -openings file=o.txt order=random start=3 \
                     -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 -pgnout file=g.pgn \
                     -results r.jsonl -resume -maxmoves 100 -recover -seed -7",
        )
        .unwrap_err();
        assert!(c.contains("-seed"), "{c}");
        let c = run(
            "-engine name=a cmd=./a tc=10+0.1 option.Hash=16 -engine builtin=greedy \
                     -each timemargin=100 -tournament gauntlet -games 4 -rounds 3 -repeat \
                     -concurrency 2 -openings file=o.txt order=random start=3 \
                     -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 -pgnout file=g.pgn \
                     -results r.jsonl -resume -maxmoves 100 -recover -seed 7",
        )
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].limits.margin_ms, 100);
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "16".into())]);
        assert!(matches!(
            c.engines[0].kind,
            EngineKind::Process { proto: None, .. }
        ));
        assert_eq!(c.engines[1].name, "greedy");
        assert_eq!(
            (c.games, c.rounds, c.repeat, c.concurrency),
            (4, 3, true, 2)
        );
        assert_eq!(c.tournament, TournamentKind::Gauntlet);
        let o = c.openings.unwrap();
        assert_eq!((o.start, o.policy), (3, OpeningPolicy::Shared));
        for (word, policy) in [
            ("default", OpeningPolicy::Default),
            ("encounter", OpeningPolicy::Encounter),
            ("round", OpeningPolicy::Round),
        ] {
            let c = run(&format!(
                "-engine builtin=random -engine name=b builtin=greedy \
                 -openings file=o.pgn format=pgn plies=8 policy={word}"
            ))
            .unwrap();
            let o = c.openings.unwrap();
            assert_eq!((o.policy, o.plies), (policy, Some(8)));
        }
        assert_eq!(c.sprt.unwrap().beta, 0.1);
        assert!(c.resume && c.recover);
        assert_eq!(c.seed, 7);
        assert_eq!(c.maxmoves, Some(100));
        assert_eq!(c.variant.name(), "ataxx", "the default game");
        assert_eq!((c.event.as_str(), c.site.as_str()), ("tournament", "?"));
    }

    #[test]
    fn event_site_draw_resign_and_srand() {
        let c = parse(
            &[
                "-engine",
                "builtin=random",
                "-engine",
                "name=b",
                "builtin=greedy",
                "-event",
                "Club cup",
                "-site",
                "Leiden",
                "NL",
            ]
            .map(String::from),
        )
        .unwrap();
        let Command::Run(c) = c else { panic!() };
        assert_eq!(
            (c.event.as_str(), c.site.as_str()),
            ("Club cup", "Leiden NL")
        );
        assert!(run("-engine builtin=random -engine name=b builtin=greedy -event").is_err());
        let c = run(
            "-engine builtin=random -engine name=b builtin=greedy \
             -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=1000 twosided=true",
        )
        .unwrap();
        assert_eq!(
            c.draw,
            Some(DrawAdjudication {
                move_number: 40,
                move_count: 8,
                score: 10
            })
        );
        assert_eq!(
            c.resign,
            Some(ResignAdjudication {
                move_count: 3,
                score: 1000,
                two_sided: true
            })
        );
        let c = run("-engine builtin=random -engine name=b builtin=greedy -srand 9").unwrap();
        assert_eq!(c.seed, 9, "-srand is -seed");
        assert!(run("-engine builtin=random -engine name=b builtin=greedy -srand").is_err());
    }

    #[test]
    fn variants() {
        let two = "-engine builtin=random -engine name=b builtin=greedy";
        for &v in Variant::ALL {
            assert_eq!(
                run(&format!("-variant {} {two}", v.name()))
                    .unwrap()
                    .variant,
                v
            );
        }
        let e = run(&format!("-variant chess {two}")).unwrap_err();
        assert!(
            e.contains("unknown game 'chess'") && e.contains("ataxx"),
            "{e}"
        );
        assert!(help().contains("-variant ataxx"), "{}", help());
    }

    /// `-rules` is read for the game, wherever `-variant` stands: the generic words, the
    /// game's own names (Ataxx's `2008` and `2016`), each kept by the name the results
    /// record; a name the game does not have is refused with the ones it has.
    #[test]
    fn rules_are_named_for_the_game() {
        let two = "-engine builtin=random -engine name=b builtin=greedy";
        let rules = |s: &str| run(&format!("{two} {s}")).map(|c| c.rules);
        for (args, want) in [
            ("", None),
            ("-rules text", Some("text")),
            ("-rules uai", Some("engine")),
            ("-rules 2008", Some("2008")),
            ("-rules 2016", Some("text")),
            ("-rules 2008 -variant ataxx", Some("2008")),
            ("-variant loa -rules ugi", Some("engine")),
            ("-rules text -variant reversi", Some("standard")),
            ("-variant reversi -rules engine", Some("standard")),
        ] {
            assert_eq!(rules(args).unwrap().as_deref(), want, "{args}");
        }
        let e = rules("-rules 2008 -variant loa").unwrap_err();
        assert!(
            e.contains("unknown rules '2008' for loa (known: engine, text, uai, ugi)"),
            "{e}"
        );
        assert!(rules("-rules 1999").is_err());
        assert!(
            help().contains("(ataxx: engine|text|2008|2022; loa:"),
            "{}",
            help()
        );
    }

    #[test]
    fn pgnout_and_results_in_cutechess_and_fastchess_forms() {
        // Defect 11 of the new-user report: `-pgnout games.pgn min` wrote to a file
        // named `min`, and `min=true` was accepted and ignored.
        let two = "-engine builtin=random -engine name=b builtin=greedy";
        let pgn = |s: &str| run(&format!("{two} {s}")).map(|c| c.pgnout.unwrap());
        let spec = |file: &str, min: bool| PgnOut {
            file: PathBuf::from(file),
            min,
            track: Default::default(),
        };
        assert_eq!(
            pgn("-pgnout games.pgn min").unwrap(),
            spec("games.pgn", true)
        );
        assert_eq!(pgn("-pgnout games.pgn").unwrap(), spec("games.pgn", false));
        assert_eq!(pgn("-pgnout g.pgn fi min").unwrap(), spec("g.pgn", true));
        assert_eq!(pgn("-pgnout file=g.pgn").unwrap(), spec("g.pgn", false));
        assert_eq!(
            pgn("-pgnout file=g.pgn min=true").unwrap(),
            spec("g.pgn", true)
        );
        assert_eq!(
            pgn("-pgnout min=false file=g.pgn").unwrap(),
            spec("g.pgn", false)
        );
        for bad in [
            "-pgnout",
            "-pgnout min",
            "-pgnout a.pgn b.pgn",
            "-pgnout file=a.pgn b.pgn",
            "-pgnout file=g.pgn min=maybe",
            "-pgnout file=g.pgn notation=san",
            "-pgnout file=g.pgn nodes=yes",
            "-pgnout file=g.pgn tbhits=true",
            "-pgnout g.pgn format=pgn",
        ] {
            let e = pgn(bad).unwrap_err();
            assert!(e.starts_with("-pgnout"), "{bad}: {e}");
        }
        // fastchess's figures for the move comments.
        let track = pgn(
            "-pgnout file=g.pgn nodes=true seldepth=true nps=true hashfull=true pv=true \
             timeleft=true latency=true nps=false",
        )
        .unwrap()
        .track;
        let all = crate::game::pgn::PgnTrack {
            nodes: true,
            seldepth: true,
            nps: false,
            hashfull: true,
            pv: true,
            timeleft: true,
            latency: true,
        };
        assert_eq!(track, all);
        let res = |s: &str| run(&format!("{two} {s}")).map(|c| c.results.unwrap());
        assert_eq!(res("-results r.jsonl").unwrap(), PathBuf::from("r.jsonl"));
        assert_eq!(
            res("-results file=r.jsonl").unwrap(),
            PathBuf::from("r.jsonl")
        );
        for bad in [
            "-results r.jsonl min",
            "-results a b",
            "-results fi=1 r.jsonl",
        ] {
            assert!(res(bad).is_err(), "{bad}");
        }
    }

    /// Issue 25 item 7: fastchess's spellings of the options it shares with us.
    #[test]
    fn fastchess_forms() {
        let two = "-engine builtin=random -engine name=b builtin=greedy";
        let c = run(&format!("{two} -report penta=true")).unwrap();
        assert!(c.report && c.penta);
        let c = run(&format!("{two} -report penta=false")).unwrap();
        assert!(c.report && !c.penta);
        let c = run(&format!("{two} -report")).unwrap();
        assert!(c.report && c.penta && !c.latency);
        let c = run(&format!("{two} -report latency=true penta=false")).unwrap();
        assert!(c.report && !c.penta && c.latency);
        let c = run(&format!("{two} -report latency=false")).unwrap();
        assert!(c.report && c.penta && !c.latency);
        for bad in [
            "-report latency=sometimes",
            "-report latency",
            "-report penta=maybe",
            "-report pentanomial=true",
            "-report x",
        ] {
            assert!(run(&format!("{two} {bad}")).is_err(), "{bad}");
        }
        let c = run("-engine name=a cmd=./a plies=7 restart=off -engine builtin=random").unwrap();
        assert_eq!(c.engines[0].limits.depth, Some(7));
        assert!(run("-engine name=a cmd=./a plies=7 restart=on -engine builtin=random").is_err());
        let c = run(&format!("{two} -pgnout file=g.pgn notation=uci min=true")).unwrap();
        assert!(c.pgnout.unwrap().min);
        let log = |s: &str| run(&format!("{two} {s}")).map(|c| c.log.unwrap());
        for ok in [
            "-log e.log",
            "-log file=e.log",
            "-log file=e.log engine=true",
            "-log file=e.log level=trace append=true engine=true",
        ] {
            assert_eq!(log(ok).unwrap(), PathBuf::from("e.log"), "{ok}");
        }
        for bad in [
            "-log",
            "-log engine=true",
            "-log file=e.log engine=false",
            "-log file=e.log append=false",
            "-log file=e.log level=loud",
            "-log file=e.log compress=true",
            "-log a b",
        ] {
            assert!(log(bad).is_err(), "{bad}");
        }
    }

    /// A `-sprt` refusal names what is wrong: the bound that is missing, or the order.
    #[test]
    fn sprt_refusals_say_what_is_wrong() {
        let two = "-engine builtin=random -engine name=b builtin=greedy -sprt";
        for (words, says) in [
            ("elo0=0", "-sprt: elo1=E1 is missing"),
            ("elo1=5", "-sprt: elo0=E0 is missing"),
            ("", "-sprt: needs elo0=E0 and elo1=E1"),
            ("elo0=5 elo1=0", "-sprt: needs elo0 < elo1 (elo0=5, elo1=0)"),
            ("elo0=2 elo1=2", "-sprt: needs elo0 < elo1 (elo0=2, elo1=2)"),
        ] {
            assert_eq!(run(&format!("{two} {words}")).unwrap_err(), says, "{words}");
        }
        assert!(run(&format!("{two} elo0=0 elo1=5")).is_ok());
    }

    #[test]
    fn no_arguments_point_at_help() {
        let e = run("").unwrap_err();
        assert!(e.contains("-help"), "{e}");
    }

    #[test]
    fn bad_command_lines() {
        for bad in [
            "",
            "-engine builtin=random",
            "-engine builtin=random -engine builtin=random",
            "-engine builtin=random -engine name=b builtin=smart",
            "-engine builtin=random -engine name=b cmd=x",
            "-engine builtin=random -engine name=b cmd=x st=0",
            "-engine builtin=random -engine name=b builtin=greedy -games 0",
            "-engine builtin=random -engine name=b builtin=greedy -games x",
            "-engine builtin=random -engine name=b builtin=greedy -bogus",
            "-engine builtin=random -engine name=b builtin=greedy -sprt elo0=5 elo1=0",
            "-engine builtin=random -engine name=b builtin=greedy -resume",
            "-engine builtin=random -engine name=b builtin=greedy -engine name=c builtin=random -sprt elo0=0 elo1=5",
            "-engine builtin=random foo",
            "-engine builtin=random -engine name=b builtin=greedy -openings order=random",
            "-engine builtin=random -engine name=b cmd=x st=1 proto=uci",
            "-engine builtin=random -engine name=b builtin=greedy -draw movecount=2",
            "-engine builtin=random -engine name=b builtin=greedy -draw movecount=0 score=5",
            "-engine builtin=random -engine name=b builtin=greedy -draw movecount=2 score=-5",
            "-engine builtin=random -engine name=b builtin=greedy -draw count=2 score=5",
            "-engine builtin=random -engine name=b builtin=greedy -resign score=500",
            "-engine builtin=random -engine name=b builtin=greedy -resign movecount=3 score=5 twosided=yes",
        ] {
            assert!(run(bad).is_err(), "{bad}");
        }
        assert_eq!(parse(&words("-help")).unwrap(), Command::Help);
        assert_eq!(parse(&words("-version")).unwrap(), Command::Version);
        assert_eq!(parse(&words("--version")).unwrap(), Command::Version);
    }
}
