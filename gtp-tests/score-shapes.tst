# Japanese counting of shapes the judge got wrong on KGS games (issue 17):
# 9x9 positions set up with AB/AW and ended by two passes (games/score-*.sgf).
# Expectations checked by hand under the 1989 Japanese rules.

# A pyramid four with White's stone on the vital point E7: Black's ring
# C8-F5 has no liberty outside and no two eyes whatever it plays; it is
# dead inside White's area. White: 14 empty points at the edges, D7, F7,
# E6 and the 14 dead stones' points, 14 prisoners, 0.5 komi; Black row 1.
loadsgf games/score-pyramid-vital.sgf
10 final_score
#? [W\+36\.5]
20 final_status_list dead
#? [(?=(.* )?C8( |$))(?=(.* )?G8( |$))(?=(.* )?D6( |$))(?=(.* )?E5( |$))\S+( \S+){13}]
30 final_status_list seki
#? []

# One real eye (D1) and a false eye (G1, whose diagonal F2 is White's) in
# a group among White's stones on rows 2-4, whose wall has the whole upper
# board: however Black plays, D1 is its only eye (D3, E3, G3 and H3 border
# White's row 4). Dead. White: 53 empty points, the 9 dead stones' points,
# 9 prisoners + 6.5 (GNU Go 3.8 agrees).
loadsgf games/score-one-eye-false-eye.sgf
110 final_score
#? [W\+77\.5]
120 final_status_list dead
#? [(?=(.* )?C2( |$))(?=(.* )?H1( |$))\S+( \S+){8}]
130 final_status_list seki
#? []

# The same group below a White wall (row 5, F4-F2) that has no eye of its
# own, with Black's wall on row 6 above: a race of one eye against none,
# which the eye wins, so the wall is dead and Black's group alive. Once
# written as the other way round and marked a known failure; GNU Go 3.8
# counts the wall dead too (B+73.5), and
# from this position with White to move GNU Go 3.8 against itself and
# kosumi against itself (50,000 playouts) both resign for White. Black:
# 63 points (the wall's 12 included) and 12 prisoners - 0.5.
loadsgf games/score-false-eye-group.sgf
140 final_score
#? [B\+74\.5]
150 final_status_list dead
#? [(?=(.* )?A5( |$))(?=(.* )?F2( |$))\S+( \S+){11}]

# A seki with one eye each (A9 for Black, J9 for White, sharing E9) and a
# black stone at H9 inside White's eye: White can take it at J9 at any
# time and keep an eye, so it is dead, not part of the seki. The seki's
# points count for no one; the stone is White's prisoner: Black 24 (F-J
# below row 7), White 18 (A-C) + 1 + 0.5.
loadsgf games/score-seki-dead-eye.sgf
210 final_score
#? [B\+4\.5]
220 final_status_list dead
#? [H9]
230 final_status_list seki
#? [(?=(.* )?B9( |$))(?=(.* )?D8( |$))(?=(.* )?F9( |$))(?=(.* )?J8( |$))\S+( \S+){13}]

# A black ring C4-E2 with one eye (D3) inside White's area, open to the
# east where White has G4 and G2: White F3 leaves it no room for a second
# eye. The playouts keep it alive about half the time (51%); a group with
# fewer than two eyes that survives less than 60% of them is dead (GNU Go
# 3.8 agrees). White: 27 points, the ring's 8, 8 prisoners + 0.5; Black
# rows 8-9. Before that rule: B+13.5.
loadsgf games/score-one-eye-group.sgf
310 final_score
#? [W\+25\.5]
320 final_status_list dead
#? [(?=(.* )?C4( |$))(?=(.* )?E2( |$))\S+( \S+){7}]
330 final_status_list seki
#? []

