# undo. Shared with GNU Go 3.8.

boardsize 9
clear_board
play b E5
play w D5
1 undo
#? []

2 list_stones white
#? []

3 list_stones black
#? [E5]

4 undo
#? []

5 list_stones black
#? []

# Nothing left to undo: refused, nothing changes.
undo
6 list_stones black
#? []

# Passes are moves too.
play b pass
play w C3
play b pass
7 undo
#? []

8 undo
#? []

9 list_stones white
#? []

10 undo
#? []

undo
11 list_stones black
#? []

# undo brings back captured stones and the capture count.
play w E5
play b D5
play b F5
play b E6
20 play b E4
#? []

21 captures black
#? [1]

22 undo
#? []

23 list_stones white
#? [E5]

24 captures black
#? [0]

25 countlib E5
#? [1]

# A different move after undo.
26 play b pass
#? []

27 play w E4
#? []

28 countlib E5
#? [3]

29 list_stones white
#? [(?=(.* )?E5( |$))(?=(.* )?E4( |$))\S+( \S+){1}]

# A refused move is not a move: undo takes back W E4, not the refusal.
play b E4
30 undo
#? []

31 list_stones white
#? [E5]

# Undo all the way back, then once more: refused.
32 undo
#? []

33 undo
#? []

34 undo
#? []

35 undo
#? []

36 undo
#? []

undo
37 list_stones black
#? []

38 list_stones white
#? []

# After clear_board or boardsize there is nothing to undo.
play b E5
clear_board
undo
40 list_stones black
#? []

play b E5
boardsize 9
undo
41 list_stones black
#? []

42 play b C3
#? []

43 undo
#? []

44 list_stones black
#? []
