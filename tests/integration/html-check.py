"""html-check.py: load pages of mpiprof-report html in headless chromium
and check them (t_html.sh).

    html-check.py JS PAGE SHOT.png [PAGE SHOT.png]...

One chromium for all the pages (its start is most of a page's time), each
page in a tab of its own, closed before the next opens. Parses PAGE with
html5lib in strict mode (the HTML5 parsing algorithm: any parse error is
an error of the page) and as XML (the page is
well-formed XML as well as HTML), and checks each inline SVG picture: the
SVG namespace, width, height and viewBox, only elements of the SVG that
the page draws, numbers where coordinates go. Then chromium (--remote-debugging-pipe: the DevTools
protocol over file descriptors 3 and 4, NUL-terminated JSON messages)
loads PAGE from the file system with the network off, collects every
console error, uncaught exception and log entry of level error, measures
the load (navigation start to the end of the load event, the page's script
included), evaluates the JavaScript expression JS and saves a screenshot of
the whole page in SHOT.png (JS empty: none evaluated). Prints one JSON
object a line, a line per PAGE in their order: errors (list of strings; a
page the browser could not load has its reason there), load_ms, svgs,
bytes, value (JS's value). Exit 0 when it ran (the caller checks the
objects), 2 on usage, 3 when chromium cannot be run.
Standard library and html5lib (Debian's python3-html5lib).
"""

import base64
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import html5lib

SVG = "{http://www.w3.org/2000/svg}"
SVG_TAGS = {"svg", "title", "rect", "text", "line", "g", "path"}


def static_errors(path):
    """The page's XML and SVG errors, and its number of SVG pictures."""
    errors = []
    text = open(path, encoding="utf-8").read()
    if not text.startswith("<!DOCTYPE html>\n"):
        errors.append("page: no '<!DOCTYPE html>' first line")
    parser = html5lib.HTMLParser(strict=True)
    try:
        parser.parse(text)
    except html5lib.html5parser.ParseError as e:
        errors.append("page: HTML parse error: %s" % e)
    try:
        root = ET.fromstring(re.sub(r"^<!DOCTYPE html>\n", "", text))
    except ET.ParseError as e:
        return errors + ["page: not well-formed: %s" % e], 0
    svgs = list(root.iter(SVG + "svg"))
    for k, svg in enumerate(svgs):
        for attr in ("width", "height", "viewBox"):
            if not svg.get(attr):
                errors.append("svg %d: no %s" % (k, attr))
        for e in svg.iter():
            if not e.tag.startswith(SVG) or e.tag[len(SVG):] not in SVG_TAGS:
                errors.append("svg %d: element %s" % (k, e.tag))
            for attr in ("x", "y", "width", "height"):
                v = e.get(attr)
                if v is not None and e.tag != SVG + "svg" and not re.fullmatch(r"-?\d+(\.\d+)?", v):
                    errors.append("svg %d: %s=%r" % (k, attr, v))
    return errors, len(svgs)


class Browser:
    """Headless chromium driven over --remote-debugging-pipe."""

    def __init__(self):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            print("html-check.py: no chromium (apt-get install chromium)", file=sys.stderr)
            sys.exit(3)
        self.profile = tempfile.mkdtemp(prefix="html-check.")
        to_child, self.w = os.pipe()
        self.r, from_child = os.pipe()
        # Above 4, so that the shell below may put them on 3 and 4.
        to_child, from_child = [self._high(fd) for fd in (to_child, from_child)]

        # chromium reads fd 3 and writes fd 4: the shell puts the pipes there.
        self.proc = subprocess.Popen(
            ["sh", "-c", 'exec 3<&%d 4>&%d %d<&- %d>&-; exec "$@"' % (to_child, from_child, to_child, from_child),
             "sh", exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-dev-shm-usage", "--proxy-server=127.0.0.1:9",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe", "--window-size=1300,900",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.environ.get("HTML_CHECK_LOG", os.devnull), "w"),
            pass_fds=(to_child, from_child))
        os.close(to_child)
        os.close(from_child)
        self.buf = b""
        self.next_id = 0
        self.events = []

    @staticmethod
    def _high(fd):
        high = fcntl.fcntl(fd, fcntl.F_DUPFD, 5)      # 5 to 9: sh redirects one digit
        os.close(fd)
        return high

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        want = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            msg = self.read(deadline)
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, session, timeout=30):
        deadline = time.time() + timeout
        for k, msg in enumerate(self.events):
            if msg.get("method") == method and msg.get("sessionId") == session:
                return self.events.pop(k)
        while True:
            msg = self.read(deadline)
            if msg.get("method") == method and msg.get("sessionId") == session:
                return msg
            self.events.append(msg)

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def load(b, path, shot, expression):
    """Load PAGE in a new tab of the browser B: its errors, load time and JS's value."""
    target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    try:
        session = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            b.call(domain + ".enable", session=session)
        b.call("Network.enable", session=session)
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": 1300, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=session)
        b.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=session)
        b.wait_event("Page.loadEventFired", session, 60)
        load_ms = b.call("Runtime.evaluate", {
            "expression": "(function(){var n=performance.getEntriesByType('navigation')[0];"
                          "return n.loadEventEnd - n.startTime;})()", "returnByValue": True},
            session=session)["result"]["value"]
        value = None
        if expression:
            r = b.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session)
            if "exceptionDetails" in r:
                b.events.append({"method": "Runtime.exceptionThrown", "params": r, "sessionId": session})
            value = r["result"].get("value")
        png = b.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                     session=session, timeout=60)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        errors = []
        # This tab's events only; the others' (earlier tabs) are dropped.
        mine, b.events = [e for e in b.events if e.get("sessionId") == session], []
        for e in mine:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                errors.append("exception: %s %s" % (d.get("text", ""), d.get("exception", {}).get("description", "")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description")))
                                                                      for a in p.get("args", []))))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                errors.append("log: %s %s" % (p["entry"].get("text"), p["entry"].get("url", "")))
            elif m == "Network.requestWillBeSent" and not p.get("request", {}).get("url", "").startswith(
                    ("file:", "data:", "about:")):
                errors.append("fetched: %s" % p["request"]["url"])
        return errors, load_ms, value
    finally:
        try:
            b.call("Target.closeTarget", {"targetId": target})
        except (OSError, RuntimeError, TimeoutError, EOFError):
            pass                # the browser is gone: the next page says so


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    expression, pairs = argv[0], argv[1:]
    b = Browser()
    try:
        for path, shot in zip(pairs[0::2], pairs[1::2]):
            errors, svgs = static_errors(path)
            try:
                browser_errors, load_ms, value = load(b, path, shot, expression)
            except (OSError, RuntimeError, TimeoutError, EOFError, KeyError, ValueError) as e:
                browser_errors, load_ms, value = ["browser: %s: %s" % (type(e).__name__, e)], 0, None
            print(json.dumps({"errors": errors + browser_errors, "load_ms": load_ms, "svgs": svgs,
                              "bytes": os.path.getsize(path), "value": value}), flush=True)
    finally:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
