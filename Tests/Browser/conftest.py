"""Shared fixtures of the participant web app's browser tests (see README.md beside this file).

Session-scoped, started once: `push_service` (the local Web Push service), `server` (`momentary
serve --demo` trusting it), `chromium` (headless Chromium with a DevTools connection) and
`browser` (its Selenium WebDriver). Each test joins its own participant after `fresh_app`
forgets the previous one's site data.

WebKit (webkit.py): `webkit` is one MiniBrowser per test file on a private Xvfb display, reaching
the server through `webkit_gate`; `webkit_app` is the app in it with nothing stored. A test that
takes `any_app` runs once in Chromium and once in WebKit. Where WebKit is missing the WebKit tests
skip, naming the packages; in CI (CI=true) they fail instead.

The researcher website (the test_website_* files but the accessibility one): `website` is one
Chromium per test file at laptop size with a Developer account of its own (website.py).
"""
import os
import secrets
import shutil
import sys
import tempfile

import pytest

sys.dont_write_bytecode = True  # no __pycache__ beside the tests
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
import webkit as webkit_engine  # noqa: E402
from participant import App  # noqa: E402
from website import Website  # noqa: E402

SESSION = {"work_dir": None, "screenshots": None, "server": None, "push": None, "failed": False}


def _screenshot_dir():
    if SESSION["screenshots"] is None:
        folder = os.environ.get("MOMENTARY_SCREENSHOTS") or tempfile.mkdtemp(prefix="momentary-screenshots-")
        os.makedirs(folder, exist_ok=True)
        SESSION["screenshots"] = os.path.abspath(folder)
    return SESSION["screenshots"]


@pytest.fixture(scope="session")
def work_dir():
    folder = tempfile.mkdtemp(prefix="momentary-browser-")
    SESSION["work_dir"] = folder
    yield folder
    if not SESSION["failed"]:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def push_service(work_dir):
    service = harness.PushService(harness.executable("MOMENTARY_TEST_PUSH", ".build/debug/momentary-test-push"),
                                  work_dir)
    SESSION["push"] = service
    yield service
    service.stop()


@pytest.fixture(scope="session")
def mail_sink(work_dir):
    sink = harness.MailSink(work_dir)
    yield sink
    sink.stop()


@pytest.fixture(scope="session")
def server(work_dir, push_service, mail_sink):
    running = harness.MomentaryServer(harness.executable("MOMENTARY_BINARY", ".build/debug/momentary"),
                                      work_dir, ca_file=push_service.ca_file, smtp_port=mail_sink.port)
    SESSION["server"] = running
    yield running
    running.stop()


@pytest.fixture(scope="session")
def chromium(server):
    browser = harness.Chromium(server.origin)
    yield browser
    browser.quit()
    browser.remove_profile()


@pytest.fixture(scope="session")
def browser(chromium):
    """The Selenium WebDriver of the shared Chromium (390×844, notifications granted)."""
    return chromium.driver


@pytest.fixture
def screenshot(request):
    """screenshot(name, driver=None): saves the page as NAME.png into MOMENTARY_SCREENSHOTS."""
    def take(name, driver=None):
        driver = driver or request.getfixturevalue("chromium").driver
        path = os.path.join(_screenshot_dir(), name + ".png")
        driver.save_screenshot(path)
        return path
    return take


@pytest.fixture
def axe_check():
    """axe_check(driver, screen): fails on serious or critical axe-core violations."""
    return harness.axe_check


@pytest.fixture
def fresh_app(chromium, server, screenshot):
    """The app with nothing stored yet: a participant who has never joined, on the shared browser."""
    chromium.set_offline(False)
    chromium.clear_site_data()
    return App(chromium, server, screenshot)


@pytest.fixture
def own_chromium(server):
    """A Chromium of its own (own profile) for a test that quits and restarts the browser."""
    browser = harness.Chromium(server.origin)
    yield browser
    browser.quit()
    browser.remove_profile()


