#!/bin/sh
# Our PGN (Black moves first, 1-0 = Black's win) to the chess convention (White moves first):
# swap the White and Black tags, drop the Variant tag. Usage: to-chess.sh IN.pgn > OUT.pgn
sed -e 's/^\[White /[@@White /' -e 's/^\[Black /[White /' -e 's/^\[@@White /[Black /' -e '/^\[Variant /d' "$1"
