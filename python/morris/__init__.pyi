"""Type stubs of the package ``morris`` (the extension module ``morris._morris``)."""

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Protocol, Tuple, TypeVar, Union, overload

if TYPE_CHECKING:
    import numpy

_T = TypeVar("_T")

__version__: str

ValueName = Literal["win", "loss", "draw"]
Flying = Literal["never", "three", "always"]
Removal = Literal["standard", "strict", "lenient"]
Phases = Literal["separate", "lasker"]
FullBoard = Literal["loss", "draw"]
PathArg = Union[str, "os.PathLike[str]"]

class _Bar(Protocol):
    """A tqdm-style progress bar: its ``total`` is set, then ``update(n)`` called."""

    total: Any
    def update(self, n: int) -> Any: ...

ProgressArg = Union[Callable[[int, int], Any], _Bar, None]

class Error(Exception):
    """Everything morris raises: the base class of its errors."""

class BadInputError(Error):
    """What was given is not valid: a variant, a rule value, a sector, a folder, an option."""

class BadPositionError(BadInputError):
    """A position that is malformed, or that no game from the start reaches."""

class BadMoveError(BadInputError):
    """A move that is malformed, or not legal in the position."""

class MissingSectorError(Error, KeyError):
    """A sector needed to answer is not solved (or has no tables).

    The message names the ``morris solve`` (or ``morris tables``) command that fills it. A
    ``KeyError`` too, as chess.syzygy's ``MissingTableError`` is; ``str()`` is the message.
    """

    sector: Optional[str]
    """The sector ``W-B-WF-BF``; ``None`` when the folder holds nothing of the rule set."""
    command: str
    """The command that fills the gap."""

class DamagedFileError(Error):
    """A database or table file is damaged (a checksum fails, it is truncated, ...)."""

    path: str
    """The damaged file."""

class NoDistanceError(Error):
    """A depth was asked of tables held without their depth files (``tables --wdl-only``).

    The value is known (``Database.outcome``, ``Database.analysis``); its depth is not, and none
    is guessed.
    """

    sector: str
    """The sector ``W-B-WF-BF`` held without its depth table."""

def variants() -> List[str]:
    """The names of every variant, in the order of ``morris variants --json``."""

def switches() -> List[Dict[str, Any]]:
    """The rule switches: ``[{"name", "values", "help"}, ...]`` (``full-board`` is the
    keyword ``full_board``)."""

