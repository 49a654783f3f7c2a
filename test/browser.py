"""A headless Chromium for tests, driven through selenium and chromium-driver
(Debian's chromium, chromium-driver and python3-selenium): open a local page
or SVG with no network, read the browser's console, run script in the page,
click, type, take a screenshot. Reusable by any test that must see vmprof's
output work in a real browser (the flame graph, the HTML report).

    from browser import Browser, NoBrowser
    with Browser(tmpdir) as b:
        b.open("charts/cpu-clock-flame.svg")
        assert not b.console_errors()
        b.js("return document.title")

Browser(...) raises NoBrowser (with the reason) when Chromium, its driver or
selenium is missing; a test turns that into a SKIP. The browser runs with
--headless --no-sandbox --disable-gpu and with its background networking,
component updates, sync and first-run work off (the machine has no network:
without those flags it keeps trying to reach Google), in a fresh profile
under the test's own directory.
"""
import os
import shutil


class NoBrowser(Exception):
    """No Chromium, chromium-driver or selenium here: the reason is the message."""


FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--disable-extensions", "--disable-default-apps",
         "--no-default-browser-check", "--hide-scrollbars", "--mute-audio"]


def _find(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


class Browser:
    def __init__(self, workdir, width=1300, height=1000):
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError as e:
            raise NoBrowser(f"python3-selenium is not installed ({e})")
        chromium = _find("chromium", "chromium-browser", "google-chrome")
        driver = _find("chromedriver", "chromium-driver")
        if not chromium:
            raise NoBrowser("no chromium binary on PATH (Debian package chromium)")
        if not driver:
            raise NoBrowser("no chromedriver on PATH (Debian package chromium-driver)")
        self.workdir = os.path.abspath(workdir)
        profile = os.path.join(self.workdir, "chromium-profile")
        os.makedirs(profile, exist_ok=True)
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium
        for f in FLAGS:
            opts.add_argument(f)
        opts.add_argument(f"--user-data-dir={profile}")
        opts.add_argument(f"--window-size={width},{height}")
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        log = os.path.join(self.workdir, "chromedriver.log")
        # the driver is given by path: selenium then never looks for one online
        service = Service(executable_path=driver, log_path=log)
        try:
            self.driver = webdriver.Chrome(service=service, options=opts)
        except Exception as e:  # a browser that cannot start here is no browser
            raise NoBrowser(f"chromium did not start: {str(e).splitlines()[0] if str(e) else e!r}")
        self._seen = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if getattr(self, "driver", None):
            self.driver.quit()
            self.driver = None

    def open(self, path):
        self.driver.get("file://" + os.path.abspath(path))

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def console(self):
        """Every console entry since the last call: dicts with level, message."""
        entries = self.driver.get_log("browser")
        self._seen += entries
        return entries

    def console_errors(self):
        return [e for e in self.console() if e.get("level") in ("SEVERE", "ERROR")]

    def find(self, css):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, element):
        """A real pointer click in the middle of the element (not a script call)."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).move_to_element(element).click().perform()

    def type(self, element, text):
        element.click()
        element.send_keys(text)

    def key(self, key):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(key).perform()

    def screenshot(self, path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.driver.save_screenshot(path)
