# boardsize, clear_board and komi. Shared with GNU Go 3.8.

boardsize 9
clear_board
1 play b J9
#? []

2 list_stones black
#? [J9]

# boardsize empties the board, even when the size does not change.
3 boardsize 9
#? []

4 list_stones black
#? []

# Unacceptable sizes are refused and change nothing: the board keeps its
# size (J9 is still on it) and its stones.
play b E5
boardsize 26
boardsize 0
boardsize -1
boardsize x
boardsize
10 list_stones black
#? [E5]

11 is_legal w J9
#? [1]

# clear_board empties the board and keeps the size: nine fixed handicap
# stones at C7 E7 G7 C5 E5 G5 C3 E3 G3 are the 9x9 pattern.
12 clear_board
#? []

13 list_stones black
#? []

14 fixed_handicap 9
#? [(?=(.* )?C7( |$))(?=(.* )?E7( |$))(?=(.* )?G7( |$))(?=(.* )?C5( |$))(?=(.* )?E5( |$))(?=(.* )?G5( |$))(?=(.* )?C3( |$))(?=(.* )?E3( |$))(?=(.* )?G3( |$))\S+( \S+){8}]

# Small and large boards.
20 boardsize 2
#? []

21 play b B2
#? []

22 list_stones black
#? [B2]

23 is_legal w A1
#? [1]

24 boardsize 1
#? []

25 list_stones black
#? []

26 boardsize 19
#? []

27 play w T19
#? []

28 play b a1
#? []

29 list_stones white
#? [T19]

30 list_stones black
#? [A1]

# komi, seen through final_score on a settled 7x7 position: Black owns
# columns A-B, White owns F-G, column D is neutral. Each komi gets a new
# position (dame filled on both sides: the score does not change) because
# GNU Go caches final_score per position.
boardsize 7
clear_board
play b C1
play w E1
play b C2
play w E2
play b C3
play w E3
play b C4
play w E4
play b C5
play w E5
play b C6
play w E6
play b C7
play w E7
40 komi 6.5
#? []

41 final_score
#? [W\+6\.5]

play b D1
play w D2
42 komi 0
#? []

43 final_score
#? [0]

play b D3
play w D4
44 komi -3
#? []

45 final_score
#? [B\+3(\.0)?]

play b D5
play w D6
46 komi 7
#? []

47 final_score
#? [W\+7(\.0)?]

# A bad komi is refused and the old one stays.
play b D7
komi x
komi
48 final_score
#? [W\+7(\.0)?]
