#!/usr/bin/python3
"""An independent implementation of the RTHS benchmark (Silva, Gomez, Maghareh, Dyke and Spencer
2020) written from its package's files, for tests/test_rths_package.c. It shares no code with
hysim: the structure is read from the package's own "Building cases/Case_1.mat", the plant is
built from the blocks of vRTHS_MDOF_SimRT_PI.slx, the reference comes from scipy.signal.lsim and
the criteria from F4_evaluation_PI.m.

Input: one JSON object as the first argument, or on stdin (record, dt, g, scale, lead, trail, rate, package, plants, comps);
output: one line per run, "PLANT COMP J1 J2 ... J9" (J1 in ms) or "PLANT COMP failed K" (the
sample at which the actuator force reached 8900 N). Exit 77 (skip) without numpy or scipy.
"""
import json
import math
import os
import sys

try:
    import numpy as np
    import scipy.io
    import scipy.linalg
    import scipy.signal
except ImportError as e:  # the test reports it and skips
    print("rths_package.py: SKIP: %s (Debian: python3-numpy python3-scipy)" % e, file=sys.stderr)
    sys.exit(77)

CAPACITY = 8900.0  # N, F4_evaluation.m:60-62 and Li's saturation block


def ground_motion(cfg):
    """F1_input_file.m:114-132 and ElCentroAccelNoScaling.mat: `lead` s of zeros, the record,
    `trail` s of zeros on the record's grid; Simulink's From File interpolates linearly at the
    fixed step 1/rate, from 0 to the end time."""
    acc = np.loadtxt(cfg["record"]) * cfg["g"]
    dt = cfg["dt"]
    nl, nt = int(round(cfg["lead"] / dt)), int(round(cfg["trail"] / dt))
    rec = np.concatenate([np.zeros(nl), acc, np.zeros(nt)])
    t_rec = dt * np.arange(len(rec))
    t = np.arange(int(math.floor(t_rec[-1] * cfg["rate"] + 1e-9)) + 1) / cfg["rate"]
    return t, cfg["scale"] * np.interp(t, t_rec, rec)


def plant_matrices(p, h):
    """The block "CONTROL PLANT" of vRTHS_MDOF_SimRT_PI.slx: Gain3 (gain) on the command minus
    the measured displacement into the servo-valve a1_beta0 / (s^2 + beta1 s + beta2), whose
    output minus a2 times the displacement's derivative goes through 1 / (s + a3) to the force,
    which drives the specimen 1 / (m_e s^2 + c_e s + k_e) (F1_input_file.m:23-32, 76-100).
    States: w (valve output / a1_beta0), w', f, x, x'. Zero-order hold at h (the controller's
    output is held over the step)."""
    me, ke, ce = p["me"], p["ke"], p["ce"]
    A = np.array([
        [0.0, 1.0, 0.0, 0.0, 0.0],
        [-p["b2"], -p["b1"], 0.0, -1.0, 0.0],
        [p["a1b0"], 0.0, -p["a3"], 0.0, -p["a2"]],
        [0.0, 0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 1.0 / me, -ke / me, -ce / me],
    ])
    B = np.array([0.0, p["gain"], 0.0, 0.0, 0.0])
    # check against G_plant = gain * feedback(Gs * G0, 1), G0 = feedback(Ga * Gest, a2 s)
    s = 2j * math.pi * 5.0
    gs = p["a1b0"] / (s * s + p["b1"] * s + p["b2"])
    gest = 1.0 / (me * s * s + ce * s + ke)
    g0 = (gest / (s + p["a3"])) / (1.0 + gest / (s + p["a3"]) * p["a2"] * s)
    g_tf = p["gain"] * gs * g0 / (1.0 + gs * g0)
    g_ss = np.linalg.solve(s * np.eye(5) - A, B)[3]
    assert abs(g_ss - g_tf) < 1e-9 * abs(g_tf), (g_ss, g_tf)
    aug = np.zeros((6, 6))
    aug[:5, :5], aug[:5, 5] = A * h, B * h
    bal, T = scipy.linalg.matrix_balance(aug, permute=False, separate=False)
    E = T @ scipy.linalg.expm(bal) @ np.linalg.inv(T)
    return E[:5, :5], E[:5, 5]


