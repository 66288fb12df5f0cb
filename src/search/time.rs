//! Time management: turns a GUI's clock (remaining time, increment, moves to go) or a
//! fixed move time into the two deadlines of [`Limits`]: `soft` (do not start another
//! iteration after it) and `hard` (stop inside the search). Pure functions, so the
//! allocation can be unit-tested without a clock.
//!
//! The formula (all times in milliseconds, `overhead` defaults to [`DEFAULT_OVERHEAD`]):
//!
//! ```text
//! reserve = min(reserve_incs * increment, 3/4 * remaining)  kept back (Policy: 20)
//! avail = max(remaining - overhead - reserve, 0)  time we may spend on the whole game
//! mtg   = movestogo clamped to 1..=50, else 40    moves the remaining time must last
//! base  = avail / mtg + 3/4 * increment
//! cap   = avail / 2 if mtg == 1 else avail / 4    never bet more of the clock on one move
//! hard  = clamp(3 * base, MIN_TIME, max(cap, MIN_TIME))
//! soft  = min(base, hard)
//! ```
//!
//! The increment is only credited to `base`, never to `cap`: it arrives after the move,
//! so a move must fit in the time already on the clock. Because each move spends at most
//! a quarter of what is left (minus the overhead kept for pipes and scheduling), the
//! clock decays geometrically and never reaches zero; with an increment the remaining
//! time settles where the increment pays for the move, some 20 increments above zero
//! thanks to the reserve (a stall of a few increments then costs time, not the game).

use super::limits::Limits;
use std::time::Duration;

/// Time kept back on every move for what the search does not see: writing the answer,
/// the pipe to the GUI, process scheduling. Tournament managers forfeit a move that
/// overruns by more than ~25 ms, so this must cover our own latency.
pub const DEFAULT_OVERHEAD: Duration = Duration::from_millis(20);

/// The least time a search is given, so it can at least finish depth 1.
pub const MIN_TIME: Duration = Duration::from_millis(1);

/// Moves assumed left in the game when the GUI does not say (`movestogo` absent): 40
/// spreads the clock flatter than 25 did, which won in Ataxx (`docs/strength.md` row 35
/// and "Measurements behind the search's constants").
pub const DEFAULT_MOVES_TO_GO: u32 = 40;

/// Increments kept on the clock (measured: `docs/strength.md` row 32).
pub const DEFAULT_RESERVE_INCS: u32 = 20;

/// Upper bound on `movestogo`: beyond this the time is effectively sudden death.
pub const MAX_MOVES_TO_GO: u32 = 50;

/// The side to move's clock as the GUI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the GUI uses periods.
    pub moves_to_go: Option<u32>,
}

/// The two deadlines of one search, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop inside the search after this.
    pub hard: Duration,
}

impl Budget {
    /// Writes the deadlines into `limits` (keeping any depth or node limit).
    pub fn apply(self, limits: &mut Limits) {
        limits.soft_time = Some(self.soft);
        limits.hard_time = Some(self.hard);
    }
}

/// The tunable constants of [`allocate`] (UAI options `TimeMovesToGo`, `TimeHardPercent`,
/// `TimeReserveIncs`), so a match can measure them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Moves the remaining time must last when the GUI does not say (`mtg`).
    pub moves_to_go: u32,
    /// The hard deadline as a percentage of the base time.
    pub hard_percent: u32,
    /// Increments kept back on the clock (at most three quarters of it): the clock then settles
    /// that far above zero instead of at the overhead, so a scheduling stall of a few
    /// increments does not forfeit.
    pub reserve_incs: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            moves_to_go: DEFAULT_MOVES_TO_GO,
            hard_percent: 300,
            reserve_incs: DEFAULT_RESERVE_INCS,
        }
    }
}

/// The budget for one move under a clock with the default [`Policy`].
pub fn allocate(tc: &TimeControl, overhead: Duration) -> Budget {
    allocate_with(tc, overhead, &Policy::default())
}

/// The budget for one move under a clock (see the module docs for the formula).
pub fn allocate_with(tc: &TimeControl, overhead: Duration, policy: &Policy) -> Budget {
    let reserve = tc
        .increment
        .saturating_mul(policy.reserve_incs)
        .min(tc.remaining - tc.remaining / 4);
    let avail = tc
        .remaining
        .saturating_sub(overhead)
        .saturating_sub(reserve);
    let mtg = tc
        .moves_to_go
        .map_or(policy.moves_to_go.max(1), |m| m.clamp(1, MAX_MOVES_TO_GO));
    let base = avail / mtg + tc.increment * 3 / 4;
    let cap = if mtg == 1 { avail / 2 } else { avail / 4 };
    let hard = (base.saturating_mul(policy.hard_percent) / 100)
        .min(cap.max(MIN_TIME))
        .max(MIN_TIME);
    let soft = base.min(hard).max(MIN_TIME);
    Budget { soft, hard }
}

