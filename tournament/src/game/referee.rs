//! The referee: plays one game between two players and trusts neither. Every move is
//! checked with our own rules, every answer has a hard deadline, and every way an
//! engine can fail ends the game with a recorded reason instead of stopping the run.

use crate::engines::player::{Eval, Fault, GameStart, Limits, MoveRequest, Player, Reply};
use crate::matchmaking::schedule::GameSpec;
use crate::output::results::{today, Ending, GameRecord, GameResult, MoveInfo, Score};
use engine::game::{Notation, Opening, Outcome, Referee, Side};
use std::time::{Duration, Instant};

/// `-adjudicate material=M plies=P`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Material lead that decides the game.
    pub material: i32,
    /// For how many consecutive plies the lead must hold.
    pub plies: u32,
}

/// `-draw movenumber=N movecount=M score=S` (cutechess-cli): a draw once both engines'
/// scores have been within S centipawns of zero for M consecutive moves each (2·M plies
/// in a row) and at least N full moves of the game have been played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Full moves of the game (after the opening) before a draw can be adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each engine.
    pub move_count: u32,
    /// Centipawns from zero.
    pub score: i32,
}

/// `-resign movecount=M score=S [twosided=true]` (cutechess-cli): an engine whose
/// score has been S centipawns or more below zero for M consecutive moves of its own
/// loses; with `two_sided`, only if its opponent's score has been S or more above zero
/// for its last M moves too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive moves of the losing engine.
    pub move_count: u32,
    /// Centipawns below zero.
    pub score: i32,
    /// The winner must agree.
    pub two_sided: bool,
}

/// Score-based adjudication as cutechess-cli does it: counts fed with each move's
/// reported score. A move with no score (a text engine's, a built-in player's) resets
/// the draw count and its side's counts, as cutechess-cli does for book and human moves.
#[derive(Default)]
struct ScoreAdjudicator {
    /// Consecutive plies with |score| within the draw bound.
    draw: u32,
    /// Per side, consecutive own moves at or below −S.
    losing: [u32; 2],
    /// Per side, consecutive own moves at or above S.
    winning: [u32; 2],
}

impl ScoreAdjudicator {
    /// Feeds the score of the move `mover` just made (`plies` played so far); returns
    /// the adjudicated result and reason, if any.
    fn feed(
        &mut self,
        m: &Match<'_, impl Notation + Referee>,
        mover: Side,
        score: Option<i32>,
        plies: usize,
    ) -> Option<(GameResult, String)> {
        let i = side_idx(mover);
        let Some(score) = score else {
            self.draw = 0;
            self.losing[i] = 0;
            self.winning[i] = 0;
            return None;
        };
        if let Some(d) = m.draw {
            self.draw = if score.abs() <= d.score {
                self.draw + 1
            } else {
                0
            };
            if plies / 2 >= d.move_number as usize && self.draw >= 2 * d.move_count {
                return Some((
                    GameResult::Draw,
                    format!(
                        "adjudication: draw by score (within {} for {} moves each)",
                        d.score, d.move_count
                    ),
                ));
            }
        }
        if let Some(r) = m.resign {
            self.losing[i] = if score <= -r.score {
                self.losing[i] + 1
            } else {
                0
            };
            self.winning[i] = if score >= r.score {
                self.winning[i] + 1
            } else {
                0
            };
            let agreed = !r.two_sided || self.winning[1 - i] >= r.move_count;
            if self.losing[i] >= r.move_count && agreed {
                return Some((
                    loss_for(mover),
                    format!(
                        "adjudication: {} resigns (score -{} or worse for {} moves)",
                        m.names[i], r.score, r.move_count
                    ),
                ));
            }
        }
        None
    }
}

/// Hard deadline per move for an engine limited only by depth or nodes.
pub const UNTIMED_MOVE_MS: u64 = 60_000;

/// Everything the referee needs to know about one game besides the players.
pub struct Match<'a, G: Notation + Referee> {
    /// The scheduled game.
    pub spec: &'a GameSpec,
    /// The opening, read under the rule set the game is judged by (which the
    /// positions carry from then on).
    pub opening: &'a Opening<G>,
    /// The opening's line, for the record.
    pub opening_text: &'a str,
    /// The name of the rules that judge the game, for the record (`-rules`'s: Ataxx's
    /// 2022 edition plays the 2016 rules, and its runs are recorded as `2022`).
    pub rules_name: &'a str,
    /// Engine names, `[first mover, second mover]`.
    pub names: [&'a str; 2],
    /// Limits, `[first mover, second mover]`.
    pub limits: [Limits; 2],
    /// Whether a built-in player (no deadline of its own) sits on each side.
    pub builtin: [bool; 2],
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// Material adjudication (only for games where material means something:
    /// [`Referee::MATERIAL_ADJUDICATION`]).
    pub adjudicate: Option<Adjudication>,
    /// Score-based draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Score-based resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Seed for this game's random choices.
    pub seed: u64,
    /// Keep the engines' principal variations in the record (`-pgnout … pv=true`).
    pub keep_pv: bool,
}

