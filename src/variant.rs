//! The one list of games, each with the course text dialects (editions) it is played
//! through, and the names of its rule sets.
//!
//! Tools that pick a game at run time (the binaries, the tournament runner's `-variant`
//! and `-rules`, the tuner, the test suites) go through [`Variant`] and [`Dialect`],
//! which the one `registry!` table below generates: adding a game is its rules folder,
//! its dialect and one entry there; adding an edition of a game's text language (Ataxx's
//! 2008 one) is its dialect file and one line in its game's entry.

use crate::game::{GameIo, RuleSet};
use crate::games;
use crate::protocol::cli::{self, Binary};
use crate::protocol::text::{self, Codec, TextCodec, TextDialect};

pub use crate::protocol::text::Playable;

/// A game as the drivers that are generic over the game alone see it (the tournament
/// runner, its compliance check, the tuner): its rules type, and what its registry entry
/// says of it; its text language, if it has one, as a value. The registry implements it
/// for each of its games; a game outside it (the test kit's tic-tac-toe) may too.
pub trait Registered: GameIo {
    /// An 8×8 Othello board: the Othello-only engine protocols (NBoard, GTP) serve it.
    const OTHELLO: bool;
    /// Its text dialects' codecs, the default first; none for a game without a course
    /// language.
    fn text_codecs() -> &'static [&'static dyn TextCodec<Self>];

    /// Its dialects' codecs, each with the name `-rules` and the records give the rules
    /// its games are judged by: the rule set's own name ([`RuleSet::name`]), or the
    /// edition's where an earlier dialect plays by the same rules (Ataxx's 2022
    /// edition plays by the 2016 rules: a run judged as `2022` drives its dialect).
    fn named_codecs() -> Vec<(&'static str, &'static dyn TextCodec<Self>)> {
        let all = Self::text_codecs();
        let named = |(i, &c): (usize, &&'static dyn TextCodec<Self>)| {
            let shared = all[..i].iter().any(|e| e.rules() == c.rules());
            match c.edition() {
                Some(edition) if shared => (edition, c),
                _ => (c.rules().name(), c),
            }
        };
        all.iter().enumerate().map(named).collect()
    }

    /// The rules called `name` and their name as `-rules` and the records write it:
    /// `engine`, `uai` and `ugi` name the engine protocols' rules, `text` those of the
    /// default dialect, an edition's name (Ataxx's `2016`, `2022`) its dialect's, any
    /// other word a rule set of the game's own. `None` for a name the game does not know.
    fn rules_named(name: &str) -> Option<(Self::Rules, &'static str)> {
        let engine = Self::Rules::ENGINE;
        let codecs = Self::named_codecs();
        let codec = match name {
            "engine" | "uai" | "ugi" => return Some((engine, engine.name())),
            "text" => codecs.first(),
            _ => codecs
                .iter()
                .find(|&&(n, c)| n == name || c.edition() == Some(name)),
        };
        match codec {
            Some(&(n, c)) => Some((c.rules(), n)),
            None => Self::Rules::from_name(name).map(|r| (r, r.name())),
        }
    }

    /// The text dialect whose games are judged by the rules called `name` (as
    /// [`Registered::rules_named`] names them), else the default: the one a run judged
    /// by those rules drives its text engines in. `None`: no text language.
    fn text_codec(name: Option<&str>) -> Option<&'static dyn TextCodec<Self>> {
        let all = Self::named_codecs();
        let found = all.iter().find(|&&(n, _)| Some(n) == name);
        found.or(all.first()).map(|&(_, c)| c)
    }
}

/// Something to do with whichever game was chosen at run time, by its rules type.
pub trait GameVisitor {
    /// What it returns.
    type Output;
    /// Does it for game `G`.
    fn visit<G: Registered>(self) -> Self::Output;
}

/// Something to do with whichever game and text dialect was chosen at run time: the
/// front ends that speak the course language (the binaries, the board page).
pub trait VariantVisitor {
    /// What it returns.
    type Output;
    /// Does it for the game whose dialect is `D`.
    fn visit<D: Playable>(self) -> Self::Output;
}

