//! One self-contained HTML page of a rated pool: the rating list (a table and its
//! error bars drawn in inline SVG), the cross table coloured by score, every engine's
//! score against its games played and, for an SPRT run, the LLR against games with
//! its bounds. No script, no external file: it opens from disk in any browser.

use super::output;
use super::Rating;

/// What a run adds to the page beyond the pool.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// A title line (the run's engines, or the files rated).
    pub title: String,
    /// The games in the order they were played (or read): (first mover, second
    /// mover, first mover's score), indices into the pool's names.
    pub sequence: Vec<(usize, usize, f64)>,
    /// An SPRT run: the LLR after each game, and the lower and upper bounds.
    pub llr: Option<(Vec<f64>, f64, f64)>,
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// The page.
pub fn page(r: &Rating, extras: &Extras) -> String {
    let title = if extras.title.is_empty() {
        "Ratings".to_string()
    } else {
        format!("Ratings: {}", extras.title)
    };
    let mut h = String::new();
    h.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n",
        esc(&title)
    ));
    h.push_str(
        "<style>body{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}\
         td,th{padding:2px 8px;border:1px solid #ccc;text-align:right}td.name,th.name{text-align:left}\
         svg text{font-size:12px;font-family:sans-serif}p.note{font-size:90%;color:#444;max-width:60em}</style>\n",
    );
    h.push_str(&format!("</head><body>\n<h1>{}</h1>\n", esc(&title)));
    h.push_str(&rating_table(r));
    h.push_str(&error_bars(r));
    for note in output::notes(r) {
        h.push_str(&format!("<p class=\"note\">{}</p>\n", esc(&note)));
    }
    h.push_str(&cross_table(r));
    if !extras.sequence.is_empty() {
        h.push_str(&score_chart(r, &extras.sequence));
    }
    if let Some((llr, lo, hi)) = &extras.llr {
        h.push_str(&llr_chart(llr, *lo, *hi));
    }
    h.push_str("</body></html>\n");
    h
}

/// The list as a table, with the text report's figures (the same strings).
fn rating_table(r: &Rating) -> String {
    let cfs = output::cfs(r);
    let wdl = output::wdl(r);
    let mut h = String::from(
        "<h2>Rating list</h2>\n<table id=\"ratings\"><tr><th>#</th><th class=\"name\">Player</th>\
         <th>Rating</th><th>Error</th><th>Points</th><th>Played</th><th>(%)</th><th>CFS(%)</th>\
         <th>W</th><th>D</th><th>L</th></tr>\n",
    );
    for (k, &i) in r.order.iter().enumerate() {
        let (pts, games) = r.scores[i];
        h.push_str(&format!(
            "<tr><td>{}</td><td class=\"name\">{}</td><td class=\"rating\">{:.1}</td>\
             <td class=\"error\">{}</td><td>{pts:.1}</td><td>{games}</td><td>{:.0}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>\n",
            k + 1,
            esc(&r.pool.names[i]),
            (r.fit.ratings[i] * 10.0 + 0.5).floor() / 10.0,
            r.error(i)
                .map(|e| format!("{:.1}", (e * 10.0 + 0.5).floor() / 10.0))
                .unwrap_or_else(|| "----".into()),
            100.0 * pts / games as f64,
            cfs[k]
                .map(|c| format!("{:.0}", 100.0 * c))
                .unwrap_or_else(|| "---".into()),
            wdl[i][0],
            wdl[i][1],
            wdl[i][2],
        ));
    }
    h.push_str("</table>\n");
    h
}

