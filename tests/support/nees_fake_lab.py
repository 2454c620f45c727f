#!/usr/bin/env python3
"""A fake lab speaking the NEES ASCII "LabVIEW plugin" protocol, written from PROTOCOL-NEES.md
(its sections 1-7 and 10-11), not from any implementation: linear springs per control-point DOF
(force = k * displacement, moment = k * rotation), answering like the LBCB Operations Manager or a
LabVIEW plugin. Used by tests/cli/nees.sh to drive hysim's nees:// client.

It binds to 127.0.0.1, prints "PORT <n>" on stdout, serves --max-sessions connections one at a
time and stops by itself (--accept-timeout, --idle-timeout). Every line it reads and writes goes
to --log.

Options (the document's knobs):
  --spring CP,GEOM,KIN,K   a DOF of a control point and its stiffness (repeatable)
  --eol lf|crlf            line end of the replies (the OM answers CR LF)
  --all12                  OM-style 12-value replies (zeros where no spring)
  --format om|exact        numbers like LabVIEW's %E (7 digits, e.g. 5.036049E-1) or repr()
  --labview2               propose answers with the data of every point (no execute)
  --fail-at N              answer the N-th propose (1-based) with the error token
  --fail-on propose|execute
  --error-token NOK|ERROR  NOK (the OM) or ERROR (NEES-SAM)
  --execute-delay S        seconds the execute reply waits (the motion)
  --delay-at N             only the N-th execute waits (default every one)
  --sensors                data replies end with external sensor triplets after an empty
                           field, and a trailing TAB (the 2008 OM's and ExternalSensors' style)
"""
import argparse
import socket
import sys
import time

PTYPES = ("displacement", "rotation", "force", "moment", "external")
KIN = {"force": "displacement", "moment": "rotation"}
REACT = {"displacement": "force", "rotation": "moment"}


def om_number(v):
    """LabVIEW %E with 6 decimals and an unpadded exponent: 5.036049E-1, -3.018108E+2."""
    if v == 0.0:
        return "0.000000E+0"
    s = "%.6E" % v
    mant, exp = s.split("E")
    return "%sE%+d" % (mant, int(exp))


def split(line):
    """Command word up to the first TAB or SPACE (lower case, :suffix dropped); TAB fields, empty
    ones removed."""
    line = line.replace("\0", "").rstrip("\r")
    cmd, rest = line, ""
    for i, ch in enumerate(line):
        if ch in "\t ":
            cmd, rest = line[:i], line[i + 1:]
            break
    cmd = cmd.split(":")[0].lower()
    fields = [f for f in rest.split("\t") if f] if rest else []
    return cmd, fields


