"""Results as tables and files: a pandas DataFrame (units in ``df.attrs["units"]``), CSV with a
second header row of units (``pd.read_csv(path, header=[0, 1])`` reads it back), and Parquet
through pyarrow with each column's unit in its field metadata (for long runs: columnar,
compressed, typed); and the units of every series a Result holds."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from ..model.names import signal_units
from ..visual.paths import output_path

FIXED_UNITS = {"energy.kinetic": "J", "energy.potential": "J", "energy.total": "J",
               "power.dissipated": "W"}


def series_units(system) -> dict[str, str]:
    """Unit of every named series of a System's results ("" when unknown): coordinates,
    speeds, inputs and outputs from the components, energies [J], dissipated power [W]."""
    s = system.structure
    units = dict(zip(system.y_names, s.coordinate_units))
    units.update(zip(system.z_names, s.speed_units))
    units.update(signal_units(system))
    units.update(FIXED_UNITS)
    return units



def _pandas():
    try:
        import pandas
    except ImportError as exc:
        raise ImportError("Result.to_pandas needs pandas: pip install 'jourdain[data]' (or pip "
                          "install pandas)") from exc
    return pandas


def to_pandas(result):
    """A DataFrame indexed by time ``t`` [s], one column per series; units in
    ``df.attrs["units"]`` (name → unit string)."""
    pd = _pandas()
    frame = pd.DataFrame(dict(result.series), index=pd.Index(result.t, name="t"))
    frame.attrs["units"] = {"t": "s", **{n: result.units.get(n, "") for n in result.series}}
    return frame


def to_csv(result, path) -> Path:
    """Write ``t`` and every series to CSV: a header row of names and one of units."""
    out = output_path(path, "to_csv", (".csv",), "result.csv")
    names = list(result.series)
    with out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["t"] + names)
        writer.writerow(["s"] + [result.units.get(n, "") for n in names])
        data = np.column_stack([result.t] + [result.series[n] for n in names])
        writer.writerows(data.tolist())
    return out


def to_parquet(result, path) -> Path:
    """Write ``t`` and every series to Parquet (pyarrow), each field's unit in its metadata
    (``pyarrow.parquet.read_schema(path).field(name).metadata[b"unit"]``)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError("Result.to_parquet needs pyarrow: pip install 'jourdain[data]' (or "
                          "pip install pyarrow)") from exc
    out = output_path(path, "to_parquet", (".parquet",), "result.parquet")
    columns = {"t": np.asarray(result.t, dtype=float), **result.series}
    units = {"t": "s", **{n: result.units.get(n, "") for n in result.series}}
    fields = [pa.field(n, pa.float64(), metadata={"unit": units[n]}) for n in columns]
    table = pa.table([pa.array(np.asarray(v, dtype=float)) for v in columns.values()],
                     schema=pa.schema(fields, metadata={"units": json.dumps(units)}))
    pq.write_table(table, out)
    return out
