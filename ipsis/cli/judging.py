"""``--judge`` options shared by ``ipsis verify`` and ``ipsis check``: one set of options, one
:func:`build_judge`."""

from __future__ import annotations

import dataclasses
from typing import Any

import click

from ipsis.judge import JUDGES, Judge, make_judge
from ipsis.judge.context import DEFAULT_WINDOW
from ipsis.judge.llm import DEFAULT_KEY_ENV
from ipsis.judge.support import SUPPORTED
from ipsis.verify.policy import Policy
from ipsis.verify.result import Result

NAMES = ("judge", "judge_url", "judge_model", "judge_key_env", "nli_model", "accept_threshold", "judge_window")


def judge_options(f: Any) -> Any:
    """Add the second-stage options to a command."""
    judge_help = "Judge each record's claim against the section around its quote (cues is offline)."
    opts = [
        click.option("--judge", type=click.Choice(JUDGES), default=None, help=judge_help),
        click.option("--judge-url", default=None, help="OpenAI-compatible base URL for --judge llm."),
        click.option("--judge-model", default=None, help="Model name for --judge llm."),
        click.option(
            "--judge-key-env", default=DEFAULT_KEY_ENV, show_default=True, help="Variable holding the endpoint key."
        ),
        click.option("--nli-model", type=click.Path(file_okay=False), default=None, help="Local NLI model folder."),
        click.option(
            "--accept-threshold",
            type=click.FloatRange(0, 1),
            default=0.8,
            show_default=True,
            help="Confidence needed for 'supported' (below it: needs_review).",
        ),
        click.option(
            "--judge-window",
            type=click.IntRange(100),
            default=DEFAULT_WINDOW,
            show_default=True,
            help="Most characters the judge reads on each side of the quote.",
        ),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def pop_judge_options(opts: dict[str, Any]) -> dict[str, Any]:
    """Take the judge options out of a command's keyword arguments."""
    return {k: opts.pop(k) for k in NAMES if k in opts}


def with_judge(policy: Policy, jopts: dict[str, Any]) -> Policy:
    if not jopts.get("judge"):
        return policy
    return dataclasses.replace(policy, judge=jopts["judge"], accept_threshold=jopts["accept_threshold"])


def build_judge(jopts: dict[str, Any]) -> Judge | None:
    """The judge the options name, or None without ``--judge``."""
    name = jopts.get("judge")
    if not name:
        return None
    if name == "llm":
        return make_judge("llm", url=jopts["judge_url"], model=jopts["judge_model"], key_env=jopts["judge_key_env"])
    if name == "nli":
        return make_judge("nli", model_path=jopts["nli_model"])
    return make_judge(name)


def needs_review(results: list[Result]) -> bool:
    """True when some judged claim is not ``supported``."""
    return any(r.extra.get("support", {}).get("verdict", SUPPORTED) != SUPPORTED for r in results)
