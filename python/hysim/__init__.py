"""Load a hysim run folder into numpy arrays and a small table, without pandas.

    import hysim
    run = hysim.load("runs/two-story")        # summary.json, response.csv, results.h5
    run.summary["status"]                     # summary.json as a dict
    run["displacement"][:, 0]                 # any dataset of results.h5 by its path
    run.units("springs/force")                # its units ("kip"), run.names(...) its columns
    run.dof_names                             # the DOFs' names: ["n3_ux", ...], ["floor1", ...]
    run.response["floor1"]                    # response.csv as a Table of columns (by DOF name)
    run.table()                               # time, ground acceleration, d, v, a, energies

Needs numpy and h5py (Debian: python3-numpy, python3-h5py). docs/python.md describes it.
"""

from .run import Run, Table, load, read_csv, unique_names

__all__ = ["Run", "Table", "load", "read_csv", "unique_names"]
__version__ = "0.1.0"
