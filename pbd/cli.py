"""The command line: parse arguments, call one library function, format its result.

This is the only module that imports click, and the one place where pbd's errors
become messages and exit codes.
"""

from __future__ import annotations

import gc
import os
import re
import sys

import click

from pbd import __version__, match
from pbd.errors import PbdError
from pbd.regex import pattern
from pbd.result import Result

#: exit code for a bug in pbd itself (EX_SOFTWARE), distinct from every expected failure
INTERNAL_ERROR = 70
#: exit code after Ctrl-C (the shell's 128 + SIGINT), never the 1 of an illegal move
INTERRUPTED = 130

EPILOG_NEW = """\b
Examples:
  pbd new cnc match.txt --as Ann --deck forces-of-justice
  pbd new cnc match.txt --as Ann --deck my-deck.txt --first random
"""


def _emit(result: Result, as_json: bool = False) -> None:
    for warning in result.warnings:
        click.echo(f"pbd: warning: {warning}", err=True)
    if as_json:
        import json

        click.echo(json.dumps(result.data if result.data is not None else {"lines": result.lines},
                              indent=2, ensure_ascii=False))
    else:
        lines = _painted(result) if _colour_wanted() else result.lines
        if lines:       # one write for the lines: click.echo costs a command about 2k instructions a call (and a flush)
            click.echo("\n".join(lines))


def _colour_wanted() -> bool:
    """Return True when stdout is a terminal and ``NO_COLOR`` is unset (https://no-color.org): never in pipes."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


#: how each style of :meth:`pbd.games.base.Game.styles` (and each word painted) looks on a terminal
STYLE = {"heading": {"bold": True, "underline": True}, "bold": {"bold": True},
         "Blue": {"fg": "blue"}, "Gray": {"fg": 244}, "Grey": {"fg": 244}, "Yellow": {"fg": "yellow"},
         "Green": {"fg": "green"}, "Orange": {"fg": 208}, "Red": {"fg": "red"}, "Black": {},
         "frozen": {"fg": "cyan", "bold": True}, "poisoned": {"fg": "green", "bold": True},
         "confused": {"fg": "magenta", "bold": True}}
#: words worth a colour wherever they appear: a C&C class (its rulebook colour), a status, whose turn it is
WORDS = pattern(r"\b(?P<klass>Anti-Hero|Anti-Villain|Hero|Villain|Civilian|Government)\b"
                   r"|\b(?P<status>frozen|poisoned|confused)\b"
                   r"|(?P<turn>\b[^\s:·][^:·\n]{0,60}? to (?:move|play)\b"
                   r"|^Result: .*|^Winner: .*|\bwins the match\b.*)")
CLASS_COLOUR = {"Hero": "Blue", "Anti-Hero": "Gray", "Civilian": "Yellow", "Government": "Green",
                "Anti-Villain": "Orange", "Villain": "Red"}


def _painted(result: Result) -> list[str]:
    """Return the result's lines coloured: the game's style spans where it gave some, else known words."""
    spans = result.styles() if result.styles else []
    out, offset = [], 0
    for line in result.lines:
        mine = [(max(s, offset) - offset, min(e, offset + len(line)) - offset, style) for s, e, style in spans
                if s < offset + len(line) and e > offset]
        out.append(_paint_spans(line, mine) if mine else WORDS.sub(_paint_word, line))
        offset += len(line) + 1
    return out


def _paint_spans(line: str, spans: list[tuple[int, int, str]]) -> str:
    """Return ``line`` with each ``(start, end, style)`` span styled (innermost last; spans may nest, not cross)."""
    marks = sorted(((s, e, style) for s, e, style in spans if STYLE.get(style)), key=lambda t: (t[0], -t[1]))
    out, at = [], 0
    for start, end, style in marks:
        if start < at:
            continue                                     # a span inside one already painted: keep the outer
        out += [line[at:start], click.style(line[start:end], **STYLE[style])]
        at = end
    return "".join(out) + line[at:]


def _paint_word(m: re.Match) -> str:
    if m.group("klass"):
        return click.style(m.group(0), **STYLE[CLASS_COLOUR[m.group("klass")]])
    if m.group("status"):
        return click.style(m.group(0), **STYLE[m.group("status")])
    return click.style(m.group(0), bold=True)


def _emit_verdict(run, as_json: bool) -> None:
    """Emit a check's result; with ``--json``, its problems too when it fails (then fail as usual)."""
    try:
        _emit(run(), as_json)
    except PbdError as exc:
        if as_json and hasattr(exc, "problems"):
            import json

            click.echo(json.dumps({"problems": exc.problems}, indent=2, ensure_ascii=False))
        raise


