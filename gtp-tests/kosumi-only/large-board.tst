# Boards above 19x19, up to the GTP limit of 25x25. kosumi only: GNU Go 3.8
# stops at 19x19.

1 boardsize 25
#? []

2 play b Z25
#? []

3 play w a1
#? []

4 play b z1
#? []

5 list_stones black
#? [(?=(.* )?Z25( |$))(?=(.* )?Z1( |$))\S+( \S+){1}]

6 countlib Z25
#? [2]

7 findlib Z25
#? [(?=(.* )?Y25( |$))(?=(.* )?Z24( |$))\S+( \S+){1}]

8 is_legal w M13
#? [1]

# 26 is outside the protocol: refused, the board stays.
boardsize 26
play b A26
play b I1
10 list_stones black
#? [(?=(.* )?Z25( |$))(?=(.* )?Z1( |$))\S+( \S+){1}]

11 showboard
#? [.*A B C D E F G H J K L M N O P Q R S T U V W X Y Z.*]

12 showboard
#? [(?=(.*\n)? *25 .*)(?=(.*\n)? *1 .*)[^\n]*(\n[^\n]*){25,}]

# Fixed handicap on the fourth lines of 25x25.
clear_board
13 fixed_handicap 9
#? [(?=(.* )?D4( |$))(?=(.* )?W22( |$))(?=(.* )?D22( |$))(?=(.* )?W4( |$))(?=(.* )?D13( |$))(?=(.* )?W13( |$))(?=(.* )?N4( |$))(?=(.* )?N22( |$))(?=(.* )?N13( |$))\S+( \S+){8}]

14 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?W22( |$))(?=(.* )?D22( |$))(?=(.* )?W4( |$))(?=(.* )?D13( |$))(?=(.* )?W13( |$))(?=(.* )?N4( |$))(?=(.* )?N22( |$))(?=(.* )?N13( |$))\S+( \S+){8}]

20 boardsize 20
#? []

21 play b U20
#? []

play b V1
22 list_stones black
#? [U20]

23 boardsize 21
#? []

24 play w V21
#? []

25 list_stones white
#? [V21]
