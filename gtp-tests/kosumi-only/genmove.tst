# reg_genmove in clear 9x9 positions: the search must find the move that
# decides the game, save its own chain, keep its big chain out of atari,
# take the last neutral point under area counting and pass when only its
# own territory is left under Japanese counting. kosumi only (GNU Go plays
# some of these differently but not wrongly).

# A nine-stone White chain in atari at F2: taking it decides the game,
# anything else lets White connect to G2.
loadsgf ../games/genmove-capture.sgf
10 reg_genmove b
#? [F2]

# Nine Black stones in atari at F2; extending connects them to a living
# group, taking E1 at F1 saves them too. Anything else loses the game.
loadsgf ../games/genmove-save.sgf
20 reg_genmove b
#? [F2|F1]

# Filling either inner point would put twelve Black stones in atari.
loadsgf ../games/genmove-ring.sgf
30 reg_genmove b
#? [!D5|E5]

# Chinese counting, komi -7.5: the last dame (E9) decides the game.
loadsgf ../games/genmove-dame.sgf
40 reg_genmove b
#? [E9]

# Japanese counting, nothing left but own territory, White passed: pass.
loadsgf ../games/genmove-territory.sgf
50 reg_genmove b
#? [pass|PASS]

# Japanese counting, komi 8.5: Black's 36 points against White's 27, every
# border closed, White has not passed. Black wins by half a point by
# passing; the playouts let invasions live and see the game as even, so an
# invasion or a move in its own territory used to throw it away.
loadsgf ../games/genmove-half-point.sgf
60 reg_genmove b
#? [pass|PASS]

# Japanese counting, from a kosumi match against GNU Go: the borders are
# closed and the count says B+4.5, but White's J3 and J1 have taken the
# liberties of Black's H1-H2 down to G1 and G2, and White G2 next would
# capture them and open Black's lower side. The search wins with G2 (90%);
# passing from the count, as kosumi did three times here, lost the game.
loadsgf ../games/genmove-threatened-chain.sgf
70 reg_genmove b
#? [!pass|PASS]

# Japanese counting, from a kosumi match against Pachi (game 8 of the
# 100-game match at 545940c): White's C6 is in atari, but dead inside
# Black's area whatever happens, and the count says W+0.5. Passing wins;
# the search (52%) played in White's own territory and lost by half a
# point. An own chain the count has given up does not keep the game open.
loadsgf ../games/genmove-own-dead-in-atari.sgf
80 reg_genmove w
#? [pass|PASS]
