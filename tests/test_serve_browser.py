"""The paste-in page in headless Chromium (Debian's package, driven by Playwright; no download).

Skips loudly when chromium or Playwright is missing, and fails instead under CI. Screenshots
go to tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser_session

pytest.importorskip("starlette")

from tests.serve_helpers import Server, running_server
from tests.shared import ANSWERS

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from browser_session()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server() as s:
        yield s


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    pg = ctx.new_page()
    errors: list[str] = []
    requests: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: requests.append(r.url))
    pg.goto(server.url + "/")
    yield pg
    assert errors == []
    assert all(u.startswith((server.url, "about:", "data:")) for u in requests), requests  # no external asset
    ctx.close()


def _paste_and_check_with_keyboard(pg: Any, sources: str, answer: str) -> Any:
    pg.fill("#sources", sources)
    pg.fill("#answer", answer)
    pg.focus("#answer")
    pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.id") == "check"
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#report-frame")
    frame = pg.frame_locator("#report-frame")
    frame.locator(".answer").wait_for()
    return frame


def test_ollama_stream_truncation_and_uncited_sentence(page: Any) -> None:
    answer = (ANSWERS / "ollama-chat-stream.ndjson").read_text(encoding="utf-8")
    sources = (ANSWERS / "sources.json").read_text(encoding="utf-8")
    frame = _paste_and_check_with_keyboard(page, sources, answer)
    banner = frame.locator("#truncated")
    assert banner.is_visible() and banner.get_attribute("role") == "alert"
    uncited = frame.locator(".answer u.uncited")
    assert uncited.count() == 1
    assert uncited.inner_text() == "Remote staff must be reachable on the team chat between 10:00 and"
    assert (
        frame.locator(".finding[data-kind='unused_source']")
        .inner_text()
        .endswith("source 3 (security-2024) is never cited")
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "serve-ollama-stream.png"), full_page=True)


def test_unknown_source_marker(page: Any) -> None:
    # the stream fixture cites only known sources; ollama-chat.json has the [4] that names none
    answer = (ANSWERS / "ollama-chat.json").read_text(encoding="utf-8")
    texts = [s["text"] for s in json.loads((ANSWERS / "sources.json").read_text(encoding="utf-8"))["sources"]]
    frame = _paste_and_check_with_keyboard(page, "\n---\n".join(texts), answer)
    unknown = frame.locator(".answer .st-unknown_source")
    assert unknown.count() == 1 and unknown.inner_text() == "[4]"
    uncited = frame.locator(".answer u.uncited")
    assert uncited.inner_text() == "Travel claims are reimbursed within 10 working days."
    assert frame.locator("#truncated").count() == 0
    page.screenshot(path=str(ARTIFACTS / "serve-unknown-source.png"), full_page=True)


def test_labels_in_portuguese_and_errors_shown(page: Any) -> None:
    page.select_option("#lang", "pt")
    assert page.locator("label[for='sources']").inner_text() == "Fontes"
    assert page.locator("#check").inner_text() == "Verificar"
    assert page.evaluate("document.documentElement.lang") == "pt"
    page.fill("#sources", "Art. 1 A lei vale.")
    page.fill("#answer", '{"model": "x", "message": ')
    page.focus("#answer")
    page.keyboard.press("Control+Enter")
    err = page.locator("#report-body .error")
    err.wait_for()
    assert "line 1, column" in err.inner_text()


def test_markup_pasted_in_sources_and_answer_never_runs(page: Any) -> None:
    evil = '<script>window.pwned = 1;</script> and <img src="x" onerror="window.parent.pwned = 2">'
    sources = f"Staff note: {evil} Returns are accepted within 30 days of delivery."
    answer = (
        f'Returns: "accepted within 30 days of delivery" [1]. Note: "{evil}" [1]. <img src=x onerror="top.pwned=3">'
    )
    frame = _paste_and_check_with_keyboard(page, sources, answer)
    frame.locator(".answer").wait_for()
    assert page.evaluate("() => window.pwned") is None
    report = next(f for f in page.frames if f != page.main_frame)
    assert report.evaluate("() => window.pwned") is None
    assert report.evaluate("() => document.querySelectorAll('.answer img, .answer script').length") == 0
    assert "<script>window.pwned = 1;</script>" in frame.locator(".answer").inner_text()  # shown as text