class Variant:
    """A game of the Morris family: a board, its pieces and its rules.

    ``Variant("nine")`` has the default rules; each rule switch is a keyword. Unknown names
    and values raise ``BadInputError``.
    """

    def __init__(
        self,
        name: str = "nine",
        *,
        flying: Optional[Flying] = None,
        removal: Optional[Removal] = None,
        phases: Optional[Phases] = None,
        full_board: Optional[FullBoard] = None,
    ) -> None: ...
    @property
    def name(self) -> str:
        """The variant's name, e.g. ``nine``."""
    @property
    def summary(self) -> str:
        """A one-line description."""
    @property
    def pieces(self) -> int:
        """Pieces per side."""
    @property
    def rules(self) -> Dict[str, str]:
        """The rule switches: ``{"flying", "removal", "phases", "full_board"}``."""
    @property
    def rule_set(self) -> str:
        """The rule-set id, as in database folder names."""
    @property
    def points(self) -> List[str]:
        """The board's points in notation order (ranks from the top, left to right)."""
    @property
    def info(self) -> Dict[str, Any]:
        """The variant as one element of ``morris variants --json``."""
    def start(self) -> "Position":
        """The start position (the empty board, White to move)."""
    def parse(self, text: str) -> "Position":
        """Parses a position in notation (or ``start``); raises ``BadPositionError`` for
        malformed text and for a position no game from the start reaches."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

VariantArg = Union[str, Variant, None]

class Position:
    """A position of a variant with its side to move; ``str(position)`` is its notation."""

    @staticmethod
    def parse(
        text: str,
        variant: VariantArg = None,
        *,
        flying: Optional[Flying] = None,
        removal: Optional[Removal] = None,
        phases: Optional[Phases] = None,
        full_board: Optional[FullBoard] = None,
    ) -> "Position":
        """Parses ``ROWS TURN WHITE_HAND BLACK_HAND`` (or ``start``) of ``variant`` (default
        ``nine``); raises ``BadPositionError``."""
    @staticmethod
    def start(
        variant: VariantArg = None,
        *,
        flying: Optional[Flying] = None,
        removal: Optional[Removal] = None,
        phases: Optional[Phases] = None,
        full_board: Optional[FullBoard] = None,
    ) -> "Position":
        """The start position of ``variant`` (default ``nine``)."""
    @staticmethod
    def from_bits(
        white: int,
        black: int,
        white_hand: int,
        black_hand: int,
        turn: Literal["w", "b"],
        variant: VariantArg = None,
        *,
        flying: Optional[Flying] = None,
        removal: Optional[Removal] = None,
        phases: Optional[Phases] = None,
        full_board: Optional[FullBoard] = None,
    ) -> "Position":
        """The position of bitboards (bit ``i``: the board's point ``i`` in notation order),
        checked as ``parse`` checks text; raises ``BadPositionError``."""
    @property
    def bits(self) -> Tuple[int, int, int, int]:
        """``(white, black, white_hand, black_hand)``: the position as bitboards."""
    @property
    def variant(self) -> Variant:
        """The variant."""
    @property
    def turn(self) -> Literal["w", "b"]:
        """The side to move."""
    @property
    def sector(self) -> str:
        """``W-B-WF-BF``: the mover's pieces on the board, the opponent's, and their hands."""
    def moves(self) -> List["Move"]:
        """The legal moves (``Move``, a ``str`` of the notation), sorted as ``morris moves``
        lists them."""
    def move(self, text: str) -> "Move":
        """The legal move ``text``; raises ``BadMoveError`` when it is not legal here."""
    def play(self, move: str) -> "Position":
        """The position after ``move``; raises ``BadMoveError`` when it is not legal here."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

PositionArg = Union[Position, str]

class Move(str):
    """A legal move: a ``str`` of its notation, with its parts."""

    @property
    def kind(self) -> Literal["place", "slide", "fly"]: ...
    @property
    def from_point(self) -> Optional[str]: ...
    @property
    def to_point(self) -> str: ...
    @property
    def removed(self) -> Optional[str]: ...
    @property
    def bits(self) -> Tuple[int, int, int]: ...

class Probe:
    """A position's value for the side to move, and its depth (plies to the end under
    perfect play; ``None`` for a draw). Unpacks as ``value, depth = probe``."""

    def __init__(self, value: ValueName, depth: Optional[int] = None) -> None: ...
    @property
    def value(self) -> ValueName: ...
    @property
    def depth(self) -> Optional[int]: ...
    def __iter__(self) -> Iterator[Union[str, Optional[int]]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Database:
    """A database or tables folder of one variant and rule set, opened by ``morris.open``.

    Methods release the GIL and may be called from many threads at once.
    """

    @property
    def variant(self) -> Variant: ...
    @property
    def path(self) -> str:
        """The folder as given to ``morris.open``."""
    @property
    def is_tables(self) -> bool:
        """Whether the folder holds compact tables (else sector files)."""
    def sectors(self) -> List[str]:
        """The sectors present, in increasing order."""
    def probe(self, position: PositionArg) -> Probe:
        """The value and depth of a position."""
    @overload
    def get(self, position: PositionArg) -> Optional[Probe]: ...
    @overload
    def get(self, position: PositionArg, default: _T) -> Union[Probe, _T]: ...
    def close(self) -> None:
        """Releases the folder's files and caches; later calls raise ``ValueError``."""
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> "Database": ...
    def __exit__(self, *exc: object) -> bool: ...
    def outcome(self, position: PositionArg) -> ValueName:
        """Win, draw or loss without the depth (from tables, faster)."""
    @overload
    def probe_many(self, positions: "numpy.ndarray", *, errors: Literal["raise", "none"] = "raise") -> Tuple["numpy.ndarray", "numpy.ndarray"]:
        """An ``(N, 5)`` integer array of bitboards (``white, black, white_hand, black_hand,
        turn``: 0 White, 1 Black) gives ``(values, depths)``: int8 (1 win, 0 draw, -1 loss,
        -2 a failed position under ``errors="none"``) and int16 (plies; -1 for draws and
        failures)."""
    @overload
    def probe_many(self, positions: Iterable[PositionArg], *, errors: Literal["raise"] = "raise") -> List[Probe]: ...
    @overload
    def probe_many(self, positions: Iterable[PositionArg], *, errors: Literal["none"]) -> List[Optional[Probe]]: ...
    def analysis(self, position: PositionArg) -> Dict[str, Any]:
        """A dict equal to ``morris query --json``'s answer for the position."""
    def best_move(
        self,
        position: PositionArg,
        *,
        strength: Literal[
            "perfect", "expert", "strong", "advanced", "intermediate", "club", "casual", "novice"
        ] = "perfect",
        seed: Optional[int] = None,
    ) -> Optional[Move]:
        """The move the database plays (as ``GET /api/bestmove`` with the same strength and
        seed); ``None`` when the game is over. ``"perfect"`` keeps the value; the weaker
        levels draw among the solved moves by a softmax over value and depth."""
    def stats(self) -> Dict[str, Any]:
        """The dict ``morris stats --json`` prints for the folder."""

def open(
    path: Union[PathArg, List[PathArg], Tuple[PathArg, ...]],
    variant: VariantArg = None,
    *,
    flying: Optional[Flying] = None,
    removal: Optional[Removal] = None,
    phases: Optional[Phases] = None,
    full_board: Optional[FullBoard] = None,
    cache_bytes: Optional[int] = None,
) -> Database:
    """Opens a database folder or a tables folder of ``variant``; without it, the folder's
    one solved rule set (a folder holding several asks for the variant). Sector files are
    mapped; with ``cache_bytes`` they are read into a cache of that many bytes instead (and
    tables' cache holds that many, 64 MiB by default). A list of folders is read as one, each
    sector from the first folder that holds it."""

def open_files(
    files: Mapping[str, Union[bytes, bytearray, memoryview]],
    variant: VariantArg = None,
    *,
    flying: Optional[Flying] = None,
    removal: Optional[Removal] = None,
    phases: Optional[Phases] = None,
    full_board: Optional[FullBoard] = None,
    cache_bytes: Optional[int] = None,
) -> Database:
    """Opens files held in memory (an app's bundled tables, files fetched over a network)
    instead of a folder: ``files`` maps each file's path inside a database or tables folder
    (``"RULESET/SECTOR.wdl"``) to its bytes. Every block is checked as it is read, through a
    cache of ``cache_bytes`` (64 MiB by default)."""

def stats(
    path: PathArg,
    variant: VariantArg = None,
    *,
    flying: Optional[Flying] = None,
    removal: Optional[Removal] = None,
    phases: Optional[Phases] = None,
    full_board: Optional[FullBoard] = None,
) -> Dict[str, Any]:
    """The dict ``morris stats --json`` prints for a database or tables folder (of its one
    solved rule set when ``variant`` is not given)."""

def solve(
    path: PathArg,
    variant: VariantArg = None,
    *,
    max_pieces: Optional[int] = None,
    sector: Optional[str] = None,
    threads: Optional[int] = None,
    verify: bool = False,
    compact: bool = False,
    progress: ProgressArg = None,
    flying: Optional[Flying] = None,
    removal: Optional[Removal] = None,
    phases: Optional[Phases] = None,
    full_board: Optional[FullBoard] = None,
) -> Dict[str, Any]:
    """Solves into the database folder ``path`` as ``morris solve`` does (``compact=True``:
    as ``morris solve --compact``, ending with tables); returns
    ``{"units", "solved", "already_done", "seconds", "database", "start"}``."""

def verify(
    path: PathArg,
    variant: VariantArg = None,
    *,
    sector: Optional[str] = None,
    max_faults: int = 20,
    resume: bool = False,
    threads: Optional[int] = None,
    progress: ProgressArg = None,
    flying: Optional[Flying] = None,
    removal: Optional[Removal] = None,
    phases: Optional[Phases] = None,
    full_board: Optional[FullBoard] = None,
) -> Dict[str, Any]:
    """Proves a database or tables folder as ``morris verify`` does; returns
    ``{"sound", "sectors", "positions", "children", "fault_count", "faults", "missing",
    "skipped"}``."""
