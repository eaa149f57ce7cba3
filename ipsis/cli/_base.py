"""The click group, shared options and the error boundary of every command."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from ipsis import __version__
from ipsis.errors import InputError, IpsisError

F = TypeVar("F", bound=Callable[..., Any])


class UsageFailure(click.ClickException):
    """Bad usage or unreadable input: exit code 2, a message that names the fix."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"ipsis: error: {self.format_message()}", err=True)


@contextmanager
def error_boundary() -> Iterator[None]:
    """Turn library errors into exit-2 messages; never a traceback for bad input."""
    try:
        yield
    except (IpsisError, InputError) as exc:
        raise UsageFailure(str(exc)) from exc
    except UnicodeDecodeError as exc:
        msg = f"cannot decode input as text ({exc.reason} at byte {exc.start}); pass a UTF-8 file"
        raise UsageFailure(msg) from exc
    except OSError as exc:
        name = getattr(exc, "filename", None) or "input"
        msg = f"{name}: {exc.strerror or exc}; check the path and permissions"
        raise UsageFailure(msg) from exc


LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "check": (
        "ipsis.cli.check",
        "Check a whole answer (Ollama, OpenAI, Anthropic, Cohere, Gemini, text or claim JSON).",
    ),
    "diff": ("ipsis.cli.history", "The sections added, removed, revoked, amended and moved between two versions."),
    "describe": ("ipsis.cli.core", "Print the minimal unique TextQuoteSelector for the range [START, END) of SOURCE."),
    "ingest": (
        "ipsis.cli.store",
        "Store source files as versions: original bytes, SHA-256, text, pages, sections, readers.",
    ),
    "locate": ("ipsis.cli.core", "Find QUOTE in SOURCE (a stored id or a file) and say where, with the W3C selector."),
    "sections": ("ipsis.cli.sections", "Print the sections of SOURCE with their ids and [start, end) offsets."),
    "serve": ("ipsis.cli.serve", "Serve the JSON API (/v1/...), /openapi.json and a paste-in page at /."),
    "sources": (
        "ipsis.cli.store",
        "List the stored source versions you may read: ids, versions, hashes, dates, sizes, pages, sections.",
    ),
    "store": ("ipsis.cli.store", "Maintain the store folder."),
    "text": ("ipsis.cli.text", "Print the document text: every offset ipsis reports is into this text."),
    "verify": ("ipsis.cli.core", 'Verify citation records (JSON array or JSONL; "-" for stdin).'),
}
"""Each command: the module that defines it (imported only when the command runs, so that
``ipsis --help`` and ``ipsis text`` do not load the verifier, the judge or the server) and the
first sentence of its help for the command list (a test checks both against the commands)."""

SUBCOMMANDS_ELSEWHERE: dict[str, tuple[str, ...]] = {"store": ("ipsis.cli.history",)}
"""Modules that add subcommands to a group defined in another module (``store affected``)."""


class LazyGroup(click.Group):
    """A click group whose commands are imported on first use (:data:`LAZY_COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            importlib.import_module(LAZY_COMMANDS[cmd_name][0])  # registers its commands on main
        for module in SUBCOMMANDS_ELSEWHERE.get(cmd_name, ()):
            importlib.import_module(module)
        return self.commands.get(cmd_name)

    def load_all(self) -> dict[str, click.Command]:
        """Every command, imported (for documentation and tests)."""
        for name in LAZY_COMMANDS:
            self.get_command(click.Context(self), name)
        return dict(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            cmd = self.commands.get(name)
            if cmd is not None:
                if cmd.hidden:
                    continue
                rows.append((name, cmd.get_short_help_str(limit)))
            else:
                rows.append((name, click.Command(name, help=LAZY_COMMANDS[name][1]).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.version_option(__version__, "-V", "--version", prog_name="ipsis")
@click.pass_context
def main(ctx: click.Context) -> None:
    """ipsis: check that what an AI assistant quotes is really in the source it cites.

    Every offset printed is a half-open [start, end) range of code points into the document
    text, exactly what 'ipsis text SOURCE' prints. Run 'ipsis COMMAND --help' for one command.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()


def to_stdout(output: str | None) -> str | None:
    """``-o -`` means stdout (None), as everywhere else on the command line."""
    return None if output == "-" else output


def looks_like_path(value: str) -> bool:
    """A value written as a file path (a folder separator or a file suffix), not as a source id.

    >>> looks_like_path("nope.json"), looks_like_path("docs/a.md"), looks_like_path("returns-v1")
    (True, True, False)
    """
    from pathlib import PurePath  # not at import: ``ipsis --help`` needs no paths

    from ipsis.ingest.folder import SOURCE_SUFFIXES

    suffix = PurePath(value).suffix.lower()
    return "/" in value or "\\" in value or suffix in (*SOURCE_SUFFIXES, ".json", ".jsonl", ".csv")
