#!/usr/bin/env python3
"""GTP front for Zebra (lk16/zebra at bee2dad), for the tournament runner's proto=gtp: Zebra
speaks no engine protocol. Written for issue 51's Zebra match (docs/reversi.md, "At an equal
time a move"). Zebra is built outside the repository (docs/reversi.md, the FFO timing); the
`zebra` binary and its coeffs2.bin are looked for in --zebra-dir (default: this script's
directory, so a copy of the script beside the build works too).

GTP as the runner speaks it for Othello: boardsize 8, clear_board, play b d3 / play w pass,
genmove b, time_settings / time_left (accepted, ignored). Squares a1-h8, row 1 at the top,
the standard Othello start (white d4 e5, black e4 d5), as Zebra's own notation.

Each genmove runs one Zebra process on the game's moves so far (passes are implicit in
Zebra's -seq): `zebra -quiet -l D E W D E W -slack 0 -evalone -seq MOVES -b 0 -r 0`, D
the midgame depth, E and W the empties from which it solves exactly and for win/loss/draw;
its `PV:` line (or else its last `-->` line) gives the move. A side with no move answers
pass, a side with one move plays it without asking Zebra. Usage:
  zebra-gtp.py [--depth D] [--exact E] [--wld W] [--zebra-dir DIR]   (defaults 10 18 20)
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, me, sq):
    """The discs a move of `me` on `sq` (row, col) turns, or [] when it is illegal."""
    r, c = sq
    if board[r][c] != '.':
        return []
    out = []
    for dr, dc in DIRS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] not in ('.', me):
            line.append((rr, cc))
            rr += dr
            cc += dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == me:
            out.extend(line)
    return out


def legal(board, me):
    return [(r, c) for r in range(8) for c in range(8) if flips(board, me, (r, c))]


def name(sq):
    return 'abcdefgh'[sq[1]] + str(sq[0] + 1)


def parse(text):
    t = text.lower()
    if len(t) != 2 or t[0] not in 'abcdefgh' or t[1] not in '12345678':
        return None
    return (int(t[1]) - 1, 'abcdefgh'.index(t[0]))


class Game:
    def __init__(self):
        self.board = [['.'] * 8 for _ in range(8)]
        self.board[3][3] = self.board[4][4] = 'w'
        self.board[3][4] = self.board[4][3] = 'b'
        self.moves = []  # non-pass moves, for Zebra's -seq

    def play(self, me, sq):
        fl = flips(self.board, me, sq)
        if not fl:
            return False
        self.board[sq[0]][sq[1]] = me
        for r, c in fl:
            self.board[r][c] = me
        self.moves.append(name(sq))
        return True


def zebra_move(game, depth, exact, wld, where):
    levels = [str(depth), str(exact), str(wld)] * 2
    cmd = [os.path.join(where, 'zebra'), '-quiet', '-l', *levels, '-slack', '0', '-evalone',
           '-b', '0', '-r', '0', '-w', '0']
    if game.moves:
        cmd += ['-seq', ''.join(game.moves)]
    out = subprocess.run(cmd, cwd=where, capture_output=True, text=True).stdout
    best = None
    for line in out.splitlines():
        words = line.split()
        if line.startswith('PV:') and len(words) > 1:
            best = words[1]
        elif line.startswith('-->') and best is None and len(words) > 4:
            best = words[4]
    return best, out


def main():
    args = sys.argv[1:]
    opt = {'--depth': 10, '--exact': 18, '--wld': 20}
    for k in opt:
        if k in args:
            opt[k] = int(args[args.index(k) + 1])
    where = args[args.index('--zebra-dir') + 1] if '--zebra-dir' in args else HERE
    game = Game()
    commands = ['protocol_version', 'name', 'version', 'list_commands', 'quit', 'boardsize',
                'clear_board', 'play', 'genmove', 'time_settings', 'time_left']
    for line in sys.stdin:
        words = line.split()
        ident = ''
        if words and words[0].isdigit():
            ident = words.pop(0)
        if not words:
            continue
        cmd = words[0]

        def ok(text=''):
            sys.stdout.write('=%s%s\n\n' % (ident, ' ' + text if text else ''))
            sys.stdout.flush()

        def fail(text):
            sys.stdout.write('?%s %s\n\n' % (ident, text))
            sys.stdout.flush()

        if cmd == 'protocol_version':
            ok('2')
        elif cmd == 'name':
            ok('Zebra')
        elif cmd == 'version':
            ok('lk16/zebra bee2dad -l %d %d %d' % (opt['--depth'], opt['--exact'], opt['--wld']))
        elif cmd == 'list_commands':
            ok('\n'.join(commands))
        elif cmd == 'quit':
            ok()
            return
        elif cmd == 'boardsize':
            ok() if words[1:] == ['8'] else fail('unacceptable size')
        elif cmd == 'clear_board':
            game = Game()
            ok()
        elif cmd in ('time_settings', 'time_left'):
            ok()
        elif cmd == 'play' and len(words) == 3 and words[1][:1].lower() in 'bw':
            me = words[1][0].lower()
            if words[2].lower() == 'pass':
                ok() if not legal(game.board, me) else fail('illegal move')
            else:
                sq = parse(words[2])
                ok() if sq and game.play(me, sq) else fail('illegal move')
        elif cmd == 'genmove' and len(words) == 2 and words[1][:1].lower() in 'bw':
            me = words[1][0].lower()
            moves = legal(game.board, me)
            if not moves:
                ok('pass')
                continue
            if len(moves) == 1:
                mv = name(moves[0])
            else:
                mv, out = zebra_move(game, opt['--depth'], opt['--exact'], opt['--wld'], where)
                if mv is None or parse(mv) not in moves:
                    sys.stderr.write('zebra-gtp: no move read from Zebra:\n%s\n' % out)
                    fail('zebra gave no move')
                    continue
            game.play(me, parse(mv))
            ok(mv.upper())
        else:
            fail('unknown command')


if __name__ == '__main__':
    main()
