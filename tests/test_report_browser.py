"""The report in a real browser (headless Chromium through selenium): no console errors, the
matrix and the charts render, a spec's table and heatmap are drawn when it is opened, a filter
hides rows; a full run's page (tests/test_report.py full_run) is measured: its time to interactive
and its element count are written to browser-test.json beside the screenshots, in the test's own
temporary folder, or in the folder PARITY_SCREENSHOTS names (nothing lands in the checkout). The
time is measured, not asserted (the machines are shared and noisy); what it depends on, the number
of elements the page starts with, is held under a bound.

Chromium is the Debian packages chromium and chromium-driver (.ci/run installs them as root);
where neither they nor selenium can be had, the test skips and says which is missing."""
import json
import os
import pathlib
import shutil

import pytest

from reports.build import build
from tests.test_report import bench_file, full_run, record, spec_json


def shots_folder(tmp_path) -> pathlib.Path:
    """Where the screenshots and the measurement go: PARITY_SCREENSHOTS, else the test's tmp_path."""
    folder = pathlib.Path(os.environ.get("PARITY_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
        assert browser.find_elements(By.CSS_SELECTOR, "#specs tr[data-status]") == []  # drawn when opened
        browser.execute_script("document.getElementById('spec-matmul/x').open = true;"
                               "document.getElementById('spec-conv/c').open = true")
        rows = browser.find_elements(By.CSS_SELECTOR, "#specs tr[data-status]")
        assert len(rows) == 3  # matmul/x docs; conv/c docs (jax fails) and other (torch documented)
        assert all(r.is_displayed() for r in rows)
        for chart in ("svg.heatmap", "svg.bars", "svg.history"):
            size = browser.find_element(By.CSS_SELECTOR, chart).size
            assert size["width"] > 50 and size["height"] > 20, chart
        assert "jax vs torch: 5e-8" in browser.find_element(By.CSS_SELECTOR, "svg.heatmap").get_attribute("innerHTML")
        Select(browser.find_element(By.ID, "filter-status")).select_by_visible_text("fail")
        shown = [r for r in rows if r.is_displayed()]
        assert shown and len(shown) < len(rows) and all("fail" in r.get_attribute("data-status") for r in shown)
        Select(browser.find_element(By.ID, "filter-status")).select_by_visible_text("all")
        Select(browser.find_element(By.ID, "filter-adapter")).select_by_visible_text("torch")
        assert not browser.find_element(By.CSS_SELECTOR, "#failures .card").is_displayed()  # a jax card
        assert browser.save_screenshot(str(shots_folder(tmp_path) / "browser-test.png"))
    finally:
        browser.quit()


ELEMENTS = 20_000  # what a page may start with: a full run's tables as markup were 200 000+


def test_a_full_runs_page_is_measured_in_chromium(tmp_path):
    full_run(tmp_path)
    page = build([tmp_path], tmp_path / "out")
    browser = chromium()
    try:
        browser.get(page.as_uri())
        timing = browser.execute_script(
            "var t = performance.timing; return {interactive: t.domInteractive - t.navigationStart, loaded: "
            "t.domContentLoadedEventEnd - t.navigationStart, elements: document.getElementsByTagName('*').length}")
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
        assert timing["elements"] < ELEMENTS
        from selenium.webdriver.common.by import By

        spec = browser.find_element(By.CSS_SELECTOR, "details[data-spec='area0/spec0']")
        browser.execute_script("arguments[0].open = true; arguments[0].scrollIntoView()", spec)
        rows = spec_json(page.read_text())["specs"]["area0/spec0"]["rows"]
        assert len(spec.find_elements(By.CSS_SELECTOR, "tbody tr")) == len(rows) > 1
        shots = shots_folder(tmp_path)
        assert browser.save_screenshot(str(shots / "browser-test-full-run.png"))
        (shots / "browser-test.json").write_text(json.dumps({**timing, "bytes": page.stat().st_size}) + "\n")
        print(f"full run's page: {page.stat().st_size / 1e6:.2f} MB, interactive after {timing['interactive']} ms, "
              f"loaded after {timing['loaded']} ms, {timing['elements']} elements")
    finally:
        browser.quit()


BUILT_IN = ("engine", "jax", "jax-32", "keras-jax", "keras-tensorflow", "keras-torch", "paddle", "reference",
            "tensorflow", "torch")  # every built-in adapter, each eager and compiled: the matrix's widest


def every_adapter_run(folder):
    """A run of every built-in adapter in both modes over 20 areas, the first with a cell of four
    digits and three statuses in every column (1,000 passing, 100 documented, 10 unsupported), where
    jax documents a promotion on one case that torch passes, and paddle fails it; and a model
    that torch and jax trained, whose linear layers' default initialisation paddle documents."""
    lines = [record(spec=f"area{i}/s", adapter=a, mode=m) for i in range(1, 20) for a in BUILT_IN
             for m in ("eager", "compiled")]
    lines += [record(spec="area0/s", case=f"c{n}", adapter=a, mode=m, status=status,
                     difference={"note": "n", "regime": "semantics"} if status == "documented" else None)
              for a in BUILT_IN for m in ("eager", "compiled")
              for status, count in (("pass", 1000), ("documented", 100), ("unsupported", 10)) for n in range(count)]
    lines += [record(spec="promotion/add", case="mixed", adapter="torch"),
              record(spec="promotion/add", case="mixed", adapter="jax", status="documented", max_abs_err=0.5,
                     difference={"note": "int32 + float64 is float32", "source": "jax docs", "regime": "promotion"},
                     rerun="python -m pytest 'specs/promotion.yaml::add[jax-cpu-float32-eager]' --adapter jax"),
              record(spec="promotion/add", case="mixed", adapter="paddle", status="fail", message="off")]
    lines += [record(spec=spec, case="batch", kind=kind, adapter=a, ops=["init_linear", "linear"], **fields)
              for a in ("torch", "jax") for spec, kind, fields in (
                  ("models/net", "training", {"trajectory": [{"loss": 1.0}]}),
                  ("initializers/linear-defaults", "example", {}))]
    lines.append(record(spec="initializers/linear-defaults", case="batch", adapter="paddle", status="documented",
                        ops=["init_linear"], difference={"note": "Linear: Xavier uniform, as Dense's Glorot",
                                                         "regime": "default"}))
    folder.mkdir()
    (folder / "r.jsonl").write_text("\n".join(lines) + "\n")


def test_the_first_screen_the_port_view_and_the_layout_at_1400_px_and_on_a_phone(tmp_path):
    every_adapter_run(tmp_path / "run")
    page = build([tmp_path / "run"], tmp_path / "out")
    browser = chromium()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    try:
        browser.set_window_size(1400, 1000)
        browser.get(page.as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
        start = browser.find_element(By.ID, "start")
        assert start.location["y"] < 400 and "1 failure group(s)" in start.text and "paddle" in start.text
        first = start.find_elements(By.CSS_SELECTOR, "ol.first li")  # what to look at first, ranked
        assert first and first[0].text.startswith("[undocumented] promotion/add: paddle fail"), [f.text for f in first]
        matrix = browser.find_element(By.CSS_SELECTOR, "table.matrix")  # every column on screen at 1400 px
        assert matrix.location["x"] + matrix.size["width"] <= 1400, matrix.size
        view = browser.find_element(By.ID, "port-view")  # opens on torch -> jax
        assert "torch \u2192 jax: 1 case differs" in view.text and "int32 + float64 is float32" in view.text
        assert [h.text for h in view.find_elements(By.TAG_NAME, "h3")] == ["First to change", "promotion (1)"]
        assert view.find_element(By.CSS_SELECTOR, "ol.port-first li").text == (
            "[promotion] promotion/add: jax documented err 0.5: int32 + float64 is float32 | torch pass (1 case)")
        assert "--adapter jax" in view.find_element(By.CSS_SELECTOR, "details code").get_attribute("textContent")
        Select(browser.find_element(By.ID, "port-target")).select_by_visible_text("paddle")
        assert [h.text for h in view.find_elements(By.TAG_NAME, "h3")] == [
            "First to change", "undocumented (1)", "default (1)"]
        assert [li.text.split(":")[0] for li in view.find_elements(By.CSS_SELECTOR, "ol.port-first li")] == [
            "[undocumented] promotion/add", "[default] initializers/linear-defaults"]
        Select(browser.find_element(By.ID, "port-source")).select_by_visible_text("engine")
        assert "engine \u2192 paddle: no case differs" in view.text  # the engine did not run promotion/add
        Select(browser.find_element(By.ID, "port-source")).select_by_visible_text("torch")
        pair = browser.find_element(By.CSS_SELECTOR, 'a.port-pair[data-source="jax"][data-target="paddle"]')
        browser.execute_script("arguments[0].click()", pair)  # scrolled away under the sticky header
        assert "jax \u2192 paddle: 2 cases differ" in view.text  # a pair of the first screen opens in the view
        Select(browser.find_element(By.ID, "port-source")).select_by_visible_text("torch")
        browser.find_element(By.CSS_SELECTOR, 'a.port-model[data-model="models/net"]').click()  # a model's link
        assert Select(browser.find_element(By.ID, "port-model")).first_selected_option.text == "models/net"
        assert "torch \u2192 paddle of models/net: 1 case differs" in view.text  # promotion/add is not its
        assert "linear-defaults" in view.text and "Dense" in view.text
        browser.get(page.as_uri() + "#differences")  # the heading a link jumps to is below the sticky header
        header = browser.find_element(By.TAG_NAME, "header")
        heading = browser.find_element(By.CSS_SELECTOR, "#differences h2")
        top = browser.execute_script("return arguments[0].getBoundingClientRect().top", heading)
        assert top >= header.size["height"], (top, header.size)
        assert browser.save_screenshot(str(shots_folder(tmp_path) / "browser-test-port.png"))
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        browser.get(page.as_uri())
        widths = browser.execute_script("return [document.documentElement.clientWidth, "
                                        "document.documentElement.scrollWidth]")
        assert widths[0] == 390 and widths[1] <= 390, widths  # nothing wider than a phone; tables scroll
        assert browser.save_screenshot(str(shots_folder(tmp_path) / "browser-test-phone.png"))
    finally:
        browser.quit()
