//! One engine from its `key=value` words (`-engine`, `-each`, `tournament compliance`'s
//! engine words) into an [`EngineSpec`]: what it is, its limits, its options.
//!
//! The command line ([`crate::cli`]) and the compliance checker ([`crate::compliance`])
//! both read engines this way; neither needs the other for it.

use crate::engines::player::{BuiltinKind, EngineKind, EngineSpec, Limits, Proto, TimeControl};
use crate::engines::process::Launch;
use std::path::PathBuf;

pub(crate) fn parse_num<T: std::str::FromStr>(what: &str, s: &str) -> Result<T, String> {
    s.parse::<T>()
        .map_err(|_| format!("{what}: '{s}' is not a valid number"))
}

fn parse_seconds_ms(what: &str, s: &str) -> Result<u64, String> {
    let secs = if let Some((m, sec)) = s.split_once(':') {
        parse_num::<f64>(what, m)? * 60.0 + parse_num::<f64>(what, sec)?
    } else {
        parse_num::<f64>(what, s)?
    };
    if !secs.is_finite() || !(0.0..=1.0e7).contains(&secs) {
        return Err(format!("{what}: '{s}' is out of range"));
    }
    Ok((secs * 1000.0).round() as u64)
}

/// Parses `MOVES/TIME+INC`, `TIME+INC` or `TIME` (seconds, or `M:S`).
pub fn parse_tc(s: &str) -> Result<TimeControl, String> {
    let (moves, rest) = match s.split_once('/') {
        Some((m, r)) => {
            let m: u32 = parse_num("tc moves", m)?;
            if m == 0 {
                return Err("tc: moves per period must be positive".into());
            }
            (Some(m), r)
        }
        None => (None, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = parse_seconds_ms("tc", base)?;
    let inc_ms = match inc {
        Some(i) => parse_seconds_ms("tc increment", i)?,
        None => 0,
    };
    if base_ms == 0 && inc_ms == 0 {
        return Err(format!("tc: '{s}' gives no time"));
    }
    Ok(TimeControl {
        moves,
        base_ms,
        inc_ms,
    })
}

/// Splits `args="…"` into words, honouring simple single and double quotes.
fn split_args(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err("args: unbalanced quote".into());
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

pub(crate) fn key_value(word: &str, option: &str) -> Result<(String, String), String> {
    word.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("{option}: expected key=value, got '{word}'"))
}

/// One engine from its `key=value` words, as `-engine` takes them, without the limit a
/// run needs (`tournament compliance` plays no game: its steps set their own limits).
pub fn engine_spec(words: &[String]) -> Result<EngineSpec, String> {
    let words = words
        .iter()
        .map(|w| key_value(w, "engine"))
        .collect::<Result<Vec<_>, _>>()?;
    build_engine(0, &words, false)
}

/// Builds one engine from its `key=value` words (the `-each` words come first); a
/// process engine needs a limit when `need_limit`.
pub(crate) fn build_engine(
    index: usize,
    words: &[(String, String)],
    need_limit: bool,
) -> Result<EngineSpec, String> {
    let mut draft = EngineDraft::new();
    for (k, v) in words {
        draft.key(k, v)?;
    }
    draft.finish(index, need_limit)
}

/// One engine as its `key=value` words have set it so far.
struct EngineDraft {
    name: Option<String>,
    cmd: Option<String>,
    builtin: Option<BuiltinKind>,
    args: Vec<String>,
    dir: Option<PathBuf>,
    proto: Option<Proto>,
    options: Vec<(String, String)>,
    limits: Limits,
    init_timeout_ms: u64,
}

impl EngineDraft {
    fn new() -> EngineDraft {
        EngineDraft {
            name: None,
            cmd: None,
            builtin: None,
            args: Vec::new(),
            dir: None,
            proto: None,
            options: Vec::new(),
            limits: Limits {
                margin_ms: 50,
                ..Limits::default()
            },
            init_timeout_ms: 10_000,
        }
    }

    /// One `key=value` word: what the engine is, else a limit, else `option.NAME`.
    fn key(&mut self, k: &str, v: &str) -> Result<(), String> {
        match k {
            "name" if !v.is_empty() => self.name = Some(v.to_string()),
            "cmd" if !v.is_empty() => self.cmd = Some(v.to_string()),
            "args" => self.args = split_args(v)?,
            "dir" => self.dir = Some(PathBuf::from(v)),
            "proto" => self.proto = Some(parse_proto(v)?),
            "builtin" => {
                self.builtin =
                    Some(BuiltinKind::parse(v).ok_or_else(|| {
                        format!("builtin: unknown player '{v}' (random or greedy)")
                    })?)
            }
            _ => {
                if !self.limit_key(k, v)? {
                    self.option_key(k, v)?;
                }
            }
        }
        Ok(())
    }

    /// A limit or deadline key; `false` when `k` is none.
    fn limit_key(&mut self, k: &str, v: &str) -> Result<bool, String> {
        let limits = &mut self.limits;
        match k {
            "tc" => {
                limits.tc = if v == "inf" || v == "infinite" {
                    None
                } else {
                    Some(parse_tc(v)?)
                }
            }
            "st" => {
                let ms = parse_seconds_ms("st", v)?;
                if ms == 0 {
                    return Err("st: must be positive".into());
                }
                limits.movetime_ms = Some(ms);
            }
            // fastchess calls the depth limit `plies`.
            "depth" | "plies" => limits.depth = Some(parse_num(k, v)?),
            "nodes" => limits.nodes = Some(parse_num("nodes", v)?),
            "timemargin" => limits.margin_ms = parse_num("timemargin", v)?,
            "stop" => {
                if v != "ping" {
                    return Err(format!(
                        "stop={v}: only stop=ping (an NBoard engine told to move by a `ping` when st= runs out)"
                    ));
                }
                limits.stop_by_ping = true;
            }
            // fastchess: `restart=off` is what the runner does (a process per engine
            // and worker, restarted only after a fault of its own).
            "restart" => {
                if v != "off" {
                    return Err(format!(
                        "restart={v}: only restart=off (engines are restarted after a fault only)"
                    ));
                }
            }
            "inittimeout" => self.init_timeout_ms = parse_seconds_ms("inittimeout", v)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `option.NAME=VALUE` (the last value of a name counts), or an unknown key.
    fn option_key(&mut self, k: &str, v: &str) -> Result<(), String> {
        let Some(opt) = k.strip_prefix("option.") else {
            return Err(format!("-engine: unknown or empty key '{k}'"));
        };
        if opt.is_empty() {
            return Err("option.: missing option name".into());
        }
        self.options.retain(|(n, _)| n != opt);
        self.options.push((opt.to_string(), v.to_string()));
        Ok(())
    }

    /// The engine, once every word is in: `cmd=` or `builtin=`, and its name.
    fn finish(self, index: usize, need_limit: bool) -> Result<EngineSpec, String> {
        let limits = self.limits;
        let kind = match (self.cmd, self.builtin) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "engine {}: give cmd= or builtin=, not both",
                    index + 1
                ))
            }
            (None, None) => return Err(format!("engine {}: needs cmd= or builtin=", index + 1)),
            (None, Some(b)) => EngineKind::Builtin(b),
            (Some(cmd), None) => {
                let l = &limits;
                if need_limit
                    && l.tc.is_none()
                    && l.movetime_ms.is_none()
                    && l.depth.is_none()
                    && l.nodes.is_none()
                {
                    return Err(format!(
                        "engine {}: needs a limit: tc=, st=, depth= or nodes=",
                        index + 1
                    ));
                }
                EngineKind::Process {
                    launch: Launch {
                        cmd,
                        args: self.args,
                        dir: self.dir,
                        cpus: Vec::new(),
                    },
                    proto: self.proto,
                }
            }
        };
        Ok(EngineSpec {
            name: self.name.unwrap_or_else(|| default_name(&kind)),
            kind,
            options: self.options,
            limits,
            init_timeout_ms: self.init_timeout_ms,
        })
    }
}