/// The registry: every game this build knows, once, with its binary's own part and its
/// course text dialects (the default, which its binary speaks without `--edition`,
/// first), each with its edition's name where the game has several. This is the one
/// place that names every game: the binaries, the runner, the tuner and the test suites
/// reach the games through [`Variant`] and [`Dialect`], generated from it.
macro_rules! registry {
    ($(
        $(#[$game_doc:meta])*
        $game:ident { game: $game_ty:ty, othello: $othello:literal, binary: $binary:path, dialects: [$(
            $(#[$dialect_doc:meta])*
            $dialect:ident: $ty:ty $(, edition $edition:literal)?;
        )+] }
    )+) => {
        /// The games this build knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Variant {
            $($(#[$game_doc])* $game,)+
        }

        /// A course text dialect: one edition of one game's text language.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Dialect {
            $($($(#[$dialect_doc])* $dialect,)+)+
        }

        impl Variant {
            /// Every game, in the order help texts list them.
            pub const ALL: &'static [Variant] = &[$(Variant::$game),+];

            /// The game's text dialects, its default (what its binary speaks without
            /// `--edition`) first.
            pub fn dialects(self) -> &'static [Dialect] {
                match self {
                    $(Variant::$game => &[$(Dialect::$dialect),+],)+
                }
            }

            /// What the game's binary has of its own.
            pub fn binary(self) -> &'static Binary {
                match self {
                    $(Variant::$game => &$binary,)+
                }
            }

            /// Runs `visitor` with this game's rules type.
            pub fn visit_game<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(Variant::$game => visitor.visit::<$game_ty>(),)+
                }
            }
        }

        $(
            impl Registered for $game_ty {
                const OTHELLO: bool = $othello;
                fn text_codecs() -> &'static [&'static dyn TextCodec<Self>] {
                    const CODECS: &[&dyn TextCodec<$game_ty>] =
                        &[$(&Codec::<$ty>::new(registry!(@edition $($edition)?))),+];
                    CODECS
                }
            }
        )+

        impl Dialect {
            /// Every dialect, each game's default first.
            pub const ALL: &'static [Dialect] = &[$($(Dialect::$dialect),+),+];

            /// The game it is a dialect of.
            pub fn variant(self) -> Variant {
                match self {
                    $($(Dialect::$dialect => Variant::$game,)+)+
                }
            }

            /// The edition's name, for games with more than one (`ataxx --edition 2008`).
            pub fn edition(self) -> Option<&'static str> {
                match self {
                    $($(Dialect::$dialect => registry!(@edition $($edition)?),)+)+
                }
            }

            /// Runs `visitor` with this dialect's types.
            pub fn visit<V: VariantVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $($(Dialect::$dialect => visitor.visit::<$ty>(),)+)+
                }
            }
        }
    };
    (@edition) => { None };
    (@edition $edition:literal) => { Some($edition) };
}

registry! {
    Ataxx {
        game: games::ataxx::Position,
        othello: false,
        binary: Binary::PLAIN,
        dialects: [
            /// `ataxx.txt`, the 2016 edition (the `ataxx` binary's default).
            Ataxx2016: text::ataxx::AtaxxText, edition "2016";
            /// `ataxx-2008.txt` (`ataxx --edition 2008`): 45 consecutive jumps end a game.
            Ataxx2008: text::ataxx2008::Ataxx2008, edition "2008";
            /// CS61B's Spring 2022 Ataxx (`ataxx --edition 2022`): no set-up state, `undo`.
            Ataxx2022: text::ataxx2022::Ataxx2022, edition "2022";
        ]
    }
    Loa {
        game: games::loa::position::Position,
        othello: false,
        binary: cli::loa::BINARY,
        dialects: [
            /// `loa.txt`.
            Loa: text::loa::LoaText;
        ]
    }
    Reversi {
        game: games::reversi::Position,
        othello: true,
        binary: cli::reversi::BINARY,
        dialects: [
            /// `reversi.txt`.
            Reversi: text::reversi::ReversiText;
        ]
    }
}

impl Variant {
    /// The game's default dialect.
    pub fn dialect(self) -> Dialect {
        self.dialects()[0]
    }

    /// Runs `visitor` with this game's types, through its default dialect.
    pub fn visit<V: VariantVisitor>(self, visitor: V) -> V::Output {
        self.dialect().visit(visitor)
    }

    /// The game's name (`ataxx`, ...), as `-variant` takes it.
    pub fn name(self) -> &'static str {
        struct Name;
        impl GameVisitor for Name {
            type Output = &'static str;
            fn visit<G: Registered>(self) -> &'static str {
                G::NAME
            }
        }
        self.visit_game(Name)
    }

    /// The game called `name`, if this build knows it.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.iter().copied().find(|v| v.name() == name)
    }

    /// The names of the game's rule sets ([`RuleSet::name`]: `engine`, `text`, `2008`).
    pub fn rule_sets(self) -> Vec<&'static str> {
        struct Names;
        impl GameVisitor for Names {
            type Output = Vec<&'static str>;
            fn visit<G: Registered>(self) -> Vec<&'static str> {
                let mut names: Vec<&str> = G::Rules::ALL.iter().map(|r| r.name()).collect();
                for (name, _) in G::named_codecs() {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                names
            }
        }
        self.visit_game(Names)
    }

    /// The rules `name` names in this game, by the name `-rules` and the records give
    /// them ([`Registered::rules_named`]): `engine`, `uai` and `ugi` name the engine
    /// protocols' rules, `text` those of the default dialect, an edition's name its
    /// dialect's (Ataxx's `2016` is `text`, `2022` is `2022`), any other word a rule set
    /// of the game's own. `None` for a name the game does not know.
    pub fn rules_named(self, name: &str) -> Option<&'static str> {
        struct Named<'a>(&'a str);
        impl GameVisitor for Named<'_> {
            type Output = Option<&'static str>;
            fn visit<G: Registered>(self) -> Option<&'static str> {
                G::rules_named(self.0).map(|(_, name)| name)
            }
        }
        self.visit_game(Named(name))
    }

    /// The dialect that plays by the rule set called `rules` (a name from
    /// [`Variant::rules_named`]), else the default: the one a run judged by those rules
    /// drives its text engines in.
    pub fn dialect_for(self, rules: Option<&str>) -> Dialect {
        self.dialects()
            .iter()
            .copied()
            .find(|d| Some(d.rules_name()) == rules)
            .unwrap_or(self.dialect())
    }
}