def deferred(decorator):
    """Return click's option or argument ``decorator``, to be applied when its command is built (:class:`PbdGroup`)."""
    def record(f):
        f.__dict__.setdefault("_pbd_deferred", []).append(decorator)
        return f
    return record


def option(*decls, **attrs):
    """``click.option`` (as a :class:`PbdOption`), applied when its command is built."""
    return deferred(click.option(*decls, cls=PbdOption, **attrs))


def argument(*decls, **attrs):
    """``click.argument``, applied when its command is built."""
    return deferred(click.argument(*decls, **attrs))


def _exit_option(names: list[str], help_text: str, say) -> click.Option:
    """Return an eager flag that prints ``say(ctx)`` and exits: what click's ``--help`` and ``--version`` are.

    click makes those with their help text looked up in gettext's catalogues, which loads
    :mod:`locale` (about 1 ms of every command); pbd speaks English and gives its text here.
    """
    def act(ctx, param, value):
        if value and not ctx.resilient_parsing:
            click.echo(say(ctx), color=ctx.color)
            ctx.exit()
    return PbdOption(names, is_flag=True, expose_value=False, is_eager=True, help=help_text, callback=act)


class PbdOption(click.Option):
    """click's option, its help text cleaned here rather than by :func:`inspect.cleandoc`.

    click cleans every option's help text with :mod:`inspect` as the option is made, and loading
    :mod:`inspect` (with :mod:`ast`, :mod:`dis` and :mod:`tokenize`) costs a command about a
    seventh of its instructions; :mod:`pbd.__main__` leaves it unloaded until something uses it.
    pbd's help texts are one line each, which cleaning only strips of leading blanks; a text of
    several lines is still cleaned by :func:`inspect.cleandoc`.
    """

    def __init__(self, *args, help: str | None = None, **attrs):
        if attrs.get("deprecated"):               # click words the help text itself: let it
            super().__init__(*args, help=help, **attrs)
            return
        super().__init__(*args, **attrs)
        self.help = _cleandoc(help) if help else help


def _cleandoc(text: str) -> str:
    """Return ``text`` as :func:`inspect.cleandoc` does, without loading :mod:`inspect` for a one-line text."""
    if "\n" in text:
        import inspect

        return inspect.cleandoc(text)
    return text.expandtabs().lstrip()


class _OwnHelp:
    """A click command whose ``-h``/``--help`` is :func:`_exit_option`'s (the same option, without gettext)."""

    def get_help_option(self, ctx):
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        if getattr(self, "_pbd_help", None) is None:
            self._pbd_help = _exit_option(names, "Show this message and exit.", click.Context.get_help)
        return self._pbd_help


class PbdCommand(_OwnHelp, click.Command):
    """A pbd command (see :class:`_OwnHelp`)."""


