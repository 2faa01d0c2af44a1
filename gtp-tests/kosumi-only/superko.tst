# Positional superko under kgs-rules chinese (and aga, swedish). kosumi only: GNU Go
# 3.8 has no kgs-rules.
#
# On 4x4, from this position with Black to play, B A1, W A4, B A2 (takes
# A3 A4) and W A3 (takes A1 A2) would bring the same position back with
# Black to play: simple ko allows W A3 (it takes two stones), superko not.
#
#     A B C D
#  4  . X . .
#  3  O X X O
#  2  . O . .
#  1  . O . .

1 kgs-rules chinese
#? []

boardsize 4
clear_board
play b B4
play w A3
play b B3
play w D3
play b C3
play w B2
play w B1
2 play b A1
#? []

3 play w A4
#? []

4 play b A2
#? []

5 captures black
#? [2]

6 is_legal w A3
#? [0]

play w A3
7 list_stones white
#? [(?=(.* )?D3( |$))(?=(.* )?B2( |$))(?=(.* )?B1( |$))\S+( \S+){2}]

8 list_stones black
#? [(?=(.* )?B4( |$))(?=(.* )?B3( |$))(?=(.* )?C3( |$))(?=(.* )?A1( |$))(?=(.* )?A2( |$))\S+( \S+){4}]

# Other moves are fine, and simple ko still holds.
9 is_legal w A4
#? [1]

# The same under AGA rules (situational superko: same player to move).
10 kgs-rules aga
#? []

boardsize 4
clear_board
play b B4
play w A3
play b B3
play w D3
play b C3
play w B2
play w B1
play b A1
play w A4
play b A2
11 is_legal w A3
#? [0]

# Swedish rules use positional superko too.
20 kgs-rules swedish
#? []

boardsize 4
clear_board
play b B4
play w A3
play b B3
play w D3
play b C3
play w B2
play w B1
play b A1
play w A4
play b A2
21 is_legal w A3
#? [0]

# Japanese rules have no superko: W A3 is legal and takes two stones.
12 kgs-rules japanese
#? []

boardsize 4
clear_board
play b B4
play w A3
play b B3
play w D3
play b C3
play w B2
play w B1
play b A1
play w A4
play b A2
13 is_legal w A3
#? [1]

14 play w A3
#? []

15 captures white
#? [2]

16 list_stones black
#? [(?=(.* )?B4( |$))(?=(.* )?B3( |$))(?=(.* )?C3( |$))\S+( \S+){2}]

# An unknown rule set is refused.
kgs-rules no-such-rules
17 is_legal w A4
#? [1]