/// A finished game and which players misbehaved.
pub struct Played {
    /// What goes into the results file.
    pub record: GameRecord,
    /// The fault of each side, `[first mover, second mover]`.
    pub faults: [Option<Fault>; 2],
    /// The runner's own turnaround after each answer that was followed by another
    /// request, in µs: from the instant the answer's line was read from the engine to
    /// the instant the next request (`go`, …) was written to the other one (`-report
    /// latency=true`). A built-in player's side is the call itself: asked, answered.
    pub turnaround_us: Vec<u64>,
}

fn side_idx(side: Side) -> usize {
    side.index()
}

fn loss_for(side: Side) -> GameResult {
    match side {
        Side::First => GameResult::SecondWins,
        Side::Second => GameResult::FirstWins,
    }
}

/// Shortens engine-supplied text for the record (it might be anything, of any length).
fn clip(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(40)
        .collect();
    if s.chars().count() > 40 {
        format!("{clean}…")
    } else {
        clean
    }
}

/// How a game ended: the result, the reason written down, and its kind.
type End = (GameResult, String, Ending);

/// Plays one game (fastchess's `Match`: start, then turns until the game ends by the
/// rules, a fault or an adjudication). `players` is `[first mover, second mover]`.
pub fn play<G: Notation + Referee>(m: &Match<'_, G>, players: [&mut dyn Player<G>; 2]) -> Played {
    let [p0, p1] = players;
    let mut players: [&mut dyn Player<G>; 2] = [p0, p1];
    let mut game = Game::new(m);
    let end = match game.start(m, &mut players) {
        Err(end) => end,
        Ok(()) => loop {
            if let Some(end) = game.ended(m) {
                break end;
            }
            if let Err(end) = game.turn(m, &mut players) {
                break end;
            }
        },
    };
    game.finish(m, players, end)
}

/// A game in progress: the position, its moves and their record, the clocks, the
/// adjudications' counts, the faults so far.
struct Game<G: Notation + Referee> {
    started: Instant,
    start: G,
    start_fen: String,
    pos: G,
    moves: Vec<G::Move>,
    move_text: Vec<String>,
    info: Vec<MoveInfo>,
    faults: [Option<Fault>; 2],
    /// Each side's time left (ms) and increment, on a clock.
    clock: [Option<i64>; 2],
    inc: [u64; 2],
    moves_made: [u32; 2],
    /// The side with the material lead and for how many plies in a row.
    lead_streak: (Option<Side>, u32),
    scores: ScoreAdjudicator,
    turnaround_us: Vec<u64>,
    /// When the last answer was read, for the turnaround to the next request.
    last_read: Option<Instant>,
}

impl<G: Notation + Referee> Game<G> {
    fn new(m: &Match<'_, G>) -> Game<G> {
        let start = m.opening.end();
        let mut clock: [Option<i64>; 2] = [None, None];
        let mut inc = [0u64; 2];
        for i in 0..2 {
            if let Some(tc) = m.limits[i].tc {
                clock[i] = Some(tc.base_ms as i64);
                inc[i] = tc.inc_ms;
            }
        }
        Game {
            started: Instant::now(),
            start_fen: start.fen(),
            pos: start.clone(),
            start,
            moves: Vec::new(),
            move_text: Vec::new(),
            info: Vec::new(),
            faults: [None, None],
            clock,
            inc,
            moves_made: [0; 2],
            lead_streak: (None, 0),
            scores: ScoreAdjudicator::default(),
            turnaround_us: Vec::new(),
            last_read: None,
        }
    }