impl Dialect {
    /// True when its text language plays remote games ([`TextDialect::REMOTE_PLAY`]).
    pub fn remote_play(self) -> bool {
        struct Remote;
        impl VariantVisitor for Remote {
            type Output = bool;
            fn visit<D: Playable>(self) -> bool {
                <D as TextDialect>::REMOTE_PLAY
            }
        }
        self.visit(Remote)
    }

    /// The name `-rules` and the records give the rules its games are judged by
    /// ([`Registered::named_codecs`]).
    pub fn rules_name(self) -> &'static str {
        struct NameAt(usize);
        impl GameVisitor for NameAt {
            type Output = &'static str;
            fn visit<G: Registered>(self) -> &'static str {
                G::named_codecs()[self.0].0
            }
        }
        let variant = self.variant();
        let at = variant.dialects().iter().position(|&d| d == self);
        variant.visit_game(NameAt(at.expect("a dialect is listed under its game")))
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, GameVisitor, Registered, Variant};
    use crate::game::RuleSet;

    /// Each game's entry hands out one codec per dialect, in the dialects' order, each
    /// playing by its dialect's rules; a rule set no dialect plays by gets the default.
    #[test]
    fn each_games_codecs_are_its_dialects() {
        struct Codecs;
        impl GameVisitor for Codecs {
            type Output = (Vec<&'static str>, &'static str);
            fn visit<G: Registered>(self) -> Self::Output {
                let names = G::named_codecs().iter().map(|&(n, _)| n).collect();
                let engine = G::text_codec(Some(G::Rules::ENGINE.name())).expect("a text language");
                (
                    names,
                    G::rules_named(engine.rules().name()).expect("known").1,
                )
            }
        }
        for &v in Variant::ALL {
            let (names, for_engine) = v.visit_game(Codecs);
            let want: Vec<&str> = v.dialects().iter().map(|d| d.rules_name()).collect();
            assert_eq!(names, want, "{v:?}");
            // Reversi's one rule set is its engine rules and its text rules.
            assert_eq!(
                for_engine,
                v.dialect_for(Some("engine")).rules_name(),
                "{v:?}"
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for &v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
        }
        assert_eq!(Variant::from_name("chess"), None);
    }

    /// Every dialect is listed under its game, the default first; every rule set's name
    /// reads back to itself, and each dialect is the one its own rules pick.
    #[test]
    fn dialects_and_rule_sets_round_trip() {
        for &d in Dialect::ALL {
            assert!(d.variant().dialects().contains(&d), "{d:?}");
            assert_eq!(d.variant().dialect_for(Some(d.rules_name())), d);
        }
        for &v in Variant::ALL {
            assert_eq!(v.dialects()[0], v.dialect());
            assert_eq!(v.dialect_for(None), v.dialect());
            for name in v.rule_sets() {
                assert_eq!(v.rules_named(name), Some(name), "{v:?} {name}");
            }
            for word in ["engine", "uai", "ugi", "text"] {
                assert!(v.rules_named(word).is_some(), "{v:?} {word}");
            }
            assert_eq!(v.rules_named("1999"), None);
        }
        assert_eq!(
            Variant::Ataxx.rule_sets(),
            ["engine", "text", "2008", "2022"]
        );
        assert_eq!(Variant::Ataxx.rules_named("2016"), Some("text"));
        assert_eq!(Variant::Ataxx.rules_named("uai"), Some("engine"));
        assert_eq!(Variant::Ataxx.dialect_for(Some("2008")), Dialect::Ataxx2008);
        // A run judged by the engine rules drives text engines in the default dialect.
        assert_eq!(
            Variant::Ataxx.dialect_for(Some("engine")),
            Dialect::Ataxx2016
        );
        assert_eq!(Variant::Loa.rule_sets(), ["engine", "text"]);
        assert_eq!(Variant::Reversi.rule_sets(), ["standard"]);
        assert_eq!(Variant::Reversi.rules_named("text"), Some("standard"));
        assert_eq!(Variant::Loa.rules_named("2008"), None);
    }
}
