//! The `reversi` binary's own part ([`BINARY`], registered in [`crate::variant`]):
//! `reversi solve [--staged] FILE`, the exact (or staged) solver over OBF positions,
//! driving `games::reversi::solve`.

use super::{Binary, Opt, OwnCommand};

/// The `reversi` binary's own part: `reversi solve FILE`.
pub const BINARY: Binary = Binary {
    options: &[Opt {
        name: "--staged",
        value: None,
        help: "solve: solve in stages (probcut rounds, win/loss/draw, exact), a line per round",
    }],
    usage: &["solve [--staged] FILE    (OBF positions, one a line)"],
    command: |p| {
        Ok(match p.words.first().map(String::as_str) {
            Some("solve") => {
                let args = p.words[1..].to_vec();
                let staged = p.has("--staged");
                Some(Box::new(move || solve(&args, staged)) as OwnCommand)
            }
            _ if p.has("--staged") => return Err("--staged is for `reversi solve`".into()),
            _ => None,
        })
    },
};

/// `reversi solve [--staged] FILE`: one line per OBF position (`;` and `#` lines are
/// comments), `N OBF empties E move M score S nodes N time MS`, or with `--staged` one
/// per round of the staged solve; exit 2 on a bad command line,
/// an unreadable file or a bad position (nothing solved then).
fn solve(args: &[String], staged: bool) -> u8 {
    let [file] = args else {
        eprintln!("reversi: usage: reversi solve [--staged] FILE (OBF positions, one a line)");
        return 2;
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("reversi: cannot read {file}: {e}");
            return 2;
        }
    };
    // `;` at the start of a line is a comment too (it keeps the line numbers).
    let text: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with(';') {
                ""
            } else {
                l
            }
        })
        .flat_map(|l| [l, "\n"])
        .collect();
    let mut out = std::io::stdout().lock();
    match crate::games::reversi::solve::solve_obf(&text, &mut out, staged) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("reversi: {file}: {e}");
            2
        }
    }
}
