# place_free_handicap: kosumi's own choice, the traditional placement. Three
# stones leave the upper left corner empty (fixed_handicap, GTP's points,
# leaves the lower right); other numbers up to nine are GTP's; beyond nine
# the stones spread over the board. kosumi only (GNU Go chooses its own).

boardsize 13
clear_board
10 place_free_handicap 3
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?K4( |$))\S+( \S+){2}]

11 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?K4( |$))\S+( \S+){2}]

boardsize 19
clear_board
20 place_free_handicap 4
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))\S+( \S+){3}]

clear_board
30 place_free_handicap 12
#? [\S+( \S+){11}]

31 list_stones white
#? []
