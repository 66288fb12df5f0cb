//! What the crate's unit tests share.

/// A command line's words from one string split at blanks: the tests of the parsers
/// (`cli`, `-shard`, `merge`, `rate`) write their arguments as a user types them.
pub(crate) fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}
