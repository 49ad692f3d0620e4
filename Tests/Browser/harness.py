"""Processes and browser plumbing for the participant web app's browser tests and benchmark.

The pytest fixtures (conftest.py) and Benchmarks/scripts/webapp_bench.py both build on these classes:

- PushService: the local Web Push service (`momentary-test-push`), over https with its own CA.
- MomentaryServer: `momentary serve --demo --port 0` on a throw-away data folder, trusting that CA.
- Chromium: Debian's headless Chromium through chromedriver, plus a second DevTools connection
  (DevTools) for what Selenium's `execute_cdp_cmd` cannot do: listen to events, and send commands
  to the service worker's own target (offline emulation must cover the worker, or it would
  upload behind the page's back).

Everything listens on 127.0.0.1 only.
"""
import base64
import contextlib
import json
import os
import re
import shutil
import signal
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

import websocket
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WINDOW = (390, 844)  # an iPhone 12–15 sized viewport, the size the screenshots are judged at


def executable(variable, default):
    """The path named by the environment variable, else the default under the repository."""
    path = os.environ.get(variable) or os.path.join(REPOSITORY, default)
    return os.path.abspath(path)


def catalogue(tag):
    """The app's message catalogue of one language (app/i18n/<tag>.json)."""
    import test_catalogues
    return test_catalogues.catalogues()[tag]


def page_language(driver):
    """The page's [lang, dir]: the language the app shows, and its direction."""
    return driver.execute_script("return [document.documentElement.lang, document.documentElement.dir]")


