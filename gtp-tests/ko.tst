# Simple ko. Shared with GNU Go 3.8.
#
#     C D E F
#  6  . X O .
#  5  X O . O      White D5 in atari; Black E5 takes it and is in
#  4  . X O .      atari at D5 itself: a ko.

boardsize 9
clear_board
play b C5
play w E6
play b D6
play w E4
play b D4
play w F5
play w D5
1 is_legal b E5
#? [1]

2 play b E5
#? []

3 captures black
#? [1]

4 list_stones white
#? [(?=(.* )?E6( |$))(?=(.* )?E4( |$))(?=(.* )?F5( |$))\S+( \S+){2}]

# White may not retake at once...
5 is_legal w D5
#? [0]

play w D5
6 list_stones black
#? [(?=(.* )?C5( |$))(?=(.* )?D6( |$))(?=(.* )?D4( |$))(?=(.* )?E5( |$))\S+( \S+){3}]

# ...but Black may fill the ko.
7 is_legal b D5
#? [1]

# A ko threat and its answer lift the ban.
8 play w J9
#? []

9 play b J8
#? []

10 is_legal w D5
#? [1]

11 play w D5
#? []

12 list_stones black
#? [(?=(.* )?C5( |$))(?=(.* )?D6( |$))(?=(.* )?D4( |$))(?=(.* )?J8( |$))\S+( \S+){3}]

13 captures white
#? [1]

# Now Black may not retake at once.
14 is_legal b E5
#? [0]

# undo brings the ban back exactly: undo White's retake and the threats.
15 undo
#? []

16 is_legal w D5
#? [1]

17 undo
#? []

18 undo
#? []

19 is_legal w D5
#? [0]

20 is_legal b D5
#? [1]

# The ban only lasts one move: White passes, Black plays elsewhere, then
# White may retake.
21 play w pass
#? []

22 play b A1
#? []

23 is_legal w D5
#? [1]

# Taking two stones is no ko, even when the capturer is left in atari:
# White may take it back at once (a snapback).
#
#     A B C D
#  2  O X X .       (A2 keeps A3 as a liberty)
#  1  . O O X
clear_board
play w B1
play w C1
play w A2
play b B2
play b C2
play b D1
30 play b A1
#? []

31 captures black
#? [2]

32 countlib A1
#? [1]

33 is_legal w B1
#? [1]

34 play w B1
#? []

35 list_stones black
#? [(?=(.* )?B2( |$))(?=(.* )?C2( |$))(?=(.* )?D1( |$))\S+( \S+){2}]

36 captures white
#? [1]
