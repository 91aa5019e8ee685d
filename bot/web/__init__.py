"""``deckhand web``: a small read-only site of published leagues — standings with rating
charts, players' records and step-through replays of finished games.

``paths`` (addresses), ``html`` (escaped markup), ``chart`` (SVG), ``pages`` (HTML from
data), ``site`` (data from the database, publication checks) and ``app`` (aiohttp:
routes, headers, errors). Rules stay in the services; hidden cards never reach a page.
"""