/// `proto=`'s value.
fn parse_proto(v: &str) -> Result<Proto, String> {
    Ok(match v {
        "uai" => Proto::Uai,
        "ugi" => Proto::Ugi,
        "text" => Proto::Text,
        "nboard" => Proto::Nboard,
        "gtp" => Proto::Gtp,
        _ => {
            return Err(format!(
                "proto: unknown protocol '{v}' (uai, ugi, text, nboard or gtp)"
            ))
        }
    })
}

/// An engine's name without `name=`: the built-in's, or the command's file name.
fn default_name(kind: &EngineKind) -> String {
    match kind {
        EngineKind::Builtin(BuiltinKind::Random) => "random".into(),
        EngineKind::Builtin(BuiltinKind::Greedy) => "greedy".into(),
        EngineKind::Process { launch, .. } => std::path::Path::new(&launch.cmd)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| launch.cmd.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("40/60+0.6").unwrap(),
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            }
        );
        assert_eq!(parse_tc("10+0.1").unwrap().inc_ms, 100);
        assert_eq!(parse_tc("1:30").unwrap().base_ms, 90_000);
        for bad in ["", "x", "0/10", "10+", "-5", "0+0", "1e99", "NaN"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn args_are_split() {
        assert_eq!(
            split_args("-a 'b c' \"\" d").unwrap(),
            vec!["-a", "b c", "", "d"]
        );
        assert!(split_args("'x").is_err());
    }
}
