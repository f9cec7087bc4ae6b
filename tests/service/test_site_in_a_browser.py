"""The report site in a real browser: the distribution's headless Chromium, driven by Selenium
through the distribution's chromedriver, reading the site as `vllm-report serve` serves it.

Every page loads with no console error, every internal link (and its #anchor) lands, every
chart is shown, nothing overflows a 375 px phone or a 1280 px screen, strangers' markup does
not run, and the 2026-03-25 pages are kept as screenshots (build/test-artifacts/).
"""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit
from urllib.request import urlopen

import pytest

from tests.sites import Site

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(
    os.environ.get("TEST_ARTIFACTS", Path(__file__).parents[2] / "build/test-artifacts")
)
WIDTHS = (375, 1280)

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):  # .ci/run installs them: missing there is a failure
        raise RuntimeError(
            "chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
        )
    pytest.skip("no chromium/chromedriver on this machine", allow_module_level=True)


@pytest.fixture(scope="module")
def served(fixture_site: Site) -> Iterator[tuple[str, Path]]:
    """The site behind the bot's own web server on 127.0.0.1 (a port of its own)."""
    from aiohttp import web

    from bot.adapters.web.server import web_app

    _, root, _ = fixture_site

    async def healthy() -> tuple[bool, dict[str, Any]]:
        return True, {}

    loop = asyncio.new_event_loop()
    runner = web.AppRunner(web_app(root, healthy))
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/", root
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-extensions",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def page_urls(base: str, root: Path) -> list[str]:
    urls = []
    for path in sorted(root.rglob("index.html")):
        folder = path.parent.relative_to(root).as_posix()
        urls.append(base if folder == "." else f"{base}{folder}/")
    return urls


def viewport(driver: Any, width: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def overflow(driver: Any) -> int:
    """How many pixels the page is wider than the screen (0: no sideways scrolling)."""
    return int(
        driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    )


def test_every_page_loads_cleanly_links_land_and_fits_a_phone(
    browser: Any, served: tuple[str, Path]
) -> None:
    base, root = served
    urls = page_urls(base, root)
    assert len(urls) > 30  # 16 days × 2 languages, the index, the topics
    anchors: dict[str, set[str]] = {}
    links: set[str] = set()
    for url in urls:
        viewport(browser, WIDTHS[0])
        browser.get(url)
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, (url, errors)
        assert browser.execute_script("return document.readyState") == "complete"
        assert browser.title and "owned" not in browser.title, url  # no stranger's script ran
        for width in WIDTHS:
            viewport(browser, width)
            assert overflow(browser) <= 0, (url, width)
        images = browser.execute_script(
            "return [...document.images].map(i => [i.src, i.complete && i.naturalWidth])"
        )
        for src, natural in images:
            assert natural and natural > 0, (url, src)
        anchors[url] = set(
            browser.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)")
        )
        links |= set(browser.execute_script("return [...document.links].map(a => a.href)"))
    internal = sorted(link for link in links if link.startswith(base))
    assert any("#amd" in link for link in internal)
    for link in internal:
        page, anchor = urldefrag(link)
        with urlopen(page) as answer:
            assert answer.status == 200, link
        if anchor and page in anchors:
            assert anchor in anchors[page], link


def test_the_report_page_reads_in_both_languages_and_themes(
    browser: Any, served: tuple[str, Path]
) -> None:
    base, _ = served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for lang, path in (("en", "2026-03-25/"), ("zh", "2026-03-25/zh/")):
        viewport(browser, 1280)
        browser.get(base + path)
        heading = browser.find_element("css selector", "h1").text
        assert heading == (
            "vLLM daily report · 2026-03-25" if lang == "en" else "vLLM 开发动态日报 · 2026-03-25"
        )
        shot = browser.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
        )
        target = ARTIFACTS / f"site-2026-03-25{'' if lang == 'en' else '.zh'}.png"
        target.write_bytes(base64.b64decode(shot["data"]))
        assert target.stat().st_size > 50_000
    # A stranger's markup is shown as text, not run or rendered.
    shown = browser.find_element("css selector", "#appendix").text
    assert '<script>document.title="owned"</script>[ROCm] fix attention' in shown
    assert not browser.find_elements("css selector", "main img[src='x']")

    background = "return getComputedStyle(document.body).backgroundColor"
    light = browser.execute_script(background)
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    dark = browser.execute_script(background)
    assert light != dark and _luminance(dark) < 0.2 < _luminance(light)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print", "features": []})
    assert not browser.find_element("css selector", "header.site").is_displayed()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})


def test_the_site_server_refuses_paths_outside_the_site(served: tuple[str, Path]) -> None:
    from urllib.error import HTTPError

    base, _ = served
    hostile = ("%00", "a%00b/", "x" * 300, "/".join(["y" * 250] * 20))  # NUL, names too long
    for path in (
        "../../etc/passwd",
        "%2e%2e/%2e%2e/etc/passwd",
        ".site-inputs.json",
        "nope/",
        *hostile,
    ):
        with pytest.raises(HTTPError) as refused:
            urlopen(base + path)
        assert refused.value.code == 404, path
    with urlopen(base + "2026-03-25") as answer:
        assert urlsplit(answer.url).path == "/2026-03-25/"
    with urlopen(base + "feed.xml") as answer:
        assert answer.headers["Content-Type"].startswith("application/atom+xml")
    with urlopen(base + "healthz") as answer:
        assert answer.status == 200


def _luminance(css: str) -> float:
    red, green, blue = (
        int(part) for part in css[css.index("(") + 1 : css.index(")")].split(",")[:3]
    )
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255