# A KGS 6d+ game (2001-12-23, from the tune half): two black pairs, D7-D6
# and C5-C4, and F5 among White's stones in the lower left, no eye
# between them. The light playouts alone keep the pairs alive more than
# half the time and name Black the winner; the search's playouts, mixed
# in, kill them, and the count is the players' W+13.5 (komi 5.5).
loadsgf games/score-kgs-corner-stones.sgf
410 final_score
#? [W\+13\.5]
420 final_status_list dead
#? [(?=(.* )?D7( |$))(?=(.* )?D6( |$))(?=(.* )?C5( |$))(?=(.* )?C4( |$))(?=(.* )?F5( |$)).*]

# A KGS 6d+ game (2002-01-18, from the tune half): White's chain D8-F9-E6
# has D9 in its own area and the dame D7 and F10. Had Black filled both,
# White would have had to fill D9; but the game is over and no one fills
# dame after it: D9 is White's, as KGS and the players count (W+10.5).
# A reading of dame fills made it no one's: W+9.5.
loadsgf games/score-kgs-unfilled-dame.sgf
510 final_score
#? [W\+10\.5]

# A KGS game (2002-10-04, from the tune half), 9 handicap stones, 7d
# against 21k, stopped with most black stones dead among open areas. The
# playouts leave dozens of chains beside points neither side fills, which
# read as seki everywhere (B+15.5). That many seki is an open board, not
# seki: the chains count by their survival, W+180.5 as the players counted.
loadsgf games/score-kgs-open-board.sgf
610 final_score
#? [W\+180\.5]
620 final_status_list seki
#? []

# A black group on the top edge (F8-H8, H7-J6) whose only eye space, D9-H9
# and J8 with White's J9 inside, is open to White's wall at D8-E8: not
# bounded by Black alone, so the reading of enclosed eye spaces skipped it
# and the playouts kept it alive (W+55.5). Read with White's living chains
# as walls, White moving first kills it (GNU Go 3.8 agrees): White has the
# 62 empty points, the 6 dead stones' points and 6 prisoners, + 0.5.
loadsgf games/score-open-eye-space.sgf
710 final_score
#? [W\+74\.5]
720 final_status_list dead
#? [(?=(.* )?F8( |$))(?=(.* )?G8( |$))(?=(.* )?H8( |$))(?=(.* )?H7( |$))(?=(.* )?J7( |$))(?=(.* )?J6( |$))\S+( \S+){5}]

# The KGS game that shape comes from (2006-05-03, from the tune half):
# Black's Q18-T16 on the top right, its eye space O19-S19 and T18 with
# White's T19 inside, open to White's O18-P18. Dead, as the players and
# GNU Go 3.8 count: W+17.5 (B+0.5 before, the wrong winner).
loadsgf games/score-kgs-open-edge.sgf
810 final_score
#? [W\+17\.5]
820 final_status_list dead
#? [(?=(.* )?Q18( |$))(?=(.* )?T16( |$)).*]

# A white corner chain (A2-B3-D3-E1) around four black stones (B1-D1,
# C2) in atari at A1, its own liberties A1 and F1. Black F1 ataris it;
# White's capture at A1 leaves it the pyramid four B1-D1-C2, and Black C1
# kills. Dead, as GNU Go 3.8 reads it too (its count B+70.5 leaves one
# point out); the reading needs more than 12 plies, so a shorter one kept
# the chain alive and the black stones dead (B+44.5). Black: 56 empty
# points, the chain's 8 points and 8 prisoners, less 0.5.
loadsgf games/score-capture-to-pyramid.sgf
910 final_score
#? [B\+71\.5]
920 final_status_list dead
#? [(?=(.* )?A2( |$))(?=(.* )?E1( |$))(?=(.* )?B3( |$))\S+( \S+){7}]

# White's group D9-J3 keeps only G9, H9 and H8 around Black's G8: Black
# moving first kills it; White moving first takes G8 with H8 and G9, but
# Black's throw-in at G9 after H8 leaves it one eye. Either side moving
# first captures, yet it is no seki: the white group (16 stones) and A7 are
# dead (GNU Go 3.8 agrees; a 9x9 match game's last position, where kosumi
# had counted a seki). Black: the white group's and A7's points, the
# empty points of its area, and 17 prisoners; White's bottom left, + 6.5.
loadsgf games/score-captured-either-way.sgf
1010 final_score
#? [B\+28\.5]
1020 final_status_list dead
#? [(?=(.* )?D9( |$))(?=(.* )?J3( |$))(?=(.* )?A7( |$))\S+( \S+){16}]
1030 final_status_list seki
#? []

