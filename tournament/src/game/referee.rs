//! The referee: plays one game between two players and trusts neither. Every move is
//! checked with our own rules, every answer has a hard deadline, and every way an
//! engine can fail ends the game with a recorded reason instead of stopping the run.

use crate::engines::player::{Fault, GameStart, Limits, MoveRequest, Player, Reply};
use crate::matchmaking::schedule::GameSpec;
use crate::output::results::{today, Ending, GameRecord, GameResult, MoveInfo, Score};
use engine::game::{Notation, Opening, Outcome, Referee, RuleSet, Side};
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

/// Plays one game. `players` is `[first mover, second mover]`.
pub fn play<G: Notation + Referee>(m: &Match<'_, G>, players: [&mut dyn Player<G>; 2]) -> Played {
    let started = Instant::now();
    let [p0, p1] = players;
    let mut players: [&mut dyn Player<G>; 2] = [p0, p1];
    let mut faults: [Option<Fault>; 2] = [None, None];
    let mut moves: Vec<G::Move> = Vec::new();
    let mut move_text: Vec<String> = Vec::new();
    let mut info: Vec<MoveInfo> = Vec::new();

    let start = m.opening.end();
    let start_fen = start.fen();

    let finish = |players: &mut [&mut dyn Player<G>; 2],
                  faults: &[Option<Fault>; 2],
                  final_moves: Option<&[G::Move]>| {
        for (i, p) in players.iter_mut().enumerate() {
            p.game_over(faults[i].is_some(), final_moves);
        }
    };

    let game_start = |side: Side| GameStart {
        id: m.spec.id,
        opening: m.opening,
        start: &start,
        side,
        seed: m.seed ^ (side_idx(side) as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    };
    // Both engines start getting ready at once, then each handshake and set-up is
    // finished, first mover first.
    for side in [Side::First, Side::Second] {
        players[side_idx(side)].begin_new_game(&game_start(side));
    }
    for side in [Side::First, Side::Second] {
        let i = side_idx(side);
        let gs = game_start(side);
        if let Err(f) = players[i].new_game(&gs) {
            let reason = format!("{} {}", m.names[i], f.describe());
            let end = (loss_for(side), reason, f.ending());
            faults[i] = Some(f);
            finish(&mut players, &faults, None);
            return Played {
                record: record(m, start_fen, end, (move_text, info), started),
                faults,
                turnaround_us: Vec::new(),
            };
        }
    }

    let mut clock: [Option<i64>; 2] = [None, None];
    let mut inc = [0u64; 2];
    for i in 0..2 {
        if let Some(tc) = m.limits[i].tc {
            clock[i] = Some(tc.base_ms as i64);
            inc[i] = tc.inc_ms;
        }
    }
    let mut moves_made = [0u32; 2];
    let mut pos = start.clone();
    let mut lead_streak: (Option<Side>, u32) = (None, 0);
    let mut scores = ScoreAdjudicator::default();
    let mut turnaround_us: Vec<u64> = Vec::new();
    // When the last answer was read, for the turnaround to the next request.
    let mut last_read: Option<Instant> = None;

    let end = loop {
        if let Some(outcome) = pos.outcome() {
            let result = match outcome {
                Outcome::Win(Side::First) => GameResult::FirstWins,
                Outcome::Win(Side::Second) => GameResult::SecondWins,
                Outcome::Draw => GameResult::Draw,
            };
            break (result, pos.end_reason(), Ending::Rules);
        }
        if let Some(max) = m.maxmoves {
            if moves.len() as u64 >= 2 * max as u64 {
                break (
                    GameResult::Draw,
                    format!("adjudication: {max} moves played"),
                    Ending::Adjudication,
                );
            }
        }
        let side = pos.side_to_move();
        let i = side_idx(side);
        let limits = m.limits[i];
        let allowed_ms: Option<i64> = if let Some(st) = limits.movetime_ms {
            Some(st as i64 + limits.margin_ms as i64)
        } else {
            clock[i].map(|c| c + limits.margin_ms as i64)
        };
        let now = Instant::now();
        let deadline = match allowed_ms {
            Some(ms) => now + Duration::from_millis(ms.max(0) as u64),
            None if m.builtin[i] => now + Duration::from_secs(3600),
            None => now + Duration::from_millis(UNTIMED_MOVE_MS + limits.margin_ms),
        };
        let movestogo = m.limits[i]
            .tc
            .and_then(|tc| tc.moves.map(|per| per - moves_made[i] % per));
        let req = MoveRequest {
            start: &start,
            moves: &moves,
            position: &pos,
            clock_ms: clock,
            inc_ms: inc,
            movestogo,
            limits,
            deadline,
        };
        let reply = players[i].think(&req);
        let elapsed = now.elapsed().as_millis() as i64;
        if reply.is_ok() {
            // The process's own stamps (a stamp from before this request is stale: the
            // request's side is then taken as the call).
            let answered = Instant::now();
            let (sent, read) = players[i].io_times().unwrap_or((None, None));
            let sent = sent.filter(|&t| t >= now).unwrap_or(now);
            let read = read.filter(|&t| t >= now).unwrap_or(answered);
            if let Some(prev) = last_read {
                turnaround_us.push(sent.saturating_duration_since(prev).as_micros() as u64);
            }
            last_read = Some(read);
        }
        let answer = match reply {
            Ok(a) => a,
            Err(f) => {
                let reason = format!("{} {}", m.names[i], f.describe());
                let ending = f.ending();
                faults[i] = Some(f);
                break (loss_for(side), reason, ending);
            }
        };
        if allowed_ms.is_some_and(|a| elapsed > a) {
            faults[i] = Some(Fault::Timeout);
            break (
                loss_for(side),
                format!("{} time forfeit ({elapsed} ms)", m.names[i]),
                Ending::TimeForfeit,
            );
        }
        let (mv, text) = match &answer.reply {
            Reply::Notation(s) => (pos.parse_move(s), s.clone()),
            Reply::Move(mv) => (pos.is_legal(*mv).then_some(*mv), pos.move_name(*mv)),
            Reply::Unreadable(s) => (None, s.clone()),
            Reply::Resign => {
                break (
                    loss_for(side),
                    format!("{} resigns", m.names[i]),
                    Ending::Resignation,
                );
            }
        };
        let Some(mv) = mv else {
            let reason = format!("{} illegal move '{}'", m.names[i], clip(&text));
            faults[i] = Some(Fault::Garbage(reason.clone()));
            break (loss_for(side), reason, Ending::IllegalMove);
        };
        if let Some(c) = clock[i].as_mut() {
            *c -= elapsed;
            *c += inc[i] as i64;
            moves_made[i] += 1;
            if let Some(tc) = m.limits[i].tc {
                if tc.moves.is_some_and(|per| moves_made[i] % per == 0) {
                    *c += tc.base_ms as i64;
                }
            }
        }
        move_text.push(pos.move_name(mv));
        let eval = &answer.eval;
        info.push(MoveInfo {
            ms: elapsed.max(0) as u64,
            nodes: eval.nodes,
            seldepth: eval.seldepth,
            nps: eval.nps,
            hashfull: eval.hashfull,
            pv: eval.pv.clone().filter(|_| m.keep_pv),
            timeleft: clock[i],
            latency: eval
                .time_ms
                .map(|t| (elapsed.max(0) as u64).saturating_sub(t)),
            depth: answer.eval.depth,
            cp: match answer.eval.score {
                Some(Score::Cp(cp)) => Some(cp),
                _ => None,
            },
            mate: match answer.eval.score {
                Some(Score::Mate(n)) => Some(n),
                _ => None,
            },
        });
        pos.make_move(mv);
        moves.push(mv);

        if (m.draw.is_some() || m.resign.is_some()) && pos.outcome().is_none() {
            let score = answer.eval.score.map(|s| s.centipawns());
            if let Some((result, reason)) = scores.feed(m, side, score, moves.len()) {
                break (result, reason, Ending::Adjudication);
            }
        }
        if let Some(adj) = m.adjudicate {
            let diff = pos.material(Side::First) - pos.material(Side::Second);
            let leader = if diff >= adj.material {
                Some(Side::First)
            } else if -diff >= adj.material {
                Some(Side::Second)
            } else {
                None
            };
            lead_streak = if leader.is_some() && leader == lead_streak.0 {
                (leader, lead_streak.1 + 1)
            } else {
                (leader, u32::from(leader.is_some()))
            };
            if let Some(l) = leader {
                if lead_streak.1 >= adj.plies && pos.outcome().is_none() {
                    break (
                        loss_for(l.opponent()),
                        format!("adjudication: material lead of {} or more", adj.material),
                        Ending::Adjudication,
                    );
                }
            }
        }
    };
    let by_rules = end.2 == Ending::Rules;
    finish(&mut players, &faults, by_rules.then_some(&moves[..]));
    Played {
        record: record(m, start_fen, end, (move_text, info), started),
        faults,
        turnaround_us,
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
        rules: Some(m.opening.base.rule_set().name().to_string()),
    }
}
