# GTP framing as a client sees it. Shared with GNU Go 3.8.
#
# Only numbered commands are tests; a `?` answer to a test is a failure, so
# refused commands are sent without a number and the state is checked after.

1 protocol_version
#? [2]

2 name
#? [.+]

# Any version text, even an empty one, is fine.
3 version

# The commands every GTP v2 engine must have, plus the ones these files use.
4 list_commands
#? [(?=(.*\n)?protocol_version(\n|$))(?=(.*\n)?name(\n|$))(?=(.*\n)?version(\n|$))(?=(.*\n)?known_command(\n|$))(?=(.*\n)?list_commands(\n|$))(?=(.*\n)?quit(\n|$))(?=(.*\n)?boardsize(\n|$))(?=(.*\n)?clear_board(\n|$))(?=(.*\n)?komi(\n|$))(?=(.*\n)?play(\n|$))(?=(.*\n)?genmove(\n|$)).*]

5 list_commands
#? [(?=(.*\n)?undo(\n|$))(?=(.*\n)?fixed_handicap(\n|$))(?=(.*\n)?showboard(\n|$))(?=(.*\n)?loadsgf(\n|$))(?=(.*\n)?final_score(\n|$))(?=(.*\n)?list_stones(\n|$))(?=(.*\n)?is_legal(\n|$))(?=(.*\n)?countlib(\n|$))(?=(.*\n)?findlib(\n|$))(?=(.*\n)?captures(\n|$)).*]

# One name per line: no line holds two words.
6 list_commands
#? [!.*\S[ \t]+\S.*]

# Command names are case-sensitive; colours and vertices are not.
10 known_command play
#? [true]

11 known_command PLAY
#? [false]

12 known_command Play
#? [false]

13 known_command no_such_command
#? [false]

14 known_command list_commands
#? [true]

# An unknown or mis-cased command is refused and changes nothing.
boardsize 9
clear_board
PLAY b E5
Play b E5
no_such_command b E5
20 list_stones black
#? []

# The engine keeps answering after errors.
21 protocol_version
#? [2]

# A trailing comment is removed by the engine, not by the client.
22 known_command play # known_command PLAY
#? [true]

23 known_command PLAY # play
#? [false]

# Ids: leading zeros and a plus sign still make a number, echoed as a number.
0024 protocol_version
#? [2]

+25 protocol_version
#? [2]

# A negative number in the id place is taken as no id (GNU Go does so).
-26 protocol_version

# Extra spaces between the parts of a command do not matter.
27    known_command     play   
#? [true]

# Control characters inside a line are dropped (there is a U+0001 here).
28 protocol_version
#? [2]

29 play b E5
#? []

30 list_stones black
#? [E5]

99 quit
#? []
