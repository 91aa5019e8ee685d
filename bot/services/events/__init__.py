"""Events: Swiss, round-robin and duplicate competitions, Discord-free.

``pairing`` and ``duplicate`` are pure (no database, no event loop): who meets whom, which
cards each table gets and how results turn into standings. ``rounds`` (pure too) applies
them to an event's rows; ``service`` (``EventService``) reads and writes those rows.
"""
