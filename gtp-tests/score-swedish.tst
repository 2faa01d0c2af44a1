# Swedish rules: territory plus prisoners plus pass stones (each pass hands
# the opponent a prisoner). games/score-captures.sgf has four white passes
# and one black pass and no RU[], so the rules set here apply; komi 0.5 from the file: 23 + 1 + 4 against 36 + 1 + 0.5.
kgs-rules swedish
loadsgf games/score-captures.sgf
10 final_score
#? [W\+9\.5]

# Area counting: 13 stones + 23 points against 9 + 36 + 0.5.
kgs-rules chinese
loadsgf games/score-captures.sgf
20 final_score
#? [W\+9\.5]
