# Malformed arguments that GNU Go 3.8 lets through (it reads them with
# sscanf) but kosumi refuses. kosumi only.

boardsize 9
clear_board
# Vertices are one token: no trailing junk, no space inside.
play b d4x
play b D 6
play b e5.
1 list_stones black
#? []

# Extra arguments are refused too.
play b E1 E2
boardsize 9.5
boardsize 9x
2 list_stones black
#? []

3 play b d04
#? []

4 list_stones black
#? [D4]

# komi must be a finite number.
boardsize 7
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
10 komi 6.5
#? []

komi nan
komi inf
komi -inf
komi 6.5x
komi 1e999
11 final_score
#? [W\+6\.5]

12 komi -0.5
#? []

13 final_score
#? [B\+0\.5]
