//! `-output format=cutechess|fastchess`: the progress and report lines in the shape the
//! two managers print them, for scripts and people used to reading theirs. Both print
//! everything on stdout (cutechess-cli's message handler sends `qInfo` there; fastchess
//! writes to `std::cout`), so these formats do too. The shapes follow cutechess-cli's
//! `EngineMatch` and `Tournament::results` and fastchess's `output_fastchess.hpp`; the
//! figures are computed as each manager computes them (cutechess-cli's `Elo` class,
//! fastchess's `EloWDL`/`EloPentanomial`), so they can differ in the last digit from our
//! own report's. Non-finite figures print as both managers print them (`inf`, `nan`).

use crate::config::Config;
use crate::engines::player::Limits;
use crate::output::results::GameRecord;
use crate::output::stats::{self, SprtDecision, Wdl};
use crate::output::tally::Tally;

/// A figure as C++'s `fmt` and Qt's `arg` print it: `inf`, `-inf` and `nan` for the
/// non-finite ones (Rust would print `NaN`).
fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{:.*}", decimals, x + 0.0)
    }
}

/// `%.3g` (Qt's `arg(x, 0, 'g', 3)`): three significant digits, trailing zeros dropped,
/// the exponent form below 1e-4 and from 1e3.
fn general3(x: f64) -> String {
    if !x.is_finite() {
        return fixed(x, 0);
    }
    if x == 0.0 {
        return "0".into();
    }
    let exp = x.abs().log10().floor() as i32;
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if !(-4..3).contains(&exp) {
        let m = format!("{:.2e}", x);
        let (mant, e) = m.split_once('e').unwrap_or((&m, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(mant.to_string()), e.abs());
    }
    // Rounding may carry into the next power of ten (999.6 -> 1e+03): redo from there.
    let s = trim(format!("{:.*}", (2 - exp).max(0) as usize, x));
    if s.trim_start_matches('-')
        .replace('.', "")
        .trim_start_matches('0')
        .len()
        > 3
    {
        return general3(s.parse().unwrap_or(x));
    }
    s
}

/// The Elo of a score as both managers compute it, without clamping: `inf` at 1, `nan`
/// past it (an interval's end beyond a perfect score).
fn score_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// cutechess-cli's `Elo` class: the Elo difference, its 95 % margin (with cutechess's
/// own approximation of the inverse error function) and the LOS in percent.
fn cutechess_elo(wdl: &Wdl) -> (f64, f64, f64) {
    let n = wdl.games() as f64;
    let (w, l, d) = (wdl.w as f64 / n, wdl.l as f64 / n, wdl.d as f64 / n);
    let mu = w + d / 2.0;
    let dev = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
    let stdev = dev.sqrt() / n.sqrt();
    let erf_inv = |x: f64| {
        let pi = std::f64::consts::PI;
        let a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
        let y = (1.0 - x * x).ln();
        let z = 2.0 / (pi * a) + y / 2.0;
        let r = ((z * z - y / a).sqrt() - z).sqrt();
        if x < 0.0 {
            -r
        } else {
            r
        }
    };
    let phi_inv = |p: f64| std::f64::consts::SQRT_2 * erf_inv(2.0 * p - 1.0);
    let margin =
        (score_elo(mu + phi_inv(0.975) * stdev) - score_elo(mu + phi_inv(0.025) * stdev)) / 2.0;
    let decisive = (wdl.w + wdl.l) as f64;
    let los = 100.0 * (0.5 + 0.5 * erf((wdl.w as f64 - wdl.l as f64) / (2.0 * decisive).sqrt()));
    (score_elo(mu), margin, los)
}

/// The error function (`erf(x) = 1 - erfc(x)`; `nan` stays `nan`).
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    1.0 - stats::erfc(x)
}