class Lab:
    def __init__(self, a):
        self.a = a
        self.k = {}  # (cp, geom, kin) -> k
        self.order = []  # control points in order
        for s in a.spring:
            cp, g, kin, k = s.split(",")
            self.k[(cp, g, kin)] = float(k)
            if cp not in self.order:
                self.order.append(cp)
        self.x = {key: 0.0 for key in self.k}
        self.pending = {}
        self.proposes = 0
        self.executes = 0
        self.eol = "\r\n" if a.eol == "crlf" else "\n"

    def num(self, v):
        return om_number(v) if self.a.format == "om" else repr(float(v))

    def cp_of(self, name):
        if name in self.order:
            return name
        base = name.split(":")[0]
        return base if base in self.order else None

    def triplets(self, cp):
        out = []
        geoms = ("x", "y", "z")
        kins = ("displacement", "rotation")
        for reac in (False, True):
            for kin in kins:
                for g in geoms:
                    key = (cp, g, kin)
                    if key not in self.k and not self.a.all12:
                        continue
                    x = self.x.get(key, 0.0)
                    v = self.k[key] * x if (reac and key in self.k) else (0.0 if reac else x)
                    out += [g, REACT[kin] if reac else kin, self.num(v)]
        if self.a.sensors:
            out += ["", "SP_Left", "external", self.num(0.25), "ME_LC_1X", "external",
                    self.num(-1.5), ""]
        return out

    def reply(self, status, code, fields):
        return "\t".join([status, str(code)] + fields) + self.eol

    def error(self, ident, why):
        return self.reply(self.a.error_token, 1, [ident, why])

    def handle(self, line):
        """Returns (list of reply lines, end session)."""
        cmd, f = split(line)
        ident = f[0] if f else "dummy"
        if cmd == "open-session":
            return [self.reply("OK", 0, [ident, "Open Session Succeeded."])], False
        if cmd == "set-parameter":
            return [self.reply("OK", 0, [ident, "Command ignored. Carry on."])], False
        if cmd == "close-session":
            return [self.reply("OK", 0, [ident, "Close Session Succeeded."])], True
        if cmd == "propose":
            self.proposes += 1
            if self.a.fail_on == "propose" and self.proposes == self.a.fail_at:
                return [self.error(ident, "Propose Declined: beyond Increment.Limit")], False
            cp, new, i = None, {}, 1
            while i < len(f):
                if i + 1 < len(f) and f[i + 1] in PTYPES:
                    if cp is None or i + 2 >= len(f):
                        return [self.error(ident, "malformed propose")], False
                    key = (cp, f[i], f[i + 1])
                    if key not in self.k:
                        return [self.error(ident, "no DOF %s %s at %s" % key[1:] + (cp,))], False
                    new[key] = float(f[i + 2])
                    i += 3
                else:
                    cp = self.cp_of(f[i])
                    if cp is None:
                        return [self.error(ident, "unknown control point " + f[i])], False
                    i += 1
            self.pending.update(new)
            if self.a.labview2:
                self.x.update(self.pending)
                self.pending = {}
                data = []
                for c in self.order:
                    data += [c] + self.triplets(c)
                return [self.reply("OK", 0, [ident] + data)], False
            return [self.reply("OK", 0, [ident, "propose", "Accepted"])], False
        if cmd == "execute":
            self.executes += 1
            if self.a.fail_on == "execute" and self.executes == self.a.fail_at:
                return [self.error(ident, "Actuator interlock: execute aborted")], False
            if self.a.execute_delay > 0 and (self.a.delay_at in (0, self.executes)):
                time.sleep(self.a.execute_delay)
            self.x.update(self.pending)
            self.pending = {}
            return [self.reply("OK", 0, [ident, "execute", "Done"])], False
        if cmd == "get-control-point":
            if not f:
                return [self.error("dummy", "no control point")], False
            names = f if self.cp_of(f[0]) else f[1:]
            ident = "dummy" if self.cp_of(f[0]) else ident
            out = [self.reply("OK", 0, [ident, n] + self.triplets(self.cp_of(n)))
                   for n in names if self.cp_of(n)]
            return (out or [self.error(ident, "no control point named")]), False
        return [self.error(ident, "Unknown command " + cmd)], False


def serve(a, log):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", a.port))
    srv.listen(1)
    print("PORT %d" % srv.getsockname()[1], flush=True)
    srv.settimeout(a.accept_timeout)
    for _ in range(a.max_sessions):
        try:
            conn, _peer = srv.accept()
        except socket.timeout:
            log.write("no client within %g s: stopping\n" % a.accept_timeout)
            return 0
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.settimeout(a.idle_timeout)
        lab, buf, done = Lab(a), b"", False
        while not done:
            try:
                chunk = conn.recv(65536)
            except socket.timeout:
                log.write("idle for %g s: session ended\n" % a.idle_timeout)
                break
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf and not done:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode("ascii", "replace").replace("\0", "").rstrip("\r")
                if not line:
                    continue
                log.write("C: %r\n" % line)
                replies, done = lab.handle(line)
                for k, r in enumerate(replies):
                    if k:
                        time.sleep(0.05)  # never two lines in one burst
                    log.write("S: %r\n" % r)
                    conn.sendall(r.encode("ascii"))
                log.flush()
        conn.close()
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--spring", action="append", default=[])
    p.add_argument("--eol", choices=("lf", "crlf"), default="crlf")
    p.add_argument("--all12", action="store_true")
    p.add_argument("--format", choices=("om", "exact"), default="om")
    p.add_argument("--labview2", action="store_true")
    p.add_argument("--fail-at", type=int, default=0)
    p.add_argument("--fail-on", choices=("propose", "execute"), default="propose")
    p.add_argument("--error-token", default="NOK")
    p.add_argument("--execute-delay", type=float, default=0.0)
    p.add_argument("--delay-at", type=int, default=0)
    p.add_argument("--sensors", action="store_true")
    p.add_argument("--max-sessions", type=int, default=1)
    p.add_argument("--accept-timeout", type=float, default=30.0)
    p.add_argument("--idle-timeout", type=float, default=30.0)
    p.add_argument("--log", default="-")
    a = p.parse_args()
    if not a.spring:
        a.spring = ["MDL-00-01,x,displacement,1.0"]
    log = sys.stderr if a.log == "-" else open(a.log, "w")
    return serve(a, log)


if __name__ == "__main__":
    sys.exit(main())