class PbdGroup(_OwnHelp, click.Group):
    """A click group that builds a command when it is asked for, and turns pbd errors into a message and exit code.

    Building a click command with its options costs about 0.2 ms, and pbd has some thirty while a
    command line runs one: :meth:`command` keeps the function (its :func:`option` and :func:`argument`
    decorators waiting on it) and :meth:`get_command` builds the command the first time it is asked
    for (``pbd --help`` asks for every one).
    """

    command_class = PbdCommand

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recipes: dict[str, tuple] = {}

    def command(self, name: str, **attrs):
        """Register the decorated function as the command ``name`` (built by :meth:`get_command`)."""
        def record(f):
            self.recipes[name] = (f, attrs)
            return f
        return record

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.commands, *self.recipes})

    def get_command(self, ctx, cmd_name: str):
        recipe = self.recipes.pop(cmd_name, None)
        if recipe is not None:
            f, attrs = recipe
            for decorator in f.__dict__.pop("_pbd_deferred", []):
                f = decorator(f)
            super().command(cmd_name, **attrs)(f)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in self.recipes:
            for name in list(self.recipes):     # an unknown name: build them all, so click can suggest one
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PbdError as exc:
            click.echo(f"pbd: {_cut(str(exc))}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:               # before click's own handler makes it "Aborted!" and exit 1
            _interrupted()
            ctx.exit(INTERRUPTED)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # the reader went away (pbd log DOC | head): not a failure of pbd
            _silence_stdout()
            ctx.exit(0)
        except Exception as exc:  # a bug in pbd: say so plainly, and keep the traceback for PBD_DEBUG=1
            if os.environ.get("PBD_DEBUG"):
                raise
            click.echo(f"pbd: internal error ({type(exc).__name__}: {_cut(str(exc))}); nothing more was written.\n"
                       "  Please report it with the command you ran; PBD_DEBUG=1 shows the details.", err=True)
            ctx.exit(INTERNAL_ERROR)


def _interrupted() -> None:
    """Say that Ctrl-C stopped the command and what that left behind."""
    click.echo("\npbd: interrupted (Ctrl-C). If it was writing, your next pbd command on this match finds out "
               "whether the move landed and settles your private state; do not repeat the move before that.",
               err=True)


#: The longest line of an error message pbd prints (input quoted in it is cut to an excerpt).
MAX_MESSAGE_LINE = 400


def _cut(message: str) -> str:
    """Return ``message`` with each line cut to :data:`MAX_MESSAGE_LINE` characters and at most 60 lines."""
    lines = message.split("\n")
    out = [ln if len(ln) <= MAX_MESSAGE_LINE else ln[:MAX_MESSAGE_LINE] + f"… ({len(ln):,} characters)"
           for ln in lines[:60]]
    if len(lines) > 60:
        out.append(f"  … and {len(lines) - 60} more lines")
    return "\n".join(out)


def _silence_stdout() -> None:
    """Point stdout at the null device, so closing it after a broken pipe raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _who(ctx, param, value):
    """Return ``--as NAME``; left out, the one seat PBD_HOME holds in DOC's match (``new`` and ``join`` need it)."""
    if value is not None or ctx.resilient_parsing:
        return value
    doc = ctx.params.get("doc")
    if ctx.command.name in ("new", "join") or not doc:
        raise click.MissingParameter(ctx=ctx, param=param)
    from pbd import status

    return status.whoami(doc)


as_option = option("--as", "player", callback=_who, metavar="NAME",
                   help="Your player name (may be left out when this PBD_HOME holds one seat of the match).")
json_option = option("--json", "as_json", is_flag=True, help="Print JSON.")
game_option = option("--game", metavar="GAME", help="Read a hand-made board as this game.")
hand_doc_option = option("--hand-doc", metavar="gdoc:new|gdoc:ID",
                         help="Keep your hand in your own Google Doc instead of PBD_HOME.")
seed_option = option("--seed", metavar="TEXT",
                     help="For tutorials and tests only: fix your random stream from TEXT (stretched and "
                          "salted with the match id; anyone who guesses TEXT knows your cards). Leave it out "
                          "in a real match.")


@click.group(cls=PbdGroup, context_settings={"help_option_names": ["-h", "--help"]},
             params=[_exit_option(["--version"], "Show the version and exit.",
                                  lambda ctx: f"pbd, version {__version__}")])
def cli():
    """Play a card or board game on a shared match document.

    DOC is a local text file, a Google Docs URL, or gdoc:ID.

    \b
    A match between Ann and Ben on a local file:
      pbd new cnc match.txt --as Ann --deck forces-of-justice
      pbd join match.txt --as Ben --deck forces-of-corruption
      pbd hand match.txt --as Ann
      pbd move match.txt --as Ann "draw; play Spider-Man"
      pbd move match.txt --as Ann "end turn"
    """


@cli.command("games")
@json_option
def games_command(as_json):
    """List the games pbd can referee."""
    _emit(match.games_list(), as_json)


@cli.command("template")
@argument("game")
@deferred(lambda f: click.option("-o", "--output", cls=PbdOption,                     # made with the
                                 type=click.Path(dir_okay=False, writable=True),
                                 help="Write to FILE instead.")(f))                     # command: it asks gettext
def template_command(game, output):
    """Print the blank board of GAME (e.g. pbd template cnc)."""
    result = match.template(game)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write("\n".join(result.lines) + "\n")
        click.echo(f"wrote {output}")
    else:
        _emit(result)


@cli.command("new", epilog=EPILOG_NEW, context_settings={"ignore_unknown_options": False})
@argument("game")
@argument("doc")
@as_option
@option("--deck", metavar="DECK", help="Deck list file, or the name of a bundled deck.")
@seed_option
@option("--players", type=int, metavar="N", help="How many seats the match has (the game says its range).")
@option("--first", metavar="NAME|random", help="Who moves first (default: you).")
@option("--option", "-O", "game_options", multiple=True, metavar="KEY[=VALUE]",
        help="A game option, e.g. -O face-up for Twin Tower City; -O patience=72h (every game: how long a seat may "
             "leave the table waiting before the others may pbd claim the match; default 7 days).")
@option("--title", metavar="TEXT", help="Name of the Google Doc created by gdoc:new (default: pbd match).")
@option("--share", multiple=True, metavar="EMAIL",
        help="Share the Google Doc with EMAIL as editor (repeatable; or several, comma-separated).")
@option("--share-anyone-with-link", "anyone", type=click.Choice(["reader", "commenter", "writer"]),
        help="Let anyone with the link open the Google Doc in this role (reader: spectators).")
@option("--tab", metavar="NAME", help="Put the board in this tab of an existing Google Doc (added if missing).")
@hand_doc_option
def new_command(game, doc, player, deck, seed, players, first, game_options, title, share, anyone, tab,
                hand_doc):
    """Start a match of GAME on DOC as player 1 (DOC may be gdoc:new to create a Google Doc)."""
    options = dict(_kv(o) for o in game_options)
    if players is not None:
        options["players"] = players
    if first:
        options["first"] = first
    doc_options = {k: v for k, v in (("title", title), ("share", list(share)), ("anyone", anyone), ("tab", tab))
                   if v}
    result = match.new(game, doc, player, deck, seed, options, doc_options=doc_options or None)
    _emit(result)
    _keep_hand_in(hand_doc, result.location or doc, player)


@cli.command("join")
@argument("doc")
@as_option
@option("--deck", metavar="DECK", help="Deck list file, or the name of a bundled deck.")
@seed_option
@hand_doc_option
def join_command(doc, player, deck, seed, hand_doc):
    """Join the match on DOC; your hand is dealt privately."""
    _emit(match.join(doc, player, deck, seed))
    _keep_hand_in(hand_doc, doc, player)


def _keep_hand_in(hand_doc, doc, player):
    if hand_doc:
        _emit(match.keep_hand_in(doc, player, hand_doc))


@cli.command("show")
@argument("doc")
@option("--as", "player", metavar="NAME", help="Also show this seat's own view: its private hand.")
@option("--json", "as_json", is_flag=True, help="Print the parsed state as JSON.")
@option("--svg", "svg_path", metavar="FILE", help="Also draw the board as a picture into FILE (SVG).")
@option("--png", "png_path", metavar="FILE",
        help="Also draw the board as a PNG into FILE, for chat apps (needs: pip install 'pbd[png]').")
@game_option
def show_command(doc, player, as_json, svg_path, png_path, game):
    """Print the board of DOC, parsed.

    \b
    Examples:
      pbd show match.txt
      pbd show match.txt --json
      pbd show match.txt --svg board.svg
      pbd show match.txt --png board.png
      pbd show match.txt --as Ann
    """
    _emit(match.show(doc, game, svg_path, player, png_path), as_json)


@cli.command("hand")
@argument("doc")
@as_option
@json_option
def hand_command(doc, player, as_json):
    """Show your private hand (never written to the document)."""
    _emit(match.hand(doc, player), as_json)


@cli.command("draw")
@argument("doc")
@as_option
@argument("count", type=click.IntRange(1, 10), default=1, required=False)
@json_option
def draw_command(doc, player, count, as_json):
    """Draw COUNT cards (default 1) from your deck."""
    _emit(match.draw(doc, player, count), as_json)


class MoveCommand(PbdCommand):
    """``pbd move``, whose ``--help --game GAME`` adds that game's notation (read before click's eager --help)."""

    def parse_args(self, ctx, args):
        ctx.meta["pbd_help_game"] = _game_asked(args)
        return super().parse_args(ctx, args)

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        game = ctx.meta.get("pbd_help_game")
        formatter.write_paragraph()
        if game:
            for line in match.notation(game).lines:      # as written: the guide's columns line up
                formatter.write(f"  {line}\n" if line else "\n")
        else:
            formatter.write_text("Each game's moves: pbd help GAME, or pbd move --help --game GAME "
                                 "(pbd games lists the games).")


def _game_asked(args: list[str]) -> str | None:
    """Return the value of ``--game`` among raw ``args``, if any."""
    for i, arg in enumerate(args):
        if arg == "--game" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--game="):
            return arg.partition("=")[2]
    return None


@cli.command("move", cls=MoveCommand)
@argument("doc")
@as_option
@argument("moves", nargs=-1, required=True)
@option("--dry-run", is_flag=True, help="Show the board and log lines MOVES would give; write, draw and reveal nothing.")
@option("--game", "help_game", metavar="GAME", help="With --help: how GAME's moves are written.")
@json_option
def move_command(doc, player, moves, dry_run, help_game, as_json):
    """Make MOVES, joined by ';' (all or nothing); put them in quotes.

    \b
    Examples:
      pbd move match.txt --as Ann "draw; play Spider-Man"
      pbd move match.txt --as Ann "Spider-Man attacks Nill"
      pbd move match.txt --as Ann "play Carnivorous Plants on Nill; end turn"
      pbd move match.txt --as Ann "Spider-Man attacks Nill" --dry-run
    """
    if len(moves) > 1:
        raise click.UsageError(f"put the move in quotes, as one argument:\n  {_quoted_move(doc, player, moves)}")
    if dry_run:
        from pbd import preview

        _emit(preview.preview(doc, player, moves[0]), as_json)
    else:
        _emit(match.move(doc, player, moves[0]), as_json)


def _quoted_move(doc: str, player: str | None, words: tuple[str, ...]) -> str:
    """Return the ``pbd move`` command line that says ``words`` as one quoted move."""
    import shlex

    who = f" --as {shlex.quote(player)}" if player else ""
    move = " ".join(words).replace('"', "'")
    return f'pbd move {shlex.quote(doc)}{who} "{move}"'


@cli.command("help")
@argument("game", required=False)
@json_option
@click.pass_context
def help_command(ctx, game, as_json):
    """Show how GAME's moves are written (the move that ends a turn too); without GAME, pbd --help.

    \b
    Examples:
      pbd help cnc
      pbd help 2xd6
    """
    if game is None:
        click.echo(ctx.parent.get_help())
        return
    _emit(match.notation(game), as_json)


@cli.command("legal")
@argument("doc")
@as_option
@json_option
def legal_command(doc, player, as_json):
    """List every move legal for you now, in notation."""
    _emit(match.legal(doc, player), as_json)


@cli.command("score")
@argument("doc")
@json_option
@game_option
def score_command(doc, as_json, game):
    """Explain the score of the current round, line by line (hand-made boards too)."""
    _emit(match.score(doc, game), as_json)


@cli.command("check")
@argument("doc")
@json_option
@game_option
def check_command(doc, as_json, game):
    """Check a board as people left it; exit 1 if it breaks any rule or says what its log does not."""
    _emit_verdict(lambda: match.check(doc, game), as_json)


@cli.command("roll")
@argument("doc")
@as_option
@argument("dice")
@json_option
def roll_command(doc, player, dice, as_json):
    """Roll DICE fairly, like 2d6 or d20; the result is logged and public at once."""
    _emit(match.roll(doc, player, dice), as_json)


@cli.command("log")
@argument("doc")
@json_option
def log_command(doc, as_json):
    """Print the move log of DOC and check its hash chain."""
    _emit(match.log(doc), as_json)


@cli.command("reveal")
@as_option
@argument("doc")
@option("--now", is_flag=True, help="Reveal before the match has a result (both agree to stop).")
def reveal_command(doc, player, now):
    """Publish your seed and deck list so anyone can audit your draws (at the end of the match)."""
    _emit(match.reveal(doc, player, now))


@cli.command("resign")
@argument("doc")
@as_option
def resign_command(doc, player):
    """End the match for your seat: the others win (a shared-deck match cannot go on without your locks)."""
    _emit(match.resign(doc, player))


@cli.command("claim")
@argument("doc")
@as_option
def claim_command(doc, player):
    """Win by forfeit: the seat waited on left its turn or a duty longer than the match's patience (-O patience=)."""
    _emit(match.claim(doc, player))


@cli.command("audit")
@argument("doc")
@json_option
def audit_command(doc, as_json):
    """Check every revealed draw and roll, every play, the log chain and the chain values; exit 1 on any problem."""
    _emit_verdict(lambda: match.audit(doc), as_json)


@cli.command("replay")
@argument("doc")
def replay_command(doc):
    """Rebuild the board from the log and name every difference (line and field); exit 1 if any."""
    _emit(match.replay(doc))


@cli.command("undo")
@argument("doc")
@as_option
def undo_command(doc, player):
    """Take back your last move, if your opponent has not moved since and it drew or rolled nothing."""
    _emit(match.undo(doc, player))


@cli.group("deck", cls=PbdGroup)
def deck_group():
    """Deck lists."""


@deck_group.command("check")
@argument("deck")
@option("--game", metavar="GAME", help="The game the deck is for (default cnc).")
def deck_check_command(deck, game):
    """Check that DECK (a file or bundled deck name) is a legal deck."""
    _emit(match.deck_check(deck, game))


@cli.group("catalogue", cls=PbdGroup)
def catalogue_group():
    """Catalogues and deck lists that match documents may name."""


@catalogue_group.command("add")
@argument("file")
@option("--game", metavar="GAME", default="ttc", show_default=True, help="The game the file is for.")
@json_option
def catalogue_add_command(file, game, as_json):
    """Install FILE (a catalogue or deck list) by its content hash; documents name it by that hash."""
    _emit(match.catalogue_add(file, game), as_json)


@cli.group("auth", cls=PbdGroup)
def auth_group():
    """Sign in to Google, for match documents in Google Docs."""


@auth_group.command("login")
@option("--client", "client_file", metavar="FILE",
        help="Your OAuth client file (Desktop app), shaped like credentials.example.json "
             "(default: $PBD_GOOGLE_CLIENT, else google-client.json in PBD_HOME).")
@option("--service-account", metavar="KEY", help="Use a service-account key file instead (documents shared with it).")
@option("--no-browser", is_flag=True, help="Print the sign-in address instead of opening a browser.")
@option("--read-only", is_flag=True, help="Ask only to read Google Docs (a spectator: show, check, log, audit).")
def auth_login_command(client_file, service_account, no_browser, read_only):
    """Sign in to Google; the token is kept in PBD_HOME (mode 0600)."""
    from pbd import auth

    _emit(auth.login(client_file, service_account, open_browser=not no_browser, read_only=read_only))


@auth_group.command("status")
@json_option
def auth_status_command(as_json):
    """Show which Google sign-in pbd uses (refreshing it if expired)."""
    from pbd import auth

    _emit(auth.status(), as_json)


@auth_group.command("logout")
def auth_logout_command():
    """Forget the saved Google sign-in."""
    from pbd import auth

    _emit(auth.logout())


# -- my matches, card text (pbd/status.py, pbd/watch.py, pbd/cards_text.py) ----------------

@cli.command("card")
@argument("name", nargs=-1, required=True)
@option("--game", metavar="GAME", help="Look only in this game's catalogue (default: every game).")
@json_option
def card_command(name, game, as_json):
    """Print a card's full entry in words: cost, class, rarity, HP, attacks, abilities, effects.

    \b
    Examples:
      pbd card Spider-Man
      pbd card "Don Triumph" --game ttc
    """
    from pbd import cards_text

    _emit(cards_text.card(" ".join(name), game), as_json)


@cli.command("status")
@argument("doc", required=False)
@option("--as", "player", metavar="NAME", help="Your player name (needed only if PBD_HOME holds several seats).")
@option("--adopt", is_flag=True, help="Make DOC the document of its match from now on (it moved, or the one "
                                        "pbd recorded was lost); pbd then refuses the old one.")
@json_option
def status_command(doc, player, adopt, as_json):
    """List your matches; with DOC, what changed since your last look, your hand and what waits on you.

    \b
    Examples:
      pbd status
      pbd status match.txt
      pbd status moved-here.txt --adopt
    """
    from pbd import status

    if adopt and not doc:
        raise click.UsageError("--adopt needs DOC: the document that is the match now")
    _emit(status.status(doc, player, adopt), as_json)


@cli.command("watch")
@argument("doc", required=False)
@option("--as", "player", metavar="NAME", help="Your player name (needed only if PBD_HOME holds several seats).")
@option("--once", is_flag=True, help="One look at each match (duties paid), then exit: for cron or a login script.")
@option("--timeout", type=click.FloatRange(min=0), metavar="S",
        help="Stop after S seconds (with DOC: exit 6 if nothing waits on you by then).")
@option("--interval", type=click.FloatRange(min=0.01), metavar="S",
        help="Seconds between looks (default: 1 for a file, 10 for a Google Doc, never less; "
             "or PBD_WATCH_INTERVAL).")
@json_option
def watch_command(doc, player, once, timeout, interval, as_json):
    """Do your pbd's duties (unlocks, shuffles) as they appear; wake you only when you must decide.

    With DOC, watch one match and print pbd status DOC once a person must decide (exit 6 on
    --timeout). Without DOC, watch every match pbd status lists and print a line (with a bell)
    whenever one needs you, until --timeout or Ctrl-C.

    \b
    Examples:
      pbd watch                      # every match: keep it running in a terminal tab
      pbd watch --once               # one pass, for cron: */5 * * * * pbd watch --once
      pbd watch match.txt --timeout 600
    """
    from pbd import watch

    bell = sys.stdout.isatty() and not as_json

    def say(line: str, wake: bool) -> None:
        if not as_json:
            click.echo(line)
        if wake and bell:
            click.echo("\a", nl=False)
            watch.notify(line)

    result = watch.watch(doc, player, timeout, interval, once=once, say=say)
    if doc is None:
        if as_json:
            _emit(result, as_json)
        elif not result.data.get("lines"):
            click.echo(result.lines[0])
        return
    if bell:
        click.echo("\a", nl=False)          # a terminal bell, and a desktop notification where there is one
        watch.notify(" · ".join(result.lines[1:3]))
    _emit(result, as_json)


def _kv(text: str) -> tuple[str, str]:
    key, _, value = text.partition("=")
    return key.strip(), (value.strip() or "yes")


def attach_completion(group: click.Group) -> None:
    """Let the shell complete every ``DOC`` argument with documents and ``pbd card NAME`` with card names.

    Run once all commands exist (from :func:`main`), so commands added anywhere in this module are covered.
    """
    from pbd import completion

    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            attach_completion(command)
            continue
        for param in command.params:
            if getattr(param, "_custom_shell_complete", None) is not None:
                continue                         # the command chose its own (click keeps it there since 8.0)
            if param.name == "doc":
                param._custom_shell_complete = completion.documents
            elif command.name == "card" and isinstance(param, click.Argument):
                param._custom_shell_complete = completion.card_names


#: Allocations between two passes of the collector over the youngest objects.  A command makes
#: some thousands of objects that live until it ends (a catalogue, a board, a log); at CPython's
#: 700, passes walked them over and over (about 1.5M instructions of a move), while what a command
#: drops is freed by reference counting all the same: only cycles wait for the next pass.
GC_YOUNG = 5000


def main() -> None:
    """Run the CLI; no traceback reaches the user for expected failures.

    What start-up loaded lives until the process ends, so it is frozen out of the cyclic
    garbage collector (no pass walks it again, nor the one at exit); the collector is on
    (:func:`pbd.__main__.run` keeps it off while the modules load), collecting the youngest
    objects every :data:`GC_YOUNG` allocations rather than CPython's 700.
    """
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    gc.enable()
    try:
        if os.environ.get("_PBD_COMPLETE"):     # the shell asks for completions (click's variable for "pbd")
            attach_completion(cli)
        cli.main(prog_name="pbd")
    except KeyboardInterrupt:
        _interrupted()
        sys.exit(INTERRUPTED)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(0)
    finally:
        gc.freeze()         # nor does the collection at exit walk what the command made
