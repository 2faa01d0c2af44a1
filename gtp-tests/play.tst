# play, captures, suicide, list_stones, is_legal, countlib and findlib.
# Shared with GNU Go 3.8.

boardsize 9
clear_board

# Colours and vertices in any case; passes; the same colour twice.
1 play b D4
#? []

2 play WHITE e5
#? []

3 play Black c3
#? []

4 play w PASS
#? []

5 play B pass
#? []

6 play b g7
#? []

7 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?C3( |$))(?=(.* )?G7( |$))\S+( \S+){2}]

8 list_stones WHITE
#? [E5]

9 list_stones w
#? [E5]

# Refused moves change nothing: occupied, off the board, the letter I,
# bad colours, missing arguments.
play w D4
play b J10
play b K1
play b I5
play b A0
play x E1
play b
play
10 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?C3( |$))(?=(.* )?G7( |$))\S+( \S+){2}]

11 list_stones white
#? [E5]

12 is_legal w D4
#? [0]

13 is_legal w E4
#? [1]

# Liberties.
14 countlib E5
#? [4]

15 findlib E5
#? [(?=(.* )?E6( |$))(?=(.* )?D5( |$))(?=(.* )?F5( |$))(?=(.* )?E4( |$))\S+( \S+){3}]

16 countlib D4
#? [4]

17 countlib C3
#? [4]

# Capture of a single stone in the middle.
clear_board
play w E5
play b D5
play b F5
play b E6
20 countlib E5
#? [1]

21 findlib E5
#? [E4]

22 play b E4
#? []

23 list_stones white
#? []

24 captures black
#? [1]

25 captures white
#? [0]

# Playing back into the eye is suicide for White, fine for Black.
26 is_legal w E5
#? [0]

27 is_legal b E5
#? [1]

28 countlib E4
#? [4]

# Capture of two stones on the edge.
play w A1
play w B1
play b A2
play b B2
30 findlib B1
#? [C1]

31 countlib A1
#? [1]

32 play b C1
#? []

33 list_stones white
#? []

34 captures black
#? [3]

35 countlib C1
#? [3]

36 findlib C1
#? [(?=(.* )?B1( |$))(?=(.* )?D1( |$))(?=(.* )?C2( |$))\S+( \S+){2}]

# A chain's liberties count once.
37 countlib B2
#? [5]

38 findlib A2
#? [(?=(.* )?A1( |$))(?=(.* )?A3( |$))(?=(.* )?B1( |$))(?=(.* )?B3( |$))(?=(.* )?C2( |$))\S+( \S+){4}]

# Multi-stone suicide: Black A9 would join A8 and B9 with no liberty left.
clear_board
play b A8
play b B9
play w A7
play w B8
play w C9
40 is_legal b A9
#? [0]

play b A9
41 list_stones black
#? [(?=(.* )?A8( |$))(?=(.* )?B9( |$))\S+( \S+){1}]

42 captures white
#? [0]

43 is_legal w A9
#? [1]

44 play w A9
#? []

45 list_stones black
#? []

46 captures white
#? [2]

47 countlib A9
#? [2]

# Filling the last liberty is fine when it captures: Black J1 takes J2 and H1.
play w J2
play w H1
play b J3
play b H2
play b G1
50 countlib J2
#? [1]

51 is_legal b J1
#? [1]

52 is_legal w J1
#? [0]

53 play b J1
#? []

54 list_stones white
#? [(?=(.* )?A9( |$))(?=(.* )?A7( |$))(?=(.* )?B8( |$))(?=(.* )?C9( |$))\S+( \S+){3}]

55 captures black
#? [2]

56 findlib J1
#? [(?=(.* )?J2( |$))(?=(.* )?H1( |$))\S+( \S+){1}]

# Now J2 is suicide for White (no capture: J1 has H1 too).
57 is_legal w J2
#? [0]

58 is_legal w H1
#? [0]
