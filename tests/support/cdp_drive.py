#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol on a pipe (--remote-debugging-pipe:
NUL-delimited JSON on file descriptors 3 and 4), for the monitor's browser test
(tests/cli/monitor_browser.sh). Standard library only.

Usage: cdp_drive.py CHROMIUM URL TOKEN SCREENSHOT.png SITE_MONITOR_PORT
Prints one line of `key=value` facts it measured, exits 1 with a message when a check fails."""
import base64, json, os, socket, subprocess, sys, tempfile, time


class Browser:
    def __init__(self, chromium, profile):
        to_chrome_r, self.w = os.pipe()
        self.r, from_chrome_w = os.pipe()

        def fds():  # the pipe ends at 3 and 4, whatever numbers they had
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.p = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--remote-debugging-pipe", "--user-data-dir=" + profile,
             "--window-size=1200,900", "about:blank"],
            pass_fds=(3, 4, to_chrome_r, from_chrome_w), preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf, self.next_id, self.session = b"", 0, None

    def call(self, method, params=None, session=True, timeout=20):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        end = time.time() + timeout
        while time.time() < end:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        raise RuntimeError(f"{method}: no answer in {timeout} s")

    def js(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        return r.get("result", {}).get("value")

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def wait_for(b, expr, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = b.js(expr)
        if v:
            return v
        time.sleep(0.2)
    sys.exit(f"cdp_drive: FAIL: {what} (after {timeout} s)")


def site_samples(port, seconds):
    """The samples a site's event stream sends in `seconds` (a plain socket: no HTTP library)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=seconds)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    data, end = b"", time.time() + seconds
    try:
        while time.time() < end:
            sock.settimeout(max(0.05, end - time.time()))
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        pass
    sock.close()
    out = []
    for line in data.decode(errors="replace").splitlines():
        if line.startswith('data: {"step"'):
            out.append(json.loads(line[6:]))
    return out


def eta_of(b):
    t = b.js("document.getElementById('eta').textContent")
    return float(t.split("about ")[1].split(" s")[0]) if t and "about " in t else None


INK = ("(()=>{const c=document.getElementById('h0');if(!c)return 0;const d=c.getContext('2d')"
       ".getImageData(0,0,c.width,c.height).data;let n=0;for(let i=3;i<d.length;i+=4)if(d[i])n++;"
       "return n;})()")
FORCE = ("(()=>{const g=window.hsGraphs&&hsGraphs.force;if(!g)return null;const n=g.numRows();"
         "return [n,g.getValue(n-1,1),document.getElementById('fm0').textContent,"
         "document.getElementById('g_force').textContent.includes('f ('+L.units.force+')'),"
         "document.getElementById('limits').textContent.includes('('+L.units.force+')')];})()")


def step_of(b):
    return b.js("Number(document.getElementById('step').textContent)")


LAST = ("(()=>{const g=window.hsGraphs&&hsGraphs.disp;if(!g)return null;const n=g.numRows();"
        "return [n,g.getValue(n-1,0),g.getValue(n-1,1)];})()")


