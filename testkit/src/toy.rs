//! Tic-tac-toe, the proof that a game needs no course language: it implements only the
//! rules traits (`Game` and the contract above it, `engine::game`) and the registry's
//! [`Registered`] with no text dialect, and the generic parts run it unchanged: the UGI
//! session (`toy-ugi`, this crate's binary), perft, the runner's referee and its
//! compliance check, and the board page's view (`tournament/tests/toy.rs`). Nothing
//! outside the test kit names it.
//!
//! The board is three rows `a`–`c` of three files `1`–`3` (`a1` top left), cells
//! numbered 0–8 row by row; the first player (`x`) starts. A move is its cell's name;
//! there is no pass (the game ends before a side could have none). FEN: the three rows
//! top down, `x`, `o` or `-` a cell, `/` between rows, then the side to move (`x`/`o`).

use engine::game::{
    Benchmark, Diagram, Game, Notation, Outcome, Referee, RuleSet, Side, Square, Tunable,
};
use engine::protocol::text::TextCodec;
use engine::variant::Registered;

/// The game's one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToyRules {
    Standard,
}

impl RuleSet for ToyRules {
    const ALL: &'static [ToyRules] = &[ToyRules::Standard];
    const ENGINE: ToyRules = ToyRules::Standard;
    fn name(self) -> &'static str {
        "standard"
    }
}

/// A position: each cell empty (0), the first player's (1) or the second's (2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    cells: [u8; 9],
    to_move: Side,
}

/// The eight lines of three.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn mark(side: Side) -> u8 {
    side.index() as u8 + 1
}

impl TicTacToe {
    /// The side with three in a line, if any.
    fn winner(&self) -> Option<Side> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            let side = if c == 1 { Side::First } else { Side::Second };
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then_some(side)
        })
    }
}

impl Game for TicTacToe {
    type Move = u16;
    type Undo = ();
    type Rules = ToyRules;
    const HISTORY_SIZE: usize = 9;

    fn side_to_move(&self) -> Side {
        self.to_move
    }
    fn history_index(mv: u16) -> usize {
        usize::from(mv)
    }
    fn generate_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.winner().is_none() {
            out.extend((0..9u16).filter(|&c| self.cells[usize::from(c)] == 0));
        }
    }
    fn make_move(&mut self, mv: u16) {
        self.cells[usize::from(mv)] = mark(self.to_move);
        self.to_move = self.to_move.opponent();
    }
    fn unmake_move(&mut self, mv: u16, _undo: ()) {
        self.cells[usize::from(mv)] = 0;
        self.to_move = self.to_move.opponent();
    }
    fn hash(&self) -> u64 {
        // The base-3 number of the cells, the side to move in the low bit, mixed.
        let n = self.cells.iter().fold(0u64, |n, &c| n * 3 + u64::from(c));
        (n * 2 + self.to_move.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(side) => Some(Outcome::Win(side)),
            None if self.cells.iter().all(|&c| c != 0) => Some(Outcome::Draw),
            None => None,
        }
    }
    fn rule_set(&self) -> ToyRules {
        ToyRules::Standard
    }
    /// Lines still open to the side to move less those open to the other.
    fn evaluate(&self) -> i32 {
        let (own, opp) = (mark(self.to_move), mark(self.to_move.opponent()));
        let open = |m: u8, other: u8| {
            LINES
                .iter()
                .filter(|l| {
                    l.iter().all(|&c| self.cells[c] != other)
                        && l.iter().any(|&c| self.cells[c] == m)
                })
                .count() as i32
        };
        open(own, opp) - open(opp, own)
    }
    fn is_pass(&self, _mv: u16) -> bool {
        false
    }
}

/// A cell's name: `a1` … `c3`.
fn cell_name(c: u16) -> String {
    format!("{}{}", char::from(b'a' + (c / 3) as u8), c % 3 + 1)
}

impl Notation for TicTacToe {
    const NAME: &'static str = "tictactoe";

    fn startpos(_rules: ToyRules) -> Self {
        TicTacToe {
            cells: [0; 9],
            to_move: Side::First,
        }
    }
    fn from_fen(fen: &str, _rules: ToyRules) -> Result<Self, String> {
        let (board, side) = fen
            .trim()
            .split_once(' ')
            .ok_or_else(|| format!("'{fen}': rows, then the side to move"))?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 3) {
            return Err(format!("'{board}': three rows of three cells"));
        }
        let mut cells = [0u8; 9];
        for (i, ch) in rows.concat().chars().enumerate() {
            cells[i] = match ch {
                '-' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(format!("'{ch}' is no cell (x, o or -)")),
            };
        }
        let to_move = match side.trim() {
            "x" => Side::First,
            "o" => Side::Second,
            s => return Err(format!("'{s}' is no side (x or o)")),
        };
        Ok(TicTacToe { cells, to_move })
    }
    fn fen(&self) -> String {
        let cell = |c: &u8| ['-', 'x', 'o'][usize::from(*c)];
        let rows: Vec<String> = self
            .cells
            .chunks(3)
            .map(|r| r.iter().map(cell).collect())
            .collect();
        let side = if self.to_move == Side::First {
            "x"
        } else {
            "o"
        };
        format!("{} {side}", rows.join("/"))
    }
    fn parse_move(&self, text: &str) -> Option<u16> {
        let b = text.as_bytes();
        let [row @ b'a'..=b'c', file @ b'1'..=b'3'] = b else {
            return None;
        };
        let c = u16::from(row - b'a') * 3 + u16::from(file - b'1');
        self.is_legal(c).then_some(c)
    }
    fn move_name(&self, mv: u16) -> String {
        cell_name(mv)
    }
    fn pretty(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .chunks(3)
            .map(|r| {
                r.iter()
                    .map(|&c| ['.', 'x', 'o'][usize::from(c)].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join("\n")
    }
    fn end_reason(&self) -> String {
        match self.winner() {
            Some(_) => "three in a line".into(),
            None => "board full".into(),
        }
    }
}

/// Rows `a`–`c` from the top, files `1`–`3`; a move places a mark.
impl Diagram for TicTacToe {
    const WIDTH: usize = 3;
    const HEIGHT: usize = 3;

    fn labels() -> (String, Vec<String>) {
        ("123".into(), ["a", "b", "c"].map(String::from).to_vec())
    }
    fn square(&self, index: usize) -> Square {
        match self.cells[index] {
            0 => Square::Empty,
            c => Square::Piece(if c == 1 { Side::First } else { Side::Second }),
        }
    }
    fn move_squares(&self, mv: u16) -> Option<(Option<usize>, usize)> {
        Some((None, usize::from(mv)))
    }
}

impl Benchmark for TicTacToe {
    const BENCH_DEPTH: u32 = 9;
    fn bench_positions() -> Vec<Self> {
        vec![TicTacToe::startpos(ToyRules::Standard)]
    }
    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for mv in moves {
            self.make_move(mv);
            n += self.perft(depth - 1);
            self.unmake_move(mv, ());
        }
        n
    }
}

impl Tunable for TicTacToe {}
impl Referee for TicTacToe {}

impl Registered for TicTacToe {
    const OTHELLO: bool = false;
    /// No course language.
    fn text_codecs() -> &'static [&'static dyn TextCodec<Self>] {
        &[]
    }
}