/// The ratings as dots with their error bars, best at the top.
fn error_bars(r: &Rating) -> String {
    let rows = r.order.len();
    let (w, left, right, top, row_h) = (720.0, 160.0, 40.0, 20.0, 26.0);
    let height = top * 2.0 + row_h * rows as f64 + 20.0;
    let span = |i: usize| {
        let e = r.error(i).unwrap_or(0.0);
        (r.fit.ratings[i] - e, r.fit.ratings[i] + e)
    };
    let lo = r
        .order
        .iter()
        .map(|&i| span(i).0)
        .fold(f64::INFINITY, f64::min);
    let hi = r
        .order
        .iter()
        .map(|&i| span(i).1)
        .fold(f64::NEG_INFINITY, f64::max);
    let pad = ((hi - lo) * 0.05).max(10.0);
    let (lo, hi) = (lo - pad, hi + pad);
    let x = |v: f64| left + (v - lo) / (hi - lo) * (w - left - right);
    let mut s = format!(
        "<h2>Ratings with error bars</h2>\n<svg id=\"error-bars\" xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\">\n"
    );
    // Grid lines at round values.
    let step = nice_step((hi - lo) / 6.0);
    let mut v = (lo / step).ceil() * step;
    while v <= hi {
        s.push_str(&format!(
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{0:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">{v:.0}</text>\n",
            x(v),
            height - 30.0,
            height - 12.0
        ));
        v += step;
    }
    for (k, &i) in r.order.iter().enumerate() {
        let y = top + row_h * (k as f64 + 0.5);
        let (a, b) = span(i);
        let c = PALETTE[k % PALETTE.len()];
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{c}\" stroke-width=\"3\"/>\
             <circle class=\"rating-dot\" data-name=\"{}\" data-rating=\"{:.1}\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"{c}\"/>\n",
            left - 8.0,
            y + 4.0,
            esc(&r.pool.names[i]),
            x(a),
            x(b),
            esc(&r.pool.names[i]),
            r.fit.ratings[i],
            x(r.fit.ratings[i]),
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// A round step (1, 2 or 5 times a power of ten) near `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

/// Background colour of a score fraction: red (0) through white (½) to green (1).
fn score_colour(f: f64) -> String {
    let f = f.clamp(0.0, 1.0);
    let (r, g, b) = if f < 0.5 {
        let t = f / 0.5;
        (230.0 + 25.0 * t, 120.0 + 135.0 * t, 120.0 + 135.0 * t)
    } else {
        let t = (f - 0.5) / 0.5;
        (255.0 - 135.0 * t, 255.0 - 35.0 * t, 255.0 - 135.0 * t)
    };
    format!("rgb({:.0},{:.0},{:.0})", r, g, b)
}

/// The cross table, each cell the row's points against the column over the games,
/// coloured by the score.
fn cross_table(r: &Rating) -> String {
    let cross = r.pool.cross();
    let mut h = String::from(
        "<h2>Cross table</h2>\n<table id=\"cross\"><tr><th>#</th><th class=\"name\">Player</th>",
    );
    for k in 0..r.order.len() {
        h.push_str(&format!("<th>{}</th>", k + 1));
    }
    h.push_str("</tr>\n");
    for (k, &a) in r.order.iter().enumerate() {
        h.push_str(&format!(
            "<tr><td>{}</td><td class=\"name\">{}</td>",
            k + 1,
            esc(&r.pool.names[a])
        ));
        for &b in &r.order {
            if a == b {
                h.push_str("<td>-</td>");
                continue;
            }
            let (lo, hi) = (a.min(b), a.max(b));
            match cross.get(&(lo, hi)) {
                Some(&(pts, games)) => {
                    let mine = if a == lo { pts } else { games as f64 - pts };
                    h.push_str(&format!(
                        "<td style=\"background:{}\" title=\"{} against {}\">{}/{}</td>",
                        score_colour(mine / games as f64),
                        esc(&r.pool.names[a]),
                        esc(&r.pool.names[b]),
                        if mine.fract() == 0.0 {
                            format!("{mine:.0}")
                        } else {
                            format!("{mine:.1}")
                        },
                        games
                    ));
                }
                None => h.push_str("<td>.</td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    h
}

/// A line chart frame: axes, ticks and labels; returns the SVG head and the mapping.
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    x_max: f64,
    y_lo: f64,
    y_hi: f64,
}

impl Frame {
    fn x(&self, v: f64) -> f64 {
        self.left + v / self.x_max.max(1.0) * (self.w - self.left - self.right)
    }

    fn y(&self, v: f64) -> f64 {
        self.h
            - self.bottom
            - (v - self.y_lo) / (self.y_hi - self.y_lo) * (self.h - self.top - self.bottom)
    }

    fn head(&self, id: &str, x_label: &str, y_label: &str) -> String {
        let mut s = format!(
            "<svg id=\"{id}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
            self.w, self.h
        );
        let ystep = nice_step((self.y_hi - self.y_lo) / 5.0);
        let mut v = (self.y_lo / ystep).ceil() * ystep;
        while v <= self.y_hi + 1e-9 {
            let (x1, yv, x2, tx, ty) = (
                self.left,
                self.y(v),
                self.w - self.right,
                self.left - 6.0,
                self.y(v) + 4.0,
            );
            let label = if ystep < 1.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.0}")
            };
            s.push_str(&format!(
                "<line x1=\"{x1:.1}\" y1=\"{yv:.1}\" x2=\"{x2:.1}\" y2=\"{yv:.1}\" stroke=\"#ddd\"/><text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\">{label}</text>\n"
            ));
            v += ystep;
        }
        let xstep = nice_step(self.x_max / 6.0).max(1.0);
        let mut v = 0.0;
        while v <= self.x_max + 1e-9 {
            s.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{v:.0}</text>\n",
                self.x(v),
                self.h - self.bottom + 16.0
            ));
            v += xstep;
        }
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x_label}</text>\
             <text x=\"14\" y=\"{:.1}\" transform=\"rotate(-90 14 {:.1})\" text-anchor=\"middle\">{y_label}</text>\n",
            (self.left + self.w - self.right) / 2.0,
            self.h - 4.0,
            self.h / 2.0,
            self.h / 2.0
        ));
        s
    }
}

