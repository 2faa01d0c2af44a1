# fixed_handicap: the GTP v2 placements, in any order. Shared with GNU Go 3.8.
#
# Each placement is checked twice: the answer, and the stones on the board.

# 19x19
boardsize 19
clear_board
# 2 stones: D4 Q16
100 fixed_handicap 2
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))\S+( \S+){1}]

101 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))\S+( \S+){1}]

102 list_stones white
#? []

clear_board
# 3 stones: D4 Q16 D16
103 fixed_handicap 3
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))\S+( \S+){2}]

104 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))\S+( \S+){2}]

105 list_stones white
#? []

clear_board
# 4 stones: D4 Q16 D16 Q4
106 fixed_handicap 4
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))\S+( \S+){3}]

107 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))\S+( \S+){3}]

108 list_stones white
#? []

clear_board
# 5 stones: D4 Q16 D16 Q4 K10
109 fixed_handicap 5
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?K10( |$))\S+( \S+){4}]

110 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?K10( |$))\S+( \S+){4}]

111 list_stones white
#? []

clear_board
# 6 stones: D4 Q16 D16 Q4 D10 Q10
112 fixed_handicap 6
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))\S+( \S+){5}]

113 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))\S+( \S+){5}]

114 list_stones white
#? []

clear_board
# 7 stones: D4 Q16 D16 Q4 D10 Q10 K10
115 fixed_handicap 7
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))(?=(.* )?K10( |$))\S+( \S+){6}]

116 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))(?=(.* )?K10( |$))\S+( \S+){6}]

117 list_stones white
#? []

clear_board
# 8 stones: D4 Q16 D16 Q4 D10 Q10 K4 K16
118 fixed_handicap 8
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))(?=(.* )?K4( |$))(?=(.* )?K16( |$))\S+( \S+){7}]

119 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))(?=(.* )?K4( |$))(?=(.* )?K16( |$))\S+( \S+){7}]

120 list_stones white
#? []

clear_board
# 9 stones: D4 Q16 D16 Q4 D10 Q10 K4 K16 K10
121 fixed_handicap 9
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))(?=(.* )?K4( |$))(?=(.* )?K16( |$))(?=(.* )?K10( |$))\S+( \S+){8}]

122 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?Q16( |$))(?=(.* )?D16( |$))(?=(.* )?Q4( |$))(?=(.* )?D10( |$))(?=(.* )?Q10( |$))(?=(.* )?K4( |$))(?=(.* )?K16( |$))(?=(.* )?K10( |$))\S+( \S+){8}]

123 list_stones white
#? []


# 13x13
boardsize 13
clear_board
# 2 stones: D4 K10
200 fixed_handicap 2
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))\S+( \S+){1}]

201 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))\S+( \S+){1}]

202 list_stones white
#? []

clear_board
# 3 stones: D4 K10 D10
203 fixed_handicap 3
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))\S+( \S+){2}]

204 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))\S+( \S+){2}]

205 list_stones white
#? []

clear_board
# 4 stones: D4 K10 D10 K4
206 fixed_handicap 4
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))\S+( \S+){3}]

207 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))\S+( \S+){3}]

208 list_stones white
#? []

clear_board
# 5 stones: D4 K10 D10 K4 G7
209 fixed_handicap 5
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?G7( |$))\S+( \S+){4}]

210 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?G7( |$))\S+( \S+){4}]

211 list_stones white
#? []

clear_board
# 6 stones: D4 K10 D10 K4 D7 K7
212 fixed_handicap 6
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))\S+( \S+){5}]

213 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))\S+( \S+){5}]

214 list_stones white
#? []

clear_board
# 7 stones: D4 K10 D10 K4 D7 K7 G7
215 fixed_handicap 7
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))(?=(.* )?G7( |$))\S+( \S+){6}]

216 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))(?=(.* )?G7( |$))\S+( \S+){6}]

217 list_stones white
#? []

