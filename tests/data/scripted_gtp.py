"""A scripted GTP opponent for tests/tools/test_arena_gtp.py: it answers every
command with success and each ``genmove`` with the next text given on its
command line (the last one again once they run out), whatever the board.

    python3 tests/data/scripted_gtp.py a1 zz9 resign

It knows no rules: the thing under test is the arena's referee. With
``--refuse-play`` it refuses every ``play`` (a harness error: the game is
void); with ``--silent`` it never answers ``genmove`` (a timeout); with ``--stop`` it
exits without a word on its first ``genmove`` (as MoHex 2.0 does once it
has proven the game); with ``--fail`` it answers every ``genmove`` with a
failure (as MoHex 2.0 sometimes does then instead)."""

import sys

answers = [arg for arg in sys.argv[1:] if not arg.startswith("--")] or ["a1"]
refuse_play = "--refuse-play" in sys.argv
silent = "--silent" in sys.argv
stop = "--stop" in sys.argv
fail = "--fail" in sys.argv
given = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        print("=\n", flush=True)
        break
    if words[0] == "genmove":
        if stop:
            break
        if fail:
            print("? genmove failed\n", flush=True)
            continue
        if silent:
            continue
        print(f"= {answers[min(given, len(answers) - 1)]}\n", flush=True)
        given += 1
    elif words[0] == "play" and refuse_play:
        print("? illegal move\n", flush=True)
    elif words[0] == "final_score":
        print("= W+\n", flush=True)  # always claims white won
    else:
        print("=\n", flush=True)
