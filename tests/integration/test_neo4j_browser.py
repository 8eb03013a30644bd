"""Neo4j Browser, for real: the service on a local Neo4j with Browser, a little data stored through
the HTTP API, then headless Chromium (Debian's, driven by Playwright) opens Browser as an operator
would (docs/operators.md): connects with the password from the data directory, loads
tools/browser/credence.grass and the favorites zip by dropping them on the window, runs a saved
query from cypher/operators and reads the result frame. A screenshot of the graph goes to a temp
file (CREDENCE_BROWSER_SCREENSHOT names it; nothing is committed)."""
from __future__ import annotations

import base64
import os
import sys
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.conftest import backend_test_settings, missing_on_this_machine

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
OPERATORS = ROOT / "cypher" / "operators"
CHROMIUM = Path("/usr/bin/chromium")
# As root in this sandbox: no sandbox, no GPU, and nothing that phones home (the closed network
# refuses those connections and Chromium stalls on them).
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
AGENT = "ops-browser"
MEMORY_BLUE, CLAIM_YELLOW = "#4C8EDA", "#FFC454"  # node.Memory and node.Claim in credence.grass


def require_chromium() -> None:
    """Skip off CI when Chromium or Playwright is missing; on CI that is a failure."""
    problem = None
    if not os.access(CHROMIUM, os.X_OK):
        problem = "no /usr/bin/chromium (`make chromium` installs Debian's, as root)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "Playwright for Python is not installed (`make setup` installs the dev extra)"
    missing_on_this_machine(problem, "the Neo4j Browser test", "Neo4j Browser test")


@pytest.fixture(scope="module")
def service(tmp_path_factory, embedder):
    require_chromium()
    data_dir = tmp_path_factory.mktemp("browser-data")
    settings = backend_test_settings("neo4j", data_dir, local_neo4j_http_port=0)
    with TestClient(create_app(settings=settings, embedder=embedder)) as client:
        yield client, data_dir


def remember(client, text, source, claim):
    response = client.post("/v1/memories", json={
        "agent": AGENT, "text": text, "provenance": {"source": source},
        "claim": dict(zip(("subject", "predicate", "value"), claim, strict=True))})
    assert response.status_code in (200, 201), response.text
    return response.json()


def drop_file(page, path: Path, mime: str) -> None:
    """What dragging a file from the desktop onto Browser's window does: a drop event whose
    DataTransfer holds that one file (Browser's FileDrop component handles it)."""
    transfer = page.evaluate_handle(
        """([name, b64, mime]) => {
             const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
             const transfer = new DataTransfer();
             transfer.items.add(new File([bytes], name, {type: mime}));
             return transfer;
           }""", [path.name, base64.b64encode(path.read_bytes()).decode(), mime])
    page.dispatch_event(".filedrop", "drop", {"dataTransfer": transfer})


def run_in_editor(page, text: str) -> None:
    page.click("#monaco-main-editor")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)
    page.click('[data-testid="editor-Run"]')


