"""The serve page as a new user meets it (Chromium, tests/browser.py): load an example, pick stored
sources by id, and no "Done." next to an error. Screenshots go to tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ipsis.cli import main
from tests.browser import browser_session

pytest.importorskip("starlette")

from tests.serve_helpers import Server, running_server

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
POLICY = (
    "Returns policy.\nItems may be returned within 30 days of delivery. Opened software cannot be returned, "
    "except when it is faulty.\n"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from browser_session()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("page")
    src = tmp / "returns.txt"
    src.write_text(POLICY, encoding="utf-8")
    store = tmp / "store"
    res = CliRunner().invoke(main, ["ingest", str(src), "--id", "returns", "--store", str(store)])
    assert res.exit_code == 0, res.output
    with running_server("--store", str(store)) as s:
        yield s


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    pg = ctx.new_page()
    errors: list[str] = []
    console: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: console.append(m.text))
    pg.goto(server.url + "/")
    yield pg
    assert errors == []
    assert not [m for m in console if "Content Security Policy" in m], console
    ctx.close()


def _check(pg: Any) -> Any:
    pg.click("#check")
    pg.wait_for_selector("#report-frame")
    frame = pg.frame_locator("#report-frame")
    frame.locator(".answer").wait_for()
    return frame


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_load_an_example_and_check_it(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.click("#example")
    assert page.locator("#sources").input_value().lstrip().startswith("[")
    assert "[1]" in page.locator("#answer").input_value()
    frame = _check(page)
    assert page.locator("#busy").inner_text() == {"en": "Done.", "pt": "Concluído.", "es": "Hecho."}[lang]
    assert frame.locator("html").get_attribute("lang") == lang
    statuses = frame.locator("article.cit").evaluate_all("els => els.map(e => e.dataset.status)")
    assert sorted(statuses) == ["located", "located", "not_found"]  # the negation dropped from a quote
    assert frame.locator(".finding[data-kind='uncited_sentence']").count() == 1
    assert frame.locator(".untranslated").count() == 0
    page.screenshot(path=str(ARTIFACTS / f"serve-example-{lang}.png"), full_page=True)


def test_pick_a_stored_source_by_id(page: Any) -> None:
    page.locator("#stored-wrap").wait_for()
    assert page.locator("#stored option").evaluate_all("os => os.map(o => o.value)") == ["returns"]
    page.click("#add-stored")
    assert page.locator("#sources").input_value().replace(" ", "").replace("\n", "") == '[{"id":"returns"}]'
    page.fill("#answer", 'Opened software "cannot be returned, except when it is faulty" [1].')
    frame = _check(page)
    card = frame.locator("article.cit")
    assert card.get_attribute("data-status") == "located" and card.get_attribute("data-source") == "returns"
    assert frame.locator("mark.hit").inner_text() == "cannot be returned, except when it is faulty"
    page.fill("#sources", "")  # adding to text that is not a JSON array says how to
    page.fill("#sources", "Some pasted text.")
    page.click("#add-stored")
    assert "JSON" in page.locator("#report-body .error").inner_text()


def test_no_done_next_to_an_error(page: Any) -> None:
    page.fill("#sources", "Art. 1 A lei vale.")
    page.fill("#answer", '{"model": "x", "message": ')
    page.click("#check")
    err = page.locator("#report-body .error")
    err.wait_for()
    assert "line 1, column" in err.inner_text()
    assert page.locator("#busy").inner_text() == ""
    page.screenshot(path=str(ARTIFACTS / "serve-error.png"))