# Black's ring E5-J2 (13 stones) holds White's G2-H3 (4 stones, liberties
# G1 and J1) and has the dame D5, C4 and E1 outside. Black wins the race to
# capture the four, but the capture leaves a pyramid four whose vital point
# H2 White takes once the dame are filled: the ring dies (GNU Go 3.8's
# owl reading agrees, and no defence saves it moving first). The shape of a
# KGS tune game's corner (2015-01-08-37) where the ring could also extend
# along the first line, which kosumi still reads wrong there. White: 28
# empty points, the ring's 13 points and 13 prisoners, + 0.5.
loadsgf games/score-capture-short-of-liberties.sgf
1110 final_score
#? [W\+54\.5]
1120 final_status_list dead
#? [(?=(.* )?E5( |$))(?=(.* )?F1( |$))(?=(.* )?J2( |$))\S+( \S+){12}]

# An L-shaped four on the first line (C2, D2, E2, E1) with no liberty
# outside: Black's B3-D1 (8 stones) around it and F2-F1 (2 stones), whose
# only liberties are E2 and E1. White E2 kills: after E1, White D2, the
# capture at C2 and White's throw-in, the group has one eye; after D2, C2
# or a pass, White E1 takes F2-F1 and the group is left short of liberties.
# The answers E1, D2 and C2 were played out over GTP with GNU Go 3.8,
# which itself counts the group alive (W+49.5; `owl_attack B3` finds no
# attack), as did the players of KGS tune game 2006-12-20-16 with this
# shape. White: 67 points and 10 prisoners, + 0.5.
loadsgf games/score-bent-four-edge.sgf
1210 final_score
#? [W\+77\.5]
1220 final_status_list dead
#? [(?=(.* )?B3( |$))(?=(.* )?D1( |$))(?=(.* )?F2( |$))(?=(.* )?F1( |$))\S+( \S+){9}]
1230 final_status_list seki
#? []

# White's C9 (7 stones), A8-A7 and A5 around Black's B9-B8 look like a
# seki, but Black breaks it: A4, White A6 to connect, Black's throw-in at
# B7, White's capture of three at A9, and Black's nakade at B8 leave White
# one eye. The corner of KGS tune game 2006-10-13-12, turned over, whose
# seki reading ran out of positions until seki regions were read by proof
# numbers. GNU Go 3.8 counts it the same. Black: 24 points and 10
# prisoners; White: 8 points + 6.5.
loadsgf games/score-seki-throw-in.sgf
1310 final_score
#? [B\+19\.5]
1320 final_status_list dead
#? [(?=(.* )?C9( |$))(?=(.* )?A8( |$))(?=(.* )?A5( |$))\S+( \S+){9}]
1330 final_status_list seki
#? []

# A 13x13 game against GNU Go (kosumi White), both passed: White's upper
# left group D13-B10 has a pyramid four (A13, B13, C13, B12) with Black's
# B13 on its vital point, and two liberties outside (D11, E13) in a dame
# pocket of ten empty points. Black fills them and kills whatever White
# plays inside: White B12 leaves B13 two liberties it shares with the
# group, and Black's throw-in at A13 turns the eye into a straight two.
# Read as seki until the seki reading took regions of up to twelve empty
# points. GNU Go 3.8 and KataGo both count B+2.5.
loadsgf games/score-pyramid-approach.sgf
1410 final_score
#? [B\+2\.5]
1420 final_status_list dead
#? [(?=(.* )?D13( |$))(?=(.* )?B10( |$))(?=(.* )?A12( |$))\S+( \S+){20}]
1430 final_status_list seki
#? []