def wait_until(condition, timeout, what, interval=0.05):
    """Polls `condition` until it returns something truthy, which is returned; fails naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError("waited %.0f s for %s" % (timeout, what))
        time.sleep(interval)


class LoggedProcess:
    """A child process whose output goes to a file, so a failure can show it whole."""

    def __init__(self, arguments, log_path, env=None):
        self.arguments = arguments
        self.log_path = log_path
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen(
            arguments, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True)

    def log(self):
        with open(self.log_path, "r", encoding="utf-8", errors="replace") as file:
            return file.read()

    def wait_for_line(self, pattern, timeout):
        """The first match of `pattern` in the log; fails if the process ends first."""
        def matched():
            found = re.search(pattern, self.log(), re.MULTILINE)
            if found:
                return found
            if self.process.poll() is not None:
                raise RuntimeError("%s stopped (exit %s) before printing %r:\n%s"
                                   % (os.path.basename(self.arguments[0]), self.process.returncode, pattern, self.log()))
            return None
        return wait_until(matched, timeout, "%s to print %r" % (os.path.basename(self.arguments[0]), pattern))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # lets Vapor shut down cleanly
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


class PushService:
    """`momentary-test-push`: hands out subscriptions and shows the messages it decrypted."""

    def __init__(self, binary, work_dir):
        if not os.access(binary, os.X_OK):
            raise FileNotFoundError("%s is missing; run `swift build` (or set MOMENTARY_TEST_PUSH)" % binary)
        self.ca_file = os.path.join(work_dir, "ca.pem")
        self.process = LoggedProcess([binary, "--ca-out", self.ca_file], os.path.join(work_dir, "push.log"))
        found = self.process.wait_for_line(r"^momentary-test-push listening on (https://127\.0\.0\.1:\d+)", 60)
        self.url = found.group(1)
        wait_until(lambda: os.path.exists(self.ca_file), 10, "the push service's CA file")
        self._tls = ssl.create_default_context(cafile=self.ca_file)

    def _request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, context=self._tls, timeout=10) as answer:
            return json.loads(answer.read() or b"null")

    def subscribe(self, application_server_key=None):
        """A new subscription: {"id", "endpoint", "keys": {"p256dh", "auth"}}."""
        body = {"application_server_key": application_server_key} if application_server_key else {}
        return self._request("POST", "/subscriptions", body)

    def messages(self, subscription_id):
        return self._request("GET", "/subscriptions/%s/messages" % subscription_id)

    def wait_for_payload(self, subscription_id, beep_id, timeout=15):
        """The decrypted payload (parsed JSON) of the push that carries `beep_id`."""
        def find():
            for message in self.messages(subscription_id):
                payload = json.loads(message["payload"])
                if str(payload.get("beep_id", "")).lower() == beep_id.lower():
                    return payload
            return None
        return wait_until(find, timeout, "the push service to receive beep %s" % beep_id, interval=0.2)

    def stop(self):
        self.process.stop()


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__("HTTP %s: %s" % (status, body))
        self.status = status
        self.body = body


class MailSink:
    """aiosmtpd (scripts/smtp_sink.py): a real SMTP server keeping each message it takes as JSON."""

    def __init__(self, work_dir):
        self.folder = os.path.join(work_dir, "mail")
        os.makedirs(self.folder, exist_ok=True)
        script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "smtp_sink.py")
        self.process = subprocess.Popen([sys.executable, script, "--dir", self.folder],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError("scripts/smtp_sink.py did not start (is aiosmtpd installed?): %r" % line)
        self.port = int(line.split()[1])

    def messages(self):
        names = sorted(name for name in os.listdir(self.folder) if not name.startswith("."))
        result = []
        for name in names:
            with open(os.path.join(self.folder, name)) as file:
                result.append(json.load(file))
        return result

    def stop(self):
        self.process.stdin.close()
        self.process.wait(10)


class MomentaryServer:
    """`momentary serve --demo --port 0` on its own data folder; also runs the CLI on that folder."""

    def __init__(self, binary, work_dir, ca_file=None, smtp_port=None):
        if not os.access(binary, os.X_OK):
            raise FileNotFoundError("%s is missing; run `swift build` (or set MOMENTARY_BINARY)" % binary)
        self.binary = binary
        self.data_dir = os.path.join(work_dir, "data")
        os.makedirs(self.data_dir, exist_ok=True)
        self.env = dict(os.environ)
        self.env["MOMENTARY_ENV"] = "development"
        # The demo's fixture provider fills a located answer's weather on the next pass: every 5 s here.
        self.env["MOMENTARY_ENVIRONMENT_SECONDS"] = "5"
        self.env.pop("MOMENTARY_DATA_DIR", None)
        self.env.pop("DATABASE_URL", None)  # always the embedded SQLite file the tests read
        # Outside production the server makes its own VAPID key in the data folder (so `beep now`
        # beside it signs with the same key); WEBPUSH_CA_FILE makes it trust the local push service.
        for variable in ("WEBPUSH_VAPID_PRIVATE_KEY", "WEBPUSH_VAPID_SUBJECT", "WEBPUSH_CA_FILE"):
            self.env.pop(variable, None)
        if ca_file:
            self.env["WEBPUSH_CA_FILE"] = ca_file
        for variable in ("MOMENTARY_SMTP_URL", "MOMENTARY_MAIL_FROM", "MOMENTARY_SMTP_CA_FILE"):
            self.env.pop(variable, None)
        if smtp_port:
            self.env["MOMENTARY_SMTP_URL"] = "smtp://127.0.0.1:%d?starttls=never" % smtp_port
            self.env["MOMENTARY_MAIL_FROM"] = "Momentary <momentary@lab.example.org>"
        self.process = LoggedProcess(
            [binary, "serve", "--demo", "--port", "0", "--data", self.data_dir],
            os.path.join(work_dir, "server.log"), env=self.env)
        found = self.process.wait_for_line(r"^Momentary is listening on (http://[^ ]+)", 120)
        self.base_url = found.group(1).rstrip("/")
        self.origin = self.base_url
        wait_until(self._healthy, 30, "%s/healthz" % self.base_url, interval=0.1)

    def _healthy(self):
        try:
            with urllib.request.urlopen(self.base_url + "/healthz", timeout=2) as answer:
                return answer.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def log(self):
        return self.process.log()

    def stop(self):
        self.process.stop()

    # ---- the command line, on the same data folder -----------------------------------------

    def cli(self, *arguments, check=True):
        """Runs `momentary ARGUMENTS --data DIR`; with `check`, fails showing its output."""
        completed = subprocess.run([self.binary, *arguments, "--data", self.data_dir], env=self.env,
                                   capture_output=True, text=True, timeout=120)
        if check and completed.returncode != 0:
            raise AssertionError("momentary %s exited %d:\n%s%s" % (
                " ".join(arguments), completed.returncode, completed.stdout, completed.stderr))
        return completed

    def beep_now(self, participant_id):
        """Sends a test beep through the real signalling path; returns the beep id (lower case)."""
        output = self.cli("beep", "now", "--participant", participant_id).stdout
        found = re.search(r"Test beep ([0-9A-Fa-f-]{36}) ", output)
        assert found, "`beep now` printed no beep id: %s" % output
        return found.group(1).lower()

    # ---- the participant API ---------------------------------------------------------------

    def api(self, method, path, body=None, credentials=None):
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if credentials:
            token = base64.b64encode(("%s:%s" % credentials).encode()).decode()
            headers["Authorization"] = "Basic " + token
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                text = answer.read()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read()
            raise ApiError(error.code, json.loads(text) if text else None) from None

    def web_push_key(self):
        return self.api("GET", "/api/v1/push/web-push-key")["public_key"]

    # ---- the database, read-only -------------------------------------------------------------

    def query(self, sql, parameters=()):
        """Rows (as dicts) from the server's SQLite file, with ids as lower-case UUID strings."""
        connection = sqlite3.connect("file:%s?mode=ro" % os.path.join(self.data_dir, "momentary.sqlite"),
                                     uri=True, timeout=10)
        try:
            connection.row_factory = sqlite3.Row
            rows = connection.execute(sql, tuple(parameters)).fetchall()
            return [{key: _plain(row[key]) for key in row.keys()} for row in rows]
        finally:
            connection.close()

    def rows(self, table, order_by=None, **equal):
        """The rows of `table` whose columns equal the given values (ids compared as lower-case text).

        Filtering happens here rather than in SQL so the tests need not know how the driver stores
        UUIDs (16-byte blobs or text); the test databases are small.
        """
        sql = "SELECT * FROM %s" % table + (" ORDER BY %s" % order_by if order_by else "")
        wanted = {key: _plain(value) for key, value in equal.items()}
        return [row for row in self.query(sql) if all(row.get(key) == value for key, value in wanted.items())]

    def participant_ids(self):
        return {row["id"] for row in self.query("SELECT id FROM participants")}


