//! One game: the referee that plays it (checking every move with our own rules), the
//! openings it starts from, and the PGN and EPD it is written as.

pub mod epd;
pub mod openings;
pub mod pgn;
pub mod referee;