clear_board
# 8 stones: D4 K10 D10 K4 D7 K7 G4 G10
218 fixed_handicap 8
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))(?=(.* )?G4( |$))(?=(.* )?G10( |$))\S+( \S+){7}]

219 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))(?=(.* )?G4( |$))(?=(.* )?G10( |$))\S+( \S+){7}]

220 list_stones white
#? []

clear_board
# 9 stones: D4 K10 D10 K4 D7 K7 G4 G10 G7
221 fixed_handicap 9
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))(?=(.* )?G4( |$))(?=(.* )?G10( |$))(?=(.* )?G7( |$))\S+( \S+){8}]

222 list_stones black
#? [(?=(.* )?D4( |$))(?=(.* )?K10( |$))(?=(.* )?D10( |$))(?=(.* )?K4( |$))(?=(.* )?D7( |$))(?=(.* )?K7( |$))(?=(.* )?G4( |$))(?=(.* )?G10( |$))(?=(.* )?G7( |$))\S+( \S+){8}]

223 list_stones white
#? []


# 9x9
boardsize 9
clear_board
# 2 stones: C3 G7
300 fixed_handicap 2
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))\S+( \S+){1}]

301 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))\S+( \S+){1}]

302 list_stones white
#? []

clear_board
# 3 stones: C3 G7 C7
303 fixed_handicap 3
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))\S+( \S+){2}]

304 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))\S+( \S+){2}]

305 list_stones white
#? []

clear_board
# 4 stones: C3 G7 C7 G3
306 fixed_handicap 4
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))\S+( \S+){3}]

307 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))\S+( \S+){3}]

308 list_stones white
#? []

clear_board
# 5 stones: C3 G7 C7 G3 E5
309 fixed_handicap 5
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?E5( |$))\S+( \S+){4}]

310 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?E5( |$))\S+( \S+){4}]

311 list_stones white
#? []

clear_board
# 6 stones: C3 G7 C7 G3 C5 G5
312 fixed_handicap 6
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))\S+( \S+){5}]

313 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))\S+( \S+){5}]

314 list_stones white
#? []

clear_board
# 7 stones: C3 G7 C7 G3 C5 G5 E5
315 fixed_handicap 7
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))(?=(.* )?E5( |$))\S+( \S+){6}]

316 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))(?=(.* )?E5( |$))\S+( \S+){6}]

317 list_stones white
#? []

clear_board
# 8 stones: C3 G7 C7 G3 C5 G5 E3 E7
318 fixed_handicap 8
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))(?=(.* )?E3( |$))(?=(.* )?E7( |$))\S+( \S+){7}]

319 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))(?=(.* )?E3( |$))(?=(.* )?E7( |$))\S+( \S+){7}]

320 list_stones white
#? []

clear_board
# 9 stones: C3 G7 C7 G3 C5 G5 E3 E7 E5
321 fixed_handicap 9
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))(?=(.* )?E3( |$))(?=(.* )?E7( |$))(?=(.* )?E5( |$))\S+( \S+){8}]

322 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))(?=(.* )?C7( |$))(?=(.* )?G3( |$))(?=(.* )?C5( |$))(?=(.* )?G5( |$))(?=(.* )?E3( |$))(?=(.* )?E7( |$))(?=(.* )?E5( |$))\S+( \S+){8}]

323 list_stones white
#? []


# 7x7
boardsize 7
clear_board
# 2 stones: C3 E5
400 fixed_handicap 2
#? [(?=(.* )?C3( |$))(?=(.* )?E5( |$))\S+( \S+){1}]

401 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?E5( |$))\S+( \S+){1}]

402 list_stones white
#? []

clear_board
# 3 stones: C3 E5 C5
403 fixed_handicap 3
#? [(?=(.* )?C3( |$))(?=(.* )?E5( |$))(?=(.* )?C5( |$))\S+( \S+){2}]