def _plain(value):
    """Database values as a test reads them: UUID blobs become lower-case strings."""
    if isinstance(value, bytes) and len(value) == 16:
        return str(uuid.UUID(bytes=value))
    if isinstance(value, str) and re.fullmatch(r"[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}", value):
        return value.lower()
    return value


class DevTools:
    """A DevTools protocol connection to the whole browser, beside chromedriver's own.

    Commands can go to any target through flat sessions (`session`), and events are kept so a
    test can wait for one. Emulation set through a session lasts while the session is attached,
    so sessions are kept until `close`.
    """

    def __init__(self, debugger_address):
        with urllib.request.urlopen("http://%s/json/version" % debugger_address, timeout=10) as answer:
            endpoint = json.loads(answer.read())["webSocketDebuggerUrl"]
        # No Origin header: Chromium refuses DevTools websockets from web origins it was not told of.
        self._socket = websocket.create_connection(endpoint, suppress_origin=True, timeout=None)
        self._next_id = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self._replies = {}
        self._events = []
        self._closed = False
        self._reader = threading.Thread(target=self._read, name="devtools-reader", daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            try:
                text = self._socket.recv()
            except Exception:  # the browser went away or we closed the socket
                break
            if not text:
                break
            message = json.loads(text)
            with self._changed:
                if "id" in message:
                    self._replies[message["id"]] = message
                else:
                    self._events.append(message)
                self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def send(self, method, params=None, session=None, timeout=15):
        with self._lock:
            self._next_id += 1
            number = self._next_id
            message = {"id": number, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            self._socket.send(json.dumps(message))
        with self._changed:
            if not self._changed.wait_for(lambda: number in self._replies or self._closed, timeout):
                raise TimeoutError("DevTools %s got no answer within %s s" % (method, timeout))
            if number not in self._replies:
                raise RuntimeError("the DevTools connection closed during %s" % method)
            reply = self._replies.pop(number)
        if "error" in reply:
            raise RuntimeError("DevTools %s failed: %s" % (method, reply["error"]))
        return reply.get("result", {})

    def events(self, method, session=None):
        with self._changed:
            return [event["params"] for event in self._events
                    if event.get("method") == method and (session is None or event.get("sessionId") == session)]

    def wait_for_event(self, method, predicate, session=None, timeout=15):
        """The params of the first event (past or future) named `method` that satisfies `predicate`."""
        def found():
            for params in self.events(method, session):
                if predicate(params):
                    return params
            return None
        with self._changed:
            if not self._changed.wait_for(lambda: found() is not None or self._closed, timeout):
                raise TimeoutError("no DevTools event %s within %s s" % (method, timeout))
        result = found()
        if result is None:
            raise RuntimeError("the DevTools connection closed while waiting for %s" % method)
        return result

    def targets(self):
        return self.send("Target.getTargets")["targetInfos"]

    def attach(self, target_id):
        return self.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]

    def detach(self, session):
        with contextlib.suppress(Exception):
            self.send("Target.detachFromTarget", {"sessionId": session})

    def close(self):
        with contextlib.suppress(Exception):
            self._socket.close()
        self._reader.join(timeout=5)


# The test seam for push subscriptions. Headless Chromium has no push service, so
# PushManager.subscribe() would fail; this replaces it, on every new document, by one that resolves
# to a PushSubscription-shaped object for a subscription the local push service made. The app then
# sends exactly what a real subscription would give it. What the app asked for (its options) is
# kept in localStorage so a test can check it passed the server's VAPID key.
PUSH_SEAM = r"""
(() => {
  if (typeof PushManager === "undefined") return;
  const given = %s;
  const flag = "momentary-test-push-subscribed";
  const bytes = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) %% 4);
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
  };
  const keyText = (key) => {
    if (key == null || typeof key === "string") return key ?? null;
    const array = new Uint8Array(key.buffer ? key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength) : key);
    return btoa(String.fromCharCode(...array)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const subscription = (options) => ({
    endpoint: given.endpoint,
    expirationTime: null,
    options: options,
    getKey: (name) => (given.keys[name] ? bytes(given.keys[name]) : null),
    toJSON: () => ({ endpoint: given.endpoint, expirationTime: null,
                     keys: { p256dh: given.keys.p256dh, auth: given.keys.auth } }),
    unsubscribe: async () => { localStorage.removeItem(flag); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    options = options || {};
    localStorage.setItem(flag, JSON.stringify({
      userVisibleOnly: options.userVisibleOnly === true,
      applicationServerKey: keyText(options.applicationServerKey) }));
    return subscription(options);
  };
  PushManager.prototype.getSubscription = async function () {
    const stored = localStorage.getItem(flag);
    return stored ? subscription(JSON.parse(stored)) : null;
  };
  PushManager.prototype.permissionState = async function () {
    return Notification.permission === "granted" ? "granted" : Notification.permission === "denied" ? "denied" : "prompt";
  };
})();
"""


class Chromium:
    """Headless Chromium through chromedriver, with a DevTools connection for events and workers.

    `restart()` quits the browser and starts it again on the same profile folder, as a
    participant closing and reopening the browser would; IndexedDB, caches and the service
    worker survive.
    """

    def __init__(self, origin, profile_dir=None, performance_log=False, language="en-GB"):
        self.origin = origin
        # The browser's preferred language: navigator.languages and the Accept-Language header.
        self.language = language
        self.own_profile = profile_dir is None
        self.profile_dir = profile_dir or tempfile.mkdtemp(prefix="momentary-chromium-")
        self.performance_log = performance_log
        self.driver = None
        self.devtools = None
        self.start()

    def start(self):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=%d,%d" % WINDOW, "--no-first-run", "--no-default-browser-check",
                     "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--lang=" + self.language,
                     "--hide-scrollbars",  # phones overlay their scrollbars: the page keeps all 390 px
                     # The sound-level question measures a microphone: Chromium's fake one, no prompt.
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     "--user-data-dir=" + self.profile_dir):
            options.add_argument(flag)
        options.add_experimental_option("prefs", {"intl.accept_languages": self.language})
        if self.performance_log:
            options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        # Naming both binaries keeps Selenium Manager from looking for (and downloading) others.
        self.driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(30)
        address = self.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        self.devtools = DevTools(address.replace("localhost", "127.0.0.1"))
        self._page_session = None
        self._network_sessions = {}
        self._push_seam = None
        self.grant_permissions()
        self.emulate_phone()

    def quit(self):
        if self.devtools:
            self.devtools.close()
            self.devtools = None
        if self.driver:
            with contextlib.suppress(WebDriverException):
                self.driver.quit()
            self.driver = None

    def restart(self):
        self.quit()
        self.start()

    def remove_profile(self):
        if not self.own_profile:
            return
        # Chromium's helper processes may still write a file or two just after quitting.
        for _ in range(20):
            shutil.rmtree(self.profile_dir, ignore_errors=True)
            if not os.path.exists(self.profile_dir):
                return
            time.sleep(0.25)

    # ---- permissions, the push seam, site data ---------------------------------------------

    def grant_permissions(self):
        # "notifications" is what Notification.requestPermission() asks for; geolocation and the
        # microphone serve the location and sound-level questions.
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": self.origin, "permissions": ["notifications", "geolocation", "audioCapture"]})

    def emulate_phone(self):
        """A 390×844 viewport: headless windows are at least 500 px wide, so the window size alone cannot.

        Not `mobile: true`: a page wider than the screen would then be zoomed out, which moves
        chromedriver's clicks off their targets; `assert_fits_width` reports such a page instead.
        """
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": 1, "mobile": False})

    def install_push_seam(self, subscription):
        """Makes PushManager.subscribe() resolve to `subscription` (from PushService.subscribe)."""
        given = {"endpoint": subscription["endpoint"], "keys": subscription["keys"]}
        if self._push_seam:  # one seam at a time: an earlier test's subscription must not linger
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self._push_seam})
        self._push_seam = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                                      {"source": PUSH_SEAM % json.dumps(given)})["identifier"]

    def push_seam_request(self):
        """What the app passed to PushManager.subscribe(), or None if it never subscribed."""
        stored = self.driver.execute_script("return localStorage.getItem('momentary-test-push-subscribed')")
        return json.loads(stored) if stored else None

    def clear_site_data(self):
        """Forgets everything the app stored: a new participant on a browser that never saw the app.

        A new tab replaces the old one, as sessionStorage (the join page's draft) lives per tab;
        the origin's IndexedDB, caches, local storage and service worker are cleared.
        """
        old = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        new = self.driver.current_window_handle
        self.driver.switch_to.window(old)
        self.driver.close()
        self.driver.switch_to.window(new)
        if self._page_session:
            self.devtools.detach(self._page_session)
        self._page_session = None
        self._push_seam = None  # it belonged to the closed tab
        self.emulate_network()
        self.driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        self.grant_permissions()  # clearing "all" takes the granted permissions too
        self.emulate_phone()  # a new tab starts at the window's own size

    def set_geolocation(self, latitude, longitude, accuracy=10):
        self.driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                    {"latitude": latitude, "longitude": longitude, "accuracy": accuracy})

    def clear_geolocation(self):
        self.driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})

    # ---- the page and its service worker -----------------------------------------------------

    def page_session(self):
        """A DevTools session on the tab chromedriver drives (its window handle is the target id)."""
        if self._page_session is None:
            self._page_session = self.devtools.attach(self.driver.current_window_handle)
            self.devtools.send("ServiceWorker.enable", session=self._page_session)
        return self._page_session

    def service_worker_registration(self, timeout=20):
        """The registration id of the app's service worker (scope = origin + "/"), once activated."""
        session = self.page_session()
        scope = self.origin + "/"

        def registration_id():
            deleted = set()
            current = None
            for params in self.devtools.events("ServiceWorker.workerRegistrationUpdated", session):
                for registration in params["registrations"]:
                    if registration["scopeURL"] == scope:
                        if registration.get("isDeleted"):
                            deleted.add(registration["registrationId"])
                        else:
                            current = registration["registrationId"]
            if current is None or current in deleted:
                return None
            for params in self.devtools.events("ServiceWorker.workerVersionUpdated", session):
                for version in params["versions"]:
                    if version["registrationId"] == current and version["status"] == "activated":
                        return current
            return None
        return wait_until(registration_id, timeout, "the app's service worker to be activated", interval=0.1)

    def deliver_push(self, payload):
        """Hands a decrypted push message to the app's service worker, as the push service would."""
        registration = self.service_worker_registration()
        data = payload if isinstance(payload, str) else json.dumps(payload)
        self.devtools.send("ServiceWorker.deliverPushMessage",
                           {"origin": self.origin, "registrationId": registration, "data": data},
                           session=self.page_session())

    def notifications(self):
        """The notifications the service worker shows: [{title, body, tag, data}]."""
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.ready
              .then((registration) => registration.getNotifications())
              .then((list) => done(list.map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data}))))
              .catch((error) => done({error: String(error)}));
        """)

    def set_offline(self, offline):
        """Cuts (or restores) the network for the app's pages and its service worker."""
        self.emulate_network(offline=offline)

    def emulate_network(self, offline=False, latency_ms=0):
        """Network conditions for the app's pages and service worker; the default is no emulation.

        Each target is attached once and kept attached, as the emulation ends with its session.
        """
        conditions = {"offline": offline, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1}
        if not offline and not latency_ms:
            for session in self._network_sessions.values():
                with contextlib.suppress(Exception):
                    self.devtools.send("Network.emulateNetworkConditions", conditions, session=session)
                self.devtools.detach(session)
            self._network_sessions = {}
            return
        for target in self.devtools.targets():
            if target["type"] in ("page", "service_worker") and target["url"].startswith(self.origin):
                session = self._network_sessions.get(target["targetId"])
                if session is None:
                    session = self.devtools.attach(target["targetId"])
                    self.devtools.send("Network.enable", session=session)
                    self._network_sessions[target["targetId"]] = session
                self.devtools.send("Network.emulateNetworkConditions", conditions, session=session)


