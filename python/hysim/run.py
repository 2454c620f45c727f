"""A run folder: summary.json, response.csv and results.h5 (docs/outputs.md)."""

import csv
import json
import os
import re

import numpy as np

from .table import Table


# a number as hysim writes it (printf's %.17g: decimal, optional exponent; nan and inf), nothing
# Python's float() accepts beyond that ("1_0" is 10 to float(), "0x1p3", " 5 ", ...)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:nan|inf)", re.IGNORECASE)


def _number(text, path, line, column):
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"{path}:{line}:{column}: {text!r} is not a number (a decimal such as "
                         f"-1.5e-3, or nan or inf)")
    return float(text)


def unique_names(names):
    """Column names made unique as pandas does: a repeated name gets .1, .2, ... in the order the
    columns come ("d1", "d1" -> "d1", "d1.1"), so that no column is dropped."""
    seen, out = set(names), []
    count = {}
    for name in names:
        if name in count:
            k = count[name]
            while f"{name}.{k}" in seen:
                k += 1
            count[name] = k + 1
            name = f"{name}.{k}"
            seen.add(name)
        else:
            count[name] = 1
        out.append(name)
    return out


def read_csv(path):
    """response.csv as a Table: every number parsed by Python's float (exact: the file has 17
    significant digits) after checking that it is written as hysim writes numbers; a repeated
    column name is kept as name.1, name.2, ... (unique_names)."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = []
        for row in reader:
            if len(row) != len(header):
                raise ValueError(f"{path}:{reader.line_num}: {len(row)} values, the header has "
                                 f"{len(header)} columns")
            col, values = 1, []
            for x in row:
                values.append(_number(x, path, reader.line_num, col))
                col += len(x) + 1
            rows.append(values)
    data = np.array(rows, dtype=np.float64).reshape(len(rows), len(header))
    return Table({name: data[:, j].copy() for j, name in enumerate(unique_names(header))})


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
        self.texts = {}  # the string datasets of results.h5 (trace/effective, trace/texts)
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
                if isinstance(obj, h5py.Dataset) and obj.dtype.kind in "OSU":  # /trace's texts
                    value = obj[()]
                    self.texts[name] = [_text(x) for x in value] if obj.ndim else _text(value)
                elif isinstance(obj, h5py.Dataset):
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
        for j, column in enumerate(unique_names(["t"] + names)[1:]):
            cols[column] = values[:, j]
            col_units[column] = units[j] if isinstance(units, list) else units
        return Table(cols, col_units)

    def names(self, path):
        """The column names of a dataset: the DOFs' of displacement, velocity and acceleration
        (dof_names), the springs', groups', actuators', sites' and recorders' columns; a dataset
        without names (a file of an earlier hysim) gets d1..dn, v1.., a1.. by position."""
        path = path.strip("/")
        if path in self._names:
            return list(self._names[path])
        values = self[path]
        return [f"{path.rsplit('/', 1)[-1][0]}{j + 1}" for j in range(values.shape[1])] if values.ndim == 2 else [path]

    @property
    def dof_names(self):
        """The DOFs' names in column order (docs/outputs.md, "DOF names"): a frame's node and
        direction ("n3_ux", "n3_rz"), a shear building's floors ("floor1", ...), else "d1", ...
        A file of an earlier hysim (no names) gives d1..dn."""
        if "displacement" in self._names:
            return list(self._names["displacement"])
        return self.response.columns[1:]

    @property
    def trace(self):
        """What the run was made from and by (summary.json's "trace", docs/outputs.md "Trace"):
        version, build, host, start, end, overrides, effective, inputs (role, path, size,
        sha256), accepted_warnings; {} for a run of an earlier hysim."""
        return self.summary.get("trace", {})

    def input_text(self, path):
        """The text of an input results.h5 embeds (the test file, the Tcl scripts) by its path as
        the trace lists it."""
        paths = self.attrs.get("trace/input_paths", [])
        texts = self.texts.get("trace/texts", [])
        for p, text in zip(paths, texts):
            if p == path and text:
                return text
        raise KeyError(f"results.h5 embeds no text of {path!r}; it embeds "
                       f"{', '.join(p for p, t in zip(paths, texts) if t) or 'none'}")

    @property
    def records(self):
        return len(self.data.get("time", ()))

    def table(self):
        """One row per record: t, ag, the displacements, velocities and accelerations of the DOFs
        (d_NAME, v_NAME, a_NAME by the DOFs' names: d_n3_ux, v_floor2; a file without names
        d1..dn, v1..vn, a1..an), and the energies."""
        cols, units = {"t": self["time"], "ag": self["ground_acceleration"]}, {}
        units["t"], units["ag"] = self.units("time"), self.units("ground_acceleration")
        named = "displacement" in self._names
        for prefix, path in (("d", "displacement"), ("v", "velocity"), ("a", "acceleration")):
            values = self[path]
            names = self.names(path)
            for j in range(values.shape[1]):
                column = f"{prefix}_{names[j]}" if named else f"{prefix}{j + 1}"
                cols[column] = values[:, j]
                units[column] = self.units(path)
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
