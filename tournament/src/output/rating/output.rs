//! A rated pool as text (Ordo's layout, then what it was computed from, the groups,
//! the perfect scores and the cross table), Ordo's CSV (`-c`) and JSON.

use super::model::{Kind, Param, Reference};
use super::Rating;
use serde_json::json;

/// Ordo's rounding of a rating for the text layout (half up, one decimal).
fn round1(x: f64) -> f64 {
    (x * 10.0 + 0.5).floor() / 10.0
}

/// Ordo's marks after a name: `>` won every game, `<` lost every game.
fn mark(kind: Kind) -> &'static str {
    match kind {
        Kind::AllWins => ">",
        Kind::AllLosses => "<",
        Kind::NoGames => "*",
        Kind::Normal => " ",
    }
}

/// Per player: wins, draws, losses.
pub fn wdl(r: &Rating) -> Vec<[u64; 3]> {
    let mut out = vec![[0u64; 3]; r.pool.names.len()];
    for e in &r.pool.encounters {
        for k in 0..3 {
            out[e.first][k] += e.wdl[k];
            out[e.second][2 - k] += e.wdl[k];
        }
    }
    out
}

/// The likelihood of superiority of each listed player over the next (the last has
/// none), when there were simulations.
pub fn cfs(r: &Rating) -> Vec<Option<f64>> {
    (0..r.order.len())
        .map(|k| {
            let next = *r.order.get(k + 1)?;
            r.superiority(r.order[k], next)
        })
        .collect()
}

/// The rating list in Ordo's text layout (`ordo -J` with `-s`: the columns `#
/// PLAYER : RATING ERROR POINTS PLAYED (%) CFS(%)`, the advantage and draw rate
/// lines), then the lines saying how it was computed, the groups when the pool is not
/// connected, and the perfect scores; unless `brief`, the cross table too.
pub fn text(r: &Rating, brief: bool) -> String {
    let mut out = table(r, &columns(r));
    out.push('\n');
    out.push_str(&model_lines(r));
    out.push('\n');
    for line in notes(r) {
        out.push_str(&line);
        out.push('\n');
    }
    if !brief {
        out.push('\n');
        out.push_str(&cross_text(r));
    }
    out
}