/// fastchess's estimate of a score distribution (`games_per_unit` 1: games, 2: pairs):
/// Elo and its 95 % half-width, nElo and its half-width, LOS in percent.
fn fastchess_elo(dist: &[(f64, f64)], games_per_unit: f64) -> [f64; 5] {
    let Some((n, score, var)) = stats::mean_var(dist) else {
        return [f64::NAN; 5];
    };
    let per_unit = var / n;
    let (hi, lo) = (
        score + stats::Z95 * per_unit.sqrt(),
        score - stats::Z95 * per_unit.sqrt(),
    );
    let nelo = |s: f64| (s - 0.5) / (games_per_unit * var).sqrt() * stats::NELO_SCALE;
    let los = (1.0 - erf(-(score - 0.5) / (2.0 * per_unit).sqrt())) / 2.0;
    [
        score_elo(score),
        (score_elo(hi) - score_elo(lo)) / 2.0,
        nelo(score),
        (nelo(hi) - nelo(lo)) / 2.0,
        los * 100.0,
    ]
}

/// `Started game 3 of 200 (a vs b)`: the first mover's name first.
pub fn started_line(number: u64, total: usize, players: [&str; 2]) -> String {
    format!(
        "Started game {number} of {total} ({} vs {})",
        players[0], players[1]
    )
}

/// `Finished game 3 (a vs b): 1-0 {board full 30-19}`: the result from the first mover's
/// side, the reason in braces.
pub fn finished_line(rec: &GameRecord) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        rec.id + 1,
        rec.players[0],
        rec.players[1],
        rec.result.as_str(),
        rec.reason
    )
}

/// cutechess-cli's score line of a two-engine run: `Score of a vs b: 5 - 3 - 2  [0.600] 10`.
pub fn score_line(cfg: &Config, tally: &Tally) -> Option<String> {
    if cfg.engines.len() != 2 {
        return None;
    }
    let w = tally.engine(0);
    Some(format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        cfg.engines[0].name,
        cfg.engines[1].name,
        w.w,
        w.l,
        w.d,
        w.points() / w.games() as f64,
        w.games()
    ))
}

/// cutechess-cli's `Tournament::results`: for two engines, the first engine's score as
/// each side and the sides' score, then `Elo difference: … +/- …, LOS: … %, DrawRatio:
/// … %`; for more, the ranking table of its default format (`Rank,Name,Elo,Error,Games,
/// Score,DScore`); then the SPRT line if there is one. No final line break (cutechess
/// prints it through `qInfo`, which adds one).
pub fn cutechess_results(cfg: &Config, tally: &Tally) -> String {
    let mut out = if cfg.engines.len() == 2 {
        cutechess_pair(cfg, tally)
    } else {
        cutechess_ranking(cfg, tally)
    };
    if let Some(spec) = &cfg.sprt {
        let llr = tally.llr(spec);
        let (lo, hi) = stats::sprt_bounds(spec);
        let verdict = match stats::sprt_decision(llr, spec) {
            SprtDecision::H0 => " - H0 was accepted",
            SprtDecision::H1 => " - H1 was accepted",
            SprtDecision::Continue => "",
        };
        out.push_str(&format!(
            "\nSPRT: llr {} ({}%), lbound {}, ubound {}{verdict}",
            general3(llr),
            fixed(llr / hi * 100.0, 1),
            general3(lo),
            general3(hi)
        ));
    }
    out
}

/// cutechess-cli's results of two engines: the first engine's score as each side, the
/// sides' score (each line only if it has games), and the Elo line.
fn cutechess_pair(cfg: &Config, tally: &Tally) -> String {
    let mut out = String::new();
    let side = |wdl: Wdl, what: &str, out: &mut String| {
        if wdl.games() > 0 {
            out.push_str(&format!(
                "...      {what}: {} - {} - {}  [{:.3}] {}\n",
                wdl.w,
                wdl.l,
                wdl.d,
                wdl.points() / wdl.games() as f64,
                wdl.games()
            ));
        }
    };
    let name = &cfg.engines[0].name;
    let (first, second) = (tally.engine_side(0, 0), tally.engine_side(0, 1));
    side(first, &format!("{name} playing White"), &mut out);
    side(second, &format!("{name} playing Black"), &mut out);
    // White (the first mover) against Black, whoever played them.
    let sides = Wdl {
        w: first.w + second.l,
        l: first.l + second.w,
        d: first.d + second.d,
    };
    side(sides, "White vs Black", &mut out);
    let all = tally.engine(0);
    let (elo, margin, los) = cutechess_elo(&all);
    out.push_str(&format!(
        "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
        fixed(elo, 1),
        fixed(margin, 1),
        fixed(los, 1),
        fixed(all.d as f64 / all.games() as f64 * 100.0, 1)
    ));
    out
}