@pytest.fixture
def chromium_in(server):
    """Starts Chromiums preferring a language (`chromium_in("de-AT")`), each with its own profile."""
    started = []

    def start(language):
        browser = harness.Chromium(server.origin, language=language)
        started.append(browser)
        return browser
    yield start
    for browser in started:
        browser.quit()
        browser.remove_profile()


@pytest.fixture(scope="module")
def website(server, work_dir, request):
    """The researcher website in a Chromium of the test file's own (see website.py), and a Developer
    account of its own (`website.email`, `website.password`), not yet signed in."""
    name = request.module.__name__.replace("_", "-")
    site = Website(server, os.path.join(work_dir, "downloads", name))
    site.email = "%s@example.org" % name
    site.password = secrets.token_urlsafe(18)
    # "--password=…": a random password may start with "-", which would read as an option.
    server.cli("researchers", "create", "--email", site.email, "--role", "developer", "--name", "Website Tester",
               "--password=" + site.password)
    yield site
    site.quit()


@pytest.fixture(scope="session")
def xvfb():
    reason = webkit_engine.missing()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason + "; in CI a WebKit test that cannot run is a failure", pytrace=False)
        pytest.skip(reason)
    display = webkit_engine.Xvfb()
    yield display
    display.stop()


@pytest.fixture(scope="session")
def webkit_gate(server):
    """The relay WebKit reaches the server through: closing it is WebKit's way of going offline."""
    gate = webkit_engine.Gate(int(server.base_url.rsplit(":", 1)[1]))
    yield gate
    gate.stop()


@pytest.fixture(scope="module")
def webkit(xvfb, webkit_gate):
    """One WebKitGTK MiniBrowser per test file (each test still gets a new session: see webkit_app)."""
    browser = webkit_engine.WebKit(webkit_gate, xvfb.display)
    yield browser
    browser.quit()


@pytest.fixture
def webkit_app(webkit, server, screenshot):
    """The app in WebKit with nothing stored; its screenshots are named webkit-…"""
    webkit.clear_site_data()
    return App(webkit, server, lambda name: screenshot("webkit-" + name, webkit.driver))


@pytest.fixture(params=["chromium", "webkit"])
def any_app(request):
    """The app with nothing stored, in Chromium and then in WebKit (the test runs once in each)."""
    return request.getfixturevalue("fresh_app" if request.param == "chromium" else "webkit_app")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    """On a failure, keeps the evidence: a screenshot of each browser the test used and the server log."""
    if call.when != "call" or call.excinfo is None or call.excinfo.errisinstance(pytest.skip.Exception):
        return
    if item.get_closest_marker("xfail") is not None:  # an expected failure: nothing to keep
        return
    SESSION["failed"] = True
    funcargs = getattr(item, "funcargs", {})
    browsers = {name: funcargs.get(name) for name in ("own_chromium", "chromium", "website", "webkit")}
    app = funcargs.get("any_app")  # its browser was chosen at run time, so it is not among the funcargs
    if isinstance(app, App) and app.browser not in browsers.values():
        browsers[type(app.browser).__name__.lower()] = app.browser
    for name, browser in browsers.items():
        if browser is not None and browser.driver is not None:
            try:
                path = os.path.join(_screenshot_dir(), "FAILED-%s-%s.png" % (item.name, name))
                browser.driver.save_screenshot(path)
                item.add_report_section("call", "browser", "%s at %s; screenshot %s" % (
                    name, browser.driver.current_url, path))
            except Exception as error:  # the browser itself may be what failed
                item.add_report_section("call", "browser", "%s: no screenshot (%s)" % (name, error))
    if SESSION["server"] is not None:
        tail = [line for line in SESSION["server"].log().splitlines() if "[Migrator]" not in line][-60:]
        item.add_report_section("call", "server log (last 60 lines)", "\n".join(tail))


def pytest_terminal_summary(terminalreporter):
    if SESSION["screenshots"]:
        terminalreporter.write_line("screenshots: %s" % SESSION["screenshots"])
    if SESSION["failed"] and SESSION["work_dir"]:
        terminalreporter.write_line("kept for a look (server.log, push.log, data/): %s" % SESSION["work_dir"])
