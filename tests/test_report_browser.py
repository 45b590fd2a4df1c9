"""The report in a real browser (headless Chromium through selenium): no console errors, the
matrix and the charts render, a filter hides rows; the screenshot is kept under reports/out/.

Chromium is the Debian packages chromium and chromium-driver (.ci/run installs them as root);
where neither they nor selenium can be had, the test skips and says which is missing."""
import json
import pathlib
import shutil

import pytest

from reports.build import build
from tests.test_report import bench_file, record

ROOT = pathlib.Path(__file__).resolve().parent.parent


def chromium():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (requirements/test.txt)")
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not binary or not driver:
        pytest.skip("headless Chromium is not installed (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--window-size=1280,1600"):
        options.add_argument(arg)
    options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


def test_report_renders_and_filters_in_chromium(tmp_path):
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(adapter="torch", output=[1.0, 2.0]), record(adapter="jax", output=[1.0, 2.0000001]),
        record(spec="conv/c", adapter="jax", status="fail", message="differs", worst=[0],
               around={"start": [0], "expected": [1.0], "actual": [1.5]},
               repro={"jax": {"code": "print(1)\n"}}),
        record(spec="conv/c", adapter="torch", case="other", status="documented",
               difference={"note": "n", "source": "https://example.org/doc"}),
    ]) + "\n" + json.dumps({"spec": "cut"})[:8])
    bench_file(tmp_path / "run1", {"torch": 1e-3, "jax": 2e-3}, "2026-01-01T00:00:00", "aaaa")
    bench_file(tmp_path / "run2", {"torch": 1e-3, "jax": 3e-3}, "2026-01-02T00:00:00", "bbbb")
    page = build([tmp_path], tmp_path / "out")
    browser = chromium()
    try:
        browser.get(page.as_uri())
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        assert len(browser.find_elements(By.CSS_SELECTOR, "table.matrix tbody tr")) == 2
        for chart in ("svg.heatmap", "svg.bars", "svg.history"):
            size = browser.find_element(By.CSS_SELECTOR, chart).size
            assert size["width"] > 50 and size["height"] > 20, chart
        rows = browser.find_elements(By.CSS_SELECTOR, "#specs tr[data-status]")
        assert all(r.is_displayed() for r in rows)
        Select(browser.find_element(By.ID, "filter-status")).select_by_visible_text("fail")
        shown = [r for r in rows if r.is_displayed()]
        assert shown and len(shown) < len(rows) and all("fail" in r.get_attribute("data-status") for r in shown)
        Select(browser.find_element(By.ID, "filter-status")).select_by_visible_text("all")
        Select(browser.find_element(By.ID, "filter-adapter")).select_by_visible_text("torch")
        assert not browser.find_element(By.CSS_SELECTOR, "#failures .card").is_displayed()  # a jax card
        shots = ROOT / "reports" / "out"
        shots.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(shots / "browser-test.png"))
    finally:
        browser.quit()