/// The budget for a fixed time per move (`go movetime`): stop `overhead` early, but
/// never use less than half the time (a tiny movetime would otherwise round to zero).
pub fn movetime(time: Duration, overhead: Duration) -> Budget {
    let hard = time.saturating_sub(overhead).max(time / 2).max(MIN_TIME);
    Budget { soft: hard, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn tc(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> TimeControl {
        TimeControl {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go,
        }
    }

    #[test]
    fn typical_fast_game() {
        // 1 s + 10 ms: (1000 - 20 - 200) / 40 + 7.5 = 27 ms soft, three times that hard.
        let b = allocate(&tc(1000, 10, None), DEFAULT_OVERHEAD);
        assert_eq!(b.soft, Duration::from_micros(27_000));
        assert_eq!(b.hard, Duration::from_micros(81_000));
    }

    #[test]
    fn soft_never_exceeds_hard_and_hard_respects_cap() {
        for remaining in [0, 1, 5, 19, 20, 21, 30, 100, 1000, 60_000, 10_000_000] {
            for inc in [0, 10, 100, 1000, 5000] {
                for mtg in [None, Some(0), Some(1), Some(2), Some(40), Some(1000)] {
                    let t = tc(remaining, inc, mtg);
                    let b = allocate(&t, DEFAULT_OVERHEAD);
                    assert!(b.soft <= b.hard, "{t:?} {b:?}");
                    assert!(b.soft >= MIN_TIME && b.hard >= MIN_TIME, "{t:?} {b:?}");
                    let avail = t.remaining.saturating_sub(DEFAULT_OVERHEAD);
                    let cap = if matches!(mtg, Some(0 | 1)) {
                        avail / 2
                    } else {
                        avail / 4
                    };
                    assert!(b.hard <= cap.max(MIN_TIME), "{t:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn increment_cannot_buy_time_that_is_not_on_the_clock() {
        // 100 ms left: 75 ms kept back, the overhead too, a quarter of the rest is the cap.
        let b = allocate(&tc(100, 10_000, None), DEFAULT_OVERHEAD);
        assert_eq!(b.hard, Duration::from_micros(1_250));
        assert_eq!(b.soft, Duration::from_micros(1_250));
    }

    #[test]
    fn movestogo_spreads_the_time() {
        let one = allocate(&tc(10_000, 0, Some(1)), DEFAULT_OVERHEAD);
        let ten = allocate(&tc(10_000, 0, Some(10)), DEFAULT_OVERHEAD);
        assert!(one.soft > ten.soft);
        assert_eq!(ten.soft, Duration::from_micros(998_000));
        assert_eq!(one.hard, ms(4990));
    }

    #[test]
    fn more_time_never_means_a_smaller_budget() {
        let mut last = allocate(&tc(0, 0, None), DEFAULT_OVERHEAD);
        for remaining in (0..5000).step_by(7) {
            let b = allocate(&tc(remaining, 10, None), DEFAULT_OVERHEAD);
            assert!(b.soft >= last.soft && b.hard >= last.hard);
            last = b;
        }
    }

    #[test]
    fn huge_clock_does_not_overflow() {
        let t = TimeControl {
            remaining: Duration::MAX,
            increment: Duration::from_secs(u64::MAX / 4),
            moves_to_go: None,
        };
        let b = allocate(&t, DEFAULT_OVERHEAD);
        assert!(b.soft <= b.hard);
    }

    /// Simulates whole games where every move overruns its hard deadline by a generous
    /// latency: the clock must never fall below zero.
    #[test]
    fn never_flags_at_one_second_plus_ten_ms() {
        for latency in [0, 2, 5, 8] {
            let mut remaining = ms(1000);
            for _ in 0..400 {
                let b = allocate(
                    &tc(remaining.as_millis() as u64, 10, None),
                    DEFAULT_OVERHEAD,
                );
                let used = b.hard + ms(latency);
                assert!(
                    used < remaining,
                    "flagged: {used:?} >= {remaining:?} (latency {latency})"
                );
                remaining = remaining - used + ms(10);
            }
            assert!(remaining >= ms(DEFAULT_OVERHEAD.as_millis() as u64));
        }
    }

    /// Games where moves end at the soft deadline (iterations finish there, as they
    /// mostly do) plus a latency of up to 2 ms (pipes and wake-up; more than was
    /// measured): the clock settles well above zero, so even a move that runs to its
    /// hard deadline and then stalls 150 ms (as long as the stalls seen on a loaded
    /// 2-core machine; `docs/strength.md`, "Measurements behind the search's
    /// constants") does not forfeit.
    #[test]
    fn the_reserve_absorbs_a_stall() {
        for latency in [0, 1, 2] {
            let mut remaining = ms(1000);
            for _ in 0..400 {
                let b = allocate(
                    &tc(remaining.as_millis() as u64, 10, None),
                    DEFAULT_OVERHEAD,
                );
                remaining = remaining - b.soft - ms(latency) + ms(10);
            }
            let b = allocate(
                &tc(remaining.as_millis() as u64, 10, None),
                DEFAULT_OVERHEAD,
            );
            assert!(
                b.hard + ms(latency + 150) < remaining,
                "a 150 ms stall would flag: {b:?}, {remaining:?} left (latency {latency})"
            );
        }
    }

    #[test]
    fn movetime_keeps_a_margin() {
        assert_eq!(movetime(ms(100), DEFAULT_OVERHEAD).hard, ms(80));
        assert_eq!(movetime(ms(10), DEFAULT_OVERHEAD).hard, ms(5));
        assert_eq!(movetime(ms(0), DEFAULT_OVERHEAD).hard, MIN_TIME);
        let b = movetime(ms(1000), ms(0));
        assert_eq!((b.soft, b.hard), (ms(1000), ms(1000)));
    }
}