404 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?E5( |$))(?=(.* )?C5( |$))\S+( \S+){2}]

405 list_stones white
#? []

clear_board
# 4 stones: C3 E5 C5 E3
406 fixed_handicap 4
#? [(?=(.* )?C3( |$))(?=(.* )?E5( |$))(?=(.* )?C5( |$))(?=(.* )?E3( |$))\S+( \S+){3}]

407 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?E5( |$))(?=(.* )?C5( |$))(?=(.* )?E3( |$))\S+( \S+){3}]

408 list_stones white
#? []


# 8x8
boardsize 8
clear_board
# 2 stones: C3 F6
500 fixed_handicap 2
#? [(?=(.* )?C3( |$))(?=(.* )?F6( |$))\S+( \S+){1}]

501 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?F6( |$))\S+( \S+){1}]

502 list_stones white
#? []

clear_board
# 3 stones: C3 F6 C6
503 fixed_handicap 3
#? [(?=(.* )?C3( |$))(?=(.* )?F6( |$))(?=(.* )?C6( |$))\S+( \S+){2}]

504 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?F6( |$))(?=(.* )?C6( |$))\S+( \S+){2}]

505 list_stones white
#? []

clear_board
# 4 stones: C3 F6 C6 F3
506 fixed_handicap 4
#? [(?=(.* )?C3( |$))(?=(.* )?F6( |$))(?=(.* )?C6( |$))(?=(.* )?F3( |$))\S+( \S+){3}]

507 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?F6( |$))(?=(.* )?C6( |$))(?=(.* )?F3( |$))\S+( \S+){3}]

508 list_stones white
#? []


# 10x10
boardsize 10
clear_board
# 2 stones: C3 H8
600 fixed_handicap 2
#? [(?=(.* )?C3( |$))(?=(.* )?H8( |$))\S+( \S+){1}]

601 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?H8( |$))\S+( \S+){1}]

602 list_stones white
#? []

clear_board
# 3 stones: C3 H8 C8
603 fixed_handicap 3
#? [(?=(.* )?C3( |$))(?=(.* )?H8( |$))(?=(.* )?C8( |$))\S+( \S+){2}]

604 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?H8( |$))(?=(.* )?C8( |$))\S+( \S+){2}]

605 list_stones white
#? []

clear_board
# 4 stones: C3 H8 C8 H3
606 fixed_handicap 4
#? [(?=(.* )?C3( |$))(?=(.* )?H8( |$))(?=(.* )?C8( |$))(?=(.* )?H3( |$))\S+( \S+){3}]

607 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?H8( |$))(?=(.* )?C8( |$))(?=(.* )?H3( |$))\S+( \S+){3}]

608 list_stones white
#? []

# Refusals leave the board as it was.
boardsize 19
clear_board
fixed_handicap 1
fixed_handicap 0
fixed_handicap 10
fixed_handicap -2
fixed_handicap x
fixed_handicap
700 list_stones black
#? []

# Too many for the size: 7x7 takes at most 4, even sizes at most 4.
boardsize 7
fixed_handicap 5
701 list_stones black
#? []

boardsize 8
fixed_handicap 5
702 list_stones black
#? []

boardsize 10
fixed_handicap 9
703 list_stones black
#? []

# No fixed handicap below 7x7.
boardsize 6
fixed_handicap 2
704 list_stones black
#? []

boardsize 5
fixed_handicap 2
705 list_stones black
#? []

# Only on an empty board.
boardsize 9
clear_board
play w E5
fixed_handicap 2
706 list_stones black
#? []

# Not twice either.
clear_board
707 fixed_handicap 2
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))\S+( \S+){1}]

fixed_handicap 4
708 list_stones black
#? [(?=(.* )?C3( |$))(?=(.* )?G7( |$))\S+( \S+){1}]

# The handicap stones are there for the rules: a move on one is refused.
709 is_legal w C3
#? [0]

710 countlib G7
#? [4]