def floor_matrices(M, C, K):
    """F1_input_file.m:40-47: A_ns = [0 I; -M\\K -M\\C], B_ns = [0 0; -(M\\Mr) iota -inv(M)] for the
    inputs [ag; f] (the force on floor 1 only: the Mux of the substructure's block)."""
    n = M.shape[0]
    Mi = np.linalg.inv(M)
    A = np.block([[np.zeros((n, n)), np.eye(n)], [-Mi @ K, -Mi @ C]])
    return A, Mi


def ode4_maps(A, b_ag, b_f, h):
    """Simulink's ode4 (classical Runge-Kutta) over one step for q' = A q + b_ag ag(t) + b_f f,
    ag linear over the step, f held: q+ = Phi q + G0 ag0 + G1 ag1 + Gf f (linear in each)."""
    def step(q, a0, a1, f):
        am = 0.5 * (a0 + a1)
        k1 = A @ q + b_ag * a0 + b_f * f
        k2 = A @ (q + 0.5 * h * k1) + b_ag * am + b_f * f
        k3 = A @ (q + 0.5 * h * k2) + b_ag * am + b_f * f
        k4 = A @ (q + h * k3) + b_ag * a1 + b_f * f
        return q + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    n = A.shape[0]
    z = np.zeros(n)
    Phi = np.column_stack([step(np.eye(n)[:, j], 0, 0, 0) for j in range(n)])
    return Phi, step(z, 1, 0, 0), step(z, 0, 1, 0), step(z, 0, 0, 1)


class Compensator:
    """hysim's compensators from their papers (docs/compensation.md), in mm:
    polynomial (Horiuchi et al. 1999, the Lagrange cubic through four samples, r ahead), inverse
    and adaptive inverse (Chen and Ricles 2010, eq. 1-3, TI from the areas of eq. 3b-3c)."""

    def __init__(self, kind, opts, h):
        self.kind, self.o, self.h = kind, opts, h
        self.hist = [0.0, 0.0, 0.0]  # x_t(k-1), x_t(k-2), x_t(k-3)
        self.area = self.tarea = self.integral = 0.0
        self.last = None

    def tick(self, xt, xm):
        prev = self.hist[0]
        if self.kind == "none":
            xc = xt
        elif self.kind == "polynomial":
            r = self.o["delay"]
            w = [(r + 1) * (r + 2) * (r + 3) / 6, -r * (r + 2) * (r + 3) / 2,
                 r * (r + 1) * (r + 3) / 2, -r * (r + 1) * (r + 2) / 6]
            xc = w[0] * xt + w[1] * self.hist[0] + w[2] * self.hist[1] + w[3] * self.hist[2]
        elif self.kind == "inverse":
            a = max(self.o["a_es"], 1.0)
            xc = a * xt - (a - 1) * prev
        else:  # adaptive_inverse
            if self.last is not None:
                c0, m0 = self.last
                self.area += 0.5 * (xt + c0) * (xm - m0)
                self.tarea += 0.5 * (xm + m0) * (xt - c0)
            self.last = (xt, xm)
            ti = 0.5 * (self.area - self.tarea)
            integral = self.integral + ti * self.h
            a = self.o["a_es"] + self.o["kp"] * ti + self.o["ki"] * integral
            if a < 1.0:  # the clamp a_min = 1, without winding up
                a = 1.0
                if ti < 0:
                    integral = self.integral
            self.integral = integral
            xc = a * xt - (a - 1) * prev
        self.hist = [xt] + self.hist[:2]
        return xc