def jpeg_file(driver, path, width=2400, height=1800):
    """Writes a camera-sized JPEG made by the browser's own canvas (no imaging library needed)."""
    data_url = driver.execute_script("""
        const canvas = document.createElement("canvas");
        canvas.width = arguments[0]; canvas.height = arguments[1];
        const context = canvas.getContext("2d");
        const gradient = context.createLinearGradient(0, 0, canvas.width, canvas.height);
        gradient.addColorStop(0, "#2a6f97"); gradient.addColorStop(1, "#f4a261");
        context.fillStyle = gradient;
        context.fillRect(0, 0, canvas.width, canvas.height);
        context.fillStyle = "#ffffff";
        context.font = "200px sans-serif";
        context.fillText("Momentary", 200, canvas.height / 2);
        return canvas.toDataURL("image/jpeg", 0.9);
    """, width, height)
    with open(path, "wb") as file:
        file.write(base64.b64decode(data_url.split(",", 1)[1]))
    return path


SERIOUS = ("serious", "critical")


def axe_check(driver, screen):
    """Runs axe-core on the page; fails listing every serious or critical violation readably."""
    # WebKit holds WebDriver scripts to the page's Content-Security-Policy (Chromium lets them past),
    # and axe-selenium-python's axe-core 3 compiles its rules with `new Function`, which the app's
    # policy refuses; selenium-axe-python's axe-core 4 does not. Chromium keeps axe-core 3 until
    # the researcher website passes axe-core 4 (its rule scrollable-region-focusable fails there).
    module, package = (("axe_selenium_python", "axe-selenium-python") if driver.name == "chrome"
                       else ("selenium_axe_python", "selenium-axe-python"))
    try:
        Axe = __import__(module).Axe  # imported here so the rest runs where it is missing
    except ImportError:
        raise AssertionError("axe-core checks need the Python module %s (python3 -m pip install %s)"
                             % (package, package)) from None

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    violations = [violation for violation in results["violations"] if violation.get("impact") in SERIOUS]
    if violations:
        lines = ["axe-core: %d serious or critical accessibility violation(s) on %s (%s):"
                 % (len(violations), screen, driver.current_url)]
        for violation in violations:
            lines.append("- [%s] %s: %s (%s)" % (violation["impact"], violation["id"], violation["help"],
                                                  violation["helpUrl"]))
            for node in violation["nodes"][:8]:
                lines.append("    at %s: %s" % (" ".join(map(str, node["target"])),
                                                (node.get("failureSummary") or "").replace("\n", " ")))
        raise AssertionError("\n".join(lines))
    return results


def assert_fits_width(driver, screen):
    """Fails when the page scrolls sideways on the phone-sized viewport (a participant would notice)."""
    widths = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if widths[0] > widths[1]:
        wide = driver.execute_script("""
            const limit = document.documentElement.clientWidth;
            return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > limit + 0.5)
              .slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ').join('.') : '')
                + ' (right edge ' + Math.round(e.getBoundingClientRect().right) + ')');
        """)
        raise AssertionError("the %s screen is %d px wide on a %d px screen, so it scrolls sideways; too wide: %s"
                             % (screen, widths[0], widths[1], ", ".join(wide)))
