"""End-to-end tests: the real discord.py client against the project's fake Discord server."""
