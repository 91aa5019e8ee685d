"""Pictures drawn with Pillow: card faces for application emojis and hand-end pictures.

Rendering only: rules come from the engines (decks, events), nothing here talks to
Discord, and hand-end pictures are drawn from public events alone.
"""
