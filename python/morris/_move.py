"""``morris.Move``: a legal move, a ``str`` of its notation that also knows its parts."""


class Move(str):
    """A legal move in notation (``d7``, ``a1-a4``, ``d7xg7``, ``a1-a4xg7``): a ``str`` equal
    to, hashed as and printed as its text, so it goes wherever a move in notation goes
    (``Position.play``, JSON, dict keys), with its parts as attributes:

    - ``kind``: ``"place"``, ``"slide"`` (to an adjacent point) or ``"fly"`` (to any other);
    - ``from_point``: the point left, ``None`` for a placement;
    - ``to_point``: the point placed on or moved to;
    - ``removed``: the opponent's point a closed mill empties, or ``None``;
    - ``bits``: ``(from_bit, to_bit, removed_bit)``, each the set of one point (bit ``i`` is
      the ``i``-th point in notation order, as ``Position.bits``), 0 where absent.

    Made by ``Position.moves()``, ``Position.move(text)`` and ``Database.best_move``.
    """

    def __new__(cls, text, kind, from_point, to_point, removed, bits):
        move = super().__new__(cls, text)
        move.__dict__.update(
            kind=kind, from_point=from_point, to_point=to_point, removed=removed, bits=bits
        )
        return move

    def __setattr__(self, name, value):
        raise AttributeError(f"a Move is immutable: cannot set {name!r}")

    def __delattr__(self, name):
        raise AttributeError(f"a Move is immutable: cannot delete {name!r}")

    def __reduce__(self):
        d = self.__dict__
        return (
            Move,
            (str(self), d["kind"], d["from_point"], d["to_point"], d["removed"], d["bits"]),
        )

    def __repr__(self):
        return f"Move({str.__repr__(self)})"
