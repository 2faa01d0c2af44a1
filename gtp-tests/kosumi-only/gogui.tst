# GoGui's analyze commands: shapes of their answers, not their values
# (the search behind them may change). kosumi only.

boardsize 7
clear_board

# One `type/label/command` per line, types GoGui 1.6 knows, no `/` in the
# command; the required entries are each looked for by lookahead.
1 gogui-analyze_commands
#? [(?=(.*\n)?dboard/[^/\n]+/kosumi-ownership %c(\n|$))(?=(.*\n)?gfx/[^/\n]+/kosumi-territory(\n|$))(?=(.*\n)?plist/[^/\n]+/final_status_list dead(\n|$))(?=(.*\n)?pspairs/[^/\n]+/kosumi-best_moves %c(\n|$))(?=(.*\n)?gfx/[^/\n]+/kosumi-pv %c(\n|$))(?=(.*\n)?string/[^/\n]+/kosumi-statistics(\n|$))(?=(.*\n)?param/[^/\n]+/kosumi-param(\n|$))((bwboard|cboard|dboard|sboard|plist|pspairs|pstring|hpstring|string|hstring|param|gfx|var|varb|varw|varc|none)/[^/\n]+/[^/\n]+\n)*(bwboard|cboard|dboard|sboard|plist|pspairs|pstring|hpstring|string|hstring|param|gfx|var|varb|varw|varc|none)/[^/\n]+/[^/\n]+]

2 gogui-interrupt
#? []

# Every command the list names exists.
3 known_command kosumi-ownership
#? [true]
4 known_command kosumi-territory
#? [true]
5 known_command kosumi-best_moves
#? [true]
6 known_command kosumi-pv
#? [true]
7 known_command kosumi-statistics
#? [true]
8 known_command kosumi-param
#? [true]

# param: `[type] key value` lines; set with `kosumi-param key value`.
10 kosumi-param
#? [(\[(bool|string|list(/[^/\]\s]+)+)\] \S+ \S+\n)*\[(bool|string|list(/[^/\]\s]+)+)\] \S+ \S+]
11 kosumi-param
#? [(?=(.*\n)?\[string\] playouts \S+(\n|$))(?=(.*\n)?\[bool\] ponder [01](\n|$))(?=(.*\n)?\[list/[^\]]*japanese[^\]]*\] rules japanese(\n|$)).*]
12 kosumi-param playouts 400
#? []
13 kosumi-param
#? [(.*\n)?\[string\] playouts 400(\n.*)?]
14 kosumi-param ponder 1
#? []
15 kosumi-param
#? [(.*\n)?\[bool\] ponder 1(\n.*)?]
16 kosumi-param ponder 0
#? []
17 kosumi-param rules chinese
#? []
18 kosumi-param
#? [(.*\n)?\[list/[^\]]*\] rules chinese(\n.*)?]
19 kosumi-param rules japanese
#? []
# Unknown keys and bad values are refused and change nothing.
kosumi-param bogus 1
kosumi-param playouts x
kosumi-param ponder maybe
20 kosumi-param
#? [(?=(.*\n)?\[string\] playouts 400(\n|$))(?=(.*\n)?\[bool\] ponder 0(\n|$))(?!(.*\n)?\[\S+\] bogus ).*]

# The search's named constants (tunables) are listed and set the same way;
# an unknown name or a probability above 1 is refused.
21 kosumi-param prior.even 14
#? []
kosumi-param prior.evn 14
kosumi-param playout.capture 1.5
22 kosumi-param
#? [(?=(.*\n)?\[string\] prior.even 14(\n|$))(?=(.*\n)?\[string\] playout.capture 0.95(\n|$))(?!(.*\n)?\[\S+\] prior.evn ).*]

# A settled 7x7 position: Black owns columns A-B, White F-G, column D is
# neutral; a white stone at A4 and a black one at G4 are dead.
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
play w A4
play b G4

# dboard: 7 rows of 7 numbers in [-1, 1].
30 kosumi-ownership b
#? [((-?0\.\d+|-?1\.0+|-?1)( (-?0\.\d+|-?1\.0+|-?1)){6}\n){6}(-?0\.\d+|-?1\.0+|-?1)( (-?0\.\d+|-?1\.0+|-?1)){6}]
31 kosumi-ownership w
#? [((-?0\.\d+|-?1\.0+|-?1)( (-?0\.\d+|-?1\.0+|-?1)){6}\n){6}(-?0\.\d+|-?1\.0+|-?1)( (-?0\.\d+|-?1\.0+|-?1)){6}]
32 kosumi-ownership
#? [((-?0\.\d+|-?1\.0+|-?1)( (-?0\.\d+|-?1\.0+|-?1)){6}\n){6}(-?0\.\d+|-?1\.0+|-?1)( (-?0\.\d+|-?1\.0+|-?1)){6}]

# gfx: territory as BLACK/WHITE, dead stones marked, the score as TEXT.
33 kosumi-territory
#? [(?=(.*\n)?BLACK( [AB][1-7]){14}(\n|$))(?=(.*\n)?WHITE( [FG][1-7]){14}(\n|$))(?=(.*\n)?MARK (A4 G4|G4 A4)(\n|$))(?=(.*\n)?TEXT W\+6\.5$)((BLACK|WHITE|MARK|TRIANGLE|CIRCLE|SQUARE)( [A-HJ-T]\d+)+\n)*TEXT \S.*]

# plist: the dead stones, in any order.
34 final_status_list dead
#? [(?=(.* )?A4( |$))(?=(.* )?G4( |$))\S+( \S+){1}]

# An open 9x9 position for the search commands.
boardsize 9
clear_board
play b E5
play w C3

# pspairs: vertex and win rate (percent) pairs.
40 kosumi-best_moves b
#? [[A-HJ]\d (100|\d{1,2})(\.\d+)?( [A-HJ]\d (100|\d{1,2})(\.\d+)?)*]
41 kosumi-best_moves
#? [[A-HJ]\d (100|\d{1,2})(\.\d+)?( [A-HJ]\d (100|\d{1,2})(\.\d+)?)*]

# gfx VAR: the principal variation, colours alternating from the one asked.
42 kosumi-pv w
#? [VAR [Ww] ([A-HJ]\d|pass)( [Bb] ([A-HJ]\d|pass)( [Ww] ([A-HJ]\d|pass))?)*]
43 kosumi-pv b
#? [VAR [Bb] ([A-HJ]\d|pass)( [Ww] ([A-HJ]\d|pass)( [Bb] ([A-HJ]\d|pass))?)*]

# string: one summary line, then candidates.
44 kosumi-statistics
#? [playouts \d+ in .*]

# The search commands leave the position alone.
45 list_stones black
#? [E5]
46 list_stones white
#? [C3]
