//! What a run tells its user: the progress line after every game (stderr, rewritten in
//! place on a terminal), the report (`-ratinginterval`'s and the final one, on stdout;
//! [`tournament merge`](crate::matchmaking::merge) prints the same for merged shards) and the
//! closing `Finished match` line of `-report`.

use crate::config::Config;
use crate::config::OutputFormat;
use crate::output::formats;
use crate::output::results::GameRecord;
use crate::output::stats::{self, SprtDecision, SprtModel, SprtSpec};
use crate::output::tally::Tally;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// The console while games are played: the progress line on stderr, one per game or,
/// on a terminal, rewritten in place; with `-output format=cutechess|fastchess`, that
/// manager's lines on stdout instead ([`crate::output::formats`]).
pub struct Progress {
    tty: bool,
    format: OutputFormat,
}

impl Progress {
    /// Progress on stderr, in place if it is a terminal (ours), or on stdout in the
    /// shape of `format`'s manager.
    pub fn new(format: OutputFormat) -> Progress {
        Progress {
            tty: format == OutputFormat::Default && std::io::stderr().is_terminal(),
            format,
        }
    }

    /// A game is handed to a worker: the managers' `Started game 3 of 200 (a vs b)`
    /// (ours prints nothing).
    pub fn started(&self, number: u64, total: usize, players: [&str; 2]) {
        if self.format != OutputFormat::Default {
            out_line(&formats::started_line(number, total, players));
        }
    }

    /// A game is recorded: the progress line when `score_due` (`-scoreinterval`); the
    /// managers' `Finished game` line after every game, cutechess-cli's `Score of` line
    /// when due.
    pub fn game(
        &self,
        cfg: &Config,
        tally: &Tally,
        (total, score_due): (usize, bool),
        last: &GameRecord,
    ) {
        match self.format {
            OutputFormat::Default if score_due => {
                let line = progress_line(cfg, tally, total, last);
                if self.tty {
                    eprint!("\r{line}\x1b[K");
                } else {
                    eprintln!("{line}");
                }
            }
            OutputFormat::Default => {}
            OutputFormat::Cutechess => {
                out_line(&formats::finished_line(last));
                if let Some(score) = formats::score_line(cfg, tally).filter(|_| score_due) {
                    out_line(&score);
                }
            }
            OutputFormat::Fastchess => out_line(&formats::finished_line(last)),
        }
    }

    /// The report every `-ratinginterval` games, followed by a blank line (ours), or the
    /// manager's interval report.
    pub fn interim_report(&self, cfg: &Config, tally: &Tally) {
        if self.tty {
            eprintln!();
        }
        let mut stdout = std::io::stdout().lock();
        let _ = match self.format {
            OutputFormat::Default => {
                write!(stdout, "{}", report(cfg, tally)).and_then(|_| writeln!(stdout))
            }
            OutputFormat::Cutechess => {
                writeln!(stdout, "{}", formats::cutechess_results(cfg, tally))
            }
            OutputFormat::Fastchess => {
                write!(stdout, "{}", formats::fastchess_interval(cfg, tally))
            }
        };
        if cfg.output != OutputFormat::Default {
            if let Some(block) = rating_block(cfg, tally) {
                let _ = writeln!(stdout, "{block}");
            }
        }
        let _ = stdout.flush();
    }

