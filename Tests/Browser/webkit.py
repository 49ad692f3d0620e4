"""WebKit (Safari's engine) for the browser tests: WebKitGTK's MiniBrowser driven by WebKitWebDriver.

- Xvfb: a private X display (MiniBrowser has no headless mode), started from Python so the tests
  run the same from a terminal, under xvfb-run or in CI.
- Gate: a TCP relay in front of the server that can cut the connection. WebKitWebDriver has no
  network emulation, so "offline" here is what a phone in a tunnel sees: the page stays up,
  `navigator.onLine` stays true, and every request fails to connect.
- WebKit: one MiniBrowser session. Automation sessions are ephemeral (nothing is kept on disk), so
  a new session is a browser that never saw the app, and answers cannot outlive closing it.

WebKitGTK has no Web Push (`PushManager` is undefined) and denies notifications in automation
mode; it has no geolocation source here (GeoClue) either, so a position is handed to the page by
the seam below. Its microphone is WebKit's mock capture device.
"""
import os
import selectors
import shutil
import socket
import struct
import subprocess
import threading
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.webkitgtk.service import Service

from harness import WINDOW

WEBDRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER_CANDIDATES = ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                          "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                          "/usr/libexec/webkit2gtk-4.1/MiniBrowser")
XVFB = "Xvfb"


def minibrowser():
    return next((path for path in MINIBROWSER_CANDIDATES if os.access(path, os.X_OK)), None)


def missing():
    """Why WebKit cannot run here (None when it can): the packages to install."""
    absent = []
    if not os.access(WEBDRIVER, os.X_OK):
        absent.append("%s (Debian package webkit2gtk-driver)" % WEBDRIVER)
    if minibrowser() is None:
        absent.append("MiniBrowser (Debian package libwebkit2gtk-4.1-0, which webkit2gtk-driver pulls in)")
    if shutil.which(XVFB) is None:
        absent.append("Xvfb (Debian package xvfb)")
    return "WebKit tests need " + ", ".join(absent) if absent else None


class Xvfb:
    """A virtual X display of its own; `display` is its name (":N")."""

    def __init__(self):
        read, write = os.pipe()
        # -displayfd: Xvfb picks a free display number and writes it once it accepts clients.
        self.process = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                                         "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb exited (%s) without naming its display" % self.process.wait())
        self.display = ":" + number

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Gate:
    """Relays 127.0.0.1:PORT to the server; `close()` cuts every connection and refuses new ones."""

    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.origin = "http://127.0.0.1:%d" % self.port
        self.open = True
        self._connections = set()
        self._lock = threading.Lock()
        self._running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while self._running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                self._reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                self._reset(client)
                continue
            with self._lock:
                self._connections.add((client, upstream))
            threading.Thread(target=self._relay, args=(client, upstream), daemon=True).start()

    def _relay(self, client, upstream):
        selector = selectors.DefaultSelector()
        selector.register(client, selectors.EVENT_READ, upstream)
        selector.register(upstream, selectors.EVENT_READ, client)
        try:
            while True:
                for key, _ in selector.select():
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            pass
        finally:
            selector.close()
            with self._lock:
                self._connections.discard((client, upstream))
            self._reset(client)
            upstream.close()

    @staticmethod
    def _reset(connection):
        # A reset rather than a polite close: the browser sees a failed request, not an empty answer.
        try:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()
        except OSError:
            pass

    def close(self):
        self.open = False
        with self._lock:
            connections = list(self._connections)
        for client, upstream in connections:
            for connection in (client, upstream):
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def reopen(self):
        self.open = True

    def stop(self):
        self._running = False
        self.close()
        self.listener.close()


# Hands the page a position, as GeoClue would on a desktop or a phone's GPS: WebKitGTK has no
# geolocation emulation through WebDriver. It lasts for the current document only.
GEOLOCATION_SEAM = r"""
const coords = {latitude: arguments[0], longitude: arguments[1], accuracy: arguments[2], altitude: null,
                altitudeAccuracy: null, heading: null, speed: null};
const position = () => ({coords, timestamp: Date.now()});
Geolocation.prototype.getCurrentPosition = function (success) { setTimeout(() => success(position()), 0); };
let watches = 0;
Geolocation.prototype.watchPosition = function (success) { setTimeout(() => success(position()), 0); return ++watches; };
Geolocation.prototype.clearWatch = function () {};
"""


class WebKit:
    """MiniBrowser through WebKitWebDriver, on an X display, reaching the server through `gate`.

    Offers what participant.App needs of a browser (`driver`, `origin`, `set_geolocation`) and
    `set_offline`, like harness.Chromium.
    """

    def __init__(self, gate, display):
        self.gate = gate
        self.origin = gate.origin
        self.display = display
        self.driver = None
        self.viewport = None
        self.start()

    def start(self):
        options = webdriver.WebKitGTKOptions()
        options.binary_location = minibrowser()
        options.add_argument("--automation")
        # The sound-level question measures a microphone: WebKit's mock device, no prompt.
        options.add_argument("--enable-mock-capture-devices=true")
        options.add_argument("--enable-media-stream=true")
        environment = dict(os.environ, DISPLAY=self.display, LANG="en_GB.UTF-8",
                           # WebKit's sandbox (bubblewrap) refuses to run as root, as CI does.
                           WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS="1")
        service = Service(executable_path=WEBDRIVER, env=environment)
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(30)
        self.size_window()

    def size_window(self):
        """A 390×844 viewport where the window allows; MiniBrowser's window is at least ~447 px wide.

        The height is corrected for MiniBrowser's toolbar, so the page gets 844 px.
        """
        self.driver.get("about:blank")
        self.driver.set_window_rect(width=WINDOW[0], height=WINDOW[1])
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        if inner[1] != WINDOW[1]:
            rect = self.driver.get_window_rect()
            self.driver.set_window_rect(width=WINDOW[0], height=rect["height"] + WINDOW[1] - inner[1])
            inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        self.viewport = tuple(inner)

    def quit(self):
        if self.driver:
            try:
                self.driver.quit()
            except WebDriverException:
                pass
            self.driver = None

    def restart(self):
        """A new browser: automation sessions keep nothing, so the app's storage starts empty."""
        self.quit()
        self.start()

    def clear_site_data(self):
        self.set_offline(False)
        self.restart()

    def set_offline(self, offline):
        """Cuts (or restores) the connection to the server, for the pages and the service worker alike."""
        if offline:
            self.gate.close()
        else:
            self.gate.reopen()

    def set_geolocation(self, latitude, longitude, accuracy=10):
        self.driver.execute_script(GEOLOCATION_SEAM, latitude, longitude, accuracy)

    def wait_for_service_worker(self, timeout=20):
        """Waits until the app's service worker controls the page (so it opens without a network)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.driver.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
                return
            time.sleep(0.1)
        raise TimeoutError("the app's service worker did not take control of the page within %d s" % timeout)