/// cutechess-cli's ranking table of more than two engines, in its default format.
fn cutechess_ranking(cfg: &Config, tally: &Tally) -> String {
    let mut out =
        String::from("Rank Name                          Elo     +/-   Games   Score    Draw \n");
    // Best score first; cutechess keeps its players in a QMultiMap keyed by
    // 1 - score, which lists equal keys newest first.
    let mut rows: Vec<(usize, Wdl)> = (0..cfg.engines.len())
        .rev()
        .map(|i| (i, tally.engine(i)))
        .collect();
    let key = |w: &Wdl| {
        if w.games() == 0 {
            2.0
        } else {
            1.0 - w.points() / w.games() as f64
        }
    };
    rows.sort_by(|a, b| key(&a.1).total_cmp(&key(&b.1)));
    for (rank, (i, w)) in rows.iter().enumerate() {
        let (elo, margin, _) = cutechess_elo(w);
        let games = w.games() as f64;
        out.push_str(&format!(
            "{:>4} {:<25} {:>7} {:>7} {:>7} {:>6}% {:>6}% \n",
            rank + 1,
            cfg.engines[*i].name,
            fixed(elo, 0),
            fixed(margin, 0),
            w.games(),
            fixed(w.points() / games * 100.0, 1),
            fixed(w.d as f64 / games * 100.0, 1)
        ));
    }
    out
}

/// fastchess's time control word of an engine: `10+0.1`, `40/60`, `0.5/move`,
/// `4 plies` (a depth), `5000 nodes`, or `?` when there is none to name: a built-in
/// player without limits, or an engine of `tournament merge`, whose results lines do not
/// hold the engines' limits.
fn fastchess_time(l: &Limits) -> String {
    if let Some(tc) = l.tc.filter(|tc| tc.base_ms + tc.inc_ms > 0) {
        let moves = tc.moves.map(|m| format!("{m}/")).unwrap_or_default();
        let inc = if tc.inc_ms > 0 {
            format!("+{}", general2(tc.inc_ms as f64 / 1000.0))
        } else {
            String::new()
        };
        return format!("{moves}{}{inc}", tc.base_ms as f64 / 1000.0);
    }
    if let Some(ms) = l.movetime_ms.filter(|&ms| ms > 0) {
        return format!("{}/move", ms as f64 / 1000.0);
    }
    if let Some(d) = l.depth.filter(|&d| d > 0) {
        return format!("{d} plies");
    }
    if let Some(n) = l.nodes.filter(|&n| n > 0) {
        return format!("{n} nodes");
    }
    "?".into()
}

