"""What more than one audience's pages use, and no view: a service's refusal shown on a
form (``forms``), a side's answer to its result (``answer``, also the referee's tablet),
a link shown once (``shown_once``), a team's personal link as a URL (``links``).

May import the domain packages below ``web``; never an audience's package.
"""
