# showboard: the shape of the diagram, not its every character.
# Shared with GNU Go 3.8: columns A-T without I, rows numbered from the
# bottom, Black X, White O.

boardsize 9
clear_board
1 showboard
#? [.*A B C D E F G H J.*]

2 showboard
#? [!.*[ABCDEFGH] I .*]

# At least a header and nine rows, with rows 9 and 1 labelled.
3 showboard
#? [[^\n]*(\n[^\n]*){9,}]

4 showboard
#? [(?=(.*\n)? *9 .*)(?=(.*\n)? *1 .*).*]

# Empty board: no stone on row 5.
5 showboard
#? [!(.*\n)? *5 [^\n]*[XO].*]

play b E5
play w D4
6 showboard
#? [(.*\n)? *5 [^\n]*X.*]

7 showboard
#? [(.*\n)? *4 [^\n]*O.*]

8 showboard
#? [!(.*\n)? *5 [^\n]*O.*]

9 showboard
#? [!(.*\n)? *4 [^\n]*X.*]

boardsize 19
10 showboard
#? [.*A B C D E F G H J K L M N O P Q R S T.*]

11 showboard
#? [(?=(.*\n)? *19 .*)(?=(.*\n)? *1 .*)[^\n]*(\n[^\n]*){19,}]