def hybrid_run(t, ag, M, Cr, Kr, p, comp, h):
    """vRTHS_MDOF_SimRT_PI.slx at the fixed step h: at t_k the controller reads x_t (floor 1 of
    the numerical substructure) and x_m and sends u, held; the substructure takes the force of
    t_k-1 (block "Unit Delay1"); f = m_e x'' + c_e x' + k_e x is the actuator's force."""
    n = M.shape[0]
    ME = np.zeros((n, n)); ME[0, 0] = p["me"]
    KE = np.zeros((n, n)); KE[0, 0] = p["ke"]
    CE = np.zeros((n, n)); CE[0, 0] = p["ce"]
    MN, KN, CN = M - ME, Kr - KE, Cr - CE  # F1_input_file.m:35-38
    A, MNi = floor_matrices(MN, CN, KN)
    iota = np.ones(n)
    b_ag = np.concatenate([np.zeros(n), -(MNi @ M) @ iota])
    b_f = np.concatenate([np.zeros(n), -MNi[:, 0]])
    Phi, G0, G1, Gf = ode4_maps(A, b_ag, b_f, h)
    Pp, Gp = plant_matrices(p, h)
    q, s, f_del = np.zeros(2 * n), np.zeros(5), 0.0
    N = len(t)
    xt_h, xm_h, y_h = np.zeros(N), np.zeros(N), np.zeros((N, n))
    for k in range(N):
        xt, xm, f = q[0], s[3], s[2]
        xt_h[k], xm_h[k], y_h[k] = xt, xm, q[:n]
        if not abs(f) < CAPACITY:
            return None, k
        if k + 1 == N:
            break
        u = comp.tick(1e3 * xt, 1e3 * xm) / 1e3
        q = Phi @ q + G0 * ag[k] + G1 * ag[k + 1] + Gf * f_del
        s = Pp @ s + Gp * u
        f_del = f
    return (xt_h, xm_h, y_h), N


def mround(v):
    """MATLAB's round: halves away from zero (numpy's round goes to even)."""
    return math.copysign(math.floor(abs(v) + 0.5), v)


def criteria(xt, xm, y, yref, h):
    """F4_evaluation_PI.m:11-39, X_m the measured, Num_resp the numerical substructure, Ref_Resp
    the reference."""
    r1 = [np.corrcoef(xm[jj - 1:], xt[:len(xt) - jj + 1])[0, 1] for jj in range(1, 51)]
    I = int(np.argmax(r1)) + 1  # MATLAB's max: the first largest
    std = lambda v: np.std(v, ddof=1)
    peak = lambda v: np.max(np.abs(v))
    J = [mround(10000 * (I - 1) * h) / 10,  # ms
         mround(10000 * std(xm - xt) / std(xt)) / 100,
         mround(10000 * peak(xm - xt) / peak(xt)) / 100,
         mround(10000 * std(xm - yref[:, 0]) / std(yref[:, 0])) / 100,
         mround(10000 * peak(xm - yref[:, 0]) / peak(yref[:, 0])) / 100,
         mround(10000 * std(y[:, 1] - yref[:, 1]) / std(yref[:, 1])) / 100,
         mround(10000 * std(y[:, 2] - yref[:, 2]) / std(yref[:, 2])) / 100,
         mround(10000 * peak(y[:, 1] - yref[:, 1]) / peak(yref[:, 1])) / 100,
         mround(10000 * peak(y[:, 2] - yref[:, 2]) / peak(yref[:, 2])) / 100]
    return J


def main():
    cfg = json.loads(sys.argv[1]) if len(sys.argv) > 1 else json.load(sys.stdin)
    case = scipy.io.loadmat(os.path.join(cfg["package"], "Building cases", "Case_1.mat"))
    M, K, C = case["M"], case["K"], case["C"]
    n = M.shape[0]
    t, ag = ground_motion(cfg)
    h = 1.0 / cfg["rate"]
    # the reference: Ref_Resp = lsim(sys_r, EQ_input, t) (F3_simulation_PI.m:10), sys_r the whole
    # frame with the load -iota ag; lsim interpolates the input linearly between the samples
    A, Mi = floor_matrices(M, C, K)
    B = np.concatenate([np.zeros(n), -np.ones(n)]).reshape(-1, 1)
    sys_r = scipy.signal.StateSpace(A, B, np.hstack([np.eye(n), np.zeros((n, n))]),
                                    np.zeros((n, 1)))
    _, yref, _ = scipy.signal.lsim(sys_r, ag, t, interp=True)
    for p in cfg["plants"]:
        p = dict(p)
        p["ce"] = 2 * 0.0097 * p["me"] * math.sqrt(p["ke"] / p["me"])  # F1_input_file.m:32
        for c in cfg["comps"]:
            out, k = hybrid_run(t, ag, M, C, K, p, Compensator(c["type"], c, h), h)
            if out is None:
                print("%s %s failed %d" % (p["name"], c["type"], k), flush=True)
                continue
            J = criteria(out[0], out[1], out[2], yref, h)
            print("%s %s %s" % (p["name"], c["type"], " ".join("%.2f" % j for j in J)),
                  flush=True)


if __name__ == "__main__":
    main()