    /// The games are over: a terminal's line is left as it stands.
    pub fn end(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

/// One line on stdout, flushed at once (the managers' lines are read as they come).
fn out_line(line: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}").and_then(|_| stdout.flush());
}

/// The final report on stdout; with `-report latency=true`, then the runner's
/// turnaround line ([`latency_line`] of `turnaround_us`, the figures of the games played
/// in this run); with `-report`, then `Finished match: 57 of 200 games, interrupted,
/// 40.1 s` (`stopped`: how it stopped early, `, interrupted`, or ""). With
/// `-output format=cutechess|fastchess`, the manager's closing report and last line
/// instead of ours (the latency line stays, before the last line).
pub fn print_final(
    cfg: &Config,
    tally: &Tally,
    (total, turnaround_us): (usize, &[u64]),
    stopped: &str,
    took: Duration,
) {
    let mut stdout = std::io::stdout();
    match cfg.output {
        OutputFormat::Default => {
            let _ = write!(stdout, "{}", report(cfg, tally));
        }
        OutputFormat::Cutechess => {
            let _ = writeln!(stdout, "{}", formats::cutechess_results(cfg, tally));
        }
        OutputFormat::Fastchess => {
            let _ = write!(stdout, "{}", formats::fastchess_interval(cfg, tally));
        }
    }
    if cfg.output != OutputFormat::Default {
        // The managers' blocks stay as they print them; the rating list follows.
        if let Some(block) = rating_block(cfg, tally) {
            let _ = writeln!(stdout, "{block}");
        }
    }
    if let Some(path) = &cfg.report_html {
        if let Err(e) = write_html(cfg, tally, path) {
            eprintln!("tournament: {e}");
        }
    }
    if cfg.report && cfg.latency {
        let _ = writeln!(stdout, "{}", latency_line(turnaround_us));
    }
    match cfg.output {
        OutputFormat::Default if cfg.report => {
            let _ = writeln!(
                stdout,
                "Finished match: {} of {} games{stopped}, {:.1} s",
                tally.games,
                total,
                took.as_secs_f64()
            );
        }
        OutputFormat::Default => {}
        OutputFormat::Cutechess => {
            let _ = writeln!(stdout, "Finished match");
        }
        OutputFormat::Fastchess => {
            let _ = writeln!(stdout, "{}", formats::fastchess_end(cfg, tally));
        }
    }
    let _ = stdout.flush();
}

/// `-report latency=true`: the runner's own turnaround per move, from the instant an
/// engine's answer was read to the instant the next request was written to the other
/// engine, in µs: `Runner latency (answer read to next request written): 312 moves,
/// min 0.021 ms, median 0.048 ms, max 1.532 ms`.
pub fn latency_line(turnaround_us: &[u64]) -> String {
    let head = "Runner latency (answer read to next request written)";
    let mut us = turnaround_us.to_vec();
    us.sort_unstable();
    let (Some(&min), Some(&max)) = (us.first(), us.last()) else {
        return format!("{head}: no moves measured");
    };
    let n = us.len();
    let median = if n % 2 == 1 {
        us[n / 2] as f64
    } else {
        (us[n / 2 - 1] + us[n / 2]) as f64 / 2.0
    };
    let ms = |us: f64| format!("{:.3} ms", us / 1000.0);
    format!(
        "{head}: {n} moves, min {}, median {}, max {}",
        ms(min as f64),
        ms(median),
        ms(max as f64)
    )
}

/// The finished game for the progress line: `game 3: a - b 0-1, a time forfeit (160 ms)`.
fn game_summary(rec: &GameRecord) -> String {
    format!(
        "game {}: {} - {} {}, {}",
        rec.id + 1,
        rec.players[0],
        rec.players[1],
        rec.result.as_str(),
        rec.reason
    )
}

/// The progress line: games done, score, Elo and LLR, and the game just finished with
/// its end reason.
fn progress_line(cfg: &Config, tally: &Tally, total: usize, last: &GameRecord) -> String {
    let mut s = format!("[{}/{}]", tally.games, total);
    if cfg.engines.len() == 2 {
        let (wdl, _) = tally.pair(0, 1);
        s.push_str(&format!(
            " {} vs {}: {} - {} - {}",
            cfg.engines[0].name, cfg.engines[1].name, wdl.w, wdl.l, wdl.d
        ));
        if let Some(e) = stats::trinomial(&wdl) {
            s.push_str(&format!(
                " [{:.3}] Elo {} ± {}",
                e.score,
                stats::fmt_elo(e.elo),
                stats::fmt_elo_error(e.elo_error)
            ));
        }
        if let Some(spec) = &cfg.sprt {
            let (lo, hi) = stats::sprt_bounds(spec);
            s.push_str(&format!(" LLR {:.2} ({lo:.2}, {hi:.2})", tally.llr(spec)));
        }
        s.push_str(" | ");
    } else {
        s.push(' ');
    }
    s.push_str(&game_summary(last));
    s
}

/// The table of every engine: rank, Elo against the field, games, score, W/L/D.
fn rank_table(cfg: &Config, tally: &Tally) -> String {
    let n = cfg.engines.len();
    let mut out = String::new();
    let mut rows: Vec<(usize, f64)> = (0..n)
        .map(|i| {
            let w = tally.engine(i);
            let s = if w.games() > 0 {
                w.points() / w.games() as f64
            } else {
                0.0
            };
            (i, s)
        })
        .collect();
    rows.sort_by(|x, y| y.1.total_cmp(&x.1));
    out.push_str(&format!(
        "{:<4} {:<20} {:>8} {:>8} {:>7} {:>6} {:>6} {:>6} {:>6}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "W", "L", "D"
    ));
    for (rank, (i, s)) in rows.iter().enumerate() {
        let w = tally.engine(*i);
        let (e, err) = stats::trinomial(&w)
            .map(|e| (stats::fmt_elo(e.elo), stats::fmt_elo_error(e.elo_error)))
            .unwrap_or_else(|| ("-".into(), "-".into()));
        out.push_str(&format!(
            "{:<4} {:<20} {:>8} {:>8} {:>7} {:>5.1}% {:>6} {:>6} {:>6}\n",
            rank + 1,
            cfg.engines[*i].name,
            e,
            err,
            w.games(),
            s * 100.0,
            w.w,
            w.l,
            w.d
        ));
    }
    out
}

/// The rating list from all games at once (three or more engines): Ordo's model and
/// layout ([`crate::output::rating`]), with the default settings of `tournament rate` (no
/// first-mover advantage, draw rate 50 %, pool average 0, 1000 simulations), so that
/// `tournament rate` on the run's results file prints the same list.
pub fn rating_block(cfg: &Config, tally: &Tally) -> Option<String> {
    if cfg.engines.len() < 3 {
        return None;
    }
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let body = crate::output::rating::table_for_run(&names, &tally.encounters())?;
    Some(format!(
        "Ratings from all games at once (maximum likelihood, as Ordo computes them; \
         `tournament rate` on the results file prints the same):\n{body}"
    ))
}

/// `-report html=FILE`: the run's page ([`crate::output::rating::html`]): the rating list
/// with error bars, the cross table, every engine's score against its games and,
/// with `-sprt`, the LLR against games.
pub fn write_html(cfg: &Config, tally: &Tally, path: &std::path::Path) -> Result<(), String> {
    use crate::output::rating::{self, html, model};
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut pool = model::Pool {
        names: names.clone(),
        encounters: Vec::new(),
    };
    for (first, second, wdl) in tally.encounters() {
        pool.encounters
            .push(model::Encounter { first, second, wdl });
    }
    let rating = rating::rate(pool, &rating::Settings::default())?;
    let extras = html::Extras {
        title: names.join(", "),
        sequence: tally.sequence(),
        llr: cfg.sprt.as_ref().filter(|_| names.len() == 2).map(|spec| {
            let (lo, hi) = stats::sprt_bounds(spec);
            (tally.llr_series(spec), lo, hi)
        }),
    };
    std::fs::write(path, html::page(&rating, &extras))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The final report (and the `-ratinginterval` one). With `-report`, the summary:
/// also the table for two engines, and every ending counted.
pub fn report(cfg: &Config, tally: &Tally) -> String {
    let mut out = String::new();
    let n = cfg.engines.len();
    if n == 2 {
        pair_lines(cfg, tally, (0, 1), &mut out);
        if let Some(spec) = &cfg.sprt {
            out.push_str(&sprt_line(spec, tally.llr(spec)));
        }
        if cfg.report {
            out.push('\n');
            out.push_str(&rank_table(cfg, tally));
        }
    } else {
        out.push_str(&rank_table(cfg, tally));
        out.push('\n');
        if let Some(block) = rating_block(cfg, tally) {
            out.push_str(&block);
            out.push('\n');
        }
        for a in 0..n {
            for b in a + 1..n {
                pair_lines(cfg, tally, (a, b), &mut out);
            }
        }
    }
    for line in [tally.endings_line(cfg.report), tally.distinct_line()]
        .into_iter()
        .flatten()
    {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// One pair's lines: the score, the trinomial Elo, the pentanomial (when asked and the
/// games come in colour-swapped pairs), the LOS and the draw ratio; none before a game.
fn pair_lines(cfg: &Config, tally: &Tally, (a, b): (usize, usize), out: &mut String) {
    let (wdl, penta) = tally.pair(a, b);
    let games = wdl.games();
    if games == 0 {
        return;
    }
    out.push_str(&format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
        cfg.engines[a].name,
        cfg.engines[b].name,
        wdl.w,
        wdl.l,
        wdl.d,
        wdl.points() / games as f64,
        games
    ));
    if let Some(e) = stats::trinomial(&wdl) {
        out.push_str(&format!(
            "Elo difference: {} ± {} (95 %, trinomial), nElo: {} ± {}\n",
            stats::fmt_elo(e.elo),
            stats::fmt_elo_error(e.elo_error),
            stats::fmt_elo(e.nelo),
            stats::fmt_elo_error(e.nelo_error)
        ));
    }
    if let Some(e) = stats::pentanomial(&penta).filter(|_| cfg.penta) {
        let p = penta.0;
        out.push_str(&format!(
            "Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}] ({} pairs): Elo {} ± {}, nElo: {} ± {}\n",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            penta.pairs(),
            stats::fmt_elo(e.elo),
            stats::fmt_elo_error(e.elo_error),
            stats::fmt_elo(e.nelo),
            stats::fmt_elo_error(e.nelo_error)
        ));
    } else if cfg.noswap && cfg.penta {
        // The games of an opening are not colour-swapped: no pair to count.
        out.push_str("Pentanomial: none (-noswap: no colour-swapped game pairs)\n");
    }
    let los = stats::los(&wdl)
        .map(|l| format!("{:.2} %", l * 100.0))
        .unwrap_or_else(|| "n/a".into());
    out.push_str(&format!(
        "LOS: {los}, draw ratio: {:.1} %\n",
        100.0 * wdl.d as f64 / games as f64
    ));
}

/// The SPRT's line: its model and bounds, the LLR and the decision.
fn sprt_line(spec: &SprtSpec, llr: f64) -> String {
    let (lo, hi) = stats::sprt_bounds(spec);
    let verdict = match stats::sprt_decision(llr, spec) {
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::H1 => "H1 accepted",
        SprtDecision::Continue => "no decision",
    };
    format!(
        "SPRT ({}, elo0={} elo1={} alpha={} beta={}): LLR {:.2} ({:.2}, {:.2}) - {verdict}\n",
        match spec.model {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        },
        spec.elo0,
        spec.elo1,
        spec.alpha,
        spec.beta,
        llr,
        lo,
        hi
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: u64, result: &str) -> GameRecord {
        serde_json::from_value(serde_json::json!({
            "id": id,
            "players": ["greedy", "random"],
            "result": result,
            "reason": "board full 30-19",
            "moves": [],
        }))
        .expect("a record")
    }

    #[test]
    fn the_latency_line_gives_min_median_and_max() {
        assert_eq!(
            latency_line(&[]),
            "Runner latency (answer read to next request written): no moves measured"
        );
        assert_eq!(
            latency_line(&[900, 20, 1_532_400]),
            "Runner latency (answer read to next request written): 3 moves, \
             min 0.020 ms, median 0.900 ms, max 1532.400 ms"
        );
        assert!(latency_line(&[10, 40, 30, 20])
            .contains("4 moves, min 0.010 ms, median 0.025 ms, max 0.040 ms"));
    }

    /// The first games of a run (one win and one draw) give a score interval reaching
    /// 1, whose Elo is infinite: the line said `Elo 190.8 ± +inf`.
    #[test]
    fn the_progress_line_never_prints_an_infinite_interval() {
        let args: Vec<String> = ["-engine", "builtin=greedy", "-engine", "builtin=random"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let Ok(crate::cli::Command::Run(cfg)) = crate::cli::parse(&args) else {
            panic!("a run");
        };
        let mut tally = Tally::new(vec!["greedy".into(), "random".into()]);
        let win = record(0, "1-0");
        tally.add(&win);
        let line = progress_line(&cfg, &tally, 10, &win);
        assert!(line.contains("Elo +inf ± n/a"), "{line}");
        let draw = record(1, "1/2-1/2");
        tally.add(&draw);
        let line = progress_line(&cfg, &tally, 10, &draw);
        assert!(line.contains("Elo 190.8 ± n/a |"), "{line}");
        assert!(
            !line.contains("± +inf") && !line.contains("± inf"),
            "{line}"
        );
        let report = report(&cfg, &tally);
        assert!(!report.contains("± +inf"), "{report}");
    }
}
