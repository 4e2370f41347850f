"""The judge <-> program wire format: length-prefixed JSON frames carrying plain builtin values only.

Stdlib only: this file's source is also shipped into the sandbox (to the judge and to the program's server).
Values allowed: None, bool, int (any size), float (nan/inf too), complex, str, bytes, list, tuple, dict, set,
frozenset, nested up to `MAX_DEPTH` and `MAX_ITEMS` in all. `decode` builds them from JSON with exact builtin
types, so no object of the program's classes (say, one whose `__eq__` always returns True) can reach the judge.
"""

import base64
import json
import os
import struct

MAX_FRAME = 16 << 20
MAX_DEPTH = 64
MAX_ITEMS = 1_000_000
TAGS = {"t": tuple, "s": set, "z": frozenset}
_HEX = frozenset("-0123456789abcdefx")


class WireError(Exception):
    """A frame that is malformed, too big, too deep, or holds a value the format does not carry."""


def _pack(value, depth, budget):
    """Plain builtin value -> JSON-able tree (exact builtin types; subclasses are cut down to their base)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise WireError(f"value has more than {MAX_ITEMS} items")
    if depth > MAX_DEPTH:
        raise WireError(f"value is nested deeper than {MAX_DEPTH}")
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        value = int.__index__(value)
        return value if -(1 << 63) < value < (1 << 63) else {"i": hex(value)}
    if isinstance(value, float):
        return {"f": float.hex(float.__float__(value))}
    if isinstance(value, complex):
        return {"c": [float.hex(value.real), float.hex(value.imag)]}
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes | bytearray):
        return {"b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, list):
        return [_pack(v, depth + 1, budget) for v in list.__iter__(value)]
    if isinstance(value, tuple):
        return {"t": [_pack(v, depth + 1, budget) for v in tuple.__iter__(value)]}
    if isinstance(value, frozenset):
        return {"z": [_pack(v, depth + 1, budget) for v in frozenset.__iter__(value)]}
    if isinstance(value, set):
        return {"s": [_pack(v, depth + 1, budget) for v in set.__iter__(value)]}
    if isinstance(value, dict):
        items = dict.items(value)
        return {"d": [[_pack(k, depth + 1, budget), _pack(v, depth + 1, budget)] for k, v in items]}
    raise WireError(f"a value of type {type(value).__name__} cannot be sent (only plain builtin values can)")


def _unpack(node, depth, budget):
    """JSON tree -> value, accepting only the shapes `_pack` produces."""
    budget[0] -= 1
    if budget[0] < 0:
        raise WireError(f"value has more than {MAX_ITEMS} items")
    if depth > MAX_DEPTH:
        raise WireError(f"value is nested deeper than {MAX_DEPTH}")
    kind = type(node)
    if node is None or kind is bool or kind is str or kind is int:
        return node
    if kind is list:
        return [_unpack(v, depth + 1, budget) for v in node]
    if kind is not dict or len(node) != 1:
        raise WireError(f"unexpected {kind.__name__} in frame")
    ((tag, body),) = node.items()
    if tag == "f" and type(body) is str:
        return float.fromhex(body)
    if tag == "i" and type(body) is str and len(body) < (1 << 22) and set(body) <= _HEX:
        return int(body, 16)
    if tag == "c" and type(body) is list and len(body) == 2 and all(type(x) is str for x in body):
        return complex(float.fromhex(body[0]), float.fromhex(body[1]))
    if tag == "b" and type(body) is str:
        return base64.b64decode(body.encode("ascii"), validate=True)
    if tag in TAGS and type(body) is list:
        return TAGS[tag](_unpack(v, depth + 1, budget) for v in body)
    if tag == "d" and type(body) is list:
        out = {}
        for pair in body:
            if type(pair) is not list or len(pair) != 2:
                raise WireError("malformed dict item")
            out[_unpack(pair[0], depth + 1, budget)] = _unpack(pair[1], depth + 1, budget)
        return out
    raise WireError(f"unknown tag {tag!r}")


def encode(value):
    """Value -> JSON bytes (raises WireError for anything but plain builtin values)."""
    return json.dumps(_pack(value, 0, [MAX_ITEMS]), separators=(",", ":")).encode()


def decode(data):
    """JSON bytes -> value with exact builtin types (raises WireError on anything unexpected)."""
    if len(data) > MAX_FRAME:
        raise WireError(f"frame of {len(data)} bytes exceeds {MAX_FRAME}")
    try:
        tree = json.loads(data)
        return _unpack(tree, 0, [MAX_ITEMS])
    except WireError:
        raise
    except (ValueError, TypeError, RecursionError, OverflowError, MemoryError) as exc:
        raise WireError(f"undecodable frame: {type(exc).__name__}: {str(exc)[:200]}") from None


def send(fd, value):
    """Write one frame holding `value`."""
    data = encode(value)
    if len(data) > MAX_FRAME:
        raise WireError(f"frame of {len(data)} bytes exceeds {MAX_FRAME}")
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd, n):
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def recv(fd):
    """Read one frame; None at end of stream. Raises WireError for an oversized or malformed frame."""
    head = _read_exactly(fd, 4)
    if head is None:
        return None
    (size,) = struct.unpack(">I", head)
    if size > MAX_FRAME:
        raise WireError(f"frame of {size} bytes exceeds {MAX_FRAME}")
    data = _read_exactly(fd, size)
    if data is None:
        return None
    return decode(data)
