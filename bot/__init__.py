"""Deckhand the application: services, Discord adapter, renderers and the CLI."""
