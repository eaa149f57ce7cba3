"""The click group, shared options and the error boundary of every command."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from ipsis import __version__
from ipsis.errors import InputError, IpsisError
from ipsis.ingest.folder import SOURCE_SUFFIXES

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


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
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
    suffix = Path(value).suffix.lower()
    return "/" in value or "\\" in value or suffix in (*SOURCE_SUFFIXES, ".json", ".jsonl", ".csv")
