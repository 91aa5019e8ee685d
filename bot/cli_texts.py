"""argparse's own texts, for the catalogs: argparse writes its usage line, its section
titles, the ``--help`` line and its errors through the standard ``gettext`` functions,
under these message ids (Python 3.11's), and ``i18n.library`` points those at Deckhand's
catalogs. They are marked here so that ``python -m i18n extract`` puts them in every
catalog; ``tests/test_cli.py`` holds this list to the argparse that runs."""

from __future__ import annotations

from i18n import N_

# TRANSLATORS: argparse's own texts. Keep %(name)s, %s and %r exactly as they are.
ARGPARSE = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unexpected option string: %s"),
)
