"""A table of named, equally long numpy columns: what a data frame is for a run, without pandas."""

import numpy as np


class Table:
    """Named columns of equal length, in order. t["d1"] is a column, t.row(k) a dict, len(t)
    the number of rows, t.columns the names, t.array() a rows x columns matrix."""

    def __init__(self, columns, units=None):
        self._columns = {}
        length = None
        for name, values in columns.items():
            values = np.asarray(values)
            if values.ndim != 1:
                raise ValueError(f"column {name!r} is not one-dimensional (shape {values.shape})")
            if length is not None and len(values) != length:
                raise ValueError(f"column {name!r} has {len(values)} rows, the others {length}")
            length = len(values)
            self._columns[name] = values
        self._length = length or 0
        self.units = dict(units or {})

    @property
    def columns(self):
        return list(self._columns)

    def __len__(self):
        return self._length

    def __getitem__(self, name):
        try:
            return self._columns[name]
        except KeyError:
            raise KeyError(f"no column {name!r}; the columns are {', '.join(self._columns)}") from None

    def __contains__(self, name):
        return name in self._columns

    def row(self, k):
        return {name: values[k] for name, values in self._columns.items()}

    def array(self):
        return np.column_stack(list(self._columns.values())) if self._columns else np.empty((0, 0))

    def __repr__(self):
        head = ", ".join(self.columns[:8]) + (", ..." if len(self.columns) > 8 else "")
        return f"Table({len(self)} rows: {head})"