def main():
    chromium, url, token, shot, site_port = sys.argv[1:6]
    with tempfile.TemporaryDirectory() as profile:
        b = Browser(chromium, profile)
        try:
            target = b.call("Target.createTarget", {"url": url})["targetId"]
            b.session = b.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                               session=False)["sessionId"]
            wait_for(b, "Number(document.getElementById('step').textContent)>0", 20,
                     "the step counter never left 0")
            wait_for(b, LAST + "&&" + LAST + "[0]>2", 10, "nothing plotted")
            step1, last1 = b.js("Number(document.getElementById('step').textContent)"), b.js(LAST)
            time.sleep(1.5)
            step2, last2 = b.js("Number(document.getElementById('step').textContent)"), b.js(LAST)
            if not step2 > step1:
                sys.exit(f"cdp_drive: FAIL: the step counter stood at {step1} -> {step2}")
            if not (last2[1] > last1[1]):
                sys.exit(f"cdp_drive: FAIL: the displacement plot did not advance "
                         f"(last t {last1[1]} -> {last2[1]})")
            nodyg = b.js("!document.getElementById('nodygraph').hidden")
            # force: the table's cell, the force-time plot with its unit, the hysteresis canvas
            force = b.js(FORCE)
            if not force or force[0] < 3 or force[2] in ("", "n/a") or not force[3] or not force[4]:
                sys.exit(f"cdp_drive: FAIL: no measured force on the page: {force}")
            ink = b.js(INK)
            if not ink or ink < 300:
                sys.exit(f"cdp_drive: FAIL: the hysteresis canvas is blank ({ink} pixels drawn)")
            b.call("Emulation.setDeviceMetricsOverride",
                   {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False})
            time.sleep(0.5)
            png = b.call("Page.captureScreenshot", {"format": "png"})["data"]
            with open(shot, "wb") as f:
                f.write(base64.b64decode(png))
            # pause with the token: the step stands, the site holds, and stays with us past its
            # 5 s silence timeout; resume: the steps go on
            b.js(f"document.getElementById('token').value='{token}';"
                 "document.getElementById('pause').click();true")
            wait_for(b, "document.getElementById('status').textContent.startsWith('PAUSED')", 5,
                     "the page never showed the pause")
            held = step_of(b)
            eta_paused = eta_of(b)
            site = site_samples(int(site_port), 6.0)
            hold_shown = b.js("document.getElementById('st0').textContent")
            if hold_shown != "hold":
                sys.exit(f"cdp_drive: FAIL: paused, the page shows the site in '{hold_shown}'")
            if not site:
                sys.exit("cdp_drive: FAIL: the site's stream sent nothing during the pause")
            held_after = step_of(b)
            HOLD = 1 << 3
            if held_after != held:
                sys.exit(f"cdp_drive: FAIL: paused at step {held}, at {held_after} 6 s later")
            if not site[-1]["states"][0] & HOLD:
                sys.exit(f"cdp_drive: FAIL: the site is not holding: states {site[-1]['states']}")
            recent = [smp for smp in site if smp["wall"] >= site[-1]["wall"] - 4.0]
            if len(recent) < 20 or len({smp["step"] for smp in recent}) != 1:
                sys.exit("cdp_drive: FAIL: the site got new targets during the pause")
            b.js("document.getElementById('resume').click();true")
            wait_for(b, f"Number(document.getElementById('step').textContent)>{held}", 20,
                     "the steps did not go on after resume")
            # the ETA leaves the pause out (on main it grew by 6 s x steps left / steps done)
            eta_resumed = eta_of(b)
            if eta_paused is None or eta_resumed is None or eta_resumed > eta_paused + 3.0:
                sys.exit(f"cdp_drive: FAIL: the ETA went from {eta_paused} s before the 6 s pause "
                         f"to {eta_resumed} s after it")
            # abort without the token: refused, the test goes on
            b.js("window.confirm=()=>true;document.getElementById('token').value='';"
                 "document.getElementById('abort').click();true")
            refused = wait_for(b, "(t=>t.includes('refused')&&t)(document.getElementById('msg')"
                               ".textContent)", 20, "abort without the token was not refused")
            step3 = b.js("Number(document.getElementById('step').textContent)")
            time.sleep(0.6)
            step4 = b.js("Number(document.getElementById('step').textContent)")
            if not step4 > step3:
                sys.exit(f"cdp_drive: FAIL: the test stopped after a refused abort ({step3})")
            # with the token: the test ends
            b.js(f"document.getElementById('token').value='{token}';"
                 "document.getElementById('abort').click();true")
            status = wait_for(b, "(t=>t.startsWith('ended')&&t)(document.getElementById('status')"
                              ".textContent)", 15, "the page never saw the end")
            final = b.js("Number(document.getElementById('step').textContent)")
            print(f"paused_at={held} held_6s={held_after} site_samples_last_4s={len(recent)} "
                  f"site_state_bits={site[-1]['states'][0]} "
                  f"steps_seen={step1},{step2},{step3},{step4} plotted_t={last1[1]:.3f},"
                  f"{last2[1]:.3f} plotted_d={last2[2]:.6g} dygraphs_missing={int(bool(nodyg))} "
                  f"refused='{refused.strip()}' final_step={final} status='{status}' "
                  f"force_rows={force[0]} force_cell={force[2]} hysteresis_ink={ink} "
                  f"paused_sites='{hold_shown}' eta={eta_paused},{eta_resumed}")
        finally:
            b.close()


if __name__ == "__main__":
    main()
