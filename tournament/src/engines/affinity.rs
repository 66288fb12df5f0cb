//! `-use-affinity [CPUS]`: each engine process of each concurrent game pinned to CPUs
//! of its own (Linux's `sched_setaffinity`, set in the child between `fork` and `exec`
//! by [`crate::engines::process::EngineProcess::spawn`]).
//!
//! The CPUs (the list given, else every CPU the runner may run on) are divided into
//! `concurrency × engines` consecutive slots of equal size (the first slots get one more
//! when it does not divide): worker `w` (1-based) runs engine `e` on slot
//! `(w − 1) × engines + e`. Built-in players run in the worker's thread, unpinned.

/// Parses a CPU list as `taskset -c` and `/proc/*/status`'s `Cpus_allowed_list`
/// write it: `0,1`, `0-3`, `0-3,8,10-11`. Sorted, without duplicates.
pub fn parse_list(text: &str) -> Result<Vec<usize>, String> {
    let mut cpus = Vec::new();
    for part in text.split(',') {
        let num = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{text}' is not a CPU list (like 0,1 or 0-3)"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(format!("'{part}' is an empty range in '{text}'"));
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(num(part)?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// The CPUs this process may run on (`None` where that cannot be known: not Linux).
pub fn allowed() -> Option<Vec<usize>> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills at
        // most size_of::<cpu_set_t>() bytes of it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return None;
            }
            Some(
                (0..libc::CPU_SETSIZE as usize)
                    .filter(|&c| libc::CPU_ISSET(c, &set))
                    .collect(),
            )
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The CPUs a run pins its engines to: `asked` (empty: every allowed CPU), checked
/// against the allowed ones and against the `slots` (games at once × engines) that
/// each need one CPU at least. `Err` is the one line that refuses the run.
pub fn resolve(
    asked: &[usize],
    allowed: Option<&[usize]>,
    slots: usize,
) -> Result<Vec<usize>, String> {
    let Some(allowed) = allowed else {
        return Err("-use-affinity: pinning engines to CPUs is supported on Linux only".into());
    };
    let cpus = if asked.is_empty() {
        allowed.to_vec()
    } else {
        if let Some(c) = asked.iter().find(|c| !allowed.contains(c)) {
            return Err(format!(
                "-use-affinity: CPU {c} is not one this run may use (those: {})",
                format_list(allowed)
            ));
        }
        asked.to_vec()
    };
    if cpus.len() < slots {
        return Err(format!(
            "-use-affinity: {} CPU{} ({}) for {slots} engine processes (games at once × engines): \
             each needs one of its own",
            cpus.len(),
            if cpus.len() == 1 { "" } else { "s" },
            format_list(&cpus)
        ));
    }
    Ok(cpus)
}

/// Slot `slot`'s CPUs of `cpus` divided into `slots` slots.
pub fn slot(cpus: &[usize], slots: usize, slot: usize) -> Vec<usize> {
    let (n, k) = (cpus.len(), slots.max(1));
    let start = |s: usize| s * (n / k) + s.min(n % k);
    cpus[start(slot).min(n)..start(slot + 1).min(n)].to_vec()
}

/// The CPUs of engine `engine` on worker `worker` (1-based), `concurrency` workers and
/// `engines` engines.
pub fn engine_cpus(
    cpus: &[usize],
    concurrency: usize,
    engines: usize,
    worker: usize,
    engine: usize,
) -> Vec<usize> {
    slot(
        cpus,
        concurrency * engines,
        (worker.max(1) - 1) * engines + engine,
    )
}

/// A list in `Cpus_allowed_list`'s form: `0-3,8`.
pub fn format_list(cpus: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            cpus[i].to_string()
        } else {
            format!("{}-{}", cpus[i], cpus[j])
        });
        i = j + 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_read_and_written() {
        assert_eq!(parse_list("0,1").unwrap(), vec![0, 1]);
        assert_eq!(parse_list("0-3").unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(
            parse_list("8,0-2,10-11,1").unwrap(),
            vec![0, 1, 2, 8, 10, 11]
        );
        for bad in ["", "x", "1,", "3-1", "-1", "0-", "1.5"] {
            assert!(parse_list(bad).is_err(), "{bad}");
        }
        assert_eq!(format_list(&[0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11");
        assert_eq!(format_list(&[5]), "5");
    }

    #[test]
    fn cpus_are_divided_among_games_and_engines() {
        let all: Vec<usize> = (0..8).collect();
        // 2 games at once × 2 engines: two CPUs each.
        assert_eq!(engine_cpus(&all, 2, 2, 1, 0), vec![0, 1]);
        assert_eq!(engine_cpus(&all, 2, 2, 1, 1), vec![2, 3]);
        assert_eq!(engine_cpus(&all, 2, 2, 2, 0), vec![4, 5]);
        assert_eq!(engine_cpus(&all, 2, 2, 2, 1), vec![6, 7]);
        // 3 slots of 8: 3, 3, 2; every CPU used once.
        let parts: Vec<Vec<usize>> = (0..3).map(|s| slot(&all, 3, s)).collect();
        assert_eq!(parts, vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7]]);
        let allowed: Vec<usize> = (0..4).collect();
        assert_eq!(resolve(&[], Some(&allowed), 4).unwrap(), allowed);
        assert_eq!(resolve(&[1, 3], Some(&allowed), 2).unwrap(), vec![1, 3]);
        let e = resolve(&[1], Some(&allowed), 2).unwrap_err();
        assert!(e.contains("1 CPU (1) for 2 engine processes"), "{e}");
        let e = resolve(&[7], Some(&allowed), 1).unwrap_err();
        assert!(e.contains("CPU 7 is not one"), "{e}");
        assert!(resolve(&[], None, 1).unwrap_err().contains("Linux only"));
    }
}
