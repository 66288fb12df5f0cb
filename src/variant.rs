//! The one list of games, with the course text dialect each is played through.
//!
//! Tools that pick a game at run time (the tournament runner's `-variant`, the tuner)
//! go through [`Variant`], so adding a game touches its rules folder, its dialect and
//! one line here.

use crate::game::Notation;
use crate::protocol::text::{self, TextDialect, TextProtocol};

/// Everything a game offers the layers above the search, as one bound: its rules and
/// notation ([`crate::game::GameIo`]) through its course text dialect, which also knows how its
/// lines are driven from outside.
pub trait Playable: TextDialect + TextProtocol<Game = <Self as TextDialect>::Game> {}

impl<D> Playable for D where D: TextDialect + TextProtocol<Game = <D as TextDialect>::Game> {}

/// Something to do with whichever game was chosen at run time.
pub trait VariantVisitor {
    /// What it returns.
    type Output;
    /// Does it for the game whose dialect is `D`.
    fn visit<D: Playable>(self) -> Self::Output;
}

/// The games this build knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Ataxx,
    Loa,
    Reversi,
}

impl Variant {
    /// Every game, in the order help texts list them.
    pub const ALL: &'static [Variant] = &[Variant::Ataxx, Variant::Loa, Variant::Reversi];

    /// Runs `visitor` with this game's types.
    pub fn visit<V: VariantVisitor>(self, visitor: V) -> V::Output {
        match self {
            Variant::Ataxx => visitor.visit::<text::ataxx::AtaxxText>(),
            Variant::Loa => visitor.visit::<text::loa::LoaText>(),
            Variant::Reversi => visitor.visit::<text::reversi::ReversiText>(),
        }
    }

    /// The game's name (`ataxx`, ...), as `-variant` takes it.
    pub fn name(self) -> &'static str {
        struct Name;
        impl VariantVisitor for Name {
            type Output = &'static str;
            fn visit<D: Playable>(self) -> &'static str {
                <D as TextDialect>::Game::NAME
            }
        }
        self.visit(Name)
    }

    /// The game called `name`, if this build knows it.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.iter().copied().find(|v| v.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Variant;

    #[test]
    fn names_round_trip() {
        for &v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
        }
        assert_eq!(Variant::from_name("chess"), None);
    }
}
