#!/usr/bin/env python3
"""A NEES ASCII protocol client in the style of UI-SimCor or OpenFresco's ECLabVIEW, written from
PROTOCOL-NEES.md (sections 3-7, 9, 10), not from any implementation. It connects to a lab,
sends open-session and set-parameter, then per step propose / execute / get-control-point
(LabView1) or propose alone (LabView2, the reply carries the data), then close-session. It checks
what the document says its style needs, and that the lab behaves as linear springs:

  every reply: status OK, code 0, the ID echoed (and the control point, for data replies);
  openfresco style (ECLabVIEW): each reply below 512 bytes, no TAB before the EOL, one line per
    read (its reader would merge two), geom one character and ptype at most 12;
  every data reply: the proposed displacement reported, and force = k * displacement to 1e-12.

Usage: nees_client.py --port P [--style uisimcor|openfresco] [--mode labview1|labview2]
       [--eol lf|crlf] [--steps N] [--amplitude A] [--dofs x:displacement,z:rotation]
       [--k 100,5000] [--beyond VALUE]   (--beyond: first propose a target the lab must decline)
Exit status 0 when every check passed; every line is printed.
"""
import argparse
import math
import socket
import sys
import time


class Fail(Exception):
    pass


def fields(line):
    return [f for f in line.rstrip("\r\n").split("\t") if f]


class Client:
    def __init__(self, a):
        self.a = a
        self.s = socket.create_connection(("127.0.0.1", a.port), timeout=10)
        self.eol = "\r\n" if a.eol == "crlf" else "\n"
        self.buf = b""

    def send(self, line):
        print("C: %r" % line)
        self.s.sendall((line + self.eol).encode("ascii"))

    def read(self):
        """One reply line; in the ECLabVIEW style one read must hold exactly one line."""
        if self.a.style == "openfresco":
            chunk = self.s.recv(4096)
            if not chunk:
                raise Fail("the lab closed the connection")
            text = chunk.decode("ascii")
            if text.count("\n") != 1 or not text.endswith("\n"):
                raise Fail("ECLabVIEW reads one line per read, got %r" % text)
            if len(chunk) >= 512:
                raise Fail("reply of %d bytes: ECLabVIEW's buffer holds 511" % len(chunk))
            if text.endswith("\t\n") or text.endswith("\t\r\n"):
                raise Fail("a TAB before the EOL crashes ECLabVIEW: %r" % text)
            print("S: %r" % text)
            return text
        while b"\n" not in self.buf:
            chunk = self.s.recv(4096)
            if not chunk:
                raise Fail("the lab closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        text = line.decode("ascii") + "\n"
        print("S: %r" % text)
        return text

    def ok(self, ident):
        f = fields(self.read())
        if len(f) < 3 or f[0] != "OK" or f[1] != "0":
            raise Fail("not OK: %r" % f)
        if f[2] != ident:
            raise Fail("ID %r not echoed (got %r)" % (ident, f[2]))
        return f

    def check_data(self, f, cp, target):
        """f: OK 0 ID CP triplets..."""
        if f[3] != cp:
            raise Fail("control point %r not echoed (got %r)" % (cp, f[3]))
        vals = {}
        i = 4
        while i + 2 < len(f):
            g, p, v = f[i], f[i + 1], f[i + 2]
            if self.a.style == "openfresco" and (len(g) != 1 or len(p) > 12):
                raise Fail("ECLabVIEW copies geom into char[2] and ptype into char[13]: %r %r" % (g, p))
            if (g, p) in vals:
                raise Fail("DOF %s %s reported twice" % (g, p))
            vals[(g, p)] = float(v)
            i += 3
        for (g, kin), k, x in zip(self.dofs, self.k, target):
            react = "force" if kin == "displacement" else "moment"
            if (g, kin) not in vals or (g, react) not in vals:
                raise Fail("no %s %s / %s in %r" % (g, kin, react, f))
            if vals[(g, kin)] != x:
                raise Fail("%s %s reported %r, proposed %r" % (g, kin, vals[(g, kin)], x))
            if abs(vals[(g, react)] - k * x) > 1e-12 * abs(k * x) + 1e-300:
                raise Fail("%s %s %r is not k x = %r" % (g, react, vals[(g, react)], k * x))

    def run(self):
        a = self.a
        self.dofs = [tuple(d.split(":")) for d in a.dofs.split(",")]
        self.k = [float(v) for v in a.k.split(",")]
        cp = "MDL-00-01"
        sess = "OpenFresco" if a.style == "openfresco" else "dummyOpenSession"
        self.send("open-session\t" + sess)
        self.ok(sess)
        par = "OPFTransaction" if a.style == "openfresco" else "dummySetParam"
        self.send("set-parameter\t%s\tnstep\t%d" % (par, a.steps))
        self.ok(par)
        fmt = "%.10E" if a.style == "openfresco" else "%.10e"
        if a.beyond is not None:
            g, kin = self.dofs[0]
            self.send("propose\ttransBeyond\t%s\t%s\t%s\t%s" % (cp, g, kin, fmt % a.beyond))
            f = fields(self.read())
            if f[0] == "OK" or f[2] != "transBeyond":
                raise Fail("a target beyond the stroke was not declined: %r" % f)
        for step in range(1, a.steps + 1):
            target = [float(fmt % (a.amplitude * (j + 1) * math.sin(0.7 * step + j)))
                      for j in range(len(self.dofs))]
            tid = ("OPFTransaction2026102601%04d" % step if a.style == "openfresco"
                   else "trans20080720%06d.%02d" % (step, step % 100))
            parts = ["propose", tid, cp]
            for (g, kin), x in zip(self.dofs, target):
                parts += [g, kin, fmt % x]
            self.send("\t".join(parts))
            if a.mode == "labview2":
                self.check_data(self.ok(tid), cp, target)
                continue
            self.ok(tid)
            self.send("execute\t" + tid)
            self.ok(tid)
            gid = tid if a.style == "openfresco" else "dummy"
            self.send("get-control-point\t%s\t%s" % (gid, cp))
            self.check_data(self.ok(gid), cp, target)
        close = "OpenFresco" if a.style == "openfresco" else "dummy"
        self.send("close-session\t" + close)
        self.ok(close)
        print("nees_client: %d steps, every check passed" % a.steps)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--style", choices=("uisimcor", "openfresco"), default="uisimcor")
    p.add_argument("--mode", choices=("labview1", "labview2"), default="labview1")
    p.add_argument("--eol", choices=("lf", "crlf"), default="lf")
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--amplitude", type=float, default=0.01)
    p.add_argument("--dofs", default="x:displacement,z:rotation")
    p.add_argument("--k", default="100,5000")
    p.add_argument("--beyond", type=float)
    a = p.parse_args()
    try:
        Client(a).run()
    except (Fail, OSError, ValueError, IndexError) as e:
        print("nees_client: FAIL: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