    /// Both engines start getting ready at once, then each handshake and set-up is
    /// finished, first mover first; a side that fails loses.
    fn start(
        &mut self,
        m: &Match<'_, G>,
        players: &mut [&mut dyn Player<G>; 2],
    ) -> Result<(), End> {
        let game_start = |side: Side| GameStart {
            id: m.spec.id,
            opening: m.opening,
            start: &self.start,
            side,
            seed: m.seed ^ (side_idx(side) as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        for side in [Side::First, Side::Second] {
            players[side_idx(side)].begin_new_game(&game_start(side));
        }
        for side in [Side::First, Side::Second] {
            let i = side_idx(side);
            if let Err(f) = players[i].new_game(&game_start(side)) {
                return Err(self.fault(m, side, f));
            }
        }
        Ok(())
    }

    /// `side`'s fault `f`, kept: the game is lost for it, for the reason `f` gives.
    fn fault(&mut self, m: &Match<'_, G>, side: Side, f: Fault) -> End {
        let i = side_idx(side);
        let end = (
            loss_for(side),
            format!("{} {}", m.names[i], f.describe()),
            f.ending(),
        );
        self.faults[i] = Some(f);
        end
    }

    /// The end by the rules, or by `-maxmoves`, if the game is there.
    fn ended(&self, m: &Match<'_, G>) -> Option<End> {
        if let Some(outcome) = self.pos.outcome() {
            let result = match outcome {
                Outcome::Win(Side::First) => GameResult::FirstWins,
                Outcome::Win(Side::Second) => GameResult::SecondWins,
                Outcome::Draw => GameResult::Draw,
            };
            return Some((result, self.pos.end_reason(), Ending::Rules));
        }
        let max = m.maxmoves?;
        (self.moves.len() as u64 >= 2 * max as u64).then(|| {
            (
                GameResult::Draw,
                format!("adjudication: {max} moves played"),
                Ending::Adjudication,
            )
        })
    }

    /// One turn: the side to move is asked for its move within its time, the move is
    /// checked, played and recorded, then the adjudications look at the game. `Err`:
    /// the game ended in this turn.
    fn turn(&mut self, m: &Match<'_, G>, players: &mut [&mut dyn Player<G>; 2]) -> Result<(), End> {
        let side = self.pos.side_to_move();
        let i = side_idx(side);
        let limits = m.limits[i];
        let allowed_ms: Option<i64> = match limits.movetime_ms {
            Some(st) => Some(st as i64 + limits.margin_ms as i64),
            None => self.clock[i].map(|c| c + limits.margin_ms as i64),
        };
        let now = Instant::now();
        let deadline = match allowed_ms {
            Some(ms) => now + Duration::from_millis(ms.max(0) as u64),
            None if m.builtin[i] => now + Duration::from_secs(3600),
            None => now + Duration::from_millis(UNTIMED_MOVE_MS + limits.margin_ms),
        };
        let movestogo = limits
            .tc
            .and_then(|tc| tc.moves.map(|per| per - self.moves_made[i] % per));
        let req = MoveRequest {
            start: &self.start,
            moves: &self.moves,
            position: &self.pos,
            clock_ms: self.clock,
            inc_ms: self.inc,
            movestogo,
            limits,
            deadline,
        };
        let reply = players[i].think(&req);
        let elapsed = now.elapsed().as_millis() as i64;
        if reply.is_ok() {
            self.stamp(players[i].io_times(), now);
        }
        let answer = match reply {
            Ok(a) => a,
            Err(f) => return Err(self.fault(m, side, f)),
        };
        if allowed_ms.is_some_and(|a| elapsed > a) {
            self.faults[i] = Some(Fault::Timeout);
            return Err((
                loss_for(side),
                format!("{} time forfeit ({elapsed} ms)", m.names[i]),
                Ending::TimeForfeit,
            ));
        }
        let mv = self.legal_move(m, side, &answer.reply)?;
        self.play_move(m, i, mv, elapsed, &answer.eval);
        self.adjudicate(m, side, answer.eval.score)
    }

    /// The turnaround since the last answer, from the answering process's own stamps
    /// `io_times` ([`Player::io_times`]; a stamp from before this request, sent at
    /// `asked`, is stale: the request's side is then taken as the call).
    fn stamp(&mut self, io_times: Option<(Option<Instant>, Option<Instant>)>, asked: Instant) {
        let answered = Instant::now();
        let (sent, read) = io_times.unwrap_or((None, None));
        let sent = sent.filter(|&t| t >= asked).unwrap_or(asked);
        let read = read.filter(|&t| t >= asked).unwrap_or(answered);
        if let Some(prev) = self.last_read {
            self.turnaround_us
                .push(sent.saturating_duration_since(prev).as_micros() as u64);
        }
        self.last_read = Some(read);
    }

    /// The move `reply` names, if it is legal; else how the game ends (a resignation,
    /// an illegal move).
    fn legal_move(
        &mut self,
        m: &Match<'_, G>,
        side: Side,
        reply: &Reply<G>,
    ) -> Result<G::Move, End> {
        let i = side_idx(side);
        let (mv, text) = match reply {
            Reply::Notation(s) => (self.pos.parse_move(s), s.clone()),
            Reply::Move(mv) => (
                self.pos.is_legal(*mv).then_some(*mv),
                self.pos.move_name(*mv),
            ),
            Reply::Unreadable(s) => (None, s.clone()),
            Reply::Resign => {
                return Err((
                    loss_for(side),
                    format!("{} resigns", m.names[i]),
                    Ending::Resignation,
                ))
            }
        };
        mv.ok_or_else(|| {
            let reason = format!("{} illegal move '{}'", m.names[i], clip(&text));
            self.faults[i] = Some(Fault::Garbage(reason.clone()));
            (loss_for(side), reason, Ending::IllegalMove)
        })
    }

    /// Plays side `i`'s move `mv`, which took `elapsed` ms: its clock, its record.
    fn play_move(&mut self, m: &Match<'_, G>, i: usize, mv: G::Move, elapsed: i64, eval: &Eval) {
        if let Some(c) = self.clock[i].as_mut() {
            *c -= elapsed;
            *c += self.inc[i] as i64;
            self.moves_made[i] += 1;
            if let Some(tc) = m.limits[i].tc {
                if tc
                    .moves
                    .is_some_and(|per| self.moves_made[i].is_multiple_of(per))
                {
                    *c += tc.base_ms as i64;
                }
            }
        }
        self.move_text.push(self.pos.move_name(mv));
        self.info.push(MoveInfo {
            ms: elapsed.max(0) as u64,
            nodes: eval.nodes,
            seldepth: eval.seldepth,
            nps: eval.nps,
            hashfull: eval.hashfull,
            pv: eval.pv.clone().filter(|_| m.keep_pv),
            timeleft: self.clock[i],
            latency: eval
                .time_ms
                .map(|t| (elapsed.max(0) as u64).saturating_sub(t)),
            depth: eval.depth,
            cp: match eval.score {
                Some(Score::Cp(cp)) => Some(cp),
                _ => None,
            },
            mate: match eval.score {
                Some(Score::Mate(n)) => Some(n),
                _ => None,
            },
        });
        self.pos.make_move(mv);
        self.moves.push(mv);
    }

    /// The adjudications after `side`'s move, which its engine scored `score`: draw and
    /// resignation by score, then the material lead. `Err`: one ended the game.
    fn adjudicate(
        &mut self,
        m: &Match<'_, G>,
        side: Side,
        score: Option<Score>,
    ) -> Result<(), End> {
        if (m.draw.is_some() || m.resign.is_some()) && self.pos.outcome().is_none() {
            let score = score.map(|s| s.centipawns());
            if let Some((result, reason)) = self.scores.feed(m, side, score, self.moves.len()) {
                return Err((result, reason, Ending::Adjudication));
            }
        }
        let Some(adj) = m.adjudicate else {
            return Ok(());
        };
        let diff = self.pos.material(Side::First) - self.pos.material(Side::Second);
        let leader = if diff >= adj.material {
            Some(Side::First)
        } else if -diff >= adj.material {
            Some(Side::Second)
        } else {
            None
        };
        self.lead_streak = if leader.is_some() && leader == self.lead_streak.0 {
            (leader, self.lead_streak.1 + 1)
        } else {
            (leader, u32::from(leader.is_some()))
        };
        match leader {
            Some(l) if self.lead_streak.1 >= adj.plies && self.pos.outcome().is_none() => Err((
                loss_for(l.opponent()),
                format!("adjudication: material lead of {} or more", adj.material),
                Ending::Adjudication,
            )),
            _ => Ok(()),
        }
    }

    /// Tells both players the game is over (with the moves, when the rules ended it)
    /// and returns the record.
    fn finish(self, m: &Match<'_, G>, mut players: [&mut dyn Player<G>; 2], end: End) -> Played {
        let final_moves = (end.2 == Ending::Rules).then_some(&self.moves[..]);
        for (i, p) in players.iter_mut().enumerate() {
            p.game_over(self.faults[i].is_some(), final_moves);
        }
        Played {
            record: record(
                m,
                self.start_fen,
                end,
                (self.move_text, self.info),
                self.started,
            ),
            faults: self.faults,
            turnaround_us: self.turnaround_us,
        }
    }
}

fn record<G: Notation + Referee>(
    m: &Match<'_, G>,
    fen: String,
    (result, reason, ending): (GameResult, String, Ending),
    (moves, info): (Vec<String>, Vec<MoveInfo>),
    started: Instant,
) -> GameRecord {
    GameRecord {
        id: m.spec.id,
        round: m.spec.round,
        variant: G::NAME.to_string(),
        players: [m.names[0].to_string(), m.names[1].to_string()],
        opening: m.opening_text.to_string(),
        fen,
        result,
        reason,
        ending: Some(ending),
        moves,
        info,
        date: today(),
        duration_ms: started.elapsed().as_millis() as u64,
        pair_key: m.spec.pair_key,
        rules: Some(m.rules_name.to_string()),
    }
}
