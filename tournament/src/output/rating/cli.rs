//! `tournament rate [OPTIONS] FILE|DIR…`: the rating list of one or more runs.

use super::input::{self, Convention};
use super::model::{Param, Reference, Settings};
use std::path::PathBuf;

/// The option summary.
pub fn help() -> &'static str {
    "usage: tournament rate [OPTIONS] FILE|DIR...

Ratings by maximum likelihood over all games at once (the logistic Elo model, as Ordo
computes them), from results files (*.jsonl, read exactly), PGN files, or run
directories (their *.jsonl files; without any, their *.pgn files); several at once.

  anchor=NAME:RATING   NAME at RATING (Ordo's -A NAME -a RATING)
  average=RATING       the pool's average (players without a perfect score; default 0)
  -a RATING, -A NAME   Ordo's spelling of the two above
  -W | white=fit       fit the first mover's (White's) advantage   -w ELO | white=ELO  fix it (default 0)
  -D | draw=fit        fit the draw rate of equal opponents        -d PCT | draw=PCT   fix it (default 50)
  -s N | sims=N        simulations for the error bars (default 1000; 0: none)
  -z ELO               Elo difference for a 76 % score (default 200.24, the Elo formula; Ordo's default 202)
  -F PCT               confidence of the error bars (default 95)
  --seed N             seed of the simulations (default 1)
  --pgn auto|ataxx|chess  which tag names the first mover in PGN: auto (default) reads
                       the Variant tag: ataxx, loa, reversi, othello: Black; else White
  -o FILE              the text report to FILE (default: stdout)
  -c FILE              Ordo's CSV to FILE
  --json FILE          JSON to FILE
  --html FILE          a self-contained HTML page to FILE
  --format text|csv|json  what goes to stdout when -o is not given (default text)
"
}

/// What `tournament rate` was asked to do.
#[derive(Debug)]
struct Args {
    files: Vec<PathBuf>,
    settings: Settings,
    convention: Convention,
    text: Option<PathBuf>,
    csv: Option<PathBuf>,
    json: Option<PathBuf>,
    html: Option<PathBuf>,
    format: String,
}

fn number(opt: &str, v: Option<&String>) -> Result<f64, String> {
    let v = v.ok_or_else(|| format!("{opt} needs a value"))?;
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{opt}: '{v}' is not a number"))
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut p = Parser {
        a: Args {
            files: Vec::new(),
            settings: Settings::default(),
            convention: Convention::Auto,
            text: None,
            csv: None,
            json: None,
            html: None,
            format: "text".into(),
        },
        anchor_name: None,
        value: None,
    };
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w.starts_with('-') && w.len() > 1 {
            if p.option(w, &mut it)? {
                return Ok(None);
            }
        } else {
            p.word(w)?;
        }
    }
    let mut a = p.a;
    a.settings.reference = match p.anchor_name {
        Some(n) => Reference::Anchor(n, p.value.unwrap_or(0.0)),
        None => Reference::Average(p.value.unwrap_or(0.0)),
    };
    if a.files.is_empty() {
        return Err("no files to rate (tournament rate -help)".into());
    }
    Ok(Some(a))
}

/// `tournament rate`'s arguments while they are read: the anchor's name and the
/// reference rating have several spellings each (`-A`/`-a`, `anchor=`, `average=`) and
/// make one [`Reference`] only at the end.
struct Parser {
    a: Args,
    anchor_name: Option<String>,
    value: Option<f64>,
}

impl Parser {
    /// One option (a word starting with `-`), its value taken from `it`; `Ok(true)`
    /// when it asks for the help.
    fn option(&mut self, w: &str, it: &mut std::slice::Iter<String>) -> Result<bool, String> {
        let a = &mut self.a;
        let s = &mut a.settings;
        match w {
            "-h" | "-help" | "--help" => return Ok(true),
            "-a" => self.value = Some(number("-a", it.next())?),
            "-A" => self.anchor_name = Some(it.next().ok_or("-A needs a name")?.clone()),
            "-W" => s.white = Param::Fitted,
            "-w" => s.white = Param::Fixed(number("-w", it.next())?),
            "-D" => s.draw = Param::Fitted,
            "-d" => s.draw = Param::Fixed(percent("-d", number("-d", it.next())?)? / 100.0),
            "-s" => s.simulations = count("-s", it.next())?,
            "-z" => {
                s.scale = number("-z", it.next())?;
                if s.scale <= 0.0 {
                    return Err("-z: the scale must be above 0".into());
                }
            }
            "-F" => {
                s.confidence = number("-F", it.next())?;
                if !(s.confidence > 0.0 && s.confidence < 100.0) {
                    return Err("-F: the confidence is a percentage between 0 and 100".into());
                }
            }
            "--seed" => s.seed = count("--seed", it.next())? as u64,
            "--pgn" => {
                let v = it.next().ok_or("--pgn needs auto, ataxx or chess")?;
                a.convention = Convention::parse(v)
                    .ok_or_else(|| format!("--pgn: '{v}' is not auto, ataxx or chess"))?;
            }
            "-o" => a.text = Some(it.next().ok_or("-o needs a file")?.into()),
            "-c" => a.csv = Some(it.next().ok_or("-c needs a file")?.into()),
            "--json" => a.json = Some(it.next().ok_or("--json needs a file")?.into()),
            "--html" => a.html = Some(it.next().ok_or("--html needs a file")?.into()),
            "--format" => {
                let v = it.next().ok_or("--format needs text, csv or json")?;
                if !["text", "csv", "json"].contains(&v.as_str()) {
                    return Err(format!("--format: '{v}' is not text, csv or json"));
                }
                a.format = v.clone();
            }
            _ => return Err(format!("unknown option '{w}' (tournament rate -help)")),
        }
        Ok(false)
    }