/// `{:.2g}`: two significant digits (an increment: 0.1, 0.05, 1.5).
fn general2(x: f64) -> String {
    let exp = if x == 0.0 {
        0
    } else {
        x.abs().log10().floor() as i32
    };
    let s = format!("{:.*}", (1 - exp).max(0) as usize, x);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Both engines' word, or `a - b` when they differ (fastchess's `formatTimeControl`,
/// `formatThreads`, `formatHash`).
fn both(a: String, b: String) -> String {
    if a == b {
        a
    } else {
        format!("{a} - {b}")
    }
}

/// fastchess's interval block (`printInterval`), between two rules of dashes: for two
/// engines `Results of a vs b (TC, THREADS, HASH, BOOK):`, the Elo, LOS, games and (with
/// the pentanomial) `Ptnml(0-2)` lines; for more, its ranking table; then the `LLR` line
/// of an SPRT. THREADS and HASH are the `option.Threads=`/`option.Hash=` values the
/// engines were given (`NULL` without, as fastchess prints an engine without the
/// option). The pentanomial is used as fastchess uses it by default, while
/// `-report penta=true` (ours) and colour-swapped pairs exist.
pub fn fastchess_interval(cfg: &Config, tally: &Tally) -> String {
    let rule = "--------------------------------------------------\n";
    let mut out = String::from(rule);
    if cfg.engines.len() == 2 {
        out.push_str(&fastchess_head_to_head(cfg, tally));
    } else {
        out.push_str(&fastchess_table(cfg, tally));
    }
    if let Some(spec) = &cfg.sprt {
        let llr = tally.llr(spec);
        let (lo, hi) = stats::sprt_bounds(spec);
        let fraction = if llr >= 0.0 { llr / hi } else { -llr / lo };
        out.push_str(&format!(
            "LLR: {} ({}%) ({lo:.2}, {hi:.2}) [{:.2}, {:.2}]\n",
            fixed(llr, 2),
            fixed(fraction * 100.0, 1),
            spec.elo0,
            spec.elo1
        ));
    }
    out.push_str(rule);
    out
}

fn fastchess_head_to_head(cfg: &Config, tally: &Tally) -> String {
    let (a, b) = (&cfg.engines[0], &cfg.engines[1]);
    let option = |e: &crate::engines::player::EngineSpec, name: &str, unit: &str| {
        e.options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map_or_else(|| "NULL".to_string(), |(_, v)| format!("{v}{unit}"))
    };
    let book = cfg
        .openings
        .as_ref()
        .and_then(|o| o.file.file_name())
        .map(|f| format!(", {}", f.to_string_lossy()))
        .unwrap_or_default();
    let (wdl, penta) = tally.pair(0, 1);
    let pairs = penta.pairs();
    let use_penta = cfg.penta && pairs > 0;
    let [elo, err, nelo, nerr, los] = if use_penta {
        fastchess_elo(&penta.distribution(), 2.0)
    } else {
        fastchess_elo(&wdl.distribution(), 1.0)
    };
    let p = penta.0;
    let wl = tally.win_loss_pairs(0, 1);
    let (draw_ratio, pairs_ratio) = if use_penta {
        (
            fixed(p[2] as f64 / pairs as f64 * 100.0, 2),
            format!(
                ", PairsRatio: {}",
                fixed((p[3] + p[4]) as f64 / (p[0] + p[1]) as f64, 2)
            ),
        )
    } else {
        (
            fixed(wdl.d as f64 / wdl.games() as f64 * 100.0, 2),
            String::new(),
        )
    };
    let mut out = format!(
        "Results of {} vs {} ({}, {}, {}{book}):\n",
        a.name,
        b.name,
        both(fastchess_time(&a.limits), fastchess_time(&b.limits)),
        both(option(a, "Threads", "t"), option(b, "Threads", "t")),
        both(option(a, "Hash", "MB"), option(b, "Hash", "MB")),
    );
    out.push_str(&format!(
        "Elo: {} +/- {}, nElo: {} +/- {}\n",
        fixed(elo, 2),
        fixed(err, 2),
        fixed(nelo, 2),
        fixed(nerr, 2)
    ));
    out.push_str(&format!(
        "LOS: {} %, DrawRatio: {draw_ratio} %{pairs_ratio}\n",
        fixed(los, 2)
    ));
    out.push_str(&format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)\n",
        wdl.games(),
        wdl.w,
        wdl.l,
        wdl.d,
        wdl.points(),
        fixed(wdl.points() / wdl.games() as f64 * 100.0, 2)
    ));
    if use_penta {
        let dd = p[2] - wl;
        out.push_str(&format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}\n",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            fixed(wl as f64 / dd as f64, 2)
        ));
    }
    out
}

