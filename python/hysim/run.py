"""A run folder: summary.json, response.csv and results.h5 (docs/outputs.md)."""

import csv
import json
import os

import numpy as np

from .table import Table


def read_csv(path):
    """response.csv as a Table: every number parsed by Python's float (exact: the file has 17
    significant digits)."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [[float(x) for x in row] for row in reader]
    data = np.array(rows, dtype=np.float64).reshape(len(rows), len(header))
    return Table({name: data[:, j].copy() for j, name in enumerate(header)})


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class Run:
    """One run folder, read when it is opened (results.h5 whole, into numpy arrays)."""

    def __init__(self, folder):
        self.folder = os.fspath(folder)
        if not os.path.isdir(self.folder):
            raise FileNotFoundError(f"{self.folder}: not a folder (give the run's output folder)")
        self.summary = self._json("summary.json")
        self.response = read_csv(self._path("response.csv"))
        self.data, self.attrs, self._units, self._names = {}, {}, {}, {}
        self._read_h5(self._path("results.h5"))

    def _path(self, name):
        path = os.path.join(self.folder, name)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: missing (written by `hysim run`; see docs/outputs.md)")
        return path

    def _json(self, name):
        with open(self._path(name)) as f:
            return json.load(f)

    def _read_h5(self, path):
        import h5py  # only here: summary.json and response.csv need numpy alone

        with h5py.File(path, "r") as f:
            self.attrs = {k: self._attr(v) for k, v in f.attrs.items()}

            def visit(name, obj):
                if isinstance(obj, h5py.Dataset):
                    self.data[name] = obj[()]
                    if "units" in obj.attrs:  # one unit, or one per column (recorders)
                        self._units[name] = self._attr(obj.attrs["units"])
                    if "names" in obj.attrs:
                        self._names[name] = [_text(x) for x in obj.attrs["names"]]
                    for key, value in obj.attrs.items():
                        if key not in ("units", "names"):
                            self.attrs[f"{name}/{key}"] = self._attr(value)
                else:
                    for key, value in obj.attrs.items():
                        self.attrs[f"{name}/{key}"] = self._attr(value)

            f.visititems(visit)

    @staticmethod
    def _attr(value):
        if isinstance(value, (bytes, str)):
            return _text(value)
        if isinstance(value, np.ndarray) and value.dtype.kind in "OSU":
            return [_text(x) for x in value]
        if isinstance(value, np.generic):
            return value.item()
        return value

    def __getitem__(self, path):
        """A dataset of results.h5 by its path ("displacement", "springs/force", ...)."""
        try:
            return self.data[path.strip("/")]
        except KeyError:
            raise KeyError(f"no dataset {path!r} in results.h5; it has {', '.join(sorted(self.data))}") from None

    def __contains__(self, path):
        return path.strip("/") in self.data

    def units(self, path):
        """The units of a dataset: a string, or a list of one per column for a recorder."""
        return self._units.get(path.strip("/"), "")

    @property
    def recorders(self):
        """The names of the frame model's recorders (output.recorders), in results.h5 order."""
        return sorted(name.split("/", 1)[1] for name in self.data if name.startswith("recorders/"))

    def recorder(self, name):
        """Recorder `name` as a Table: t and its columns ("n3_ux", "c1_M_i", ...) with their
        units; its response ("disp", "force", ...) is run.attrs["recorders/NAME/response"]."""
        path = f"recorders/{name}"
        if path not in self.data:
            raise KeyError(f"no recorder {name!r} in results.h5; it has {', '.join(self.recorders) or 'none'}")
        values, names, units = self.data[path], self.names(path), self.units(path)
        cols, col_units = {"t": self["time"]}, {"t": self.units("time")}
        for j, column in enumerate(names):
            cols[column] = values[:, j]
            col_units[column] = units[j] if isinstance(units, list) else units
        return Table(cols, col_units)

    def names(self, path):
        """The column names of a dataset (springs, groups, actuators, sites), or d1..dn."""
        path = path.strip("/")
        if path in self._names:
            return list(self._names[path])
        values = self[path]
        return [f"{path.rsplit('/', 1)[-1][0]}{j + 1}" for j in range(values.shape[1])] if values.ndim == 2 else [path]

    @property
    def records(self):
        return len(self.data.get("time", ()))

    def table(self):
        """One row per record: t, ag, d1..dn, v1..vn, a1..an, and the energies."""
        cols, units = {"t": self["time"], "ag": self["ground_acceleration"]}, {}
        units["t"], units["ag"] = self.units("time"), self.units("ground_acceleration")
        for prefix, path in (("d", "displacement"), ("v", "velocity"), ("a", "acceleration")):
            values = self[path]
            for j in range(values.shape[1]):
                cols[f"{prefix}{j + 1}"] = values[:, j]
                units[f"{prefix}{j + 1}"] = self.units(path)
        for name in ("input", "kinetic", "damping", "strain", "experimental", "error_rel"):
            path = f"energy/{name}"
            if path in self:
                cols[f"energy_{name}"] = self[path]
                units[f"energy_{name}"] = self.units(path)
        return Table(cols, units)

    def __repr__(self):
        s = self.summary
        return (f"Run({self.folder!r}: {s.get('name')}, {s.get('status')}, {s.get('steps')} steps, "
                f"{len(self.data)} datasets)")


def load(folder):
    """Opens a run folder (the output folder of `hysim run`)."""
    return Run(folder)
