# Analysis commands as Sabaki sends them. The open-ended streams
# (lz-analyze, kata-analyze) only end when the next command arrives, which a
# one-command-at-a-time runner cannot send: tests/sabaki.rs covers them. The
# genmove forms end by themselves: `=`, one `info` line per update (the
# last one the finished search), then `play <vertex>`. kosumi only.
#
# The response text starts after the first space, inside the first
# `info move` line, so patterns begin with `(info )?move`.

boardsize 9
clear_board
play b E5
play w C3

# Refused: no colour, a bad colour, an unknown argument. Nothing is played, and the
# next command is answered as usual.
genmove_analyze
genmove_analyze 10
genmove_analyze x 10
genmove_analyze b 10 bogus 1
kata-genmove_analyze w 10 ownership maybe
101 list_stones black
#? [E5]
102 list_stones white
#? [C3]
103 protocol_version
#? [2]

# Leela Zero form: integer win rates in ten-thousandths.
1 genmove_analyze b 10
#? [(info )?move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*(\ninfo move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*)*\nplay ([A-HJ]\d|pass|resign)]
2 lz-genmove_analyze w 10
#? [(info )?move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*(\ninfo move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ winrate (10000|\d{1,4}) prior \d+ lcb \d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*)*\nplay ([A-HJ]\d|pass|resign)]

# KataGo form: float win rates in [0, 1], score fields, optional ownership
# (one value per point).
3 kata-genmove_analyze b 10
#? [(info )?move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*(\ninfo move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*)*\nplay ([A-HJ]\d|pass|resign)]
4 kata-genmove_analyze w 10 ownership true
#? [(info )?move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*( ownership( -?[01]\.\d+){81})?(\ninfo move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*( info move [A-HJ]\d visits \d+ utility -?\d+\.\d+ winrate (0\.\d+|1\.0+) scoreMean -?\d+\.\d+ scoreLead -?\d+\.\d+ prior \d\.\d+ lcb -?\d+\.\d+ order \d+ pv [A-HJ]\d( [A-HJ]\d)*)*( ownership( -?[01]\.\d+){81})?)*\nplay ([A-HJ]\d|pass|resign)]

# Sabaki's optional arguments are taken: interval by name, minmoves,
# maxmoves, allow, avoid.
5 genmove_analyze b interval 10 minmoves 2 maxmoves 5
#? [(info )?move .*\nplay ([A-HJ]\d|pass|resign)]
6 genmove_analyze w 10 avoid w A1,J9 1
#? [(info )?move .*\nplay ([A-HJ]\d|pass|resign)]
7 kata-genmove_analyze b 10 allow b A1,B1,C1,D1,E1,F1,G1,H1,J1 1
#? [(info )?move .*\nplay ([A-HJ]\d|pass|resign)]

# The generated moves were played (each colour has more than its first stone).
8 list_stones black
#? [(?=(.* )?E5( |$))\S+( \S+)+]
9 list_stones white
#? [(?=(.* )?C3( |$))\S+( \S+)+]