/// fastchess's ranking of more than two engines (trinomial figures per engine: our
/// tally keeps pairs per engine pair, not per engine).
fn fastchess_table(cfg: &Config, tally: &Tally) -> String {
    let width = cfg
        .engines
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0)
        .max(25);
    let mut rows: Vec<(usize, Wdl, [f64; 5])> = (0..cfg.engines.len())
        .map(|i| {
            let w = tally.engine(i);
            (i, w, fastchess_elo(&w.distribution(), 1.0))
        })
        .collect();
    // Highest Elo first, engines without one last.
    rows.sort_by(|x, y| match (x.2[0].is_nan(), y.2[0].is_nan()) {
        (false, true) => std::cmp::Ordering::Less,
        (true, false) => std::cmp::Ordering::Greater,
        _ => y.2[0].total_cmp(&x.2[0]),
    });
    let mut out = format!(
        "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>20}\n",
        "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw", "Ptnml(0-2)"
    );
    for (rank, (i, w, e)) in rows.iter().enumerate() {
        let games = w.games() as f64;
        out.push_str(&format!(
            "{:>4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9}% {:>9}% {:>20}\n",
            rank + 1,
            cfg.engines[*i].name,
            fixed(e[0], 2),
            fixed(e[1], 2),
            fixed(e[2], 2),
            fixed(e[3], 2),
            w.games(),
            fixed(w.points() / games * 100.0, 1),
            fixed(w.d as f64 / games * 100.0, 1),
            ""
        ));
    }
    out
}

/// fastchess's last line: `SPRT ([0.00, 5.00]) completed - H1 was accepted` when the
/// SPRT stopped the run, else `Tournament finished`.
pub fn fastchess_end(cfg: &Config, tally: &Tally) -> String {
    if let Some(spec) = &cfg.sprt {
        let verdict = match stats::sprt_decision(tally.llr(spec), spec) {
            SprtDecision::H0 => Some("H0"),
            SprtDecision::H1 => Some("H1"),
            SprtDecision::Continue => None,
        };
        if let Some(h) = verdict {
            return format!(
                "SPRT ([{:.2}, {:.2}]) completed - {h} was accepted",
                spec.elo0, spec.elo1
            );
        }
    }
    "Tournament finished".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_c_formats_them() {
        assert_eq!(general3(0.0), "0");
        assert_eq!(general3(2.944_438_979), "2.94");
        assert_eq!(general3(-2.944_438_979), "-2.94");
        assert_eq!(general3(0.5), "0.5");
        assert_eq!(general3(12.0), "12");
        assert_eq!(general3(0.000_123_4), "0.000123");
        assert_eq!(general3(1234.0), "1.23e+03");
        assert_eq!(general3(999.7), "1e+03");
        assert_eq!(general3(0.000_012_34), "1.23e-05");
        assert_eq!(general2(0.1), "0.1");
        assert_eq!(general2(0.05), "0.05");
        assert_eq!(general2(1.5), "1.5");
        assert_eq!(general2(2.0), "2");
        assert_eq!(fixed(f64::NAN, 1), "nan");
        assert_eq!(fixed(f64::INFINITY, 1), "inf");
        assert_eq!(fixed(-0.0, 1), "0.0");
    }

    /// Figures checked by hand against the managers' formulas: 5 wins, 3 losses and 2
    /// draws score 0.6 (Elo 70.4); cutechess-cli's margin uses its erfInv approximation
    /// (z = 1.95716 for 97.5 %: 226.4 where the exact z gives fastchess's 226.82).
    #[test]
    fn the_figures_follow_each_managers_formulas() {
        let wdl = Wdl { w: 5, l: 3, d: 2 };
        let (elo, margin, los) = cutechess_elo(&wdl);
        assert_eq!(fixed(elo, 1), "70.4");
        assert_eq!(fixed(los, 1), "76.0");
        assert_eq!(fixed(margin, 1), "226.4");
        let [e, err, _, _, los] = fastchess_elo(&wdl.distribution(), 1.0);
        assert_eq!(fixed(e, 2), "70.44");
        assert_eq!(fixed(err, 2), "226.82");
        // Φ((0.6 - 0.5) / √(0.19 / 10)) = Φ(0.7255)
        assert_eq!(fixed(los, 2), "76.59");
        // One win only: Elo inf, the interval past a perfect score nan, as they print.
        let (elo, margin, _) = cutechess_elo(&Wdl { w: 1, l: 0, d: 0 });
        assert_eq!(
            (fixed(elo, 1), fixed(margin, 1)),
            ("inf".into(), "nan".into())
        );
    }
}
