"""What the hands tell: ratings of people across championships (OpenSkill) and statistics
computed from the engine's own results of the stored hands.

Between ``tasks`` (which queue their updates after a result) and ``stages`` in the
layers: they read and write the championships' data below them; the pages, the API and
the commands above call them.
"""