def test_an_operator_reads_the_belief_graph_in_neo4j_browser(service, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    client, data_dir = service
    child = client.app.state.services.backend.child
    assert child.browser_url is not None
    password = (data_dir / "neo4j" / "neo4j.secret").read_text().strip()  # where docs/operators.md says

    remember(client, "Budget is $200", "document", ("user", "budget_is", "$200"))
    standing = remember(client, "Budget is $300", "system", ("user", "budget_is", "$300"))
    blocked = remember(client, "Budget is $1", "user_implicit", ("user", "budget_is", "$1"))
    remember(client, "The user lives in Lisbon", "user_explicit", ("user", "lives_in", "Lisbon"))
    assert standing["superseded"] and blocked["status"] == "quarantined"

    sys.path.insert(0, str(ROOT / "tools" / "browser"))
    try:
        import favorites
    finally:
        sys.path.pop(0)
    zip_path = tmp_path / "credence-operators.zip"
    favorites.write_favorites(zip_path)
    # Browser names a favorite after its first line, without the leading `//`.
    favorite_titles = [(OPERATORS / f"{name}.cypher").read_text().splitlines()[0].removeprefix("// ")
                       for name in ("belief_graph", "quarantine_lane", "pending_conflicts")]
    screenshot = Path(os.environ.get("CREDENCE_BROWSER_SCREENSHOT")
                      or tempfile.mkstemp(prefix="credence-browser-", suffix=".png")[1])

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS,
            headless=True, viewport={"width": 1400, "height": 1000})
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(60_000)
            page.goto(child.browser_url)

            # Connect as the doc says. The form comes filled in from the discovery document
            # (neo4j://127.0.0.1:<bolt port>); bolt:// is the direct connection to this one server.
            expect(page.get_by_test_id("boltaddress")).to_have_value(f"127.0.0.1:{child.bolt_port}")
            page.select_option('[data-testid="bolt-scheme-select"]', "bolt://")
            page.fill('[data-testid="boltaddress"]', f"127.0.0.1:{child.bolt_port}")
            page.fill('[data-testid="username"]', "neo4j")
            page.fill('[data-testid="password"]', password)
            page.click('[data-testid="connect"]')
            expect(page.get_by_text("You are connected as user")).to_be_visible()

            # The style sheet and the favorites, each dropped on the window like a file from the desktop.
            drop_file(page, ROOT / "tools" / "browser" / "credence.grass", "text/plain")
            expect(page.locator('[data-testid="frameCommand"]', has_text=":style").first).to_be_visible()
            drop_file(page, zip_path, "application/zip")

            run_in_editor(page, ":clear")
            run_in_editor(page, f":param agent => '{AGENT}'")
            expect(page.locator('[data-testid="frameContents"]', has_text=AGENT).first).to_be_visible()

            # Run the imported favorite itself (the file, header comments and all) from its menu.
            page.click('[data-testid="navigationFavorites"]')
            page.get_by_text("Credence operators", exact=True).click()  # the zip's folder, collapsed
            for title in favorite_titles:
                expect(page.get_by_test_id(f"scriptTitle-{title}")).to_be_visible()
            page.get_by_test_id(f"navicon-{favorite_titles[0]}").click()
            page.get_by_test_id("contextMenuRun").click()
            page.click('[data-testid="navigationFavorites"]')

            frame = page.locator('[data-testid="frame"]').first
            graph = frame.locator("svg.neod3viz")
            expect(graph.locator("g.node").first).to_be_visible()
            # 4 memories, 4 claims, 2 entities (user, Lisbon), 4 sources; ASSERTS 4, ABOUT 5, FROM 4,
            # SUPERSEDES 1 ($300 -> $200), CONTRADICTS 2 ($300 -> $200, $1 -> $300).
            expect(frame).to_contain_text("Displaying 14 nodes")
            for label in ("Memory (4)", "Claim (4)", "Entity (2)", "Source (4)", "ASSERTS (4)", "ABOUT (5)",
                          "FROM (4)", "SUPERSEDES (1)", "CONTRADICTS (2)"):
                expect(frame).to_contain_text(label)
            captions = graph.text_content()
            for caption in ("quarantined", "superseded", "Budget is", "budget_is = $1", "Lisbon", "user_explicit"):
                assert caption in captions, f"no node caption {caption!r} in the graph view"
            # credence.grass is applied: Memory nodes blue and 80px, Claim nodes yellow.
            circles = [(c.get_attribute("fill").upper(), c.get_attribute("r"))
                       for c in graph.locator("g.node circle.b-outline").all()]
            assert circles.count((MEMORY_BLUE, "40")) == 4 and circles.count((CLAIM_YELLOW, "27.5")) == 4, circles
            page.wait_for_timeout(3_000)  # let the force layout settle before the picture
            frame.screenshot(path=str(screenshot))
            print(f"\nBrowser screenshot: {screenshot}")

            # The same result as a table: one row per memory, newest first.
            frame.locator('[data-testid="cypherFrameSidebarTable"]').click()
            table = frame.locator('[data-testid="frameContents"]')
            expect(table).to_contain_text("Budget is $1")
            expect(table).to_contain_text("The user lives in Lisbon")
            expect(table).to_contain_text('"status": "quarantined"')
            expect(frame).to_contain_text("Started streaming 4 records")
        except Exception:
            failure = screenshot.with_suffix(".failure.png")
            context.pages[0].screenshot(path=str(failure), full_page=True)
            print(f"\nBrowser at the failure: {failure}")
            raise
        finally:
            context.close()