    /// A word that is no option: `KEY=VALUE` for a known key, else a file or directory
    /// (a word with `=` too, if such a path exists).
    fn word(&mut self, w: &str) -> Result<(), String> {
        let s = &mut self.a.settings;
        match w.split_once('=') {
            Some(("anchor", v)) => {
                let (name, rating) = v
                    .rsplit_once(':')
                    .ok_or_else(|| format!("anchor={v}: write anchor=NAME:RATING"))?;
                if name.is_empty() {
                    return Err(format!("anchor={v}: no name"));
                }
                self.anchor_name = Some(name.to_string());
                self.value = Some(number("anchor", Some(&rating.to_string()))?);
            }
            Some(("average", v)) => self.value = Some(number("average", Some(&v.to_string()))?),
            Some(("white", "fit")) => s.white = Param::Fitted,
            Some(("white", v)) => s.white = Param::Fixed(number("white", Some(&v.to_string()))?),
            Some(("draw", "fit")) => s.draw = Param::Fitted,
            Some(("draw", v)) => {
                s.draw =
                    Param::Fixed(percent("draw", number("draw", Some(&v.to_string()))?)? / 100.0)
            }
            Some(("sims", v)) => s.simulations = count("sims", Some(&v.to_string()))?,
            Some((k, _)) if !std::path::Path::new(w).exists() => {
                return Err(format!(
                    "unknown key '{k}' (anchor=, average=, white=, draw=, sims=)"
                ))
            }
            _ => self.a.files.push(w.into()),
        }
        Ok(())
    }
}

fn percent(opt: &str, x: f64) -> Result<f64, String> {
    if (0.0..=99.9).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{opt}: a draw rate is a percentage from 0 to 99.9"))
    }
}

fn count(opt: &str, v: Option<&String>) -> Result<u32, String> {
    let v = v.ok_or_else(|| format!("{opt} needs a value"))?;
    v.parse::<u32>()
        .map_err(|_| format!("{opt}: '{v}' is not a whole number"))
}

/// Runs `tournament rate` (the arguments after `rate`); the exit status: 0 done, 1 the
/// files could not be read or rated, 2 a bad command line.
pub fn main(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{}", help());
            return 0;
        }
        Err(e) => {
            eprintln!("tournament rate: {e}");
            return 2;
        }
    };
    match run(&a) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tournament rate: {e}");
            1
        }
    }
}

fn run(a: &Args) -> Result<(), String> {
    let loaded = input::load(&a.files, a.convention)?;
    for note in &loaded.notes {
        eprintln!("{note}");
    }
    let sequence = loaded.sequence;
    let rating = super::rate(loaded.pool, &a.settings)?;
    let text = super::output::text(&rating, false);
    let write = |path: &PathBuf, s: &str| {
        std::fs::write(path, s).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(p) = &a.csv {
        write(p, &super::output::csv(&rating))?;
    }
    if let Some(p) = &a.json {
        write(p, &format!("{:#}\n", super::output::json(&rating)))?;
    }
    if let Some(p) = &a.html {
        let names: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
        let extras = super::html::Extras {
            title: names.join(", "),
            sequence,
            llr: None,
        };
        write(p, &super::html::page(&rating, &extras))?;
    }
    match &a.text {
        Some(p) => write(p, &text)?,
        None => {
            let out = match a.format.as_str() {
                "csv" => super::output::csv(&rating),
                "json" => format!("{:#}\n", super::output::json(&rating)),
                _ => text,
            };
            print!("{out}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::words;

    #[test]
    fn options_parse_in_both_spellings() {
        let a = parse(&words("anchor=d1:1500 -W draw=fit -s 10 x.pgn"))
            .unwrap()
            .unwrap();
        assert_eq!(a.settings.reference, Reference::Anchor("d1".into(), 1500.0));
        assert_eq!(a.settings.white, Param::Fitted);
        assert_eq!(a.settings.draw, Param::Fitted);
        assert_eq!(a.settings.simulations, 10);
        assert_eq!(a.files, vec![PathBuf::from("x.pgn")]);
        let a = parse(&words("-A d1 -a 2300 -d 30 -w 12 x.jsonl"))
            .unwrap()
            .unwrap();
        assert_eq!(a.settings.reference, Reference::Anchor("d1".into(), 2300.0));
        assert_eq!(a.settings.draw, Param::Fixed(0.3));
        assert_eq!(a.settings.white, Param::Fixed(12.0));
    }

    #[test]
    fn bad_options_say_what_is_wrong() {
        for (line, says) in [
            ("x.pgn -s many", "'many' is not a whole number"),
            ("x.pgn anchor=d1", "anchor=NAME:RATING"),
            ("x.pgn -d 120", "percentage from 0 to 99.9"),
            ("x.pgn --pgn go", "not auto, ataxx or chess"),
            ("x.pgn -q", "unknown option '-q'"),
            ("x.pgn colour=red", "unknown key 'colour'"),
            ("-W", "no files to rate"),
        ] {
            let e = parse(&words(line)).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }
}
