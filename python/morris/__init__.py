"""Perfect play for the Morris board games, from databases solved by retrograde analysis.

Open a database folder (written by ``morris solve``) or a tables folder (written by
``morris tables``) and ask it about positions::

    import morris
    t = morris.open("tables", "nine")
    t.probe("start")                      # Probe(value='draw', depth=None)
    t.analysis(".../.../.../....../.../.../... w 9 9")   # as `morris query --json`
    t.best_move(p)                        # Move('d6'): a str, with its parts
    t.probe_many(positions)               # in parallel, the GIL released

Everything is the Rust library's, through the extension module ``morris._morris``;
``docs/python.md`` in the repository describes the whole API.
"""

from ._move import Move
from ._morris import (
    BadInputError,
    BadMoveError,
    BadPositionError,
    DamagedFileError,
    Database,
    Error,
    MissingSectorError,
    NoDistanceError,
    Position,
    Probe,
    Variant,
    __version__,
    open,
    open_files,
    solve,
    stats,
    switches,
    variants,
    verify,
)

__all__ = [
    "BadInputError",
    "BadMoveError",
    "BadPositionError",
    "DamagedFileError",
    "Database",
    "Error",
    "MissingSectorError",
    "Move",
    "NoDistanceError",
    "Position",
    "Probe",
    "Variant",
    "__version__",
    "open",
    "open_files",
    "solve",
    "stats",
    "switches",
    "variants",
    "verify",
]