/// Each engine's score (%) against the games it has played, in the games' order.
fn score_chart(r: &Rating, seq: &[(usize, usize, f64)]) -> String {
    let n = r.pool.names.len();
    let mut pts = vec![0.0; n];
    let mut games = vec![0u64; n];
    let mut lines: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
    for &(f, s, score) in seq {
        for (p, sc) in [(f, score), (s, 1.0 - score)] {
            pts[p] += sc;
            games[p] += 1;
            lines[p].push((games[p] as f64, 100.0 * pts[p] / games[p] as f64));
        }
    }
    let frame = Frame {
        w: 720.0,
        h: 320.0,
        left: 56.0,
        right: 140.0,
        top: 14.0,
        bottom: 40.0,
        x_max: *games.iter().max().unwrap_or(&1) as f64,
        y_lo: 0.0,
        y_hi: 100.0,
    };
    let mut s = String::from("<h2>Score against games played</h2>\n");
    s.push_str(&frame.head("score-chart", "games played", "score (%)"));
    for (k, &i) in r.order.iter().enumerate() {
        let c = PALETTE[k % PALETTE.len()];
        let points: Vec<String> = lines[i]
            .iter()
            .map(|&(g, v)| format!("{:.1},{:.1}", frame.x(g), frame.y(v)))
            .collect();
        s.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\" points=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" fill=\"{c}\">{}</text>\n",
            points.join(" "),
            frame.w - frame.right + 6.0,
            frame.top + 14.0 * (k as f64 + 1.0),
            esc(&r.pool.names[i])
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// The SPRT's LLR after each game, with its two bounds.
fn llr_chart(llr: &[f64], lo: f64, hi: f64) -> String {
    let y_lo = llr.iter().copied().fold(lo, f64::min) - 0.2;
    let y_hi = llr.iter().copied().fold(hi, f64::max) + 0.2;
    let frame = Frame {
        w: 720.0,
        h: 300.0,
        left: 56.0,
        right: 40.0,
        top: 14.0,
        bottom: 40.0,
        x_max: llr.len() as f64,
        y_lo,
        y_hi,
    };
    let mut s = String::from("<h2>SPRT: log-likelihood ratio against games</h2>\n");
    s.push_str(&frame.head("llr-chart", "games", "LLR"));
    for (b, label) in [(lo, "H0"), (hi, "H1")] {
        let (x1, yb, x2, tx, ty) = (
            frame.left,
            frame.y(b),
            frame.w - frame.right,
            frame.left + 4.0,
            frame.y(b) - 4.0,
        );
        s.push_str(&format!(
            "<line x1=\"{x1:.1}\" y1=\"{yb:.1}\" x2=\"{x2:.1}\" y2=\"{yb:.1}\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\
             <text x=\"{tx:.1}\" y=\"{ty:.1}\" fill=\"#d62728\">{label} {b:.2}</text>\n"
        ));
    }
    let mut points = vec![format!("{:.1},{:.1}", frame.x(0.0), frame.y(0.0))];
    points.extend(
        llr.iter()
            .enumerate()
            .map(|(k, &v)| format!("{:.1},{:.1}", frame.x(k as f64 + 1.0), frame.y(v))),
    );
    s.push_str(&format!(
        "<polyline id=\"llr-line\" data-last=\"{:.2}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/>\n</svg>\n",
        llr.last().copied().unwrap_or(0.0),
        points.join(" ")
    ));
    s
}