/// A column of the text list: its header, Ordo's initial width, and each row's cell.
type Column = (&'static str, usize, Vec<String>);

/// The text list's columns after the name, one cell a player in rank order; without
/// simulations, no error bars and no CFS.
fn columns(r: &Rating) -> Vec<Column> {
    let cfs = cfs(r);
    let mut cols: Vec<Column> = vec![
        ("RATING", 6, Vec::new()),
        ("ERROR", 6, Vec::new()),
        ("POINTS", 7, Vec::new()),
        ("PLAYED", 7, Vec::new()),
        ("(%)", 5, Vec::new()),
        ("CFS(%)", 7, Vec::new()),
    ];
    for (k, &i) in r.order.iter().enumerate() {
        let (pts, games) = r.scores[i];
        cols[0].2.push(format!("{:.1}", round1(r.fit.ratings[i])));
        cols[1].2.push(match r.error(i) {
            Some(e) => format!("{:.1}", round1(e)),
            None => "----".into(),
        });
        cols[2].2.push(format!("{pts:.1}"));
        cols[3].2.push(games.to_string());
        cols[4].2.push(format!("{:.0}", 100.0 * pts / games as f64));
        cols[5].2.push(match cfs[k] {
            Some(c) => format!("{:.0}", 100.0 * c),
            None => "---".into(),
        });
    }
    if r.sd.is_none() {
        cols.retain(|c| c.0 != "ERROR" && c.0 != "CFS(%)");
    }
    cols
}

/// The text list's table: the header line, then a line a player (rank, name, perfect
/// score mark, cells), each column as wide as its widest cell and one more.
fn table(r: &Rating, cols: &[Column]) -> String {
    let ml = name_width(r);
    let widths: Vec<usize> = cols
        .iter()
        .map(|(h, w, cells)| {
            let longest = cells
                .iter()
                .map(String::len)
                .max()
                .unwrap_or(0)
                .max(h.len());
            (*w).max(longest + 1)
        })
        .collect();
    let mut out = format!("\n{:>4} {:<ml$}    :", "#", "PLAYER");
    for ((h, _, _), w) in cols.iter().zip(&widths) {
        out.push_str(&format!(" {h:>w$}"));
    }
    out.push('\n');
    for (k, &i) in r.order.iter().enumerate() {
        out.push_str(&format!(
            "{:>4} {:<w$} {} :",
            k + 1,
            r.pool.names[i],
            mark(r.fit.kinds[i]),
            w = ml + 1
        ));
        for ((_, _, cells), w) in cols.iter().zip(&widths) {
            out.push_str(&format!(" {:>w$}", cells[k]));
        }
        out.push('\n');
    }
    out
}

/// The first mover's advantage and the draw rate, with their error bars when there
/// were simulations.
fn model_lines(r: &Rating) -> String {
    if r.sd.is_some() {
        format!(
            "White advantage = {:.2} +/- {:.2}\nDraw rate (equal opponents) = {:.2} % +/- {:.2}\n",
            r.fit.white,
            r.white_sd,
            100.0 * r.fit.draw,
            100.0 * r.draw_sd
        )
    } else {
        format!(
            "White advantage = {:.2}\nDraw rate (equal opponents) = {:.2} %\n",
            r.fit.white,
            100.0 * r.fit.draw
        )
    }
}

/// How the list was computed, the groups and the perfect scores, one line each.
pub fn notes(r: &Rating) -> Vec<String> {
    let s = &r.settings;
    let reference = match &s.reference {
        Reference::Average(v) => {
            format!("pool average {v} (of the players without a perfect score)")
        }
        Reference::Anchor(name, v) => format!("{name} anchored at {v}"),
    };
    let white = match s.white {
        Param::Fixed(w) => format!("first-mover (White) advantage fixed at {w}"),
        Param::Fitted => "first-mover (White) advantage fitted".into(),
    };
    let draw = match s.draw {
        Param::Fixed(d) => format!("draw rate fixed at {} %", 100.0 * d),
        Param::Fitted => "draw rate fitted".into(),
    };
    let errors = if r.sd.is_some() {
        format!(
            "errors {} % from {} simulations, CFS: likelihood of superiority over the next",
            s.confidence, s.simulations
        )
    } else {
        "no simulations, no errors".into()
    };
    let mut lines = vec![format!(
        "Ratings: maximum likelihood over {} games, logistic Elo model (76 % = {:.2} Elo); \
         {reference}; {white}; {draw}; {errors}",
        r.pool.games(),
        s.scale
    )];
    let groups = r.groups();
    if groups.len() > 1 {
        let list: Vec<String> = groups
            .iter()
            .enumerate()
            .map(|(k, g)| format!("group {}: {}", k + 1, g.join(", ")))
            .collect();
        let how = match &s.reference {
            Reference::Anchor(name, v) => {
                format!("{name}'s group anchored at {v}, each other group's average at {v}")
            }
            Reference::Average(v) => format!("each group's average at {v}"),
        };
        lines.push(format!(
            "Not connected by wins and losses both ways: rated in {} groups whose ratings \
             cannot be compared ({how}): {}",
            groups.len(),
            list.join("; ")
        ));
    }
    for &i in &r.order {
        let what = match r.fit.kinds[i] {
            Kind::AllWins => "won every game",
            Kind::AllLosses => "lost every game",
            _ => continue,
        };
        lines.push(format!(
            "{} {what}: rated where that result had probability 1/2 (Ordo's rule for a \
             perfect score), not infinite",
            r.pool.names[i]
        ));
    }
    lines
}

/// The width of the name column: the longest name, within 6 to 50 characters.
fn name_width(r: &Rating) -> usize {
    r.order
        .iter()
        .map(|&i| r.pool.names[i].chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 50)
}

/// The cross table: each row's points against each column, and the games.
pub fn cross_text(r: &Rating) -> String {
    let cross = r.pool.cross();
    let ml = name_width(r);
    let cell = |a: usize, b: usize| -> String {
        if a == b {
            return "-".into();
        }
        let (lo, hi) = (a.min(b), a.max(b));
        match cross.get(&(lo, hi)) {
            Some(&(pts, games)) => {
                let mine = if a == lo { pts } else { games as f64 - pts };
                format!("{}/{}", fmt_points(mine), games)
            }
            None => ".".into(),
        }
    };
    let w = r
        .order
        .iter()
        .flat_map(|&a| r.order.iter().map(move |&b| (a, b)))
        .map(|(a, b)| cell(a, b).len())
        .max()
        .unwrap_or(1)
        .max(3)
        + 1;
    let mut out = String::from("Cross table (the row's points against the column / games):\n");
    out.push_str(&format!("{:>4} {:<ml$}    :", "#", "PLAYER"));
    for k in 0..r.order.len() {
        out.push_str(&format!(" {:>w$}", k + 1));
    }
    out.push('\n');
    for (k, &a) in r.order.iter().enumerate() {
        out.push_str(&format!(
            "{:>4} {:<w2$} {} :",
            k + 1,
            r.pool.names[a],
            mark(r.fit.kinds[a]),
            w2 = ml + 1
        ));
        for &b in &r.order {
            out.push_str(&format!(" {:>w$}", cell(a, b)));
        }
        out.push('\n');
    }
    out
}

/// Points without a trailing `.0` (`7`, `7.5`).
fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// Ordo's CSV (`-c`): `"#","PLAYER","RATING","ERROR","POINTS","PLAYED","(%)"`, plus
/// `"CFS(%)"` with simulations; an absent error or CFS is `"-"`.
pub fn csv(r: &Rating) -> String {
    let sims = r.sd.is_some();
    let mut out =
        String::from("\"#\",\"PLAYER\",\"RATING\",\"ERROR\",\"POINTS\",\"PLAYED\",\"(%)\"");
    if sims {
        out.push_str(",\"CFS(%)\"");
    }
    out.push('\n');
    let cfs = cfs(r);
    for (k, &i) in r.order.iter().enumerate() {
        let (pts, games) = r.scores[i];
        let err = match r.error(i) {
            Some(e) => format!("{:.1}", round1(e)),
            None => "\"-\"".into(),
        };
        out.push_str(&format!(
            "{},\"{}\",{:.1},{err},{pts:.2},{games},{:.2}",
            k + 1,
            r.pool.names[i].replace('"', "\"\""),
            r.fit.ratings[i],
            100.0 * pts / games as f64
        ));
        if sims {
            match cfs[k] {
                Some(c) => out.push_str(&format!(",{:.0}", 100.0 * c)),
                None => out.push_str(",\"-\""),
            }
        }
        out.push('\n');
    }
    out
}

/// Everything as JSON: settings, fitted parameters, players (best first), groups,
/// notes and the cross table.
pub fn json(r: &Rating) -> serde_json::Value {
    let wdl = wdl(r);
    let cfs = cfs(r);
    let players: Vec<serde_json::Value> = r
        .order
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let (pts, games) = r.scores[i];
            json!({
                "rank": k + 1,
                "name": r.pool.names[i],
                "rating": r.fit.ratings[i],
                "error": r.error(i),
                "points": pts,
                "games": games,
                "score": pts / games as f64,
                "wins": wdl[i][0],
                "draws": wdl[i][1],
                "losses": wdl[i][2],
                "cfs_next": cfs[k],
                "group": r.fit.group[i] + 1,
                "perfect": match r.fit.kinds[i] {
                    Kind::AllWins => Some("all wins"),
                    Kind::AllLosses => Some("all losses"),
                    _ => None,
                },
            })
        })
        .collect();
    let cross: Vec<serde_json::Value> = r
        .pool
        .cross()
        .into_iter()
        .map(|((a, b), (pts, games))| {
            json!({"a": r.pool.names[a], "b": r.pool.names[b], "a_points": pts, "games": games})
        })
        .collect();
    let s = &r.settings;
    json!({
        "games": r.pool.games(),
        "settings": {
            "scale_76": s.scale,
            "white": match s.white { Param::Fixed(w) => json!(w), Param::Fitted => json!("fitted") },
            "draw": match s.draw { Param::Fixed(d) => json!(d), Param::Fitted => json!("fitted") },
            "reference": match &s.reference {
                Reference::Average(v) => json!({"average": v}),
                Reference::Anchor(n, v) => json!({"anchor": n, "rating": v}),
            },
            "simulations": s.simulations,
            "confidence": s.confidence,
        },
        "white_advantage": r.fit.white,
        "white_advantage_sd": r.sd.as_ref().map(|_| r.white_sd),
        "draw_rate": r.fit.draw,
        "draw_rate_sd": r.sd.as_ref().map(|_| r.draw_sd),
        "groups": r.groups(),
        "players": players,
        "cross": cross,
        "notes": notes(r),
    })
}
