#!/usr/bin/env python3
"""Ratings and error bars of `tournament rate` against Ordo's on one chess-convention PGN.
usage: compare.py FILE.pgn  (Ordo at $ORDO, our tournament binary at $T)"""
import os, re, subprocess, sys
T = os.environ.get("T", "/work/wt-i55/target/ci/tournament")
ORDO = os.environ.get("ORDO", "/work/ext/ordo/ordo")
Z = "200.240905178614"  # the Elo formula's 76 % point: Ordo's -z for the Elo scale
def table(text):
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*\d+\s+(\S+)\s+[<> *]?\s*:\s+(-?[\d.]+)\s+(----|[\d.]+)\s", line)
        if m:
            rows[m.group(1)] = (float(m.group(2)), None if m.group(3) == "----" else float(m.group(3)))
    return rows
def extra(text, key):
    m = re.search(key + r" = (-?[\d.]+)", text)
    return float(m.group(1)) if m else None
sims = os.environ.get("SIMS", "2000")
pgn = sys.argv[1]
settings = [
    ("defaults (white 0, draw 50 %, average 0)", [], []),
    ("-W -D (both fitted)", ["-W", "-D"], ["-W", "-D"]),
    ("anchor d1 at 1000, -W", ["-A", "d1", "-a", "1000", "-W"], ["anchor=d1:1000", "-W"]),
]
for name, o_args, t_args in settings:
    o = subprocess.run([ORDO, "-p", pgn, "-q", "-a", "0", "-z", Z, "-s", sims, "-n", "1", "-G"] + o_args,
                       capture_output=True, text=True).stdout
    if "-A" in o_args:  # -a given again after: anchor's rating
        pass
    t = subprocess.run([T, "rate", "--pgn", "chess", pgn, "-s", sims] + t_args,
                       capture_output=True, text=True).stdout
    ro, rt = table(o), table(t)
    assert ro and set(ro) <= set(rt), (o, t)
    if set(rt) - set(ro):
        print(f"  (Ordo -s leaves out {', '.join(sorted(set(rt) - set(ro)))}: a perfect score)")
    dr = max(abs(ro[p][0] - rt[p][0]) for p in ro)
    ratios = [rt[p][1] / ro[p][1] for p in ro if ro[p][1] and rt[p][1]]
    DR = r'Draw rate \(equal opponents\)'
    print(f"{name}: {len(ro)} players; max |rating - Ordo's| = {dr:.1f}; "
          f"error / Ordo's error: {min(ratios):.3f} to {max(ratios):.3f}; "
          f"white adv ours {extra(t, 'White advantage')} Ordo {extra(o, 'White advantage')}; "
          f"draw rate ours {extra(t, DR)} Ordo {extra(o, DR)}")
    for p in sorted(ro, key=lambda p: -ro[p][0]):
        print(f"   {p:10} Ordo {ro[p][0]:8.1f} ± {ro[p][1] or 0:5.1f}   ours {rt[p][0]:8.1f} ± {rt[p][1] or 0:5.1f}")
