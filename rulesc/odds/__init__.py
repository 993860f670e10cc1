"""`rulesc odds`: where tokens land, read from the rules as a Markov chain and solved exactly.

chain.py reads the chain of one token from the movement rules (values.py: the few values it can
know), solve.py finds its long-run law with fractions, figures.py turns that into the figures a
player reads (per square, per group, per lap), simulated.py measures the same figures in games the
interpreter plays (for what the chain cannot follow, and to check it), money.py prices squares
with the interpreter's own handlers, report.py and heatmap.py write them out, docsection.py puts them on a
game's documentation page.
"""
