# loadsgf, with files in games/ next to this file. Shared with GNU Go 3.8.
#
# games/gtp-capture.sgf: 9x9, setup AB A9, AW J1, then
#   1 B E5  2 W D5  3 B D6  4 W G3  5 B D4  6 W G7  7 B C5 (takes D5)  8 W C3
# GNU Go answers loadsgf with the colour to move; an empty answer is fine too.

1 loadsgf games/gtp-capture.sgf
#? [black|]

2 list_stones black
#? [(?=(.* )?A9( |$))(?=(.* )?D6( |$))(?=(.* )?C5( |$))(?=(.* )?E5( |$))(?=(.* )?D4( |$))\S+( \S+){4}]

3 list_stones white
#? [(?=(.* )?G7( |$))(?=(.* )?C3( |$))(?=(.* )?G3( |$))(?=(.* )?J1( |$))\S+( \S+){3}]

4 captures black
#? [1]

5 countlib C5
#? [4]

# With a move number: the position before that move.
6 loadsgf games/gtp-capture.sgf 7
#? [black|]

7 list_stones white
#? [(?=(.* )?G7( |$))(?=(.* )?D5( |$))(?=(.* )?G3( |$))(?=(.* )?J1( |$))\S+( \S+){3}]

8 list_stones black
#? [(?=(.* )?A9( |$))(?=(.* )?D6( |$))(?=(.* )?E5( |$))(?=(.* )?D4( |$))\S+( \S+){3}]

9 captures black
#? [0]

10 loadsgf games/gtp-capture.sgf 8
#? [white|]

11 list_stones white
#? [(?=(.* )?G7( |$))(?=(.* )?G3( |$))(?=(.* )?J1( |$))\S+( \S+){2}]

12 captures black
#? [1]

13 loadsgf games/gtp-capture.sgf 1
#? [black|]

14 list_stones black
#? [A9]

15 list_stones white
#? [J1]

16 loadsgf games/gtp-capture.sgf 2
#? [white|]

17 list_stones black
#? [(?=(.* )?A9( |$))(?=(.* )?E5( |$))\S+( \S+){1}]

# A number past the end loads the whole game.
18 loadsgf games/gtp-capture.sgf 100
#? [black|]

19 list_stones black
#? [(?=(.* )?A9( |$))(?=(.* )?D6( |$))(?=(.* )?C5( |$))(?=(.* )?E5( |$))(?=(.* )?D4( |$))\S+( \S+){4}]

# Play goes on from the loaded position, and undo works within it.
21 is_legal b C3
#? [0]

22 play b E3
#? []

23 undo
#? []

24 list_stones black
#? [(?=(.* )?A9( |$))(?=(.* )?D6( |$))(?=(.* )?C5( |$))(?=(.* )?E5( |$))(?=(.* )?D4( |$))\S+( \S+){4}]

# A missing file is refused and the position stays.
loadsgf games/no-such-file.sgf
loadsgf
25 list_stones black
#? [(?=(.* )?A9( |$))(?=(.* )?D6( |$))(?=(.* )?C5( |$))(?=(.* )?E5( |$))(?=(.* )?D4( |$))\S+( \S+){4}]

# Setup only, PL[W]: White to play; the board size comes from the file.
26 loadsgf games/gtp-setup.sgf
#? [white|]

27 list_stones black
#? [(?=(.* )?C5( |$))(?=(.* )?E5( |$))\S+( \S+){1}]

28 list_stones white
#? [C3]

29 is_legal w G7
#? [1]

# Handicap stones and one White move on 19x19.
30 loadsgf games/gtp-handicap.sgf
#? [black|]

31 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))\S+( \S+){1}]

32 list_stones white
#? [Q4]

33 is_legal b T19
#? [1]
