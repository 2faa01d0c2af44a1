# Japanese counting of finished positions (games/score-*.sgf, 9x9, set up
# with AB/AW and ended by two passes). Expectations checked by hand under
# the 1989 Japanese rules; GNU Go 3.8 agrees on tests 10-20 and 410.

# Black owns A-B and J, White E-F; a lone white stone at A5 and a lone
# black stone at E5, each in a strip too narrow to live in, are dead:
# territory plus prisoners, 27 + 1 to 18 + 1 + 6.5.
loadsgf games/score-dead.sgf
10 final_score
#? [B\+2\.5]
20 final_status_list dead
#? [A5 E5]
30 final_status_list seki
#? []
40 final_status_list black_territory
#? [.*A5.*]
50 final_status_list white_territory
#? [.*E5.*]
60 final_status_list dame
#? []

# A seki without eyes: the black chain B1-D1 and the white chain A2-F2, F1
# share A1 and E1; whoever fills one is captured and leaves the other a
# straight four. The seki's points count for no one: 36 to 9 + 6.5.
loadsgf games/score-seki.sgf
110 final_score
#? [B\+20\.5]
120 final_status_list seki
#? [(?=(.* )?B1( |$))(?=(.* )?F1( |$))(?=(.* )?A2( |$))(?=(.* )?F2( |$))\S+( \S+){9}]
130 final_status_list dead
#? []
140 final_status_list dame
#? [A1 E1|E1 A1]

# Not a seki: A2 gives up three black stones and the bent three White
# gets back is a nakade, so the white corner A3-C1 is dead (GNU Go 3.8
# agrees: W+15.5).
loadsgf games/score-false-seki.sgf
150 final_score
#? [W\+15\.5]
160 final_status_list dead
#? [A3 B3 C3 C2 C1]
170 final_status_list seki
#? []

# Bent four in the corner is dead: Black can give up A9-A7 and B9, make
# the bent four and take the ko first; in confirmation White may retake
# only after passing. Black 16 + 9 + 7 prisoners against 27 + 6.5.
loadsgf games/score-bent-four.sgf
180 final_score
#? [W\+1\.5]
190 final_status_list dead
#? [(?=(.* )?C9( |$))(?=(.* )?A6( |$))\S+( \S+){6}]

# D8 is an unfilled neutral point. Had White filled it, Black would have
# had to connect at C9, but no one fills dame after the game: C9 is
# Black's, as KGS and GNU Go 3.8 count it (W+16.5).
loadsgf games/score-neutral.sgf
210 final_score
#? [W\+16\.5]
220 final_status_list dame
#? [D8]

# D5 is a false eye: Black must fill it to save E5 (GNU Go 3.8: W+14.5).
loadsgf games/score-false-eye.sgf
310 final_score
#? [W\+15\.5]
320 final_status_list dead
#? []

# A white stone captured during the game counts for Black; komi 0.5 as in
# a handicap game: 23 + 1 against 36 + 0.5.
loadsgf games/score-captures.sgf
410 final_score
#? [W\+12\.5]

# Seki with eyes: the black chain B9-D8 (eye A9) and the white chain
# F9-J8 (eye J9) share E9. Under Japanese rules neither eye nor the shared
# liberty counts: 24 (F-J below row 7) against 18 (A-C) + 0.5.
loadsgf games/score-seki-eyes.sgf
510 final_score
#? [B\+5\.5]
520 final_status_list dead
#? []
530 final_status_list seki
#? [(?=(.* )?B9( |$))(?=(.* )?D8( |$))(?=(.* )?F9( |$))(?=(.* )?J8( |$))\S+( \S+){14}]
540 final_status_list dame
#? [A9 E9 J9]

# A hane-ko left open at the bottom: Black's F1 is in atari and White
# could take it at E1. The position counts as it stands: F1 stays, no
# prisoner changes hands, and E1 is Black's connection to make, not a point
# (27 against 32 + 0.5).
loadsgf games/score-hane-ko.sgf
610 final_score
#? [W\+5\.5]
620 final_status_list dead
#? []
630 final_status_list dame
#? [E1]

# Black's ring shares C7-C5 with White's B7-B5 inside it and has one
# more liberty, E6, a dame next to White's wall. It looks like seki (GNU
# Go 3.8 says seki, and so did kosumi until its eye-space reading went 40
# plies deep), but White kills it: E6, then C6 and C7 while Black can only
# pass (a black move inside puts the ring in atari first); Black's capture
# of the five stones leaves a bulky five, and White's B6 on its vital point
# kills. White: H9, H3, A1, C1, C7-C5, E6, the ring's 14 points and 14
# prisoners, + 0.5.
loadsgf games/score-seki-dame.sgf
710 final_score
#? [W\+36\.5]
720 final_status_list seki
#? []
730 final_status_list dead
#? [A8 B8 C8 D8 A7 D7 A6 D6 A5 D5 A4 B4 C4 D4]
740 final_status_list dame
#? []

# A corner race from a KGS game (2017-04-10-42): Black's F9-H6 (liberties
# G9, J6) against White's G8-J8 (G9, J9). White moving first captures the
# dead J5-G2 at J6 and then takes G9; Black moving first captures G8-J8 at
# G9, but the corner it gets back dies. Captured whoever starts, so dead;
# White's three stones live. 34 empty points, 15 dead stones and 15
# prisoners, + 0.5.
loadsgf games/score-corner-race.sgf
810 final_score
#? [W\+64\.5]
820 final_status_list dead
#? [F9 H9 F8 E7 F7 G7 H7 J7 H6 J5 H4 J4 H3 G2 H2]
830 final_status_list seki
#? []

# A 9x9 game against GNU Go: White's top group (E8-J8, F9, H7) lives only
# on G9 and J9 around Black's H9. Black G9 gives two stones, White J9 takes
# them, the throw-in at H9 leaves one eye and H9 again captures: dead, and
# without it Black's big chain no longer needs J5: White's J5 dies too,
# no seki. Black: 4 + 6 + 1 + 3 territory, 8 dead and 1 captured; White:
# B3-E3 and komi.
loadsgf games/score-straight-three.sgf
910 final_score
#? [B\+12\.5]
920 final_status_list dead
#? [F9 E8 F8 G8 H8 J8 H7 J5]
930 final_status_list seki
#? []
