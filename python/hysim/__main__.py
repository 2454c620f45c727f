"""python3 -m hysim DIR: what a run folder holds, read through the module."""

import sys

from . import load


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: python3 -m hysim DIR   (DIR: the output folder of `hysim run`)")
        return 0 if len(argv) == 2 else 2
    try:
        run = load(argv[1])
    except (OSError, KeyError, ValueError) as e:
        print(f"hysim: {e}", file=sys.stderr)
        return 2
    s = run.summary
    print(f"{s['name']}: {s['status']}, {s['steps']} steps of {s['dt']} {s['units']['time']}, "
          f"{s['integrator']}, {run.records} records")
    for path in sorted(run.data):
        shape = " x ".join(str(n) for n in run.data[path].shape)
        units = run.units(path)
        if isinstance(units, list):  # a recorder: one unit per column
            units = ", ".join(dict.fromkeys(u for u in units if u))
        print(f"  {path:32s} {shape:>14s}  {units}")
    peaks = ", ".join(f"{name} {x:.6g}" for name, x in zip(run.dof_names, s["peak_abs_disp"]))
    print(f"peak |d| ({s['units']['length']}): {peaks}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
