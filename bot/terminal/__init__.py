"""Offline play in a terminal: ``deckhand play <game>`` and ``deckhand standings``.

A front-end on the same ``TableService``, ``LeagueService`` and SQLite storage as the
Discord bot; it holds no rules (legality, hints and text all come from the engine, the
service and the shared renderers).
"""
