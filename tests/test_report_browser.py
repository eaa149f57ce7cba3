"""The HTML report in a real browser: Debian's chromium, headless, driven by Playwright.

No browser is downloaded: Playwright launches the system chromium through ``executable_path``.
When chromium or Playwright is missing the tests skip loudly, except under CI (``CI`` set),
where they fail. Screenshots go to tests/artifacts/ (ignored by git; CI keeps them).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from tests.browser import browser_session
from tests.report_fixtures import EXPECTED, RECORDS, ROOT, run_verify, texts
from tests.shared import ANSWERS

ARTIFACTS = ROOT / "tests" / "artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from browser_session()


@pytest.fixture(scope="module")
def report_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    out, _ = run_verify(tmp_path_factory.mktemp("browser"))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(out, ARTIFACTS / "verify-report.html")
    return out.as_uri()


@pytest.fixture
def page(browser: Any, report_url: str) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(report_url)
    yield pg
    ctx.close()
    assert not errors, errors


CARDS_JS = """() => [...document.querySelectorAll('article.cit')].map(c => ({
  cid: c.dataset.cid, status: c.dataset.status, source: c.dataset.source,
  badge: c.querySelector('[data-badge]').dataset.badge,
  marks: [...c.querySelectorAll('mark.hit')].map(m => [+m.dataset.start, +m.dataset.end, m.textContent])
}))"""


def _visible_cids(pg: Any) -> list[str]:
    return pg.evaluate("() => [...document.querySelectorAll('article.cit')].filter(c => c.offsetParent)"
                       ".map(c => c.dataset.cid)")  # fmt: skip


def test_every_citation_has_its_badge_and_exact_highlight(page: Any) -> None:
    cards = page.evaluate(CARDS_JS)
    assert [c["cid"] for c in cards] == [r["citation_id"] for r in RECORDS]
    assert {c["cid"]: c["status"] for c in cards} == EXPECTED
    assert all(c["badge"] == c["status"] for c in cards)
    docs = texts()
    checked = 0
    for c in cards:
        if c["status"] in ("not_found", "unknown_source"):
            assert not c["marks"]
        for start, end, text in c["marks"]:
            assert text == docs[c["source"]][start:end]  # the DOM text is the located span, CR LF and all
            checked += 1
    assert checked >= 3 + 12 + 12
    page.screenshot(path=str(ARTIFACTS / "verify-desktop.png"), full_page=False)


def test_injected_script_does_not_run(page: Any) -> None:
    assert page.evaluate("() => window.pwned") is None
    assert page.evaluate("() => document.querySelectorAll('script').length") == 1
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0
    quote = page.locator("article[data-source='evil'] blockquote").text_content()
    assert quote.startswith("<script>window.pwned = 1;</script>")
    page.locator("article[data-source='evil']").screenshot(path=str(ARTIFACTS / "verify-escaped.png"))


def test_status_and_source_filters(page: Any) -> None:
    everyone = [r["citation_id"] for r in RECORDS]
    assert _visible_cids(page) == everyone
    page.locator("input[data-filter-status][value='located']").uncheck()
    assert _visible_cids(page) == [c for c in everyone if EXPECTED[c] != "located"]
    page.select_option("#f-source", "crp")
    assert _visible_cids(page) == ["crp-todos", "crp-desiguais"]
    page.locator("input[data-filter-status][value='located']").check()
    assert _visible_cids(page) == ["crp-13", "crp-todos", "crp-desiguais"]
    page.select_option("#f-source", "")
    assert _visible_cids(page) == everyone


def test_keyboard_navigation_skips_hidden_cards(page: Any) -> None:
    focused = "() => document.activeElement && document.activeElement.dataset.cid"
    page.keyboard.press("j")
    assert page.evaluate(focused) == "rfc-iss"
    page.keyboard.press("j")
    assert page.evaluate(focused) == "rfc-title"
    page.keyboard.press("k")
    assert page.evaluate(focused) == "rfc-iss"
    page.locator("input[data-filter-status][value='ambiguous']").uncheck()
    page.locator("body").click(position={"x": 5, "y": 400})
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert page.evaluate(focused) == "rfc-signed"  # rfc-title is hidden


def test_readable_without_javascript(browser: Any, report_url: str) -> None:
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(report_url)
    assert pg.locator("article.cit").count() == len(RECORDS)
    assert all(pg.locator("article.cit").nth(i).is_visible() for i in range(len(RECORDS)))
    assert not pg.locator(".filters").is_visible()
    assert pg.locator("mark.hit").first.is_visible()
    ctx.close()


def test_phone_width_and_print(browser: Any, report_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 800}, device_scale_factor=2)
    pg = ctx.new_page()
    pg.goto(report_url)
    overflow = pg.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    pg.screenshot(path=str(ARTIFACTS / "verify-phone.png"))
    pg.emulate_media(media="print")
    assert not pg.locator(".filters").is_visible()
    assert pg.evaluate("() => getComputedStyle(document.querySelector('header.bar')).position") == "static"
    pdf = pg.pdf(path=str(ARTIFACTS / "verify-print.pdf"))
    assert pdf.startswith(b"%PDF")
    ctx.close()


def test_check_answer_markers(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "check.html"
    res = CliRunner().invoke(
        main,
        [
            "check",
            str(ANSWERS / "plain-brackets.txt"),
            "--sources",
            str(ANSWERS / "sources.json"),
            "--format",
            "html",
            "-o",
            str(out),
        ],
    )
    assert res.exit_code == 1, res.output
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    pg = ctx.new_page()
    pg.goto(out.as_uri())
    colours = pg.evaluate(
        "() => [...document.querySelectorAll('section.answer a.marker')]"
        ".map(a => [a.textContent, getComputedStyle(a).backgroundColor])"
    )
    assert colours == [["[2]", "rgb(26, 127, 55)"], ["[3]", "rgb(207, 34, 46)"]]
    underline = pg.evaluate("() => getComputedStyle(document.querySelector('u.uncited')).textDecorationLine")
    assert "underline" in underline
    shutil.copy(out, ARTIFACTS / "check-report.html")
    pg.screenshot(path=str(ARTIFACTS / "check-desktop.png"))
    pg.locator("section.answer a.marker").nth(1).click()
    assert pg.evaluate("() => location.hash") == "#cit-2"
    ctx.close()
