//! Front ends: each protocol parses its command lines into typed commands, drives the
//! engine facade, and formats its reports. Nothing here knows how the search works.
//!
//! - [`text`]: the `ataxx.txt` command language (the default).
//! - [`uai`]: the Universal Ataxx Interface, chosen when the first command is `uai`.
//! - [`input`]: the stdin reader thread both share.

pub mod input;
pub mod text;
pub mod uai;

use std::io::Write;

/// Writes one line and flushes, so a peer process sees it at once. A closed stdout
/// (the peer went away) is not an error worth crashing for.
pub fn emit(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
