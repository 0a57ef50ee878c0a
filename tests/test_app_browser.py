"""End to end in a real browser: `kensnap app` on a free localhost port, Debian's chromium driven by
Playwright (no browser download), a sample photo uploaded through the page, the solved overlay and
the status text seen. The screenshot of the solved page is saved (SCREENSHOT) for people to look at.

chromium comes from `.ci/setup` (the README's test command); the test is skipped only when the
browser or the Playwright package is not on this machine at all.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOT = Path(os.environ.get("KENSNAP_SCREENSHOT", "/tmp/kensnap-app-solved.png"))
SAMPLE = REPO / "samples" / "app-4x4-clean.jpg"
START_TIMEOUT_S = 90
STEP_TIMEOUT_MS = 90_000

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not CHROMIUM.is_file():
    pytest.skip("Debian's chromium is not installed (bash .ci/setup installs it)", allow_module_level=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """`kensnap app` on a free port, healthy; always stopped (its whole process group) afterwards."""
    port = free_port()
    kensnap = Path(sys.executable).with_name("kensnap")
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"kensnap-app-{port}.log", "w+")
    process = subprocess.Popen([str(kensnap), "app", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT,
                               cwd=REPO, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"kensnap app exited with {process.returncode}:\n{log.read()}")
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"kensnap app not healthy after {START_TIMEOUT_S} s:\n{log.read()}")
            time.sleep(0.3)
        yield url
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)
        log.close()


def test_upload_a_photo_and_see_it_solved(server):
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(STEP_TIMEOUT_MS)
            page.goto(server, wait_until="domcontentloaded")
            page.get_by_text("Start with a photo or screenshot").wait_for()
            page.locator("input[type=file]").first.set_input_files(str(SAMPLE))
            status = page.get_by_text("Solved: the solution is unique")
            status.wait_for()
            page.wait_for_function(
                "() => [...document.images].filter(i => i.complete && i.naturalWidth > 100).length >= 3")
            captions = page.locator("[data-testid=stImageCaption], [data-testid=caption]").all_inner_texts()
            assert any("drawn into your photo" in text for text in captions), captions
            download = page.get_by_role("button", name="Download this picture (PNG)")
            download.wait_for()  # rendered after the pictures; on a slow machine a moment later
            assert download.is_visible()
            SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            page.set_viewport_size({"width": 1280, "height": 2000})  # Streamlit scrolls inside its own box
            page.wait_for_timeout(500)
            page.screenshot(path=str(SCREENSHOT))
        finally:
            browser.close()
    assert SCREENSHOT.stat().st_size > 20_000
