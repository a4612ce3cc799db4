"""A browser with JavaScript off gets the page's one line in both of its languages, each marked with its own
``lang`` (no script is there to choose one), on the real server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
def test_without_javascript_the_page_says_so_in_english_and_indonesian(browser, web, locale):
    context = browser.new_context(java_script_enabled=False, locale=locale, base_url=web)
    try:
        page = context.new_page()
        page.goto("/play")
        said = page.locator("#app p")
        expect(said).to_have_count(2)
        expect(page.locator("#app p[lang=en]")).to_have_text(
            "This game needs JavaScript: turn it on in your browser's settings."
        )
        expect(page.locator("#app p[lang=id]")).to_have_text(
            "Permainan ini memerlukan JavaScript: aktifkan di pengaturan browser Anda."
        )
        for line in said.all():
            expect(line).to_be_visible()
    finally:
        context.close()
